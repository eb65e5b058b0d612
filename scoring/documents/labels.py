"""French labels printed on the documents (one place for the PDF and the workbook); their
English wording is in :mod:`.language`.

Printed score sheets are French documents, as the FFT's are; the web pages translate through
Django's catalogue instead.
"""

from .language import tr

# The seats: the fifth seat of a table of five is « Cinquième » (short « 5e »), as on the web
# pages (SEAT_LABELS in tournaments.models). Documents keep the seat as a letter ("5" for the
# fifth, which the fingerprints of signed sheets hold); these are what is printed for it.
SEAT_LETTERS = ("N", "E", "S", "O", "5")  # by seat position (0 = North): the letter documents hold
SEAT_NAMES = {"N": "Nord", "E": "Est", "S": "Sud", "O": "Ouest", "W": "Ouest", "5": "Cinquième"}
SEAT_SHORT = {"N": "N", "E": "E", "S": "S", "O": "O", "W": "O", "5": "5e"}


def seat_short(seat: str) -> str:
    """The seat as printed in a narrow column: N, E, S, O, 5e (N, E, S, W, 5th in English)."""
    short = SEAT_SHORT.get(seat.strip().upper())
    return tr(short) if short else seat


CONTRACTS = {
    "petite": "Petite",
    "prise": "Petite",
    "garde": "Garde",
    "garde_sans": "Garde sans",
    "garde_contre": "Garde contre",
}
CAMPS = {"attack": "Attaque", "defence": "Défense"}
HANDFULS = {"simple": "simple", "double": "double", "triple": "triple"}
METHODS = {"pin": "par code PIN", "paper": "sur papier", "referee": "validée par l'arbitre"}
STATUSES = {
    "open": "En cours de saisie",
    "not_started": "Pas commencée",
    "in_progress": "En cours de saisie",
    "complete": "Complète, à signer",
    "signed": "Signée",
    "amended": "Modifiée après signature",
}
# Staff as printed sheets name them: by their role on the tournament, never by their login.
ROLES = {
    "organiser": "l’organisateur",
    "referee": "l’arbitre",
    "staff": "un membre de l’organisation",
}
# A sheet whose round the referee closed without its signatures (it counts as it stands).
UNSIGNED_AT_CLOSE = "Non signée (position close)"
# A timed round whose time was called before the table's first deal: its players score 0.
TIME_UP_NO_DEAL = "Temps écoulé : aucune donne jouée"
DAYS = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"]
MONTHS = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
]
KINDS = {
    "played": "jouée",
    "passed": "passée",
    "misdeal": "annulée",
    "referee": "arbitre",
    "ruling": "décision",
}
# A misdeal's line on a sheet: not a deal, dealt again by the same dealer.
MISDEAL_LINE = "Donne annulée (mauvaise donne) : redistribuée par le même donneur, non comptée"


def given_by(role: str) -> str:
    """« donnée par l’arbitre » (a penalty), or "" when nobody is named."""
    if not role:
        return ""
    return tr("donnée par {who}", who=tr(ROLES.get(role, ROLES["staff"])))


def played_deals_label(n: int) -> str:
    """« 1 donne jouée », « 3 donnes jouées »."""
    return tr("{n} donne jouée", n=n) if n == 1 else tr("{n} donnes jouées", n=n)


def amendment_title(sheet) -> str:
    """The amendment box says "amended after signature" only when that is what happened: a
    change while signatures stood, or a sheet still waiting to be signed again."""
    if sheet.status == "amended" or any(a.after_signature for a in sheet.amendments):
        return "MODIFIÉE APRÈS SIGNATURE"
    return "INTERVENTIONS DE L'ARBITRE"
