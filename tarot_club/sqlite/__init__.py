"""The SQLite database backend: WAL, BEGIN IMMEDIATE, writers queued on a lock file.
May import Django only."""
