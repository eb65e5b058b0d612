"""The example deals (the FFT rulebook's worked examples and the rules people get wrong): a floor.

The deals live in ``tests/engine/data/fft_examples.json`` (where they come from:
``tests/engine/data/README.md``); nothing here reads outside the repository.
"""

import json
from pathlib import Path

import pytest

from scoring.engine import InvalidDeal, deal_from_dict, score_deal

VECTORS_FILE = Path(__file__).resolve().parent / "data" / "fft_examples.json"
VECTORS = json.loads(VECTORS_FILE.read_text(encoding="utf-8"))


def test_every_vector_is_present_and_described():
    assert len(VECTORS) >= 11
    ids = [v["id"] for v in VECTORS]
    assert len(set(ids)) == len(ids), "vector ids are unique"
    assert all(v["about"].strip() for v in VECTORS)
    assert {f"fft-example-{n}" for n in range(1, 6)} <= set(ids), "the rulebook's five examples"
    assert all(("expected" in v) != bool(v.get("reject")) for v in VECTORS)


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
