"""Replaying tapes (Protocol/PROTOCOL.md, section 17) against a running vmd, as `vmctl replay` does.

A tape is NDJSON: a header ``{"tape": 3, "type", "args", "fromCreation"?, "dropped"?, "ids"?}``
(versions 1 and 2 still read), then input, action and output events, each with ``t``, milliseconds
since the recording started. :func:`replay_tape` creates a fresh connection-scoped instance
of the header's type, performs the inputs and actions in order, each at its recorded ``t``
(divided by ``speed``; ``speed=None`` sends them back to back) and each action's outcome
awaited, then compares per output the sequence of values, and each action's outcome, with
the tape. A tape whose first events the daemon dropped (``dropped``) is refused. Ids the
run makes up (the header's ``ids``: a child scene's instance id, a store's id) are matched by
place, as the protocol says (section 17, "Ids").
"""

from __future__ import annotations

import json
import time
from typing import Any, Dict, List, Optional, Tuple

from ._errors import CallTimeout, UnknownType, VMDError
from ._sync import Client
from ._wire import MISSING

TAPE_VERSIONS = (1, 2, 3)


class BadTape(ValueError):
    """The file is not a usable tape: empty, truncated, another version, unknown type."""


class TapeMismatch(AssertionError):
    """The replay diverged from the tape; the message is the first divergence, expected
    versus got, and the step that preceded it."""


def _parse(text: str) -> Tuple[Dict[str, Any], List[Dict[str, Any]]]:
    lines = [(number, line) for number, line in enumerate(text.split("\n"), start=1) if line.strip()]
    if not lines:
        raise BadTape("the tape is empty")
    events = []
    for number, line in lines:
        try:
            value = json.loads(line)
        except ValueError as error:
            raise BadTape("line %d: not JSON (%s); is the tape truncated?" % (number, error)) from None
        if not isinstance(value, dict):
            raise BadTape("line %d: expected a JSON object" % number)
        value["_line"] = number
        events.append(value)
    header = events.pop(0)
    if "tape" not in header:
        raise BadTape("line 1: not a tape header (no \"tape\" version)")
    if header["tape"] not in TAPE_VERSIONS or isinstance(header["tape"], bool):
        raise BadTape("line 1: unsupported tape version %s; this client reads versions %d to %d"
                      % (json.dumps(header["tape"]), TAPE_VERSIONS[0], TAPE_VERSIONS[-1]))
    if not isinstance(header.get("type"), str):
        raise BadTape("line 1: the header has no \"type\" string")
    dropped = header.get("dropped", 0)
    if isinstance(dropped, int) and not isinstance(dropped, bool) and dropped > 0:
        raise BadTape("the recorder dropped the first %d events of this tape, so it no longer starts at the "
                      "instance's creation and cannot be replayed" % dropped)
    for event in events:
        kind = event.get("event")
        number = event["_line"]
        if kind not in ("input", "action", "output"):
            raise BadTape("line %d: unknown event %s" % (number, json.dumps(kind)))
        if not isinstance(event.get(kind), str):
            raise BadTape("line %d: an %s event needs a \"%s\" string" % (number, kind, kind))
        if kind == "action":
            outcome = event.get("outcome")
            if not isinstance(outcome, dict) or (("result" in outcome) == ("error" in outcome)):
                raise BadTape("line %d: an action event needs \"outcome\": {\"result\": ...} or "
                              "{\"error\": ...} (is the tape truncated?)" % number)
        if kind == "output" and "value" not in event:
            raise BadTape("line %d: an output event needs a \"value\"" % number)
    return header, events


def _same_outcome(expected: Dict[str, Any], got: Dict[str, Any]) -> bool:
    if "error" in expected:
        error = expected["error"]
        other = got.get("error")
        return other is not None and error.get("code") == other.get("code") and \
            (error.get("data") or {}).get("name") == (other.get("data") or {}).get("name")
    return "error" not in got and expected.get("result") == got.get("result")


