"""Shared by every test: nothing kept in this process survives from one test to the next."""

import pytest
from hypothesis import HealthCheck, settings

# Speed is measured by the benchmarks (bench/), never by a test: a property holds or not however
# busy the machine is, so no hypothesis example has a deadline and slow data generation is fine.
settings.register_profile("project", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("project")


@pytest.fixture(autouse=True)
def _nothing_kept_between_tests():
    """Public pages and standings are kept per process, keyed on a tournament's id and last
    change; a rolled-back database may hand the same id to the next test's tournament. Each
    test starts in the site's language, as a request does: a request through the test client
    leaves its language active in the thread (the locale middleware activates it and nothing
    resets it), so an English page in one test made the next test's French messages English."""
    from django.core.cache import cache
    from django.utils import translation

    from scoring.standings import forget_standings

    cache.clear()
    forget_standings()
    translation.deactivate()
    yield
    cache.clear()
    forget_standings()
    translation.deactivate()


@pytest.fixture(autouse=True, scope="session")
def _no_seal_key_left_behind():
    """The test settings keep the installation's seal key in a temporary file of this process
    (``tarot-club-test-<pid>.seal-key``); it goes when the process's tests end."""
    yield
    import tempfile
    from pathlib import Path

    from django.conf import settings as django_settings

    path = Path(django_settings.SEAL_KEY_FILE)
    if path.name.startswith("tarot-club-test-") and path.parent == Path(tempfile.gettempdir()):
        path.unlink(missing_ok=True)
