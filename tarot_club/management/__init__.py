"""The project's management commands (see ``commands/``).
May import tarot_club (backups)."""