class _RunIds:
    """The header's ``ids`` and what the replay learned of them: a recorded id and a replayed id
    met at the same place are bound; a bound replayed id reads as its recorded id, and a step
    sends a bound recorded id as its replayed id. In outputs and results the replay's instance
    id, and ids derived from it (``parent.name``), read with the recorded instance id."""

    def __init__(self, header: Dict[str, Any], expected: Dict[str, List[Tuple[Any, int]]],
                 replay_instance: Optional[str] = None) -> None:
        ids = header.get("ids")
        self._places: Dict[str, List[List[str]]] = {}
        if isinstance(ids, dict):
            for port, pointers in ids.items():
                if isinstance(pointers, list):
                    self._places[port] = [[token.replace("~1", "/").replace("~0", "~")
                                           for token in pointer.split("/")[1:]]
                                          for pointer in pointers if isinstance(pointer, str)]
        self._expected = expected
        self._emitted: Dict[str, int] = {}
        self._replayed_for: Dict[str, Any] = {}
        self._recorded_for: Dict[str, Any] = {}
        recorded = header.get("instance")
        self._instance = (recorded, replay_instance) \
            if isinstance(recorded, str) and replay_instance is not None and replay_instance != recorded else None

    @staticmethod
    def _key(value: Any) -> str:
        return json.dumps(value, sort_keys=True, separators=(",", ":"))

    @staticmethod
    def _at(value: Any, place: List[str]) -> Any:
        for token in place:
            if not isinstance(value, dict) or token not in value:
                return MISSING
            value = value[token]
        return value

    @staticmethod
    def _with(value: Any, place: List[str], new: Any) -> Any:
        if not place:
            return new
        if not isinstance(value, dict) or place[0] not in value:
            return value
        return {**value, place[0]: _RunIds._with(value[place[0]], place[1:], new)}

    def recorded(self, got: Any, port: str, expected: Any = MISSING) -> Any:
        """``got`` (what ``port`` emitted or returned) with its bound replayed ids read as the
        recorded ones; an id met for the first time is bound to ``expected``'s at its place."""
        if self._instance is not None:
            got = self._renaming(got, *self._instance)
        value = got
        for place in self._places.get(port, []):
            replayed = self._at(got, place)
            if replayed is MISSING:
                continue
            if self._key(replayed) in self._recorded_for:
                value = self._with(value, place, self._recorded_for[self._key(replayed)])
                continue
            recorded = self._at(expected, place) if expected is not MISSING else MISSING
            if recorded is not MISSING and self._key(recorded) not in self._replayed_for:
                self._replayed_for[self._key(recorded)] = replayed
                self._recorded_for[self._key(replayed)] = recorded
                value = self._with(value, place, recorded)
        return value

    def output(self, name: str, value: Any) -> Any:
        """The next value of output ``name``, matched with the tape's at the same position."""
        if name not in self._places:
            return self.recorded(value, name)
        index = self._emitted.get(name, 0)
        self._emitted[name] = index + 1
        want = self._expected.get(name, [])
        return self.recorded(value, name, want[index][0] if index < len(want) else MISSING)

    @staticmethod
    def _renaming(value: Any, recorded: str, replayed: str) -> Any:
        """``value`` with each string that is ``replayed``, or starts with it and a ".", written
        with ``recorded`` in its place."""
        if isinstance(value, str):
            if value == replayed or value.startswith(replayed + "."):
                return recorded + value[len(replayed):]
            return value
        if isinstance(value, list):
            return [_RunIds._renaming(item, recorded, replayed) for item in value]
        if isinstance(value, dict):
            return {key: _RunIds._renaming(item, recorded, replayed) for key, item in value.items()}
        return value

    def replayed(self, value: Any) -> Any:
        """A step's value with every string that is a bound recorded id sent as its replayed id."""
        if isinstance(value, str):
            return self._replayed_for.get(self._key(value), value)
        if isinstance(value, list):
            return [self.replayed(item) for item in value]
        if isinstance(value, dict):
            return {key: self.replayed(item) for key, item in value.items()}
        return value


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def replay_tape(path: str, socket_path: Optional[str] = None, *, settle: float = 2.0,
                speed: Optional[float] = 1.0) -> int:
    """Replays the tape at ``path`` against the vmd at ``socket_path`` (the usual rule when
    ``None``), each step at its recorded ``t`` divided by ``speed`` (``None``: no waits, as
    ``vmctl replay --no-wait``). Returns the number of steps replayed; raises
    :class:`TapeMismatch` with the first divergence, or :class:`BadTape`."""
    if speed is not None and not speed > 0:
        raise ValueError("speed must be a positive number or None, not %r" % (speed,))
    with open(path, encoding="utf-8") as file:
        header, events = _parse(file.read())
    steps = [event for event in events if event["event"] != "output"]

    def label(index: int) -> str:
        if index < 0:
            return "the instance's creation"
        step = steps[index]
        value = " " + _dump(step["value"]) if "value" in step else ""
        return "step %d (line %d): %s %s%s" % (index + 1, step["_line"], step["event"], step[step["event"]], value)

    expected: Dict[str, List[Tuple[Any, int]]] = {}
    done = 0
    for event in events:
        if event["event"] == "output":
            expected.setdefault(event["output"], []).append((event["value"], done))
        else:
            done += 1

    with Client(socket_path) as vmd:
        try:
            created = vmd.create(header["type"], args=header.get("args") or None, scope="connection",
                                 subscribe={"replay": True})
        except UnknownType as error:
            raise BadTape("%s: the daemon cannot create its instance: %s" % (path, error.message)) from None
        subscription = created.subscription
        ids = _RunIds(header, expected, created.instance)
        start = time.monotonic()
        got: Dict[str, List[Tuple[Any, int]]] = {}
        steps_done = 0

        def drain(wait: float) -> bool:
            try:
                output = subscription.next(timeout=wait)
            except (CallTimeout, StopIteration):
                return False
            got.setdefault(output.output, []).append((ids.output(output.output, output.value), steps_done))
            return True

        divergence: Optional[str] = None
        divergence_step = len(steps)
        for index, step in enumerate(steps):
            offset = step.get("t")
            if speed is not None and isinstance(offset, int) and not isinstance(offset, bool):
                due = start + offset / 1000.0 / speed
                while time.monotonic() < due:
                    if not drain(due - time.monotonic()):
                        time.sleep(max(0.0, due - time.monotonic()))
            while drain(0):
                pass
            value = ids.replayed(step["value"]) if "value" in step else MISSING
            if step["event"] == "input":
                try:
                    vmd.send(created.instance, step["input"], value)
                except VMDError as error:
                    if divergence is None:
                        divergence = "%s failed: %s\n  expected: accepted" % (label(index), error)
                        divergence_step = index
            else:
                try:
                    result = vmd.execute(created.instance, step["action"], value, timeout_ms=step.get("timeoutMs"))
                    outcome = {"result": ids.recorded(result, step["action"], step["outcome"].get("result", MISSING))}
                except VMDError as error:
                    outcome = {"error": {"code": error.code, "message": error.message, "data": error.data}}
                if divergence is None and not _same_outcome(step["outcome"], outcome):
                    divergence = "%s had another outcome\n  expected: %s\n  got:      %s" % (
                        label(index), _dump(step["outcome"]), _dump(outcome))
                    divergence_step = index
            steps_done = index + 1

        deadline = time.monotonic() + settle
        while any(len(got.get(name, [])) < len(values) for name, values in expected.items()):
            left = deadline - time.monotonic()
            if left <= 0 or not drain(left):
                break
        while drain(0.05):
            pass

    # The earlier of a step's failure and an output's divergence (one before the step caused it).
    best: Optional[Tuple[int, str]] = None
    for name in sorted(set(expected) | set(got)):
        want, have = expected.get(name, []), got.get(name, [])
        for index in range(max(len(want), len(have))):
            wanted = want[index] if index < len(want) else None
            had = have[index] if index < len(have) else None
            if wanted is not None and had is not None and wanted[0] == had[0]:
                continue
            after = min(x[1] for x in (wanted, had) if x is not None)
            text = "output \"%s\" differs at value #%d\n  expected: %s\n  got:      %s\n  after:    %s" % (
                name, index + 1,
                _dump(wanted[0]) if wanted is not None else "(no more values)",
                _dump(had[0]) if had is not None else "(no more values)",
                label(after - 1))
            if best is None or after < best[0]:
                best = (after, text)
            break
    if best is not None and (divergence is None or best[0] <= divergence_step):
        divergence = best[1]
    if divergence is not None:
        raise TapeMismatch("tape %s does not replay: %s" % (path, divergence))
    return len(steps)
