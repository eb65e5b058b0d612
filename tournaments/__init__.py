"""Tournaments: clubs, seasons, players, teams, registrations, seat requests, rounds, seating.
May import the pure engines (scoring.engine, .documents) and tarot_club's leaves errors, network."""
