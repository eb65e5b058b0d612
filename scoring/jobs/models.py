"""A background job as the pages show it (the queue's own row is ``django_tasks_db``'s)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Season, Tournament


class Job(models.Model):
    class Kind(models.TextChoices):
        SHEETS_PDF = "sheets_pdf", _("Score sheets (PDF)")
        SHEETS_XLSX = "sheets_xlsx", _("Score sheets (Excel)")
        SEASON_EXPORT = "season_export", _("Season archive")
        SEASON_IMPORT = "season_import", _("Season archive import")
        RESULTS_REPORT = "report", _("Results report")
        CHAMPIONSHIP_REPORT = "champ_report", _("Championship results report")
        SEATING = "seating", _("Seating of a round")
        PLAYER_IMPORT = "player_import", _("Player import")

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for a worker")
        RUNNING = "running", _("Under way")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Failed")

    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    tournament = models.ForeignKey(
        Tournament, null=True, blank=True, on_delete=models.CASCADE, related_name="jobs"
    )
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="jobs"
    )
    # What the job works on, besides its tournament or season (a round, blank sheets, a file).
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(
        _("status"), max_length=8, choices=Status.choices, default=Status.QUEUED
    )

    class Stage(models.TextChoices):
        READING = "reading", _("Reading the sheets")
        WRITING = "writing", _("Laying out the sheets")
        GATHERING = "gather", _("Gathering the results")
        FILE = "file", _("Writing the file")
        SEARCHING = "search", _("Searching for the seating")
        IMPORTING = "import", _("Recording the players")

    # A document's sheets are read from the database first, then laid out: each has its count.
    # A seating counts its search (``tournaments.seating.SearchProgress``); the other kinds
    # name their step (a report, an import).
    stage = models.CharField(max_length=8, choices=Stage.choices, blank=True)
    done = models.PositiveIntegerField(_("done"), default=0)
    total = models.PositiveIntegerField(_("total"), default=0)
    error = models.TextField(_("error"), blank=True)
    result_path = models.CharField(_("result file"), max_length=500, blank=True)
    result_name = models.CharField(_("file name"), max_length=200, blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    worker_id = models.CharField(max_length=64, blank=True)
    heartbeat = models.DateTimeField(_("heartbeat"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        indexes = [models.Index(fields=["status", "heartbeat"], name="jobs_status_beat_idx")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.FAILED)
