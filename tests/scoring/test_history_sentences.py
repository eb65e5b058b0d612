"""The sheet history's sentences (:mod:`scoring.history`): any deal, any correction, in French and
English, reads as words — never a code, a Python value or a dump."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import get_rule_set
from scoring.engine.sampling import random_legal_deal
from scoring.history import WRITERS, amended, deal_description, history_lines

NAMES = ["Léa Martin", "Hugo Petit", "Zoé Durand", "Noël Roux", "Inès Faure"]
RAW = ["None", "True", "False", "{", "[", "_", "garde_sans", "garde_contre"]
ENGLISH = ["attack", "defence", "handful", "oudler", "taker", " by ", " at "]  # never in French
AT = datetime(2026, 5, 17, 19, 52, tzinfo=UTC)


def snapshot(seed: int, players: int = 4, kind: str = "played") -> dict:
    """A deal as the event log keeps it (table positions), from a legal engine deal."""
    if kind == "passed":
        return {
            "kind": "passed",
            "dealer": 0,
            "taker": None,
            "contract": "",
            "oudlers": None,
            "points": None,
            "handfuls": [],
            "petit_au_bout": "",
            "slam_announced": False,
            "slam": "",
            "note": "",
            "scores": [0] * players,
        }
    deal = random_legal_deal(random.Random(seed), players, get_rule_set("fft"))
    return {
        "kind": kind,
        "dealer": 0,
        "taker": deal.taker,
        "contract": str(deal.contract),
        "oudlers": deal.oudlers,
        "points": f"{deal.points.normalize():f}",
        "handfuls": [{"seat": h.seat, "size": str(h.size)} for h in deal.handfuls],
        "petit_au_bout": str(deal.petit_au_bout) if deal.petit_au_bout else "",
        "slam_announced": deal.slam_announced,
        "slam": str(deal.slam) if deal.slam else "",
        "note": "Annonce hors tour" if kind == "referee" else "",
        "scores": [0] * players,
    }


def event(action: str, pk: int, reason: str = "", user: bool = True, **data):
    return SimpleNamespace(
        pk=pk,
        at=AT,
        action=action,
        reason=reason,
        data=data,
        actor_id=1 if user else None,
        actor_label="arbitre1" if user else "Lien de table",
    )


def assert_words(text: str, language: str = "en") -> None:
    for raw in RAW + (ENGLISH if language == "fr" else []):
        assert raw not in text, (raw, text)


@settings(max_examples=60)
@given(
    seed=st.integers(0, 10_000),
    other=st.integers(0, 10_000),
    players=st.sampled_from([3, 4, 5]),
    kinds=st.tuples(*[st.sampled_from(["played", "passed", "referee"])] * 2),
    language=st.sampled_from(["fr", "en"]),
)
def test_every_event_reads_as_words(seed, other, players, kinds, language):
    before = snapshot(seed, players, kinds[0])
    after = snapshot(other, players, kinds[1])
    events = [
        event("deal_created", 1, user=False, deal=1, before=None, after=before),
        event("signed", 2, user=False, player=NAMES[0], method="pin"),
        event("deal_corrected", 3, reason="Erreur de saisie", deal=1, before=before, after=after),
        event("penalty", 4, reason="Retard", player=NAMES[1], amount=-20),
        event("deal_removed", 5, reason="Donne en trop", deal=1, before=after),
        event("paper_totals", 6, before=[], after=[30, -10, -20]),
        event("paper_totals", 7, reason="Erreur", before=[30, -10, -20], after=[40, -20, -20]),
        event("signed", 8, method="paper"),
    ]
    with translation.override(language):
        lines = history_lines(events, NAMES)
    assert [line.after_signature for line in lines] == [
        False,
        False,
        True,
        False,
        False,
        False,
        False,
        False,
    ]
    for line in lines:
        assert_words(line.sentence, language)
        assert "19:52" in line.sentence or "21:52" in line.sentence  # local time (Paris)


def test_the_example_of_the_issue_in_french():
    before = {**snapshot(1), "points": "47", "contract": "garde", "taker": 0}
    after = {**before, "points": "45"}
    with translation.override("fr"):
        (line,) = history_lines(
            [
                event(
                    "deal_corrected",
                    1,
                    reason="erreur de comptage",
                    deal=2,
                    before=before,
                    after=after,
                )
            ],
            NAMES,
        )
    assert line.sentence == (
        "Donne 2 corrigée par arbitre1 à 21:52\u00a0: 47 → 45 points "
        "(motif\u00a0: erreur de comptage)"
    )


def test_a_table_link_is_named_in_the_readers_language():
    created = event("deal_created", 1, user=False, deal=1, after=snapshot(2))
    with translation.override("en"):
        (line,) = history_lines([created], NAMES)
    assert line.sentence.startswith("Deal 1 entered by the table link at")


def test_a_new_kind_of_event_gets_a_sentence_from_one_function(monkeypatch):
    """What a later kind of event (a referee's ruling) needs: one writer in WRITERS."""
    monkeypatch.setitem(WRITERS, "ruling", lambda e, names: f"Décision pour {names[0]}")
    with translation.override("fr"):
        (line,) = history_lines([event("ruling", 1, reason="Renonce")], NAMES)
    assert line.sentence == "Décision pour Léa Martin (motif\u00a0: Renonce)"


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_passed_deal_and_a_decided_one(language):
    with translation.override(language):
        assert_words(deal_description(snapshot(3, kind="passed"), NAMES), language)
        text = deal_description(snapshot(3, kind="referee"), NAMES)
    assert_words(text, language)
    assert "Annonce hors tour" in text


@pytest.mark.parametrize(
    ("log", "expected"),
    [
        ([("deal_created", ""), ("signed", "")], False),
        ([("deal_created", ""), ("signed", ""), ("signed", "")], False),
        ([("deal_created", ""), ("signed", ""), ("deal_corrected", "")], True),  # after a signature
        ([("deal_created", ""), ("penalty", "Retard"), ("signed", "")], True),  # with a reason
        ([("deal_created", ""), ("deal_corrected", ""), ("signed", "")], False),
        ([("signed", "Oubli")], False),  # a signature is no change, whatever its reason
    ],
)
def test_an_amendment_is_a_change_after_a_signature_or_with_a_reason(log, expected):
    assert amended(log) is expected


@settings(max_examples=80)
@given(
    log=st.lists(
        st.tuples(
            st.sampled_from(["deal_created", "deal_corrected", "signed", "penalty"]),
            st.sampled_from(["", "Erreur"]),
        ),
        max_size=8,
    )
)
def test_the_light_reading_of_a_log_agrees_with_its_history(log):
    """The workbook reads the log without the events' data (``scoring.selectors``): it finds an
    amendment exactly when the history, replayed in full, has a line for the amendment box."""
    events = [event(action, pk, reason=reason) for pk, (action, reason) in enumerate(log, 1)]
    with translation.override("en"):
        lines = history_lines(events, NAMES)
    assert amended(log) == any(line.amends for line in lines)
