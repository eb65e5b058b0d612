// Long downloads (score sheet bundles): show that the document is being prepared, with the time
// elapsed and the bytes received, instead of a tab that seems frozen. Without JavaScript the
// links still work as plain downloads.
(function () {
  "use strict";
  function filename(response, url) {
    var header = response.headers.get("Content-Disposition") || "";
    var match = /filename="?([^";]+)"?/.exec(header);
    return match ? match[1] : url.split("/").pop();
  }
  document.addEventListener("click", function (event) {
    var link = event.target.closest("a[data-download]");
    if (!link || !window.fetch || !window.ReadableStream) return;
    event.preventDefault();
    var status = document.getElementById(link.dataset.download) || link.parentNode;
    var started = Date.now();
    var received = 0;
    var label = link.dataset.preparing || "…";
    status.setAttribute("aria-busy", "true");
    status.hidden = false;
    var timer = setInterval(function () {
      var seconds = Math.round((Date.now() - started) / 1000);
      status.textContent = label + " " + seconds + " s" +
        (received ? " · " + Math.round(received / 1024) + " Ko" : "");
    }, 250);
    fetch(link.href, { credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        var name = filename(response, link.href);
        var reader = response.body.getReader();
        var chunks = [];
        function pump() {
          return reader.read().then(function (part) {
            if (part.done) return new Blob(chunks, { type: response.headers.get("Content-Type") });
            chunks.push(part.value);
            received += part.value.length;
            return pump();
          });
        }
        return pump().then(function (blob) {
          var a = document.createElement("a");
          a.href = URL.createObjectURL(blob);
          a.download = name;
          document.body.appendChild(a);
          a.click();
          setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
          status.textContent = link.dataset.done || "✓";
        });
      })
      .catch(function () {
        status.textContent = link.dataset.failed || "!";
        window.location.href = link.href;  // fall back to the plain download
      })
      .finally(function () {
        clearInterval(timer);
        status.removeAttribute("aria-busy");
      });
  });
})();
