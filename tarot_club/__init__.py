"""The project: settings (secret key, database, checks), root URLconf, project views, backups, the
SQLite backend. May import both apps; they import only its leaf errors.py (ServiceError)."""
