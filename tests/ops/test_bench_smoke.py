"""The benchmark itself, on a 32-player workload: its fast builder writes exactly what the
services write, and its in-process measures run (the full benchmark is `make bench`)."""

from __future__ import annotations

import pytest

from bench import measures, workload

pytestmark = pytest.mark.django_db


@pytest.fixture
def built():
    specs = {spec.key: spec for spec in workload.specs(smoke=True)}
    for spec in specs.values():
        workload.build(spec)
    return {key: workload.find(spec) for key, spec in specs.items()}


def test_the_fast_builder_writes_what_the_services_write(built):
    """Deals, history, score rows, seats' results, sheets, signatures, seals: identical."""
    check = workload.compare(built["club"], built["club_fast"])
    assert check["identical"], check["differences"]
    assert check["compared"]["seat_results"] == 32 * 2


def test_the_benchmark_measures_run(built):
    figures = measures.standings_figures(built["national"], built["club"], built["teams"], runs=1)
    assert figures["standings_query_count_fixed"]["pass"]
    assert figures["standings_compute_vs_sum_query_ratio"]["players_ranked"] == 32
    for name in ("standings_page_cold_ms", "team_standings_ms", "player_me_page_cold_ms"):
        assert figures[name]["value"] > 0, name
    entry, _ = measures.entry_tournament(16)
    entry_figures = measures.entry_figures(entry, runs=2)
    assert entry_figures["deal_entry_post_median_ms"]["non_302"] == 0


def test_the_season_benchmark_runs():
    from bench.season import season_figures

    figures = season_figures(runs=1, tournaments=2, players=8)
    assert figures["season_queries_same_for_4_and_40"]["pass"]
    for name in ("season_cold_ms", "season_cached_ms", "career_ms"):
        assert figures[name]["value"] > 0, name


def test_the_prize_list_benchmark_runs():
    from bench.prizes import prize_figures

    figures = prize_figures(runs=1, players=16)
    assert figures["categories_cold_ms"]["value"] > 0
    assert figures["categories_cold_queries"] > 0
    assert figures["scratch_standings_cold_ms"] > 0
