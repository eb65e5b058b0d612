"""The licensee list's services: keep an uploaded file for its preview, and replace the whole
list with a file's lines, all or nothing, traced (who, when, which file, how many)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarot_club.errors import ServiceError
from tournaments.licensees.models import Licensee, LicenseeImport, LicenseeUpload
from tournaments.licensees.selectors import licensee_preview

BATCH = 5_000


def licensee_upload_store(*, user, filename: str, content: bytes) -> LicenseeUpload:
    """Keep the file a preview shows (the user's earlier ones go)."""
    with transaction.atomic():
        LicenseeUpload.objects.filter(uploaded_by=user).delete()
        return LicenseeUpload.objects.create(
            uploaded_by=user, filename=filename[:255], content=content
        )


def licensees_replace(
    *, upload: LicenseeUpload, mapping: dict[str, int | None], user
) -> LicenseeImport:
    """Replace the list with the file's lines, read with ``mapping``: every line or none."""
    preview = licensee_preview(upload, mapping)
    if preview.mapping_problems:
        raise ServiceError(" ".join(preview.mapping_problems))
    if preview.bad:
        raise ServiceError(
            ngettext(
                "%(n)d line is wrong: nothing was imported.",
                "%(n)d lines are wrong: nothing was imported.",
                len(preview.bad),
            )
            % {"n": len(preview.bad)}
        )
    if not preview.count:
        raise ServiceError(_("The file holds no licensee: nothing was imported."))
    with transaction.atomic():
        before = Licensee.objects.count()
        Licensee.objects.all().delete()
        Licensee.objects.bulk_create(
            (Licensee(**line.values) for line in preview.lines), batch_size=BATCH
        )
        trace = LicenseeImport.objects.create(
            imported_by=user, filename=upload.filename, lines=preview.count, replaced=before
        )
        LicenseeUpload.objects.filter(pk=upload.pk).delete()
    return trace
