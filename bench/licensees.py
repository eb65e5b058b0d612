"""Benchmark of the licensee list: ``python bench/licensees.py`` prints JSON figures.

A CSV of 100,000 licensees (the FFT's list is of that order) uploaded to the licensee list's
page by an organiser: the preview (the file read, its columns guessed, every line checked), then
the list replaced (every line written, the import traced), through the real page, on SQLite and
on PostgreSQL (a throw-away database ``tarot_bench_licensees``); then the same file again
(replacing a full list).

Options: ``--db sqlite|postgres|both`` (default both), ``--lines 100000``. Figures are saved in
``bench/out/licensees.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.djsetup import run_in_throwaway_db  # noqa: E402

OUT = ROOT / "bench" / "out"
PG_NAME = "tarot_bench_licensees"
SERIES = ["1re série", "2e série", "3e série", "Promotion", "Open"]


def licensee_csv(lines: int, seed: int = 1) -> bytes:
    from scoring.demo import FIRST_NAMES, LAST_NAMES

    rng = random.Random(seed)
    out = ["N° Licence;Nom;Prénom;Club;Série;Sexe;Année de naissance"]
    for i in range(lines):
        out.append(
            f"{i + 1:08d};{rng.choice(LAST_NAMES)};{rng.choice(FIRST_NAMES)};"
            f"Club de tarot {rng.randrange(600)};{rng.choice(SERIES)};{rng.choice('FM')};"
            f"{rng.randrange(1930, 2015)}"
        )
    return ("\n".join(out) + "\n").encode()


def timed(action):
    start = time.perf_counter()
    result = action()
    return round(time.perf_counter() - start, 3), result


def figures(lines: int) -> dict:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client, override_settings
    from django.urls import reverse

    from tournaments.licensees.models import Licensee, LicenseeUpload
    from tournaments.licensees.rules import guess_mapping

    user = get_user_model().objects.create_user("orga-bench", password="x")
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    client = Client(HTTP_ACCEPT_LANGUAGE="en", REMOTE_ADDR="127.0.0.1")
    with override_settings(AXES_ENABLED=False):  # no request address to record a login
        client.force_login(user)
    content = licensee_csv(lines)
    url = reverse("tournaments:licensees")
    out: dict = {"lines": lines, "file_mb": round(len(content) / 1e6, 2)}
    for label in ("first", "again"):
        preview_s, response = timed(
            lambda: client.post(url, {"file": SimpleUploadedFile("licencies.csv", content)})
        )
        assert response.status_code == 200, response.status_code
        upload = LicenseeUpload.objects.latest("pk")
        mapping = guess_mapping(licensee_csv(1).decode().splitlines()[0].split(";"))
        data = {"upload": upload.pk, "confirm": "1"}
        data.update({f"map_{k}": v for k, v in mapping.items() if v is not None})
        replace_s, response = timed(lambda data=data: client.post(url, data))
        assert response.status_code == 302
        assert Licensee.objects.count() == lines
        out[f"{label}_preview_seconds"] = preview_s
        out[f"{label}_replace_seconds"] = replace_s
    return out


def worker(args) -> None:
    from bench.djsetup import setup

    setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    call_command("collectstatic", verbosity=0, interactive=False)  # served as in production
    print(json.dumps(figures(args.lines)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    dbs = ["sqlite", "postgres"] if args.db == "both" else [args.db]
    command = [sys.executable, __file__, "--worker", "--lines", str(args.lines)]
    results = {
        db: run_in_throwaway_db(db, command, pg_name=PG_NAME, sqlite_name="licensees.sqlite3")
        for db in dbs
    }
    OUT.mkdir(exist_ok=True)
    (OUT / "licensees.json").write_text(json.dumps(results, indent=2))
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
