"""Whether the database is set up: used by ``manage.py`` to explain a missing table."""

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor


def unapplied_migrations(alias: str = DEFAULT_DB_ALIAS) -> int:
    """How many migrations the database still lacks (0 also when it cannot be read at all)."""
    connection = connections[alias]
    try:
        connection.close()  # a failed statement may have left the transaction unusable
        executor = MigrationExecutor(connection)
        return len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
    except DatabaseError:
        return 0
