"""replay_tape: the tapes recorded against vmd (Tests/Tapes) replay green through the Python
client; a changed tape raises TapeMismatch with the divergence; bad tapes raise BadTape."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from conftest import REPO_ROOT
from vmd_client import BadTape, TapeMismatch, replay_tape

TAPES = REPO_ROOT / "Tests" / "Tapes"


@pytest.mark.parametrize("name", ["counter.tape", "login.tape", "todolist.tape"])
def test_the_recorded_tapes_replay_green(socket_path: str, name: str) -> None:
    assert replay_tape(str(TAPES / name), socket_path) >= 4


def test_a_tape_from_creation_replays_at_its_recorded_pace(socket_path: str) -> None:
    # follow.tape: vmd recorded a Follow from its creation (a 100 ms load), toggled at t 412.
    started = time.monotonic()
    assert replay_tape(str(TAPES / "follow.tape"), socket_path) == 1
    assert time.monotonic() - started >= 0.4
    # Back to back, the toggle meets the load still running: the first divergence.
    with pytest.raises(TapeMismatch, match=r"step 1 \(line 6\): action toggle had another outcome"):
        replay_tape(str(TAPES / "follow.tape"), socket_path, speed=None)


def test_a_sendlist_tape_replays_green_its_ids_matched_by_place(socket_path: str, tmp_path: Path) -> None:
    # sendlist.tape: vmd recorded upload 2 and receipt sendreceipt-2; each replay stores another.
    tape = TAPES / "sendlist.tape"
    assert replay_tape(str(tape), socket_path) == 4
    assert replay_tape(str(tape), socket_path) == 4
    text = tape.read_text(encoding="utf-8")
    navigate = next(line for line in text.split("\n") if '"output":"navigate"' in line)
    mutated = tmp_path / "sendlist.tape"
    mutated.write_text(text.replace(navigate, navigate.replace('"instance":"sendreceipt-2"', '"instance":"sendreceipt-9"')),
                       encoding="utf-8")
    with pytest.raises(TapeMismatch, match="sendreceipt-9"):
        replay_tape(str(mutated), socket_path)


def test_a_search_the_user_waited_for_replays_at_its_pace_and_fails_back_to_back(socket_path: str) -> None:
    tape = TAPES / "search.tape"
    assert replay_tape(str(tape), socket_path) == 3
    with pytest.raises(TapeMismatch, match=r'output "results" differs at value #2'):
        replay_tape(str(tape), socket_path, speed=None)


def test_a_changed_expectation_raises_the_first_divergence_and_its_step(socket_path: str, tmp_path: Path) -> None:
    text = (TAPES / "counter.tape").read_text(encoding="utf-8")
    changed = tmp_path / "changed.tape"
    changed.write_text(text.replace('"value":40}', '"value":41}'), encoding="utf-8")
    with pytest.raises(TapeMismatch) as raised:
        replay_tape(str(changed), socket_path)
    message = str(raised.value)
    assert 'output "count" differs at value #4' in message
    assert "expected: 41" in message and "got:      40" in message
    assert "after:    step 3 (line 7): input set 40" in message


def test_a_changed_outcome_raises_at_its_action(socket_path: str, tmp_path: Path) -> None:
    text = (TAPES / "login.tape").read_text(encoding="utf-8")
    changed = tmp_path / "login.tape"
    changed.write_text(text.replace('{"result":"demo@example.com"}', '{"result":"someone@else"}'), encoding="utf-8")
    with pytest.raises(TapeMismatch, match=r"step 3 \(line 7\): action submit had another outcome"):
        replay_tape(str(changed), socket_path)


@pytest.mark.parametrize("text, expected", [
    ("", "the tape is empty"),
    ('{"tape":4,"type":"Counter"}\n', "unsupported tape version 4"),
    ('{"tape":2,"type":"Counter","fromCreation":false,"dropped":5}\n', "dropped the first 5 events"),
    ('{"tape":1,"type":"Nope"}\n', 'Unknown type "Nope"'),
    ('{"tape":1,"type":"Counter"}\n{"event":"input","inp', "line 2: not JSON"),
    ('{"tape":1,"type":"Counter"}\n{"event":"action","action":"reset"}\n', "is the tape truncated?"),
])
def test_bad_tapes_raise_bad_tape(socket_path: str, tmp_path: Path, text: str, expected: str) -> None:
    bad = tmp_path / "bad.tape"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(BadTape) as raised:
        replay_tape(str(bad), socket_path)
    assert expected in str(raised.value)


def test_an_instance_created_with_record_has_its_tape_from_creation(socket_path: str) -> None:
    from vmd_client import Client, NotRecording
    with Client(socket_path) as vmd:
        counter = vmd.create("Counter", args={"start": 5}, record=True).instance
        vmd.send(counter, "increment", 2)
        tape = vmd.tape(counter)
        assert tape[0] == {"tape": 2, "type": "Counter", "args": {"start": 5}, "instance": counter, "fromCreation": True}
        assert [(line["event"], line["value"]) for line in tape[1:]] == [("output", 5), ("input", 2), ("output", 7)]
        plain = vmd.create("Counter").instance
        with pytest.raises(NotRecording):
            vmd.tape(plain)
