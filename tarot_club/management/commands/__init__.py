"""backup_db and restore_db (the whole database, SQLite or PostgreSQL), serve_club (make club).
Thin: parse arguments, call tarot_club.backup or tarot_club.club, print."""
