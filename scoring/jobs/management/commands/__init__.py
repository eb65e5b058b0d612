"""The jobs' commands: ``jobs_worker`` runs the background jobs (``make worker``); ``jobs_purge``
removes the jobs and files past their retention (every worker does it every hour too)."""
