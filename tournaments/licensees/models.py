"""The licensee list (one for the installation), each import's trace, and a file waiting for
its preview to be confirmed. Data only: the work is in :mod:`tournaments.licensees.services`."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments import limits
from tournaments.models import SEXES


class Licensee(models.Model):
    licence = models.CharField(_("FFT licence"), max_length=limits.LICENCE, unique=True)
    last_name = models.CharField(_("last name"), max_length=limits.NAME)
    first_name = models.CharField(_("first name"), max_length=limits.NAME, blank=True)
    club = models.CharField(_("club"), max_length=limits.CLUB, blank=True)
    series = models.CharField(_("série"), max_length=limits.SERIES, blank=True)
    sex = models.CharField(_("sex"), max_length=1, choices=SEXES, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("year of birth"), null=True, blank=True)

    class Meta:
        ordering = ["licence"]
        verbose_name = _("licensee")
        verbose_name_plural = _("licensees")

    def __str__(self) -> str:
        return f"{self.licence} {self.last_name} {self.first_name}".strip()


class LicenseeImport(models.Model):
    """The trace of each import: who replaced the list, when, from which file, how many."""

    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    imported_at = models.DateTimeField(auto_now_add=True)
    filename = models.CharField(max_length=255)
    lines = models.PositiveIntegerField()
    replaced = models.PositiveIntegerField()  # licensees in the list before

    class Meta:
        ordering = ["-imported_at", "-pk"]
        verbose_name = _("licensee list import")

    def __str__(self) -> str:
        return f"{self.filename} ({self.lines})"


class LicenseeUpload(models.Model):
    """A file shown in a preview, until it is imported or replaced by another."""

    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)
    filename = models.CharField(max_length=255)
    content = models.BinaryField()

    class Meta:
        verbose_name = _("licensee list file")

    def __str__(self) -> str:
        return self.filename
