"""Jobs run by a real worker: in this process (``worker.run_worker``) or as
``manage.py jobs_worker``; their files in a folder of the test's own."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.season.conftest import organiser, season_of  # noqa: F401  (a club's season)


@pytest.fixture(autouse=True)
def jobs_dir(settings, tmp_path):
    settings.JOBS_DIR = str(tmp_path / "jobs")
    return tmp_path / "jobs"


def french_client(user) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.force_login(user)
    return client
