"""backup_db and restore_db: the whole database, SQLite or PostgreSQL.
Thin: parse arguments, call tarot_club.backup, print."""
