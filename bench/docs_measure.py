"""One document measurement in a fresh process (so that peak memory is this document's).

    python bench/docs_measure.py --tournament ID --what pdf_table|pdf_all|xlsx_all [--runs N]

Prints JSON: wall and CPU seconds, output bytes, and the peak resident memory of the process
before and after rendering (``ru_maxrss``: the rise is what rendering needed at its peak).
Run by ``bench/run.py`` with the database environment set.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.djsetup import setup


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tournament", type=int, required=True)
    parser.add_argument("--what", choices=["pdf_table", "pdf_all", "xlsx_all"], required=True)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--profile", default="")
    args = parser.parse_args()
    setup()
    from scoring.sheet_documents import render_sheets, tables_in_scope
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(pk=args.tournament)
    if args.what == "pdf_table":
        scope = lambda: tables_in_scope(tournament, round_number=1, table_number=1)  # noqa: E731
        fmt = "pdf"
    else:
        scope = lambda: tables_in_scope(tournament)  # noqa: E731
        fmt = "pdf" if args.what == "pdf_all" else "xlsx"
    sheets = scope().count()
    # Warm imports, fonts and the database connection with one table (not timed).
    render_sheets(
        tournament, tables_in_scope(tournament, round_number=1, table_number=1), fmt="pdf"
    )
    if fmt == "xlsx":
        import scoring.documents.xlsx  # noqa: F401
    before = rss_mb()
    walls, cpus, size = [], [], 0
    profiler = None
    if args.profile:
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.005)
        profiler.start()
    for _ in range(args.runs):
        w, c = time.perf_counter(), time.process_time()
        output = render_sheets(tournament, scope(), fmt=fmt)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
        size = len(output)
        del output
    if profiler is not None:
        profiler.stop()
        Path(args.profile).write_text(
            profiler.output_text(unicode=True, color=False, show_all=False)
        )
    after = rss_mb()
    walls.sort()
    result = {
        "sheets": sheets,
        "runs": args.runs,
        "median_s": round(statistics.median(walls), 4),
        "p95_s": round(walls[max(0, int(0.95 * len(walls) + 0.999) - 1)], 4),
        "cpu_median_s": round(statistics.median(cpus), 4),
        "bytes": size,
        "rss_before_mb": round(before, 1),
        "peak_rss_mb": round(after, 1),
        "peak_rise_mb": round(after - before, 1),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
