"""Halls: a tournament's tables split into rooms (« Salle Pourny : tables 1–60 »), a room of its
own beside the tournament's models. The placement rule is pure: :mod:`tournaments.seating.halls`;
see docs/halls.md."""
