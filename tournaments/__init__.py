"""Tournaments: clubs, players, tournaments, staff, teams, registrations, check-in, player import,
rounds, tables, seats, seating. May import the pure engines and tarot_club.errors, never scoring."""
