"""Real-browser tests: Debian's Chromium driven by Playwright against pytest-django's live server.

The whole directory is skipped when ``chromium`` is not installed (CI installs it; a developer's
machine may not have it). Never ``playwright install``: the system browser is used.

Fixtures:

- ``browser``: one headless Chromium per test session (per xdist worker);
- ``page``: a fresh desktop context per test (French browser, base URL = the live server);
- ``phone``: a fresh phone context per test (375 × 740, touch), to be opened with ``new_page()``;
- ``phone_at(width=390, height=844, base_url=None)``: phone contexts of a given size, on the live
  server or another one (the club room's server);
- ``shot``: ``shot(page, "step")`` saves ``test-artifacts/screenshots/<test-name>-<step>.png``.

Pages are read in French (``Accept-Language: fr-FR``), as the club's players would; tests that
compare with a translated string compute it with ``helpers.fr()`` rather than hard-coding it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from pathlib import Path

import pytest

# Playwright's sync API keeps an asyncio loop running in this thread; Django refuses ORM calls
# from a thread with a running loop unless told it is safe (it is: one test at a time).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
CHROMIUM = shutil.which("chromium") or (
    "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
)
SKIP_REASON = "chromium not installed: browser tests skipped"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 15_000
PHONE = {"width": 375, "height": 740}


def pytest_collection_modifyitems(config, items):
    """Skip every test of this directory, with a clear reason, when chromium is missing."""
    if CHROMIUM is not None:
        return
    skip = pytest.mark.skip(reason=SKIP_REASON)
    for item in items:
        if HERE in Path(str(item.path)).resolve().parents:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def playwright_driver():
    if CHROMIUM is None:
        pytest.skip(SKIP_REASON)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright_driver):
    from playwright.sync_api import expect

    expect.set_options(timeout=TIMEOUT_MS)
    browser = playwright_driver.chromium.launch(
        executable_path=CHROMIUM, args=LAUNCH_ARGS, headless=True
    )
    yield browser
    browser.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Remember each phase's report on the test, so fixtures can tell a failed test."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"_report_{report.when}", report)


def _keep_failure_screens(request, context, label: str) -> None:
    """After a failed test, a screenshot of every page still open in the context."""
    report = getattr(request.node, "_report_call", None)
    if report is None or not report.failed:
        return
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name).strip("-")
    for index, page in enumerate(context.pages):
        with contextlib.suppress(Exception):  # a closed or crashed page: nothing to keep
            page.screenshot(path=str(SCREENSHOTS / f"{name}-FAILED-{label}-{index}.png"))


def _context(browser, live_server, **options):
    context = browser.new_context(
        base_url=live_server.url,
        locale="fr-FR",
        accept_downloads=True,
        **options,
    )
    context.set_default_timeout(TIMEOUT_MS)
    context.set_default_navigation_timeout(TIMEOUT_MS)
    return context


@pytest.fixture
def desktop(request, browser, live_server):
    context = _context(browser, live_server, viewport={"width": 1280, "height": 900})
    yield context
    _keep_failure_screens(request, context, "desktop")
    context.close()


@pytest.fixture
def page(desktop):
    """A desktop page in its own context (cookies, session) for this test only."""
    return desktop.new_page()


@pytest.fixture
def phone(request, browser, live_server):
    """A phone's browser context (375 px wide, touch): ``phone.new_page()`` opens a tab."""
    context = _context(
        browser,
        live_server,
        viewport=PHONE,
        screen=PHONE,
        is_mobile=True,
        has_touch=True,
    )
    yield context
    _keep_failure_screens(request, context, "phone")
    context.close()


@pytest.fixture
def shot(request):
    """``shot(page, step)``: a full-page screenshot named after the test and the step."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", request.node.name).strip("-")

    def take(page, step: str) -> Path:
        path = SCREENSHOTS / f"{name}-{re.sub(r'[^A-Za-z0-9_.-]+', '-', step)}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def phone_at(request, browser, live_server):
    """``phone_at(width=390, height=844, base_url=None)``: a phone's browser context of that
    size (touch, mobile), on the live server unless ``base_url`` names another server."""
    contexts = []

    def make(width: int = 390, height: int = 844, base_url: str | None = None, **options):
        size = {"width": width, "height": height}
        context = browser.new_context(
            base_url=base_url or live_server.url,
            locale="fr-FR",
            viewport=size,
            screen=size,
            is_mobile=True,
            has_touch=True,
            **options,
        )
        context.set_default_timeout(TIMEOUT_MS)
        context.set_default_navigation_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context

    yield make
    for index, context in enumerate(contexts):
        _keep_failure_screens(request, context, f"phone{index}")
        context.close()
