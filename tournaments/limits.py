"""How long each text a person types may be: one number per kind of text.

The forms, the models (and so the database columns), the history tables and the import checks
all read these numbers, so a text the form accepts is one every database stores whole, and one
character more is a form error in the user's language, never a database error. Plain Python
(no Django): migrations and the pure modules may read it too.
"""

from __future__ import annotations

NAME = 80  # a player's first name, last name
CLUB = 120  # a club's name
LICENCE = 20  # an FFT licence number
TEAM = 120  # a team's name
TOURNAMENT_NAME = 150  # a tournament's name
SEASON_NAME = 120  # a club season's name
PLACE_POINTS = 1000  # a season's points by place as typed ("100,90,80...")
EMAIL = 254  # a player's e-mail on a seat request (the model's column; RFC 5321 path)
PLACE = 150  # where a tournament is played
USERNAME = 150  # a staff account's name (Django's own limit)
PASSWORD = 128  # a new staff account's password (hashed: the limit bounds the hashing work)
PIN = 8  # a player's signing PIN as typed
POINTS = 8  # card points as typed ("40,5")
ENTRY_KEY = 64  # the key a deal form carries (made by the page: a resent deal counts once)
URL = 200  # a web address (the tournament's public address for verifying sheets)
REASON = 500  # every reason or decision a referee types: a correction, a removed deal, a
# referee's decision, a penalty, paper totals, closing a round with unsigned sheets
SERIES = 30  # a player's série as the organiser names it ("1re série", "Promotion")
HOMOLOGATION = 30  # the FFT's homologation number of a tournament
