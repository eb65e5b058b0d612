"""The project: settings (secret key, database, checks), root URLconf, project views, backups, the
SQLite backend. May import both apps; they import only its leaves errors, network, private_files,
commands."""
