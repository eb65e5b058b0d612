"""Shared by every test: nothing kept in this process survives from one test to the next."""

import pytest


@pytest.fixture(autouse=True)
def _nothing_kept_between_tests():
    """Public pages and standings are kept per process, keyed on a tournament's id and last
    change; a rolled-back database may hand the same id to the next test's tournament."""
    from django.core.cache import cache

    from scoring.standings import forget_standings

    cache.clear()
    forget_standings()
    yield
    cache.clear()
    forget_standings()
