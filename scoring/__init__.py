"""Scoring: deals, score sheets, signing, penalties, standings, public pages, archives, demo.
May import tournaments, the pure engines, tarot_club's leaves (errors, network, private_files,
commands)."""
