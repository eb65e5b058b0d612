import pytest

from tests.web.playing import playing_round


@pytest.fixture
def playing(db):
    """See :func:`tests.web.playing.playing_round`."""
    return playing_round()
