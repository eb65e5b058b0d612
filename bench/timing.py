"""Small timing helpers shared by the benchmark modules (no Django import)."""

from __future__ import annotations

import math
import os
import statistics
import time


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def sample(fn, *, runs: int = 30, warmup: int = 3, before=None) -> dict:
    """Median / p95 wall time (and median CPU time of this process) of ``fn()`` in ms.

    ``before`` (not timed) runs before every call, e.g. to clear a cache.
    """
    for _ in range(warmup):
        if before:
            before()
        fn()
    walls, cpus = [], []
    for _ in range(runs):
        if before:
            before()
        w, c = time.perf_counter(), time.process_time()
        fn()
        walls.append((time.perf_counter() - w) * 1000)
        cpus.append((time.process_time() - c) * 1000)
    return {**_summary(walls), "cpu_median_ms": round(statistics.median(cpus), 2)}


def _summary(walls: list[float]) -> dict:
    """Median, p95 and minimum of wall times in ms, and how many runs."""
    return {
        "median_ms": round(statistics.median(walls), 2),
        "p95_ms": round(percentile(walls, 95), 2),
        "min_ms": round(min(walls), 2),
        "runs": len(walls),
    }


def figure(value, target, unit: str, *, le: bool = True, **extra) -> dict:
    """A figure with its target and pass/fail (``le``: value must be <= target, else >=)."""
    passed = None if value is None else (value <= target if le else value >= target)
    return {
        "value": value,
        "target": f"{'<=' if le else '>='} {target} {unit}".strip(),
        "pass": passed,
        **extra,
    }


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def sample_pair(first, second, *, runs: int = 30, warmup: int = 3) -> tuple[dict, dict]:
    """``sample`` of two functions, alternating them run by run: a machine that slows down
    or speeds up during the measure affects both alike, so their ratio holds."""
    stats: tuple[list, list] = ([], [])
    for index in range(warmup + runs):
        for fn, walls in zip((first, second), stats, strict=True):
            began = time.perf_counter()
            fn()
            if index >= warmup:
                walls.append((time.perf_counter() - began) * 1000)
    return tuple(_summary(walls) for walls in stats)
