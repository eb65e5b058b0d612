"""Every page type, in French and in English: axe-core finds no serious or critical violation
(WCAG 2.1 AA contrast included) on a desktop and on a 360 px wide phone, and no page scrolls
sideways on that phone.

The tournament is the lived-in one of :mod:`tests.scene` (a team event with a timed round in
progress: an amended sheet, a paper sheet, a ruling and a penalty; a club season with the next
tournament taking registrations), so the pages show what they show on the day, not empty
shells.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from tests.scene import ORGANISER, Scene, build_scene

from .helpers import axe_problems, horizontal_overflow, login, widest_elements

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGUAGES = {"fr": "fr-FR", "en": "en-GB"}
PHONE_360 = {"width": 360, "height": 740}
TV = {"width": 1920, "height": 1080}

PUBLIC = [
    ("public home", "/t/{slug}/"),
    ("standings", "/t/{slug}/classement/"),
    ("standings after round 1", "/t/{slug}/classement/?apres=1"),
    ("round results", "/t/{slug}/position/2/"),
    ("player", "/t/{slug}/joueur/{registration}/"),
    ("me", "/t/{slug}/moi/?q={search}"),
    ("TV screen", "/t/{slug}/ecran/?secondes=3600"),  # one page while axe reads it
    ("calculator", "/calculette/"),
    ("table link", "/table/{token}/"),
    ("verify", "/verifier/{verification_code}/"),
    ("verify form", "/verifier/"),
    ("login", "/connexion/"),
    ("club", "/club/{club}/"),
    ("season standings", "/club/{club}/saison/{season}/"),
    ("career", "/club/{club}/joueur/{member}/"),
    ("seat request", "/t/{upcoming}/inscription/"),
]
STAFF = [
    ("tournament list", "/gestion/"),
    ("new tournament", "/gestion/nouveau/"),
    ("archive import", "/gestion/importer/"),
    ("dashboard", "/t/{slug}/gestion/"),
    ("settings", "/t/{slug}/gestion/reglages/"),
    ("players", "/t/{slug}/gestion/joueurs/"),
    ("import", "/t/{slug}/gestion/joueurs/import/"),
    ("referees", "/t/{slug}/gestion/arbitres/"),
    ("round page", "/t/{slug}/gestion/position/2/"),
    ("referee sheet (amended)", "/t/{slug}/gestion/feuille/{amended_table}/"),
    ("referee sheet (paper)", "/t/{slug}/gestion/feuille/{paper_table}/"),
    ("referee sheet (penalty)", "/t/{slug}/gestion/feuille/{penalty_table}/"),
    ("sheet history", "/t/{slug}/gestion/feuille/{amended_table}/historique/"),
    ("player record", "/t/{slug}/gestion/joueurs/{registration}/"),
    ("seat requests", "/t/{upcoming}/gestion/demandes/"),
    ("club list", "/gestion/clubs/"),
    ("club staff", "/gestion/club/{club}/"),
    ("season staff", "/gestion/club/{club}/saison/{season}/"),
]

_DUMP: dict[str, tuple[Path, Scene]] = {}


@pytest.fixture
def scene(tmp_path_factory) -> Scene:
    """The scene, built once per test process and reloaded from its dump for the next tests
    (the live server's tests empty the database after each test)."""
    if "scene" not in _DUMP:
        built = build_scene()
        dump = tmp_path_factory.mktemp("scene") / "scene.json"
        call_command(
            "dumpdata",
            "auth.user",
            "auth.group",
            "tournaments",
            "scoring",
            natural_foreign=True,  # permissions are made again, maybe with new ids, after a flush
            output=str(dump),
            verbosity=0,
        )
        _DUMP["scene"] = (dump, built)
        return built
    dump, built = _DUMP["scene"]
    call_command("loaddata", str(dump), verbosity=0)
    return built


def _visit(context, scene: Scene):
    """Open each page type in turn (public ones first, logged out); yield (name, page)."""
    page = context.new_page()
    values = vars(scene)
    for name, url in PUBLIC:
        page.goto(url.format(**values))
        page.wait_for_load_state("load")
        yield name, page
    login(page, *ORGANISER)
    for name, url in STAFF:
        page.goto(url.format(**values))
        page.wait_for_load_state("load")
        yield name, page


def _context(browser, live_server, locale: str, viewport: dict, **options):
    context = browser.new_context(
        base_url=live_server.url, locale=locale, viewport=viewport, **options
    )
    context.set_default_timeout(15_000)
    return context


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_page_has_no_serious_accessibility_violation(
    scene, browser, live_server, language, shot
):
    context = _context(browser, live_server, LANGUAGES[language], {"width": 1280, "height": 900})
    found = {}
    try:
        for name, page in _visit(context, scene):
            assert page.evaluate("document.documentElement.lang") == language, name
            if name == "TV screen":
                page.set_viewport_size(TV)
            problems = axe_problems(page)
            if problems:
                found[name] = problems
                shot(page, f"{language}-{name}")
            if name == "TV screen":
                page.set_viewport_size({"width": 1280, "height": 900})
    finally:
        context.close()
    assert not found, "\n".join(f"{name}: {problems}" for name, problems in found.items())


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_no_page_scrolls_sideways_on_a_360px_phone(scene, browser, live_server, language, shot):
    context = _context(
        browser,
        live_server,
        LANGUAGES[language],
        PHONE_360,
        screen=PHONE_360,
        is_mobile=True,
        has_touch=True,
    )
    wide, found = {}, {}
    try:
        for name, page in _visit(context, scene):
            problems = axe_problems(page)
            if problems:
                found[name] = problems
            overflow = horizontal_overflow(page)
            width = page.evaluate(
                "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
            )
            if overflow or width[0] > width[1]:
                wide[name] = f"{width[0]}px for {width[1]}px: {widest_elements(page)}"
                shot(page, f"{language}-{name}-360")
            if name == "players":
                # Each check-in button is whole on the screen, not behind a sideways scroll.
                for button in page.locator("table.players button").all():
                    box = button.bounding_box()
                    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, (
                        f"check-in button cut off: {box}"
                    )
            if name == "verify":
                box = page.locator("code").first.bounding_box()
                assert box["x"] + box["width"] <= 360, f"fingerprint does not wrap: {box}"
    finally:
        context.close()
    assert not wide, "\n".join(f"{name}: {detail}" for name, detail in wide.items())
    assert not found, "\n".join(f"{name}: {problems}" for name, problems in found.items())
