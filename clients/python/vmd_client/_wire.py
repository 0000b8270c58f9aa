"""Framing and message shapes shared by the sync and asyncio clients (no I/O here)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ._errors import FrameTooLarge

#: The daemon's default ``maxFrameBytes``: the largest line a client may send.
DEFAULT_MAX_FRAME_BYTES = 1048576
#: The protocol level this client speaks (``daemon.info``'s ``protocol``).
PROTOCOL_LEVEL = 1


class _Missing:
    """Marks an omitted optional argument (``None`` is the JSON value ``null``)."""

    _instance: Optional["_Missing"] = None

    def __new__(cls) -> "_Missing":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()


def encode_frame(message: Any, max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES) -> bytes:
    """One NDJSON frame: compact UTF-8 JSON and ``\\n``.

    Raises :class:`FrameTooLarge` when the body exceeds ``max_frame_bytes``: the daemon
    would answer limitReached and close the connection.
    """
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    if len(body) > max_frame_bytes:
        raise FrameTooLarge(
            "message is %d bytes; the daemon accepts at most %d per frame" % (len(body), max_frame_bytes)
        )
    return body + b"\n"


class LineSplitter:
    """Cuts a byte stream into lines. Lines from the daemon are unbounded (``vm.list``
    and ``rpc.discover`` can exceed any frame limit), so nothing here caps them."""

    def __init__(self) -> None:
        self._pending = bytearray()

    def feed(self, chunk: bytes) -> List[bytes]:
        """Add bytes; return every line they complete, without the ``\\n``."""
        if b"\n" not in chunk:
            self._pending += chunk
            return []
        self._pending += chunk
        *lines, rest = bytes(self._pending).split(b"\n")
        self._pending = bytearray(rest)
        return [line for line in lines if line.strip()]

    @property
    def pending_bytes(self) -> int:
        return len(self._pending)


def decode_line(line: bytes) -> Any:
    """Parse one frame; ``ValueError`` when it is not JSON."""
    return json.loads(line.decode("utf-8"))


def request(request_id: int, method: str, params: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    message: Dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = dict(params)
    return message


def notification(method: str, params: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    message: Dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = dict(params)
    return message


def params(**members: Any) -> Dict[str, Any]:
    """A params object without the members left :data:`MISSING` (``None`` is kept as null)."""
    return {key: value for key, value in members.items() if value is not MISSING}


def execute_params(instance: str, action: str, value: Any, timeout_ms: Optional[int],
                   progress: bool, reset_timeout_on_progress: bool) -> Dict[str, Any]:
    """``vm.execute``'s params; the optional members only when they differ from the default."""
    return params(instance=instance, action=action, value=value,
                  timeoutMs=MISSING if timeout_ms is None else timeout_ms,
                  progress=True if progress else MISSING,
                  resetTimeoutOnProgress=True if reset_timeout_on_progress else MISSING)


@dataclass(frozen=True)
class Output:
    """One ``vm.output`` notification: a value of a watched output.

    On a subscription opened with ``patches=True`` the daemon may send an RFC 6902 patch
    instead of the value; the subscription applies it, so :attr:`value` is always the whole
    value, and :attr:`patch` is the patch as it came (``None`` when the value came whole).
    """

    subscription: str
    instance: str
    output: str
    value: Any
    seq: int
    replay: bool = False
    patch: Optional[List[Any]] = None

    @classmethod
    def from_params(cls, p: Mapping[str, Any]) -> "Output":
        patch = p.get("patch") if "value" not in p else None
        return cls(p["subscription"], p["instance"], p["output"], p.get("value"), p["seq"], p.get("replay") is True,
                   patch if isinstance(patch, list) else None)


class PatchError(ValueError):
    """An RFC 6902 patch could not be applied (the message names the operation)."""


def _pointer(text: str) -> List[str]:
    if text == "":
        return []
    if not text.startswith("/"):
        raise PatchError("invalid JSON Pointer %r" % (text,))
    return [token.replace("~1", "/").replace("~0", "~") for token in text[1:].split("/")]


def _index(token: str, size: int, allow_end: bool) -> int:
    if allow_end and token == "-":
        return size
    if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        raise PatchError("%r is not an array index" % (token,))
    index = int(token)
    if index > size or (index == size and not allow_end):
        raise PatchError("index %d is out of range (the array has %d elements)" % (index, size))
    return index


def _get(document: Any, tokens: List[str]) -> Any:
    for token in tokens:
        if isinstance(document, dict):
            if token not in document:
                raise PatchError("no member %r" % (token,))
            document = document[token]
        elif isinstance(document, list):
            document = document[_index(token, len(document), False)]
        else:
            raise PatchError("%r is inside a value that is neither an object nor an array" % (token,))
    return document


