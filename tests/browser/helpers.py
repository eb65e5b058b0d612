"""Helpers shared by the browser tests (imported by the test modules and the conftest)."""

from __future__ import annotations

import time

from django.utils import translation


def fr(message: str) -> str:
    """``message`` as the French UI shows it today (the catalogue may still lack it)."""
    with translation.override("fr"):
        return str(translation.gettext(message))


# A score sheet's table: one row of scores per deal (a narrow screen may add a description row
# above it), and the round totals in the footer after the first (label) cell.
SHEET_DEAL_ROWS = "table.sheet tbody tr:not(.deal-desc):not(.penalty)"
SHEET_TOTALS = "table.sheet tfoot th.num:not(:first-child)"


def horizontal_overflow(page) -> int:
    """How many CSS pixels the page is wider than the screen (0 = no sideways scrolling).

    ``document.documentElement.scrollWidth <= window.innerWidth`` alone is not enough on a
    phone: when a page is too wide, mobile Chrome zooms out and ``innerWidth`` grows with the
    page. The screen's own width (the context's viewport) is the real limit.
    """
    width = page.viewport_size["width"]
    return page.evaluate(
        """(width) => Math.max(0, document.documentElement.scrollWidth
                                  - Math.min(window.innerWidth, width))""",
        width,
    )


def widest_elements(page, limit: int = 5) -> list[str]:
    """The elements that stick out to the right of the screen, to explain an overflow.

    Elements clipped by a scrolling ancestor that itself fits (a ``.table-wrap``) are left out:
    they do not widen the page.
    """
    return page.evaluate(
        """([limit, width]) => {
            const clipped = (el) => {
                for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
                    if (getComputedStyle(a).overflowX !== 'visible'
                        && a.getBoundingClientRect().right <= width + 1) return true;
                }
                return false;
            };
            const out = [];
            for (const el of document.querySelectorAll('body *')) {
                const r = el.getBoundingClientRect();
                if (r.right > width + 1 && r.width > 0 && !clipped(el)) {
                    const cls = typeof el.className === 'string' && el.className.trim()
                        ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
                    const name = el.getAttribute('name') ? `[name=${el.getAttribute('name')}]` : '';
                    out.push(`${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${cls}${name}`
                             + ` right=${Math.round(r.right)}`);
                }
            }
            return out.slice(0, limit);
        }""",
        [limit, page.viewport_size["width"]],
    )


def login(page, username: str, password: str) -> None:
    """Log in through the /connexion/ form, as a person would."""
    page.goto("/connexion/")
    form = page.locator("main form")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=password]").fill(password)
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    assert "/connexion/" not in page.url, "login failed"


# Counts what a person does on a page, as the page itself sees it: every pointerdown is a tap
# (or a click), every keydown a key press; and how far the page was ever scrolled. Kept in
# sessionStorage, so the counts survive the page reloads that follow a save.
INPUT_COUNTER = """
(() => {
  const KEY = 'test-input-counts';
  const read = () => JSON.parse(sessionStorage.getItem(KEY) || '{"taps":0,"keys":0,"scrolled":0}');
  const write = (c) => sessionStorage.setItem(KEY, JSON.stringify(c));
  addEventListener('pointerdown', (e) => { const c = read(); c.taps += 1; write(c); }, true);
  addEventListener('keydown', (e) => { const c = read(); c.keys += 1; write(c); }, true);
  addEventListener('scroll', () => {
    const c = read(); c.scrolled = Math.max(c.scrolled, Math.round(scrollY)); write(c);
  }, true);
})();
"""


def input_counts(page) -> dict:
    """{"taps": n, "keys": n, "scrolled": px} since the counts were last reset."""
    return page.evaluate(
        "JSON.parse(sessionStorage.getItem('test-input-counts') "
        '|| \'{"taps":0,"keys":0,"scrolled":0}\')'
    )


def reset_input_counts(page) -> None:
    page.evaluate("sessionStorage.removeItem('test-input-counts')")


def settles_fully_in_view(page, locator, timeout_s: float = 5.0) -> bool:
    """Whether the element comes to rest entirely inside the screen, without scrolling, within
    ``timeout_s``: a box read while a swap is still laying the page out is read again."""
    deadline = time.monotonic() + timeout_s
    while not fully_in_view(page, locator):
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(100)
    return True


def fully_in_view(page, locator) -> bool:
    """Whether the element is entirely inside the screen as it is now (no scrolling needed)."""
    box = locator.bounding_box()
    view = page.viewport_size
    return bool(
        box
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= view["width"] + 0.5
        and box["y"] + box["height"] <= view["height"] + 0.5
    )


# Every control a finger may need, as the page shows it: links, buttons, summaries, fields, and
# the labels that stand for visually hidden radio buttons and checkboxes.
SMALL_TARGETS = """
(min) => {
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !el.closest('[hidden]');
  };
  const targets = new Set();
  for (const el of document.querySelectorAll(
      'a[href], button, summary, select, textarea, input:not([type=hidden])')) {
    if (el.matches('input[type=radio], input[type=checkbox]')) {
      const label = el.closest('label') || document.querySelector(`label[for="${el.id}"]`);
      if (label) { targets.add(label); continue; }
    }
    targets.add(el);
  }
  const out = [];
  for (const el of targets) {
    if (!visible(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width < min - 0.5 || r.height < min - 0.5) {
      const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim();
      out.push(`${el.tagName.toLowerCase()}${el.name ? '[name=' + el.name + ']' : ''} `
               + `"${text.slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return out;
}
"""


def small_targets(page, minimum: int = 44) -> list[str]:
    """The controls on the page smaller than ``minimum`` × ``minimum`` CSS px."""
    return page.evaluate(SMALL_TARGETS, minimum)


# --- accessibility (axe-core, from the axe-playwright-python wheel) ------------------------------

BLOCKING_IMPACTS = ("serious", "critical")


def axe_problems(page) -> list[str]:
    """Serious and critical axe-core violations of the page as it is now, one line each.

    Text whose contrast axe measured but could not classify (it reports those as "incomplete",
    for example white text on a white button, a 1:1 ratio) counts as a violation too when the
    measured ratio is below the one WCAG 2.1 AA asks for.
    """
    from axe_playwright_python.sync_playwright import Axe

    # A fade in progress is not the contrast a reader gets: let it end first.
    page.wait_for_function(
        "() => document.getAnimations().every((a) => a.playState !== 'running')",
        timeout=5_000,
    )
    results = Axe().run(page, options={"resultTypes": ["violations", "incomplete"]}).response
    problems = []
    for violation in results["violations"]:
        if violation["impact"] in BLOCKING_IMPACTS:
            targets = [" ".join(map(str, node["target"])) for node in violation["nodes"][:5]]
            problems.append(f"{violation['id']} ({violation['impact']}): {targets}")
    for item in results["incomplete"]:
        if item["id"] != "color-contrast":
            continue
        for node in item["nodes"]:
            for check in node.get("any", []):
                data = check.get("data") or {}
                ratio, expected = data.get("contrastRatio"), data.get("expectedContrastRatio")
                if ratio and expected and float(ratio) < float(str(expected).split(":")[0]):
                    problems.append(
                        f"color-contrast (measured {ratio}:1 < {expected}): {node['target']}"
                    )
    return problems
