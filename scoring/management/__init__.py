"""Scoring's management commands (see ``commands/``).
May import what the commands call: scoring and tournaments."""
