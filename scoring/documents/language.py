"""The language a document is printed in: French (as the FFT's documents are), or English for
whoever asks for it in English.

Documents are written in French; this module holds their English wording, keyed by the
French. The views choose the language (the request's, see ``scoring.sheet_documents``) with
:func:`printed_in`; the documents call :func:`tr` on each fixed text they print. Plain Python:
no Django import (a context variable, so concurrent requests never mix their languages).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_language: ContextVar[str] = ContextVar("document_language", default="fr")

ENGLISH = {
    # Days, months, seats, contracts, camps, handfuls (labels.py).
    "lundi": "Monday",
    "mardi": "Tuesday",
    "mercredi": "Wednesday",
    "jeudi": "Thursday",
    "vendredi": "Friday",
    "samedi": "Saturday",
    "dimanche": "Sunday",
    "janvier": "January",
    "février": "February",
    "mars": "March",
    "avril": "April",
    "mai": "May",
    "juin": "June",
    "juillet": "July",
    "août": "August",
    "septembre": "September",
    "octobre": "October",
    "novembre": "November",
    "décembre": "December",
    "Nord": "North",
    "Est": "East",
    "Sud": "South",
    "Ouest": "West",
    "Cinquième": "Fifth",
    "O": "W",
    "5e": "5th",
    "Petite": "Petite",
    "Garde": "Garde",
    "Garde sans": "Garde sans",
    "Garde contre": "Garde contre",
    "Attaque": "Attack",
    "Défense": "Defence",
    "Attaque, annoncé": "Attack, announced",
    "Annoncé, chuté": "Announced, failed",
    "par code PIN": "with a PIN",
    "sur papier": "on paper",
    "validée par l'arbitre": "confirmed by the referee",
    "En cours de saisie": "Being entered",
    "Pas commencée": "Not started",
    "Complète, à signer": "Complete, to be signed",
    "Signée": "Signed",
    "Modifiée après signature": "Amended after signature",
    "MODIFIÉE APRÈS SIGNATURE": "AMENDED AFTER SIGNATURE",
    "INTERVENTIONS DE L'ARBITRE": "REFEREE'S INTERVENTIONS",
    # Dates and times (pdf/base.py).
    "{weekday} {day} {month} {year}": "{weekday} {month} {day}, {year}",
    "{date} à {time}": "{date} at {time}",
    "Page {n}": "Page {n}",
    # Seating plan and table cards.
    "Placement — {title}": "Seating — {title}",
    "{tournament} · placement de la position {n}": "{tournament} · seating of round {n}",
    "Placement — position {n}": "Seating — round {n}",
    "Aucune table.": "No table.",
    "Liste alphabétique — position {n}": "Alphabetical list — round {n}",
    "Table {n}": "Table {n}",
    "Joueur": "Player",
    "Club": "Club",
    "Table": "Table",
    "Place": "Seat",
    "{tournament} — {date} — position {n}": "{tournament} — {date} — round {n}",
    "Cartes de table — {title}": "Table cards — {title}",
    "découper ici": "cut here",
    "TABLE": "TABLE",
    "POSITION": "ROUND",
    "PLACE": "SEAT",
    "JOUEUR": "PLAYER",
    "Pour signer la feuille, chacun tape le code PIN de sa propre fiche.": (
        "To sign the sheet, each player types the PIN from their own slip."
    ),
    "Saisie des donnes": "Deal entry",
    "Scannez avec un téléphone": "Scan with a phone",
    "Lien privé de la table : ne pas diffuser": "The table's private link: do not share",
    # PIN slips.
    "Codes PIN — {tournament}": "PINs — {tournament}",
    "Aucun joueur.": "No player.",
    "CODE PIN PERSONNEL": "PERSONAL PIN",
    "pour signer vos feuilles — à ne montrer à personne": (
        "to sign your score sheets — show it to nobody"
    ),
    # Score sheets.
    "Feuilles de marque": "Score sheets",
    "Aucune feuille de marque.": "No score sheet.",
    "FEUILLE DE MARQUE": "SCORE SHEET",
    "Feuille de marque — {tournament} — position {n}, table {t}": (
        "Score sheet — {tournament} — round {n}, table {t}"
    ),
    "Feuille de marque : position {n}, table {t}": "Score sheet: round {n}, table {t}",
    "code de vérification {code}": "verification code {code}",
    "Position {n}": "Round {n}",
    "Feuille vierge — à remplir à la main": "Blank sheet — to fill in by hand",
    " · tenue sur papier (bilans reportés)": " · kept on paper (totals copied)",
    " · temps écoulé ({played})": " · time called ({played})",
    "{n} donne jouée": "{n} deal played",
    "{n} donnes jouées": "{n} deals played",
    "Règlement : ": "Rules: ",
    " · Arbitre : {name}": " · Referee: {name}",
    " · État : ": " · Status: ",
    "Licence": "Licence",
    "Vérification de la feuille": "Checking this sheet",
    "Code : {code}": "Code: {code}",
    "Clé du sceau : {key}": "Seal key: {key}",
    "Clé du sceau": "Seal key",
    " · clé du sceau {key}": " · seal key {key}",
    "Empreinte SHA-256 du contenu signé :": "SHA-256 fingerprint of the signed content:",
    "Pas encore d'empreinte : elle est imprimée avec le code de vérification une fois la "
    "feuille signée.": (
        "No fingerprint yet: it is printed with the verification code once the sheet is signed."
    ),
    "le {when} par {who} — motif : {reason}": "on {when} by {who} — reason: {reason}",
    "(détail des modifications non fourni)": "(details of the changes not given)",
    "Arbitre": "Referee",
    "Signé le {when}": "Signed on {when}",
    "par {name}": "by {name}",
    "Signatures — chacun vérifie son bilan et que la somme des bilans est nulle": (
        "Signatures — each player checks their total and that the totals sum to zero"
    ),
    # The deal table.
    "N°": "No.",
    "Donneur": "Dealer",
    "Mort": "Sits out",
    "Preneur": "Taker",
    "Partenaire": "Partner",
    "Contrat": "Contract",
    "Bouts": "Oudlers",
    "Points": "Points",
    "Poignées": "Handfuls",
    "Petit au\nbout": "Petit au\nbout",
    "Chelem": "Slam",
    "Donne": "Deal",
    "Cumul": "Total",
    "seul": "alone",
    "mort": "out",
    "simple": "simple",
    "double": "double",
    "triple": "triple",
    "Donne passée : redistribuée, sans score": "Passed deal: dealt again, no score",
    "Donne annulée (mauvaise donne) : redistribuée par le même donneur, non comptée": (
        "Misdeal: dealt again by the same dealer, not counted"
    ),
    "Décision de l'arbitre : scores fixés par l'arbitre": (
        "Referee's ruling: scores set by the referee"
    ),
    "(motif non précisé)": "(no reason given)",
    "décidée par l'arbitre": "decided by the referee",
    "décision de l'arbitre": "referee's ruling",
    "* Donne {n} {what} — motif : {note}": "* Deal {n} {what} — reason: {note}",
    "Feuille tenue sur papier : les donnes ne sont pas reportées ici, seuls les bilans saisis "
    "par l'arbitre le sont.": (
        "Sheet kept on paper: its deals are not copied here, only the totals the referee entered."
    ),
    "Bilan de la position (total des donnes)": "Round total (sum of the deals)",
    "Contrôle : ∑ des bilans = ____________ (doit être égale à 0)": (
        "Check: ∑ of the totals = ____________ (must be 0)"
    ),
    "Contrôle : ∑ = 0 — correct, la somme des bilans est nulle (pénalités non comprises).": (
        "Check: ∑ = 0 — correct, the totals sum to zero (penalties not included)."
    ),
    "ERREUR : ∑ = {total} ≠ 0 — la somme des bilans doit être nulle. Vérifiez la feuille avant "
    "de la signer.": (
        "ERROR: ∑ = {total} ≠ 0 — the totals must sum to zero. Check the sheet before signing it."
    ),
    "Pénalité (hors contrôle de la somme nulle) — {player} : {reason}": (
        "Penalty (outside the zero-sum check) — {player}: {reason}"
    ),
    "Total après pénalités": "Total after penalties",
    "Donnes jouées": "Deals played",
    # The workbook (xlsx.py).
    "{size} : {player}": "{size}: {player}",
    "Classement": "Standings",
    "Classement final": "Final standings",
    # The rule sets' document labels (scoring.engine.rules): fingerprinted in French, printed
    # in the document's language.
    "FFT (règlement officiel)": "FFT (official rules)",
    "Maison : poignées 20/40/60 (non FFT)": "House rules: handfuls 20/40/60 (not FFT)",
    "l’organisateur": "the organiser",
    "l’arbitre": "the referee",
    "un membre de l’organisation": "a staff member",
    "donnée par {who}": "given by {who}",
    "Classement provisoire": "Provisional standings",
    "Feuilles": "Sheets",
    "Position {n} — Table {t}": "Round {n} — Table {t}",
    "Feuille vierge": "Blank sheet",
    " — tenue sur papier (bilans reportés)": " — kept on paper (totals copied)",
    " — temps écoulé ({played})": " — time called ({played})",
    "Non signée (position close)": "Not signed (round closed)",
    "Temps écoulé : aucune donne jouée": "Time called: no deal played",
    " — motif de l'arbitre : {reason}": " — referee's reason: {reason}",
    "Tournoi": "Tournament",
    "Date": "Date",
    "Lieu": "Place",
    "Position": "Round",
    "Règlement": "Rules",
    "État": "Status",
    "Empreinte SHA-256": "SHA-256 fingerprint",
    "(pas encore signée)": "(not signed yet)",
    "Code de vérification": "Verification code",
    "Vérification en ligne": "Check online",
    "Type": "Kind",
    "Petit au bout": "Petit au bout",
    "Décision de l'arbitre": "Referee's decision",
    "Cumul {head}": "Total {head}",
    "Bilan de la position": "Round total",
    "Contrôle : ∑ des bilans = 0 (pénalités non comprises)": (
        "Check: ∑ of the totals = 0 (penalties not included)"
    ),
    "∑ = ________ (doit être 0)": "∑ = ________ (must be 0)",
    "ERREUR : la somme des bilans n'est pas nulle": "ERROR: the totals do not sum to zero",
    "Pénalité": "Penalty",
    "hors contrôle ∑ = 0": "outside the ∑ = 0 check",
    "Signatures": "Signatures",
    "Signature : ______________________": "Signature: ______________________",
    "Signé {how}, le": "Signed {how}, on",
    "Empreinte SHA-256 : {fp}": "SHA-256 fingerprint: {fp}",
    "(non signée)": "(not signed)",
    "Code de vérification : {code}": "Verification code: {code}",
    "Donne passée, redistribuée": "Passed deal, dealt again",
    "jouée": "played",
    "passée": "passed",
    "annulée": "misdeal",
    "arbitre": "referee",
    "décision": "ruling",
    "Rang": "Rank",
    "Total": "Total",
    "Pénalités": "Penalties",
    "Donnes": "Deals",
}


@contextmanager
def printed_in(language: str | None) -> Iterator[None]:
    """Documents built inside print in ``language`` ("en…" for English, else French)."""
    token = _language.set("en" if (language or "").lower().startswith("en") else "fr")
    try:
        yield
    finally:
        _language.reset(token)


def english() -> bool:
    return _language.get() == "en"


def tr(french: str, **values: object) -> str:
    """The printed text of ``french`` in the document's language, ``values`` filled in."""
    text = ENGLISH.get(french, french) if english() else french
    return text.format(**values) if values else text
