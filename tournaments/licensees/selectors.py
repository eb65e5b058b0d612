"""The licensee list's reads: a file's preview (its columns mapped, every bad line named), the
list's state, a licence looked up, and the registrations whose name or club differs from it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from tarot_club.errors import ServiceError
from tournaments import limits
from tournaments.files import read_table
from tournaments.licensees import rules
from tournaments.licensees.messages import problem_text
from tournaments.licensees.models import Licensee, LicenseeImport, LicenseeUpload
from tournaments.models import Registration, Tournament
from tournaments.rows import PlayerRow

LIMITS = rules.Limits(
    licence=limits.LICENCE, name=limits.NAME, club=limits.CLUB, series=limits.SERIES
)
#: Lines shown as a sample of what will be imported.
SAMPLE = 10


@dataclass
class LicenseePreview:
    upload: LicenseeUpload
    header: list[str]
    mapping: dict[str, int | None]
    mapping_problems: list[str] = field(default_factory=list)
    count: int = 0
    bad: list[tuple[int, list[str]]] = field(default_factory=list)
    sample: list[dict] = field(default_factory=list)
    lines: list[rules.Line] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mapping_problems and not self.bad and self.count > 0


def licensee_preview(
    upload: LicenseeUpload, mapping: dict[str, int | None] | None = None
) -> LicenseePreview:
    """Read the uploaded file with ``mapping`` (or the columns guessed from its header) and
    check every line. Raises ServiceError for a file that cannot be read."""
    table = read_table(upload.filename, bytes(upload.content))
    table = [row for row in table if any(cell for cell in row)]
    if not table:
        raise ServiceError(
            _empty_file_message(upload.filename),
            field="file",
        )
    header, rows = table[0], table[1:]
    mapping = dict(mapping) if mapping is not None else rules.guess_mapping(header)
    preview = LicenseePreview(upload=upload, header=header, mapping=mapping)
    preview.mapping_problems = [
        problem_text(code, params) for code, params in rules.mapping_problems(mapping, len(header))
    ]
    if preview.mapping_problems:
        return preview
    lines = rules.read_lines(rows, mapping, year=timezone.now().year, limits=LIMITS)
    preview.lines = lines
    preview.count = len(lines)
    # Each problem once: the rules name each distinct problem of a line once (rules.py).
    preview.bad = [
        (line.number, [problem_text(code, params) for code, params in line.problems])
        for line in lines
        if not line.ok
    ]
    preview.sample = [line.values for line in lines[:SAMPLE]]
    return preview


def _empty_file_message(name: str) -> str:
    return _("“%(name)s” holds no line.") % {"name": name}


def list_state() -> tuple[int, list[LicenseeImport]]:
    """How many licensees the list holds, and its last imports (two queries)."""
    return Licensee.objects.count(), list(LicenseeImport.objects.select_related("imported_by")[:5])


def _lookable(licence: str) -> bool:
    """A licence that can be looked up: one with a control character (PostgreSQL refuses NUL
    in a query) or over its limit is never listed; its row says what is wrong with it."""
    return bool(licence) and len(licence) <= limits.LICENCE and licence.isprintable()


def licensee_of(licence: str) -> Licensee | None:
    licence = licence.replace(" ", "")
    return Licensee.objects.filter(licence=licence).first() if _lookable(licence) else None


def filled_from_list(row: PlayerRow) -> tuple[PlayerRow, dict]:
    """A row registered by its licence: the blanks of its name and club filled from the list,
    and the list's série, sex and year of birth for the registration ({} when not listed)."""
    listed = licensee_of(row.licence)
    if listed is None:
        return row, {}
    filled = replace(
        row,
        last_name=row.last_name or listed.last_name,
        first_name=row.first_name or (listed.first_name if not row.last_name else ""),
        club=row.club or listed.club,
    )
    return filled, listed_details(listed)


def listed_for(licences: list[str]) -> dict[str, Licensee]:
    """The list's entries of these licences (one query)."""
    wanted = {lic.replace(" ", "") for lic in licences if _lookable(lic.replace(" ", ""))}
    if not wanted:
        return {}
    return {lic.licence: lic for lic in Licensee.objects.filter(licence__in=wanted)}


def listed_details(listed: Licensee | None) -> dict:
    """What a registration takes from the list: série, sex, year of birth ({} if unlisted)."""
    if listed is None:
        return {}
    return {"series": listed.series, "sex": listed.sex, "birth_year": listed.birth_year}


def differing(listed: Licensee | None, *, last_name: str, first_name: str, club: str) -> str:
    """The list's name and club when a registration's differ (« Dupont Marie, Club de Lyon »),
    else ""."""
    if listed is None:
        return ""
    fields = rules.differences(
        {"last_name": listed.last_name, "first_name": listed.first_name, "club": listed.club},
        {"last_name": last_name, "first_name": first_name, "club": club},
    )
    if not fields:
        return ""
    name = f"{listed.first_name} {listed.last_name}".strip()
    return f"{name}, {listed.club}" if listed.club else name


def registration_differences(tournament: Tournament) -> dict[int, str]:
    """Registration id -> the list's name and club, for the registrations whose name or club
    differs from the licensee list (one query, whatever the number of players)."""
    listed = Licensee.objects.filter(licence=OuterRef("licence"))
    rows = (
        Registration.objects.filter(tournament=tournament)
        .exclude(licence="")
        .annotate(
            listed_last=Subquery(listed.values("last_name")[:1]),
            listed_first=Subquery(listed.values("first_name")[:1]),
            listed_club=Subquery(listed.values("club")[:1]),
        )
        .filter(listed_last__isnull=False)
        .values_list(
            "pk",
            "last_name",
            "first_name",
            "club_name",
            "listed_last",
            "listed_first",
            "listed_club",
        )
    )
    out = {}
    for pk, last_name, first_name, club, *entry in rows:
        text = differing(
            Licensee(last_name=entry[0], first_name=entry[1], club=entry[2]),
            last_name=last_name,
            first_name=first_name,
            club=club,
        )
        if text:
            out[pk] = text
    return out


def import_warnings(rows: list[dict]) -> dict[int, str]:
    """For a players' import preview: row index -> « differs from the licensee list: … » for
    the rows whose name or club differs from the list (one query)."""
    listed = listed_for([values.get("licence", "") for values in rows])
    out = {}
    for index, values in enumerate(rows):
        text = differing(
            listed.get(values.get("licence", "").replace(" ", "")),
            last_name=values.get("last_name", ""),
            first_name=values.get("first_name", ""),
            club=values.get("club", ""),
        )
        if text:
            out[index] = _("differs from the licensee list: %(listed)s") % {"listed": text}
    return out
