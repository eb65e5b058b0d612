"""Benchmark of the seating engine: ``python bench/seating.py`` prints JSON figures.

For each case: total seconds, repeated meetings over all rounds and team-mate pairs seated
together, both for rounds planned jointly (``plan_rounds``) and for rounds seated one at a
time as the app does (``seat_round`` with ``rounds_left`` = rounds remaining).

Options: ``--seeds K`` repeats every case with seeds 0..K-1 (figures are then summed, and the
worst time is given too); ``--quick`` runs a smaller set.

``--sweep`` checks the quality target instead: every field from 12 to 60 players over 4, 5
and 6 rounds, seated round by round as the app does with the default settings (tables of 5,
fewest repeated meetings first; ``--odd three`` for tables of 3).  For each: the repeated
meetings, the seconds per round, the repeats no seating could avoid (the lower bound of
``tournaments.seating.bounds``, round by round after the rounds actually seated), and the
same seating with a much longer search (``--long-effort``, default 10 times the evaluations).
A case passes when it has no more repeats than the longer search (so zero whenever the
longer search finds zero).  ``--players 18,21`` and ``--rounds 4`` narrow the sweep;
``--seeds K`` seats each field from K draws of round 1 (seeds 1..K) and compares the sums
(where repeats are forced, one draw against another moves the count by a few repeats, for
the longer search too).
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
from tournaments.seating.bounds import unavoidable_repeats


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


def seat_day(n: int, rounds: int, *, odd: str = "five", effort: float = 1.0, seed: int = 1):
    """Seat ``rounds`` rounds of ``n`` players one at a time, as the app does: repeats per
    round, the lower bound per round (after the rounds seated before it), seconds per round."""
    players = list(range(n))
    done: list[RoundSeating] = []
    repeats, bounds, seconds = [], [], []
    for r in range(rounds):
        began = time.perf_counter()
        rnd = seat_round(
            players, history=done, rounds_left=rounds - r, seed=seed, odd=odd, effort=effort
        )
        seconds.append(time.perf_counter() - began)
        bounds.append(unavoidable_repeats(players, rnd.sizes, done))
        repeats.append(rnd.repeat_count)
        done.append(rnd)
    assert sum(repeats) == repeated_meetings(done)
    return {"repeats": repeats, "bounds": bounds, "seconds": seconds}


def sweep_case(n: int, rounds: int, odd: str, long_effort: float, seeds: int = 1) -> dict:
    draws = range(1, seeds + 1)
    default = [seat_day(n, rounds, odd=odd, seed=seed) for seed in draws]
    longer = [seat_day(n, rounds, odd=odd, effort=long_effort, seed=seed) for seed in draws]
    totals = [sum(d["repeats"]) for d in default]
    best = [sum(d["repeats"]) for d in longer]
    seconds = [s for d in default for s in d["seconds"]]
    return {
        "players": n,
        "rounds": rounds,
        "odd_tables": odd,
        "seeds": seeds,
        "repeats": sum(totals),
        "repeats_per_seed": totals,
        "repeats_per_round": default[0]["repeats"],
        "unavoidable_per_round": default[0]["bounds"],
        "proved_optimal": all(d["repeats"] == d["bounds"] for d in default),
        "worst_seconds_per_round": round(max(seconds), 3),
        "mean_seconds_per_round": round(sum(seconds) / len(seconds), 3),
        "longer_search_effort": long_effort,
        "longer_search_repeats": sum(best),
        "longer_search_repeats_per_seed": best,
        "longer_search_seconds": round(sum(s for d in longer for s in d["seconds"]), 2),
        "pass": sum(totals) <= sum(best),
    }


def sweep(
    players: list[int], rounds: list[int], odd: str, long_effort: float, seeds: int = 1
) -> dict:
    cases = []
    for n in players:
        for r in rounds:
            cases.append(sweep_case(n, r, odd, long_effort, seeds))
            print(json.dumps(cases[-1]), file=sys.stderr, flush=True)
    failed = [(c["players"], c["rounds"]) for c in cases if not c["pass"]]
    return {
        "cases": cases,
        "summary": {
            "cases": len(cases),
            "pass": len(cases) - len(failed),
            "failed": failed,
            "zero_repeats": sum(1 for c in cases if c["repeats"] == 0),
            "longer_search_zero_repeats": sum(1 for c in cases if c["longer_search_repeats"] == 0),
            "proved_optimal": sum(1 for c in cases if c["proved_optimal"]),
            "repeats": sum(c["repeats"] for c in cases),
            "longer_search_repeats": sum(c["longer_search_repeats"] for c in cases),
            "worst_seconds_per_round": max(c["worst_seconds_per_round"] for c in cases),
        },
    }


def _ints(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out.extend(range(int(lo), int(hi or lo) + 1))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--sweep", action="store_true")
    parser.add_argument("--players", type=_ints, default=_ints("12-60"))
    parser.add_argument("--rounds", type=_ints, default=_ints("4-6"))
    parser.add_argument("--odd", choices=["five", "three"], default="five")
    parser.add_argument("--long-effort", type=float, default=10.0)
    args = parser.parse_args()
    if args.sweep:
        report = sweep(args.players, args.rounds, args.odd, args.long_effort, args.seeds)
        print(json.dumps(report, indent=2))
        return
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
