"""Checks the tape format's schema (schemas/tape.json, PROTOCOL.md "Tapes") against the
tapes committed under Tests/Tapes, and that it rejects what a reader must refuse.

Run from the repository root:  clients/python/venv-run python3 -m pytest Protocol/tests -q
"""

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

PROTOCOL_DIR = Path(__file__).resolve().parent.parent
TAPES_DIR = PROTOCOL_DIR.parent / "Tests" / "Tapes"


def tape_validator():
    resources = []
    for path in sorted((PROTOCOL_DIR / "schemas").glob("*.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents, default_specification=DRAFT202012)))
    return Draft202012Validator({"$ref": "urn:vmd:schema:tape"}, registry=Registry().with_resources(resources))


VALIDATOR = tape_validator()
TAPES = sorted(TAPES_DIR.glob("*.tape"))


def test_the_committed_tapes_exist():
    names = {path.name for path in TAPES}
    assert {"counter.tape", "login.tape", "follow.tape", "todolist.tape", "sendlist.tape", "search.tape"} <= names, names


@pytest.mark.parametrize("path", TAPES, ids=lambda path: path.name)
def test_every_line_of_a_committed_tape_follows_the_schema(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["tape"] in (1, 2, 3)
    for number, line in enumerate(lines, start=1):
        errors = [error.message for error in VALIDATOR.iter_errors(json.loads(line))]
        assert not errors, "%s line %d: %s" % (path.name, number, errors)


@pytest.mark.parametrize("line", [
    {"tape": 4, "type": "Counter"},
    {"tape": 3, "type": "SendList", "ids": {"send": "/instance"}},
    {"tape": 1},
    {"tape": 2, "type": "Counter", "dropped": 0},
    {"event": "output", "output": "count"},
    {"event": "action", "action": "reset"},
    {"event": "action", "action": "reset", "outcome": {"result": 0, "error": {"code": 1, "message": "x"}}},
    {"event": "rewind"},
], ids=["wrong-version", "ids-not-a-list", "header-without-type", "dropped-zero", "output-without-value", "action-without-outcome",
        "outcome-with-both", "unknown-event"])
def test_the_schema_rejects_what_a_reader_refuses(line):
    assert list(VALIDATOR.iter_errors(line)), "accepted: %s" % json.dumps(line)