def _edit(document: Any, tokens: List[str], op: str, value: Any = None) -> Tuple[Any, Any]:
    """``document`` with the edit at ``tokens``, copying only the containers on the path
    (the caller's value is never changed); returns (new document, removed value)."""
    if not tokens:
        if op == "remove":
            raise PatchError("cannot remove the whole document")
        return value, None
    head, rest = tokens[0], tokens[1:]
    if isinstance(document, dict):
        copy: Any = dict(document)
        if rest:
            if head not in copy:
                raise PatchError("no member %r" % (head,))
            copy[head], removed = _edit(copy[head], rest, op, value)
        elif op == "add":
            copy[head], removed = value, None
        elif head not in copy:
            raise PatchError("no member %r" % (head,))
        elif op == "replace":
            copy[head], removed = value, None
        else:
            removed = copy.pop(head)
        return copy, removed
    if isinstance(document, list):
        copy = list(document)
        if rest:
            index = _index(head, len(copy), False)
            copy[index], removed = _edit(copy[index], rest, op, value)
        elif op == "add":
            copy.insert(_index(head, len(copy), True), value)
            removed = None
        elif op == "replace":
            copy[_index(head, len(copy), False)], removed = value, None
        else:
            removed = copy.pop(_index(head, len(copy), False))
        return copy, removed
    raise PatchError("%r is inside a value that is neither an object nor an array" % (head,))


def apply_patch(document: Any, patch: List[Any]) -> Any:
    """The result of applying an RFC 6902 patch to ``document`` (which is left unchanged)."""
    for position, operation in enumerate(patch):
        try:
            op = operation["op"]
            path = _pointer(operation["path"])
            if op in ("add", "replace"):
                document, _ = _edit(document, path, op, operation["value"])
            elif op == "remove":
                document, _ = _edit(document, path, "remove")
            elif op in ("move", "copy"):
                source = _pointer(operation["from"])
                if op == "move":
                    if source == path:
                        continue
                    if path[:len(source)] == source:
                        raise PatchError("cannot move a value into its own child")
                    document, moved = _edit(document, source, "remove")
                else:
                    moved = _get(document, source)
                document, _ = _edit(document, path, "add", moved)
            elif op == "test":
                if _get(document, path) != operation["value"]:
                    raise PatchError("test failed")
            else:
                raise PatchError("unknown op %r" % (op,))
        except PatchError as error:
            raise PatchError("operation %d (%s): %s" % (position, operation.get("op"), error)) from None
        except (KeyError, TypeError, AttributeError):
            raise PatchError("operation %d is malformed: %r" % (position, operation)) from None
    return document


class Materializer:
    """Per output, the value a subscription delivered last; turns patched outputs into whole ones.

    A patch applies only on top of the value delivered right before it: after a gap in seq
    or a ``vm.overflow`` the values held are forgotten, and patches wait for a whole value
    (PROTOCOL.md, section 18, "Patches across a resume")."""

    def __init__(self) -> None:
        self._last: Dict[str, Any] = {}
        self._seq: Optional[int] = None

    def materialize(self, output: Output) -> Output:
        if self._seq is not None and output.seq != self._seq + 1:
            self._last.clear()
        self._seq = output.seq
        if output.patch is not None:
            if output.output not in self._last:
                raise PatchError("a patch for %r arrived without the value before it" % (output.output,))
            try:
                output = replace(output, value=apply_patch(self._last[output.output], output.patch))
            except PatchError:
                del self._last[output.output]
                raise
        self._last[output.output] = output.value
        return output

    def accept(self, item: Any) -> Any:
        """What a subscription queues for ``item``: an output made whole; ``None`` for an output
        whose patch has no value to apply to or does not apply (it is discarded: a value the
        instance never held is never delivered); anything else as it came."""
        if isinstance(item, Overflow) and item.lost_to > (self._seq or 0):
            self._last.clear()
        if isinstance(item, Output):
            try:
                return self.materialize(item)
            except PatchError:
                return None
        return item


@dataclass(frozen=True)
class Progress:
    """One ``vm.progress`` notification: how far the ``vm.execute`` whose id is ``request``
    has come. All arrive before that call's reply; ``completed`` never decreases."""

    request: Any
    instance: str
    action: str
    completed: float
    total: Optional[float] = None
    message: Optional[str] = None

    @property
    def fraction(self) -> Optional[float]:
        """``completed / total`` between 0 and 1, when the total is known and not zero."""
        if not self.total:
            return None
        return min(1.0, max(0.0, self.completed / self.total))

    @classmethod
    def from_params(cls, p: Mapping[str, Any]) -> "Progress":
        return cls(p["request"], p.get("instance", ""), p.get("action", ""), p["completed"],
                   p.get("total"), p.get("message"))


