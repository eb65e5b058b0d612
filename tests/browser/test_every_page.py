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
    ("halls", "/t/{slug}/gestion/salles/"),
    ("licensee list", "/gestion/licencies/"),
]

# The heading each page opens with (French, English): the page asked for, not an error or
# login page that happens to pass the checks.
HEADINGS = {
    "public home": (
        "Tournoi de démonstration (18 joueurs)",
        "Tournoi de démonstration (18 joueurs)",
    ),
    "standings": ("Classement", "Standings"),
    "standings after round 1": ("Classement — après la position 1", "Standings — after round 1"),
    "round results": ("Position 2", "Round 2"),
    "player": ("Gabriel Morel", "Gabriel Morel"),
    "me": ("Trouver ma table et mes résultats", "Find my table and my results"),
    "TV screen": ("Tournoi de démonstration (18 joueurs)", "Tournoi de démonstration (18 joueurs)"),
    "calculator": ("Calculette", "Score calculator"),
    "table link": ("Position 2 · Table 1", "Round 2 · Table 1"),
    "verify": ("Vérifier une feuille de marque", "Verify a score sheet"),
    "verify form": ("Vérifier une feuille de marque", "Verify a score sheet"),
    "login": ("Connexion organisateurs et arbitres", "Staff login"),
    "club": ("Club de Tarot de Villeurbanne", "Club de Tarot de Villeurbanne"),
    "season standings": (
        "Saison 2026-2027 — classement de la saison",
        "Saison 2026-2027 — season standings",
    ),
    "career": ("Manon Thomas", "Manon Thomas"),
    "seat request": ("Tournoi n° 3", "Tournoi n° 3"),
    "tournament list": ("Mes tournois", "My tournaments"),
    "new tournament": ("Nouveau tournoi", "New tournament"),
    "archive import": ("Importer une archive de tournoi", "Import a tournament archive"),
    "dashboard": ("Tournoi de démonstration (18 joueurs)", "Tournoi de démonstration (18 joueurs)"),
    "settings": (
        "Réglages — Tournoi de démonstration (18 joueurs)",
        "Settings — Tournoi de démonstration (18 joueurs)",
    ),
    "players": ("Joueurs", "Players"),
    "import": ("Importer des joueurs", "Import players"),
    "referees": ("Organisation du tournoi", "Staff of the tournament"),
    "round page": ("Position 2 En jeu", "Round 2 Playing"),
    "referee sheet (amended)": ("Position 2 · Table 1", "Round 2 · Table 1"),
    "referee sheet (paper)": ("Position 2 · Table 2", "Round 2 · Table 2"),
    "referee sheet (penalty)": ("Position 2 · Table 3", "Round 2 · Table 3"),
    "sheet history": (
        "Historique de la feuille — Position 2 · Table 1",
        "History of the sheet — Round 2 · Table 1",
    ),
    "player record": ("Corriger Gabriel Morel", "Correct Gabriel Morel"),
    "seat requests": ("Demandes de place", "Seat requests"),
    "club list": ("Mes clubs", "My clubs"),
    "club staff": ("Club de Tarot de Villeurbanne", "Club de Tarot de Villeurbanne"),
    "season staff": ("Saison 2026-2027", "Saison 2026-2027"),
    "halls": ("Salles", "Halls"),
    "licensee list": ("Liste des licenciés", "Licensee list"),
}

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


def _visit(context, scene: Scene, language: str):
    """Open each page type in turn (public ones first, logged out); yield (name, page) once the
    page answered 200 with its own heading."""
    page = context.new_page()
    values = vars(scene)
    for staff, pages in ((False, PUBLIC), (True, STAFF)):
        if staff:
            login(page, *ORGANISER)
        for name, url in pages:
            response = page.goto(url.format(**values))
            page.wait_for_load_state("load")
            assert response is not None and response.status == 200, (name, response)
            heading = " ".join(page.locator("h1").inner_text().split())
            assert heading == HEADINGS[name][language == "en"], name
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
        for name, page in _visit(context, scene, language):
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
        for name, page in _visit(context, scene, language):
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
