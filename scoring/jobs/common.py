"""What every kind of job shares: what a runner returns, how it reports its progress, the
parameters every start view records."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from django.utils.translation import get_language

from scoring.links import public_url


@dataclass
class Outcome:
    """A runner's result: its file (none for a seating or an import), and what the job's page
    links to besides (``season``; ``params`` added to the job's own, e.g. the round seated)."""

    path: Path | None
    name: str = ""
    season: object = None
    params: dict = field(default_factory=dict)


Progress = Callable[..., None]  # (done, total, stage="")


def common_params(request) -> dict:
    """The language of whoever starts the job (its messages and documents speak it) and the
    address its documents print."""
    return {"language": get_language(), "base_url": public_url("/", request).rstrip("/")}
