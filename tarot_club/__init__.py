"""The project: settings, root URLconf, project views, backups, the SQLite backend, and errors.py
(the ServiceError both apps raise, a leaf). May import both apps; the apps import only errors.py."""