@dataclass(frozen=True)
class Overflow:
    """One ``vm.overflow`` notification: seqs ``lost_from``..``lost_to`` were never written."""

    subscription: str
    instance: str
    lost_from: int
    lost_to: int

    @classmethod
    def from_params(cls, p: Mapping[str, Any]) -> "Overflow":
        lost = p.get("lost") or {}
        return cls(p["subscription"], p.get("instance", ""), lost.get("from", 0), lost.get("to", 0))


@dataclass(frozen=True)
class Closed:
    """One ``vm.closed`` notification: the subscription ended because its instance went away."""

    instance: str
    subscription: str
    reason: str

    @classmethod
    def from_params(cls, p: Mapping[str, Any]) -> "Closed":
        return cls(p.get("instance", ""), p["subscription"], p.get("reason", "other"))


@dataclass(frozen=True)
class MonitorMessage:
    """One ``daemon.message`` notification of a monitor."""

    monitor: str
    seq: int
    direction: str
    connection: int
    message: Any

    @classmethod
    def from_params(cls, p: Mapping[str, Any]) -> "MonitorMessage":
        return cls(p["monitor"], p.get("seq", 0), p.get("direction", ""), p.get("connection", 0), p.get("message"))


@dataclass(frozen=True)
class Notification:
    """Any notification from the daemon, as received (unknown ones included)."""

    method: str
    params: Dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Created:
    """The result of ``vm.create``. ``subscription`` is set when ``subscribe`` was asked;
    its type is the client's subscription class."""

    instance: str
    type: str
    scope: str
    subscription: Any = None
    #: ``True`` when the instance was created durable (kept across daemon restarts).
    durable: bool = False


def subscribe_options(subscribe: Any) -> Any:
    """``vm.create``'s ``subscribe``: ``True``/``{}`` for every output, a list of output
    names, or a mapping ``{outputs?, replay?, patches?}``; ``None``/``False`` for none."""
    if subscribe is None or subscribe is False or subscribe is MISSING:
        return MISSING
    if subscribe is True:
        return {}
    if isinstance(subscribe, (list, tuple)):
        return {"outputs": list(subscribe)}
    if isinstance(subscribe, Mapping):
        return dict(subscribe)
    raise TypeError("subscribe must be True, a list of output names or a mapping, not %r" % (subscribe,))


def opened_session(opened: Any) -> Optional[Tuple[str, Any, int]]:
    """``(token, session, graceMs)`` from a ``session.open`` result; None when it gives no
    resumable session (no token, or a grace of 0). Protocol/PROTOCOL.md, section 18."""
    grace = opened.get("graceMs") if isinstance(opened, dict) else None
    token = opened.get("token") if isinstance(opened, dict) else None
    if isinstance(grace, int) and grace > 0 and isinstance(token, str):
        return token, opened.get("session"), grace
    return None


def resume_refusal(info: Any, known_boot_id: Optional[str]) -> Tuple[Optional[str], bool, str]:
    """After a refused ``session.resume``: the ``bootId`` of the ``daemon.info`` result
    ``info``, whether the daemon restarted (a ``bootId`` other than ``known_boot_id``), and
    the closed reason that gives subscriptions (``daemonRestarted`` or ``sessionExpired``)."""
    boot_id = info.get("bootId") if isinstance(info, dict) else None
    restarted = boot_id is not None and known_boot_id is not None and boot_id != known_boot_id
    return boot_id, restarted, "daemonRestarted" if restarted else "sessionExpired"


def lost_ranges(marks: Mapping[str, int], gaps: Mapping[str, List[Tuple[int, int]]]) -> List[Dict[str, Any]]:
    """The ``lost`` of a ``resumed`` event: for each subscription, the gaps recorded after
    its mark (how many it had when the resume began)."""
    return [{"subscription": key, "fromSeq": low, "toSeq": high}
            for key, mark in marks.items() for low, high in gaps[key][mark:]]


def resubscribe_params(instance: str, follow: Mapping[str, Any]) -> Dict[str, Any]:
    """The ``vm.subscribe`` params that open a subscription again after the daemon restarted
    (PROTOCOL.md, section 18, "After a restart"): what it watched, with ``replay`` so the
    instance's current values come."""
    params = {key: value for key, value in follow.items() if key in ("outputs", "patches")}
    params["instance"] = instance
    params["replay"] = True
    return params
