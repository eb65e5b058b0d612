"""Scoring: deals, score sheets, signing, penalties, standings, public pages, archives, demo.
May import tournaments, the pure engines and tarot_club.errors; only the project imports it."""
