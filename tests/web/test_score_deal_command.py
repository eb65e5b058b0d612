"""``manage.py score_deal``: JSON in, JSON out, exit status 2 on any invalid deal."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = {
    "players": 4,
    "taker": 0,
    "partner": None,
    "contract": "garde",
    "oudlers": 2,
    "points": 49,
    "handfuls": [{"seat": 0, "size": "simple"}],
    "petit_au_bout": "attack",
    "slam_announced": False,
    "slam": None,
}


def run(payload: str, *args: str):
    done = subprocess.run(
        [sys.executable, "manage.py", "score_deal", *args],
        input=payload,
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={"DJANGO_TESTING": "1", "PATH": "/usr/bin:/bin"},
    )
    return done.returncode, done.stdout, done.stderr


def test_one_deal():
    code, out, _ = run(json.dumps(EXAMPLE))
    assert code == 0
    data = json.loads(out)
    assert data["scores"] == [318, -106, -106, -106]
    assert data["explanation"]["amount_per_defender"] == 106
    assert data["explanation"]["rule_set"] == "fft"


def test_a_list_keeps_order_and_exits_2_when_one_is_invalid():
    bad = {**EXAMPLE, "points": "40.5"}
    code, out, _ = run(json.dumps([EXAMPLE, bad, {**EXAMPLE, "players": 3, "points": "40.5"}]))
    assert code == 2
    first, second, third = json.loads(out)
    assert first["scores"] == [318, -106, -106, -106]
    assert second["errors"][0]["field"] == "points"
    assert second["errors"][0]["message"]
    # 3 players, garde lost by 1 (40.5 for 41), petit au bout +20, handful to the defence -20
    assert third["scores"] == [-104, 52, 52]


def test_not_json_is_a_clear_error():
    code, out, _ = run("{not json")
    assert code == 2
    assert json.loads(out)["errors"][0]["field"] == "input"


def test_english_messages_on_request():
    code, out, _ = run(json.dumps({**EXAMPLE, "oudlers": 4}), "--language", "en")
    assert code == 2
    assert (
        json.loads(out)["errors"][0]["message"] == "The attack holds 0, 1, 2 or 3 oudlers, not 4."
    )


def test_house_rule_set():
    triple = {**EXAMPLE, "handfuls": [{"seat": 0, "size": "triple"}], "petit_au_bout": None}
    code, out, _ = run(json.dumps(triple), "--rules", "house-handfuls-20-40-60")
    assert code == 0
    assert json.loads(out)["explanation"]["handful_points"] == 60
