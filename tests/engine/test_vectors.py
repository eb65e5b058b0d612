"""The shared vectors (FFT rulebook examples and the rules people get wrong): a floor."""

import json
from pathlib import Path

import pytest

from scoring.engine import InvalidDeal, deal_from_dict, score_deal

VECTORS_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "vectors"
VECTORS = json.loads((VECTORS_DIR / "fft-examples.json").read_text())


def test_vectors_are_present():
    assert len(VECTORS) >= 11


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vector(vector):
    deal = deal_from_dict(vector["deal"])
    if vector.get("reject"):
        with pytest.raises(InvalidDeal) as raised:
            score_deal(deal)
        assert raised.value.errors, "a rejected deal names at least one reason"
    else:
        result = score_deal(deal)
        assert list(result.scores) == vector["expected"]
        assert sum(result.scores) == 0
