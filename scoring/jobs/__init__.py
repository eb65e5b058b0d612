"""Background jobs for long work: the round's and the whole tournament's score sheets (PDF and
workbook), a season archive's export and import, the results reports (a tournament's, a
championship's), and, when they are long (``tournaments.long_work``), a round's seating and a
player import's confirmation. Django's task API (the ``django_tasks``
backport) with its database backend (``django_tasks_db``) queues them, so the laptop needs no
queue server; ``manage.py jobs_worker`` runs them (``worker.py``).

A :class:`~scoring.jobs.models.Job` is what the pages show: its kind, tournament or season, who
started it, its status, its progress (sheets done of total), why it failed, and the file it
made (in ``settings.JOBS_DIR``, a folder every machine of the deployment shares). The worker
that runs a job writes a heartbeat every few seconds; a job whose heartbeat is older than
``settings.JOBS_STALE_SECONDS`` (its worker was killed, or its machine stopped) is put back in the
queue, and another worker takes it over from the start. Finished jobs and their files are
removed ``settings.JOBS_RETENTION_DAYS`` later (``jobs_purge``).
"""
