"""French labels printed on the documents (one place for the PDF and the workbook).

Printed score sheets are French documents, as the FFT's are; the web pages translate through
Django's catalogue instead.
"""

SEAT_NAMES = {"N": "Nord", "E": "Est", "S": "Sud", "O": "Ouest", "W": "Ouest", "5": "5e place"}
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
KINDS = {"played": "jouée", "passed": "passée", "referee": "arbitre"}
