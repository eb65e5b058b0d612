"""The licensee list's services: keep an uploaded file for its preview, and replace the whole
list with a file's lines, all or nothing, traced (who, when, which file, how many)."""

from __future__ import annotations

from django.db import connection, transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tarot_club.errors import ServiceError
from tournaments.licensees import rules
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
        _insert([line.values for line in preview.lines])
        trace = LicenseeImport.objects.create(
            imported_by=user, filename=upload.filename, lines=preview.count, replaced=before
        )
        LicenseeUpload.objects.filter(pk=upload.pk).delete()
    return trace


def _insert(rows: list[dict]) -> None:
    """The list's rows in batches of plain INSERTs: a 100,000-line list is written in seconds
    (``bulk_create`` spends most of its time building each row's SQL)."""
    table = connection.ops.quote_name(Licensee._meta.db_table)
    names = rules.FIELDS
    columns = ", ".join(
        connection.ops.quote_name(Licensee._meta.get_field(n).column) for n in names
    )
    sql = f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(names))})"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH):
            cursor.executemany(
                sql, [tuple(row[n] for n in names) for row in rows[start : start + BATCH]]
            )
