"""Helpers shared by the browser tests (imported by the test modules and the conftest)."""

from __future__ import annotations

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
