"""The jobs' command: ``jobs_worker`` runs the background jobs (``make worker``)."""
