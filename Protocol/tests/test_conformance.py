"""Conformance: a scripted session through the real vmd, every frame checked against Protocol/.

Every message the daemon writes on any connection of this module goes through
`Wire.receive`, which validates it against Protocol/schemas/ (the Response envelope
and `<method>.result` for replies to our requests, ErrorResponse for errors, the
Notification envelope and `<notification>` params for notifications) before a test
looks at it. Every message we send is validated as well, except frames that are
invalid on purpose. The method set served by rpc.discover must equal
Protocol/openrpc.json's, and every documented method must exist (answer anything
but methodNotFound).

Run from the repository root with VMD_BIN set (default .build/debug/vmd):
    clients/python/venv-run python3 -m pytest Protocol/tests -q
"""

from __future__ import annotations

import json
import select
import socket
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from vmd_client.testing import DaemonProcess

PROTOCOL_DIR = Path(__file__).resolve().parent.parent
DOCUMENT = json.loads((PROTOCOL_DIR / "openrpc.json").read_text(encoding="utf-8"))
METHODS = {method["name"] for method in DOCUMENT["methods"]}
NOTIFICATIONS = {n["name"]: n for n in DOCUMENT["x-notifications"]}
URN = "urn:vmd:schema:"
WAIT = 5.0
#: The built-in Login's demo account (documented by the catalog).
DEMO_EMAIL, DEMO_PASSWORD = "demo@example.com", "secret"


