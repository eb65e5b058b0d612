"""Benchmark of the seating engine: ``python bench/seating.py`` prints JSON figures.

For each case: total seconds, repeated meetings over all rounds and team-mate pairs seated
together, both for rounds planned jointly (``plan_rounds``) and for rounds seated one at a
time as the app does (``seat_round`` with ``rounds_left`` = rounds remaining).

Options: ``--seeds K`` repeats every case with seeds 0..K-1 (figures are then summed, and the
worst time is given too); ``--quick`` runs a smaller set.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import RoundSeating, plan_rounds, seat_round


def repeated_meetings(rounds: list[RoundSeating]) -> int:
    """Pairs seated together that had already met in an earlier round, summed over rounds."""
    met: Counter = Counter()
    total = 0
    for rnd in rounds:
        pairs = [frozenset(p) for t in rnd.tables for p in itertools.combinations(t, 2)]
        total += sum(1 for p in pairs if met[p])
        met.update(pairs)
    return total


def teammates_together(rounds: list[RoundSeating], teams: dict | None) -> int:
    if not teams:
        return 0
    return sum(
        1
        for rnd in rounds
        for t in rnd.tables
        for a, b in itertools.combinations(t, 2)
        if teams.get(a) is not None and teams.get(a) == teams.get(b)
    )


def run_case(n: int, rounds: int, team_size: int | None, mode: str, seed: int) -> dict:
    players = list(range(n))
    teams = {p: p // team_size for p in players} if team_size else None
    start = time.perf_counter()
    if mode == "plan_rounds":
        done = plan_rounds(players, rounds, teams=teams, seed=seed)
    else:
        done = []
        for r in range(rounds):
            done.append(
                seat_round(players, teams=teams, history=done, rounds_left=rounds - r, seed=seed)
            )
    seconds = time.perf_counter() - start
    return {
        "seconds": seconds,
        "repeats": repeated_meetings(done),
        "teammates_together": teammates_together(done, teams),
    }


CASES = [
    *[(n, 5, None) for n in (16, 20, 28, 32, 44, 64, 100)],
    (1000, 8, None),
    (21, 4, None),
    (32, 5, 2),
    (64, 5, 2),
    (32, 5, 4),
    (64, 5, 4),
    (200, 6, 2),
]
QUICK = [(16, 5, None), (20, 5, None), (100, 5, None), (1000, 8, None), (32, 5, 4)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    results = []
    for n, rounds, team_size in QUICK if args.quick else CASES:
        for mode in ("plan_rounds", "seat_round"):
            runs = [run_case(n, rounds, team_size, mode, seed) for seed in range(args.seeds)]
            results.append(
                {
                    "players": n,
                    "rounds": rounds,
                    "format": f"teams of {team_size}" if team_size else "individual",
                    "mode": mode,
                    "seeds": args.seeds,
                    "total_seconds": round(sum(r["seconds"] for r in runs), 3),
                    "worst_seconds": round(max(r["seconds"] for r in runs), 3),
                    "repeated_meetings": sum(r["repeats"] for r in runs),
                    "teammates_together": sum(r["teammates_together"] for r in runs),
                }
            )
            print(json.dumps(results[-1]), file=sys.stderr, flush=True)
    print(json.dumps({"cases": results}, indent=2))


if __name__ == "__main__":
    main()
