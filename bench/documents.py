"""Benchmark of the document layer: a whole tournament's score sheets as PDF and Excel.

100 tables × 5 rounds = 500 sheets of 4 players and 5 deals each (FFT scores, a few handfuls,
petits au bout, passed deals, penalties and signatures). Prints JSON: seconds and peak Python
memory (tracemalloc) of each step, plus the output sizes.

    .venv/bin/python bench/documents.py [--tables 100] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import tracemalloc
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.documents.data import (
    SheetData,
    SheetDeal,
    SheetHandful,
    SheetPenalty,
    SheetPlayer,
    SheetSignature,
)
from scoring.documents.fingerprint import fingerprint, verification_code
from scoring.documents.pdf import score_sheet_pdf
from scoring.documents.xlsx import score_sheets_workbook

FIRST = ["Jean", "Marie", "Élodie", "François", "Chloé", "Noël", "Zoé", "Hervé", "Agnès", "Loïc"]
LAST = ["Dupont", "Lefèvre", "Cœur", "Martin", "Bérénger", "Faure", "Moreau", "Gaël", "Roux"]
CLUBS = ["Tarot Club d'Évry", "Les « As » du 18", "Excuse Lyonnaise", "Petit au Bout 75"]
SEATS = ("N", "E", "S", "O")
THRESHOLD = {0: 56, 1: 51, 2: 41, 3: 36}
MULTIPLIER = {"petite": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}


def _deal(rng: random.Random, number: int, names: list[str]) -> SheetDeal:
    dealer = names[(number - 1) % 4]
    if rng.random() < 0.06:
        return SheetDeal(number=number, kind="passed", dealer=dealer)
    taker_index = rng.randrange(4)
    contract = rng.choices(list(MULTIPLIER), weights=[45, 40, 10, 5])[0]
    oudlers = rng.choice([0, 1, 1, 2, 2, 2, 3])
    points = rng.randint(25, 70)
    diff = points - THRESHOLD[oudlers]
    won = diff >= 0
    m = MULTIPLIER[contract]
    amount = (25 + abs(diff)) * m * (1 if won else -1)
    handfuls: tuple[SheetHandful, ...] = ()
    if rng.random() < 0.12:
        handfuls = (SheetHandful(rng.choice(names), "simple"),)
        amount += 20 if won else -20
    petit = ""
    if rng.random() < 0.08:
        petit = rng.choice(["attack", "defence"])
        amount += (10 if petit == "attack" else -10) * m
    scores = tuple(3 * amount if i == taker_index else -amount for i in range(4))
    return SheetDeal(
        number=number,
        kind="played",
        dealer=dealer,
        taker=names[taker_index],
        contract=contract,
        oudlers=oudlers,
        points=Decimal(points),
        handfuls=handfuls,
        petit_au_bout=petit,
        scores=scores,
    )


def build_sheets(
    tables: int = 100, rounds: int = 5, deals: int = 5, seed: int = 7
) -> list[SheetData]:
    rng = random.Random(seed)
    players = [f"{rng.choice(FIRST)} {rng.choice(LAST)}-{i:03d}" for i in range(tables * 4)]
    start = datetime(2025, 5, 17, 13, 30, tzinfo=UTC)
    sheets = []
    for round_number in range(1, rounds + 1):
        order = players[:]
        rng.shuffle(order)
        for table in range(1, tables + 1):
            names = order[(table - 1) * 4 : table * 4]
            signed_at = start + timedelta(minutes=50 * round_number + rng.randint(0, 15))
            data = SheetData(
                tournament="Open d'Évry « Printemps » 2025",
                tournament_date=date(2025, 5, 17),
                place="Salle des fêtes, Évry",
                round_number=round_number,
                table_number=table,
                rule_set="FFT (règlement officiel)",
                players=tuple(
                    SheetPlayer(seat, name, rng.choice(CLUBS), f"{rng.randint(10000, 99999)}")
                    for seat, name in zip(SEATS, names, strict=True)
                ),
                deals=tuple(_deal(rng, k, names) for k in range(1, deals + 1)),
                deals_expected=deals,
                penalties=(
                    (SheetPenalty(names[0], -20, "Retard à la table", "Chloé Arbitre"),)
                    if rng.random() < 0.03
                    else ()
                ),
                signatures=tuple(
                    SheetSignature(name, "pin", signed_at + timedelta(seconds=20 * i))
                    for i, name in enumerate(names)
                ),
                status="signed",
                referee="Chloé Arbitre",
                verification_url=f"https://tarot.example.org/verifier/{round_number}-{table}/",
            )
            fp = fingerprint(data)
            sheets.append(replace(data, fingerprint=fp, verification_code=verification_code(fp)))
    return sheets


def _measure(label: str, function, results: dict) -> bytes:
    tracemalloc.start()
    began = time.perf_counter()
    output = function()
    seconds = time.perf_counter() - began
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    results[label] = {
        "seconds": round(seconds, 3),
        "peak_mb": round(peak / 2**20, 1),
        "bytes": len(output) if isinstance(output, bytes | bytearray) else None,
    }
    return output


def _timed(label: str, function, results: dict, repeat: int = 2):
    """Best wall and CPU time without tracemalloc (which slows Python code down several times).

    CPU time is reported too: on a busy machine the wall time mostly measures the neighbours.
    """
    wall, cpu = [], []
    for _ in range(repeat):
        began, began_cpu = time.perf_counter(), time.process_time()
        function()
        wall.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)
    results[label]["seconds_untraced"] = round(min(wall), 3)
    results[label]["cpu_seconds"] = round(min(cpu), 3)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=5)
    args = parser.parse_args(argv)

    results: dict = {}
    sheets = _measure(
        "build_data", lambda: build_sheets(args.tables, args.rounds, args.deals), results
    )
    results["build_data"]["bytes"] = None
    results["sheets"] = len(sheets)
    steps = [
        ("pdf_one_sheet", lambda: score_sheet_pdf([sheets[0]])),
        ("pdf_bundle", lambda: score_sheet_pdf(iter(sheets))),
        ("xlsx_workbook", lambda: score_sheets_workbook(sheets)),
        ("fingerprints", lambda: [fingerprint(s) for s in sheets]),
    ]
    for label, function in steps:
        _measure(label, function, results)
        _timed(label, function, results)
    try:
        import reportlab.lib.rl_accel as accel

        results["reportlab_c_accelerator"] = "built-in" in repr(accel.fp_str)
    except ImportError:  # pragma: no cover
        pass
    try:
        import resource

        results["max_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    except ImportError:  # pragma: no cover - not on Unix
        pass
    print(json.dumps(results, indent=2))
    return results


if __name__ == "__main__":
    main()