def _registry() -> Registry:
    resources = []
    for path in sorted((PROTOCOL_DIR / "schemas").glob("*.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents, default_specification=DRAFT202012)))
    return Registry().with_resources(resources)


REGISTRY = _registry()
_VALIDATORS: Dict[str, Draft202012Validator] = {}


def assert_valid(schema: str, instance: Any, context: str) -> None:
    validator = _VALIDATORS.get(schema)
    if validator is None:
        validator = _VALIDATORS[schema] = Draft202012Validator({"$ref": URN + schema}, registry=REGISTRY)
    errors = ["%s at /%s: %s" % (schema, "/".join(map(str, e.path)), e.message) for e in validator.iter_errors(instance)]
    assert not errors, "%s\n%s\n%s" % (context, json.dumps(instance)[:2000], "\n".join(errors))


class Stats:
    """Counts validated frames across the module, so the last test can prove coverage."""

    responses = 0
    errors = 0
    notifications: Dict[str, int] = {}
    error_names: set = set()
    methods_succeeded: set = set()


class Wire:
    """One raw connection. NDJSON by default; ``lsp=True`` uses Content-Length frames."""

    def __init__(self, path: str, lsp: bool = False) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.lsp = lsp
        self.buffer = b""
        self.next_id = 0
        self.methods: Dict[Any, str] = {}  # request id -> method, to pick the result schema
        self.inbox: List[Any] = []
        self.seqs: Dict[str, int] = {}  # subscription -> last seq
        self.eof = False

    def close(self) -> None:
        self.sock.close()

    # -------------------------------------------------------------- sending

    def send_raw(self, data: bytes) -> None:
        if self.lsp:
            data = b"Content-Length: %d\r\n\r\n" % len(data) + data
        self.sock.sendall(data if self.lsp else data + b"\n")

    def send(self, message: Any, check: bool = True) -> None:
        items = message if isinstance(message, list) else [message]
        for item in items:
            if isinstance(item, dict) and "id" in item and isinstance(item.get("method"), str):
                self.methods[item["id"]] = item["method"]
            if check:
                self._check_outgoing(item)
        self.send_raw(json.dumps(message, separators=(",", ":")).encode("utf-8"))

    def _check_outgoing(self, item: Dict[str, Any]) -> None:
        context = "client message " + json.dumps(item)[:300]
        assert_valid("Request" if "id" in item else "Notification", item, context)
        method = item["method"]
        if method in METHODS:
            assert_valid(method + ".params", item.get("params", {}), context)
        elif method == "$/cancelRequest":
            assert_valid("cancelRequest", item.get("params", {}), context)

    def request(self, method: str, params: Optional[Dict[str, Any]] = None, check: bool = True) -> int:
        self.next_id += 1
        message: Dict[str, Any] = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message, check)
        return self.next_id

    def notify(self, method: str, params: Optional[Dict[str, Any]] = None) -> None:
        message: Dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    # -------------------------------------------------------------- receiving

    def _frame(self, deadline: float) -> Optional[bytes]:
        while True:
            if self.lsp:
                header_end = self.buffer.find(b"\r\n\r\n")
                if header_end >= 0:
                    headers = self.buffer[:header_end].decode("ascii").split("\r\n")
                    lengths = [int(h.split(":", 1)[1]) for h in headers if h.lower().startswith("content-length:")]
                    assert len(lengths) == 1, "daemon LSP frame without one Content-Length: %r" % headers
                    end = header_end + 4 + lengths[0]
                    if len(self.buffer) >= end:
                        body, self.buffer = self.buffer[header_end + 4:end], self.buffer[end:]
                        return body
            else:
                newline = self.buffer.find(b"\n")
                if newline >= 0:
                    line, self.buffer = self.buffer[:newline], self.buffer[newline + 1:]
                    if line.strip():
                        return line
                    continue
            if self.eof:
                return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("nothing from the daemon within the deadline")
            ready, _, _ = select.select([self.sock], [], [], remaining)
            if ready:
                chunk = self.sock.recv(1 << 20)
                if not chunk:
                    self.eof = True
                self.buffer += chunk

    def receive(self, timeout: float = WAIT) -> Optional[Any]:
        """The next message, validated; None at end of stream."""
        frame = self._frame(time.monotonic() + timeout)
        if frame is None:
            return None
        message = json.loads(frame.decode("utf-8"))
        assert_valid("Envelope", message, "daemon frame")
        for item in (message if isinstance(message, list) else [message]):
            self._check_incoming(item)
        return message

    def _check_incoming(self, item: Dict[str, Any]) -> None:
        context = "daemon message " + json.dumps(item)[:300]
        if "method" in item:
            assert "id" not in item, "the daemon never sends requests: " + context
            assert_valid("Notification", item, context)
            name = item["method"]
            assert name in NOTIFICATIONS and NOTIFICATIONS[name]["direction"] == "daemonToClient", context
            assert_valid(name, item["params"], context)
            Stats.notifications[name] = Stats.notifications.get(name, 0) + 1
            if name == "vm.output":  # O10: seq grows by one per subscription...
                subscription = item["params"]["subscription"]
                expected = self.seqs.get(subscription, 0) + 1
                assert item["params"]["seq"] == expected, "seq gap: " + context
                self.seqs[subscription] = expected
            elif name == "vm.overflow":  # ...except across the range vm.overflow announces
                subscription, lost = item["params"]["subscription"], item["params"]["lost"]
                assert lost["from"] == self.seqs.get(subscription, 0) + 1, "overflow not at the gap: " + context
                self.seqs[subscription] = lost["to"]
            return
        assert_valid("Response", item, context)
        Stats.responses += 1
        if "error" in item:
            assert_valid("ErrorResponse", item, context)
            Stats.errors += 1
            Stats.error_names.add(item["error"]["data"]["name"])
        else:
            method = self.methods.get(item["id"])
            assert method is not None, "a success response to no request of ours: " + context
            assert_valid(method + ".result", item["result"], context)
            Stats.methods_succeeded.add(method)

    def reply(self, request_id: Any, timeout: float = WAIT) -> Dict[str, Any]:
        """Read until the response to ``request_id``; notifications before it go to the inbox."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(deadline - time.monotonic(), 0.001))
            assert message is not None, "connection closed before the reply to %r" % request_id
            if isinstance(message, dict) and "method" not in message and message.get("id") == request_id:
                return message
            self.inbox.append(message)

    def call(self, method: str, params: Optional[Dict[str, Any]] = None) -> Any:
        response = self.reply(self.request(method, params))
        assert "result" in response, "%s failed: %s" % (method, response)
        return response["result"]

    def error(self, method: str, params: Any = None, check: bool = True) -> Dict[str, Any]:
        response = self.reply(self.request(method, params, check))
        assert "error" in response, "%s should fail: %s" % (method, response)
        return response["error"]

    def notification(self, method: str, timeout: float = WAIT) -> Dict[str, Any]:
        """The next notification named ``method`` (from the inbox first); its params."""
        for index, message in enumerate(self.inbox):
            if isinstance(message, dict) and message.get("method") == method:
                del self.inbox[index]
                return message["params"]
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(deadline - time.monotonic(), 0.001))
            assert message is not None, "connection closed while waiting for " + method
            if isinstance(message, dict) and message.get("method") == method:
                return message["params"]
            self.inbox.append(message)

    def drain_inbox(self) -> List[Dict[str, Any]]:
        taken, self.inbox = self.inbox, []
        return taken


@pytest.fixture()
def wire(daemon: DaemonProcess) -> Iterator[Wire]:
    connection = Wire(daemon.socket_path)
    yield connection
    connection.close()


def outputs_of(messages: List[Any]) -> List[Any]:
    return [(m["params"]["output"], m["params"]["value"]) for m in messages
            if isinstance(m, dict) and m.get("method") == "vm.output"]


# ------------------------------------------------------------------ the contract's method set


def test_rpc_discover_serves_openrpc_json_exactly(wire: Wire) -> None:
    served = wire.call("rpc.discover")
    assert served == DOCUMENT
    assert {method["name"] for method in served["methods"]} == METHODS


#: Well-typed values for every required param, so that the probe member is the only problem.
REQUIRED_VALUES = {"type": "Counter", "instance": "conformance-none", "input": "increment", "output": "count",
                   "action": "reset", "subscription": "sub-none", "monitor": "mon-none",
                   "token": "0" * 32}


def probe_params(method: str) -> Dict[str, Any]:
    [described] = [m for m in DOCUMENT["methods"] if m["name"] == method]
    params = {p["name"]: REQUIRED_VALUES[p["name"]] for p in described["params"] if p.get("required")}
    params["conformanceProbe"] = True
    return params


@pytest.mark.parametrize("method", sorted(METHODS))
def test_every_documented_method_exists_and_rejects_an_unknown_param(wire: Wire, method: str) -> None:
    error = wire.error(method, probe_params(method), check=False)
    assert error["code"] != -32601, "%s is documented but the daemon does not know it" % method
    assert error["data"]["name"] == "invalidParams" and error["data"]["path"] == "/conformanceProbe"


@pytest.mark.parametrize("method", ["vm.sned", "daemon.reboot", "rpc.other", "vm", ""])
def test_an_undocumented_method_is_method_not_found(wire: Wire, method: str) -> None:
    error = wire.error(method, {}, check=False)
    assert (error["code"], error["data"]["name"], error["data"].get("method")) == (-32601, "methodNotFound", method)


# ------------------------------------------------------------------ daemon.* and vm.types


def test_daemon_info_and_vm_types_describe_everything(wire: Wire, daemon: DaemonProcess) -> None:
    info = wire.call("daemon.info")
    assert info["protocol"] == 1 and info["socket"] == daemon.socket_path
    types = wire.call("vm.types")["types"]
    names = [t["name"] for t in types]
    assert names == sorted(names) and {"Counter", "Login"} <= set(names)
    for name in names:
        assert wire.call("vm.types", {"type": name})["types"] == [t for t in types if t["name"] == name]
        for description in types:
            for schema in [description["args"]] + [i["schema"] for i in description["inputs"]] + \
                    [o["schema"] for o in description["outputs"]] + \
                    [a[k] for a in description["actions"] for k in ("input", "output")]:
                Draft202012Validator.check_schema(schema)
    assert wire.error("vm.types", {"type": "Conter"})["data"] == {"name": "unknownType", "type": "Conter"}


# ------------------------------------------------------------------ Counter session


def test_counter_session(wire: Wire) -> None:
    created = wire.reply(wire.request("vm.create", {"type": "Counter", "args": {"start": 5}, "subscribe": {}}))
    result = created["result"]
    instance, subscription = result["instance"], result["subscription"]
    assert (result["type"], result["scope"]) == ("Counter", "daemon")
    replay = wire.notification("vm.output")  # O1: after the reply; O2: replay first
    assert (replay["subscription"], replay["value"], replay["seq"], replay.get("replay")) == (subscription, 5, 1, True)

    send = wire.request("vm.send", {"instance": instance, "input": "increment", "value": 2})
    wire.reply(send)
    assert outputs_of(wire.drain_inbox()) == [("count", 7)]  # O4: the output precedes the reply

    wire.notify("vm.send", {"instance": instance, "input": "increment"})
    live = wire.notification("vm.output")
    assert (live["value"], live["seq"], "replay" in live) == (8, 3, False)

    wire.notify("vm.send", {"instance": instance, "input": "set", "value": "ten"})
    failure = wire.notification("vm.error")
    assert (failure["method"], failure["instance"], failure["input"]) == ("vm.send", instance, "set")
    assert failure["error"]["code"] == -31006

    assert wire.call("vm.get", {"instance": instance, "output": "count"}) == {"value": 8}
    assert wire.call("vm.execute", {"instance": instance, "action": "reset"}) == {"value": 0}
    assert outputs_of(wire.drain_inbox()) == [("count", 0)]

    batch = [
        {"jsonrpc": "2.0", "id": "b1", "method": "vm.send", "params": {"instance": instance, "input": "decrement"}},
        {"jsonrpc": "2.0", "id": "b2", "method": "vm.get", "params": {"instance": instance, "output": "count"}},
        {"jsonrpc": "2.0", "method": "vm.send", "params": {"instance": instance, "input": "increment"}},
    ]
    wire.send(batch)
    while True:  # O11: notifications first, then the batch response in request order
        message = wire.receive()
        if isinstance(message, list):
            break
        wire.inbox.append(message)
    assert [item["id"] for item in message] == ["b1", "b2"]
    assert message[0]["result"] is None and message[1]["result"] == {"value": -1}
    assert outputs_of(wire.drain_inbox()) == [("count", -1), ("count", 0)]

    listed = wire.call("vm.list")["instances"]
    assert {"instance": instance, "type": "Counter", "scope": "daemon", "subscribers": 1} in listed

    second = wire.call("vm.subscribe", {"instance": instance, "outputs": ["count"]})["subscription"]
    again = wire.notification("vm.output")
    assert (again["subscription"], again["seq"], again.get("replay")) == (second, 1, True)
    assert wire.call("vm.unsubscribe", {"subscription": second}) == {"unsubscribed": True}
    assert wire.error("vm.unsubscribe", {"subscription": second})["data"]["name"] == "unknownSubscription"

    quiet = wire.call("vm.subscribe", {"instance": instance, "replay": False})["subscription"]
    wire.call("vm.send", {"instance": instance, "input": "set", "value": 3})
    values = [m["params"] for m in wire.drain_inbox() if m.get("method") == "vm.output"]
    assert sorted((v["subscription"], v["seq"], "replay" in v) for v in values) == sorted(
        [(subscription, 7, False), (quiet, 1, False)])

    destroy = wire.request("vm.destroy", {"instance": instance})
    assert wire.reply(destroy)["result"] == {"destroyed": True}
    closed = [m["params"] for m in wire.drain_inbox() if m.get("method") == "vm.closed"]  # O4: before the reply
    assert sorted((c["subscription"], c["reason"]) for c in closed) == sorted(
        [(subscription, "destroyed"), (quiet, "destroyed")])
    gone = wire.error("vm.send", {"instance": instance, "input": "increment"})
    assert gone["data"] == {"name": "unknownInstance", "instance": instance}


# ------------------------------------------------------------------ Login session


def test_a_recorded_instance_has_its_tape_from_creation(wire: Wire) -> None:
    instance = wire.call("vm.create", {"type": "Counter", "args": {"start": 5}, "record": True})["instance"]
    wire.call("vm.send", {"instance": instance, "input": "increment", "value": 2})
    tape = wire.call("vm.tape", {"instance": instance})["tape"]
    assert tape[0] == {"tape": 2, "type": "Counter", "args": {"start": 5}, "instance": instance, "fromCreation": True}
    assert [(line["event"], line.get("output", line.get("input")), line["value"]) for line in tape[1:]] == [
        ("output", "count", 5), ("input", "increment", 2), ("output", "count", 7)]
    assert tape[1]["replay"] is True and tape[1]["t"] == 0
    assert isinstance(tape[2]["connection"], int) and tape[3]["t"] >= tape[2]["t"] >= 0
    plain = wire.call("vm.create", {"type": "Counter"})["instance"]
    refused = wire.error("vm.tape", {"instance": plain})
    assert (refused["code"], refused["data"]) == (-31018, {"name": "notRecording", "instance": plain})
    for made in (instance, plain):
        wire.call("vm.destroy", {"instance": made})


def test_login_session(wire: Wire) -> None:
    result = wire.call("vm.create", {"type": "Login", "args": {"latencyMs": 300}, "scope": "connection",
                                     "subscribe": {}})
    login = result["instance"]
    assert result["scope"] == "connection"
    replayed = [wire.notification("vm.output") for _ in range(2)]
    assert [(r["output"], r["value"], r.get("replay")) for r in replayed] == [
        ("isLoginAllowed", False, True), ("isLoading", False, True)]

    not_enabled = wire.error("vm.execute", {"instance": login, "action": "submit"})
    assert not_enabled["data"]["name"] == "actionNotEnabled"
    assert wire.error("vm.get", {"instance": login, "output": "loginSuccess"})["data"] == {
        "name": "notStateOutput", "instance": login, "output": "loginSuccess"}

    wire.notify("vm.send", {"instance": login, "input": "email", "value": DEMO_EMAIL})
    wire.call("vm.send", {"instance": login, "input": "password", "value": DEMO_PASSWORD})
    assert outputs_of(wire.drain_inbox()) == [("isLoginAllowed", True)]

    submit = wire.request("vm.execute", {"instance": login, "action": "submit", "timeoutMs": 5000})
    during = wire.request("vm.get", {"instance": login, "output": "isLoading"})
    assert wire.reply(during)["result"] == {"value": True}  # O7: answered while submit runs
    assert wire.reply(submit)["result"] == {"value": DEMO_EMAIL}
    assert outputs_of(wire.drain_inbox()) == [("isLoading", True), ("loginSuccess", DEMO_EMAIL), ("isLoading", False)]

    cancelled = wire.request("vm.execute", {"instance": login, "action": "submit"})
    wire.notify("$/cancelRequest", {"id": cancelled})
    answer = wire.reply(cancelled)
    assert answer["error"]["code"] == -32800 and answer["error"]["data"] == {"name": "requestCancelled"}

    timed_out = wire.error("vm.execute", {"instance": login, "action": "submit", "timeoutMs": 20})
    assert timed_out["code"] == -31009 and timed_out["data"]["timeoutMs"] == 20

    wire.call("vm.send", {"instance": login, "input": "password", "value": "wrong-password"})
    failed = wire.error("vm.execute", {"instance": login, "action": "submit", "timeoutMs": 5000})
    assert failed["code"] == -31008 and isinstance(failed["data"]["error"]["message"], str)
    assert ("loginFailure" in [o for o, _ in outputs_of(wire.drain_inbox())])


def test_connection_scoped_instances_go_with_their_creator(daemon: DaemonProcess, wire: Wire) -> None:
    owner = Wire(daemon.socket_path)
    instance = owner.call("vm.create", {"type": "Counter", "scope": "connection"})["instance"]
    watched = wire.call("vm.subscribe", {"instance": instance, "replay": False})["subscription"]
    owner.close()
    closed = wire.notification("vm.closed")
    assert closed == {"instance": instance, "subscription": watched, "reason": "ownerDisconnected"}


def test_two_connections_see_one_order(daemon: DaemonProcess, wire: Wire) -> None:
    other = Wire(daemon.socket_path)
    try:
        instance = wire.call("vm.create", {"type": "Counter"})["instance"]
        mine = wire.call("vm.subscribe", {"instance": instance, "replay": False})["subscription"]
        theirs = other.call("vm.subscribe", {"instance": instance, "replay": False})["subscription"]
        for step in range(1, 6):
            (wire if step % 2 else other).notify("vm.send", {"instance": instance, "input": "increment", "value": step})
        seen_mine = [wire.notification("vm.output")["value"] for _ in range(5)]
        seen_theirs = [other.notification("vm.output")["value"] for _ in range(5)]
        assert seen_mine == seen_theirs and seen_mine[-1] == 15
        assert mine != theirs
        assert other.error("vm.unsubscribe", {"subscription": mine})["data"]["name"] == "unknownSubscription"
        wire.call("vm.destroy", {"instance": instance})
        assert other.notification("vm.closed")["reason"] == "destroyed"
    finally:
        other.close()


# ------------------------------------------------------------------ errors


def test_request_level_errors(wire: Wire) -> None:
    wire.send_raw(b'{"jsonrpc":"2.0","id":1,"method":')
    parse = wire.receive()
    assert parse["id"] is None and parse["error"]["code"] == -32700

    wire.send({"id": "no-version", "method": "daemon.info"}, check=False)
    invalid = wire.receive()
    assert invalid["error"]["code"] == -32600 and invalid["id"] == "no-version"

    wire.send_raw(b"[]")
    empty = wire.receive()
    assert empty["id"] is None and empty["error"]["data"]["name"] == "invalidRequest"

    wire.send([1, {"jsonrpc": "2.0", "id": "ok", "method": "vm.list"}], check=False)
    mixed = wire.receive()
    assert isinstance(mixed, list) and mixed[0]["id"] is None and mixed[0]["error"]["code"] == -32600
    assert mixed[1]["id"] == "ok" and "result" in mixed[1]

    wire.send([{"jsonrpc": "2.0", "method": "vm.list"}] * 2)  # notifications only: no reply at all
    assert wire.call("daemon.info")["protocol"] == 1 and wire.drain_inbox() == []

    too_many = [{"jsonrpc": "2.0", "id": i, "method": "vm.list"} for i in range(257)]
    wire.send(too_many, check=False)
    limit = wire.receive()
    assert limit["id"] is None and limit["error"]["data"] == {"name": "limitReached", "limit": "maxBatchItems", "value": 256}

    array_params = wire.error("vm.list", [], check=False)  # type: ignore[arg-type]
    assert array_params["data"]["name"] == "invalidParams"

    deep = b'{"jsonrpc":"2.0","id":"deep","method":"vm.list","params":{"x":' + b"[" * 70 + b"]" * 70 + b"}}"
    wire.send_raw(deep)
    depth = wire.receive()
    assert depth["id"] is None and depth["error"]["data"]["limit"] == "maxDepth"
    assert wire.call("daemon.info")["protocol"] == 1  # the connection stays open

    assert wire.error("vm.get", {"instance": 7, "output": "count"}, check=False)["data"]["path"] == "/instance"
    assert wire.error("vm.create", {"type": "Counter", "id": "bad id"}, check=False)["data"]["name"] == "invalidParams"


def test_instance_level_errors(wire: Wire) -> None:
    counter = wire.call("vm.create", {"type": "Counter", "id": "conformance-c"})["instance"]
    assert counter == "conformance-c"
    assert wire.error("vm.create", {"type": "Counter", "id": counter})["data"] == {"name": "instanceExists", "instance": counter}
    assert wire.error("vm.create", {"type": "Conter"})["data"]["name"] == "unknownType"
    assert wire.error("vm.send", {"instance": counter, "input": "incremnt"})["data"] == {
        "name": "unknownInput", "instance": counter, "input": "incremnt"}
    assert wire.error("vm.get", {"instance": counter, "output": "cont"})["data"]["name"] == "unknownOutput"
    assert wire.error("vm.subscribe", {"instance": counter, "outputs": ["cont"]})["data"]["name"] == "unknownOutput"
    assert wire.error("vm.execute", {"instance": counter, "action": "rest"})["data"]["name"] == "unknownAction"
    invalid = wire.error("vm.send", {"instance": counter, "input": "set", "value": "ten"})
    assert (invalid["code"], invalid["data"]["expected"], invalid["data"]["got"]) == (-31006, "integer", "string")
    assert wire.error("vm.create", {"type": "Counter", "args": {"start": "x"}})["data"]["name"] == "invalidValue"
    assert wire.error("vm.create", {"type": "Counter", "subscribe": {"outputs": ["cont"]}})["data"]["name"] == "unknownOutput"
    assert wire.error("vm.unsubscribe", {"subscription": "sub-none"})["data"]["name"] == "unknownSubscription"
    wire.call("vm.destroy", {"instance": counter})
    assert wire.error("vm.destroy", {"instance": counter})["data"]["name"] == "unknownInstance"


def test_an_over_long_frame_gets_limit_reached_then_the_connection_closes(daemon: DaemonProcess) -> None:
    victim = Wire(daemon.socket_path)
    try:
        victim.sock.sendall(b'{"jsonrpc":"2.0","id":1,"method":"vm.list","params":{"x":"' + b"y" * (1048576 + 16))
        error = victim.receive()
        assert error["id"] is None and error["error"]["data"] == {
            "name": "limitReached", "limit": "maxFrameBytes", "value": 1048576}
        assert victim.receive() is None
    finally:
        victim.close()


# ------------------------------------------------------------------ LSP framing and monitor


def test_lsp_framing_both_ways(daemon: DaemonProcess) -> None:
    lsp = Wire(daemon.socket_path, lsp=True)
    try:
        assert lsp.call("daemon.info")["protocol"] == 1
        instance = lsp.call("vm.create", {"type": "Counter", "scope": "connection", "subscribe": {}})["instance"]
        assert lsp.notification("vm.output")["replay"] is True
        lsp.call("vm.send", {"instance": instance, "input": "increment", "value": 4})
        assert outputs_of(lsp.drain_inbox()) == [("count", 4)]
    finally:
        lsp.close()


def test_monitor_reports_messages_of_other_connections(daemon: DaemonProcess, wire: Wire) -> None:
    monitor = wire.call("daemon.monitor")["monitor"]
    other = Wire(daemon.socket_path)
    try:
        other.call("vm.list")
    finally:
        other.close()
    seen = []
    while not any(m["direction"] == "out" and "instances" in (m["message"].get("result") or {}) for m in seen
                  if isinstance(m["message"], dict)):
        params = wire.notification("daemon.message")
        assert params["monitor"] == monitor
        seen.append(params)
    assert [m["seq"] for m in seen] == list(range(seen[0]["seq"], seen[0]["seq"] + len(seen)))
    assert any(m["direction"] == "in" and isinstance(m["message"], dict) and m["message"].get("method") == "vm.list"
               for m in seen)
    assert wire.call("daemon.unmonitor", {"monitor": monitor}) == {"unmonitored": True}


# ------------------------------------------------------------------ slow readers: vm.overflow


def test_a_slow_reader_gets_vm_overflow_then_the_newest_state(daemon: DaemonProcess) -> None:
    """With a 64 KiB outbound bound, a reader that stops reading loses values: the seqs
    it missed are announced by vm.overflow, then the newest count follows (O10). The
    daemon may drain into the kernel's buffer several times, so there may be several."""
    small = DaemonProcess(daemon.binary, extra_args=["--max-outbound-bytes", "65536"])
    small.start()
    try:
        writer, slow = Wire(small.socket_path), Wire(small.socket_path)
        instance = writer.call("vm.create", {"type": "Counter"})["instance"]
        subscription = slow.call("vm.subscribe", {"instance": instance, "replay": False})["subscription"]
        total = 20000  # ~2.5 MB of vm.output: far beyond 64 KiB plus the kernel's socket buffers
        line = json.dumps({"jsonrpc": "2.0", "method": "vm.send",
                           "params": {"instance": instance, "input": "increment"}}, separators=(",", ":"))
        writer.sock.sendall((line + "\n").encode() * total)
        assert writer.call("vm.get", {"instance": instance, "output": "count"}) == {"value": total}
        seen: List[Dict[str, Any]] = []
        while not (seen and seen[-1]["method"] == "vm.output" and seen[-1]["params"]["value"] == total):
            message = slow.receive(10)
            assert message is not None
            seen.append(message)
        # Wire.receive already checked every seq: consecutive, a gap only where vm.overflow said.
        overflows = [m["params"] for m in seen if m["method"] == "vm.overflow"]
        assert overflows, "a reader that never read lost nothing"
        assert all(o["subscription"] == subscription and o["instance"] == instance for o in overflows)
        outputs = [m["params"] for m in seen if m["method"] == "vm.output"]
        assert outputs[0]["seq"] == 1 and outputs[-1]["seq"] == overflows[-1]["lost"]["to"] + 1
        values = [o["value"] for o in outputs]
        assert values == sorted(set(values)), "counts went backwards or repeated"
        for index, message in enumerate(seen[:-1]):  # after each overflow: the newest count, not replayed
            if message["method"] == "vm.overflow":
                following = seen[index + 1]
                assert following["method"] == "vm.output" and "replay" not in following["params"]
        writer.close()
        slow.close()
    finally:
        small.cleanup()


# ------------------------------------------------------------------ shutdown (last: it stops the daemon)


def test_a_session_resumes_on_a_new_connection_with_seq_continuing(daemon: DaemonProcess) -> None:
    owner = Wire(daemon.socket_path)
    opened = owner.call("session.open", {"graceMs": 30000})
    created = owner.call("vm.create", {"type": "Counter", "scope": "connection", "subscribe": {}})
    owner.notification("vm.output")
    owner.close()
    other = Wire(daemon.socket_path)
    other.call("vm.send", {"instance": created["instance"], "input": "increment"})
    resumed = Wire(daemon.socket_path)
    resumed.seqs[created["subscription"]] = 1  # seq continues where the old connection left it
    result = resumed.call("session.resume", {"token": opened["token"]})
    assert result == {"session": opened["session"], "subscriptions": [created["subscription"]], "pending": []}
    assert resumed.notification("vm.output")["value"] == 1
    assert resumed.call("session.close") == {}
    assert resumed.error("session.resume", {"token": opened["token"]})["data"]["name"] == "invalidRequest"
    resumed.close()
    stale = Wire(daemon.socket_path)
    assert stale.error("session.resume", {"token": opened["token"]})["code"] == -31016
    stale.close()
    other.close()


def test_shutdown_closes_every_subscription_and_exits_0(daemon: DaemonProcess, wire: Wire) -> None:
    instance = wire.call("vm.create", {"type": "Counter", "subscribe": {}})["instance"]
    wire.notification("vm.output")
    assert wire.call("daemon.shutdown") == {"stopping": True}
    closed = wire.notification("vm.closed")
    assert (closed["instance"], closed["reason"]) == (instance, "shutdown")
    assert daemon.wait(10) == 0
    assert not Path(daemon.socket_path).exists()


def test_the_session_covered_every_method_and_notification() -> None:
    assert METHODS <= Stats.methods_succeeded, "methods never answered with a result: %s" % (
        METHODS - Stats.methods_succeeded)
    for name in ("vm.output", "vm.closed", "vm.error", "daemon.message"):
        assert Stats.notifications.get(name, 0) > 0, name
    assert Stats.responses > 50 and len(Stats.error_names) >= 15, Stats.error_names
