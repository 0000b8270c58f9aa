"""Checks that Protocol/ is consistent: schemas, examples, the PROTOCOL.md transcript,
and the files generate.py derives from openrpc.json.

Run from the repository root:  clients/python/venv-run python3 -m pytest Protocol/tests -q
Needs jsonschema (PyPI) for draft 2020-12 validation.
"""

import copy
import importlib.util
import json
import re
import shutil
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

PROTOCOL_DIR = Path(__file__).resolve().parent.parent
SCHEMAS_DIR = PROTOCOL_DIR / "schemas"
EXAMPLES_DIR = PROTOCOL_DIR / "examples"
URN = "urn:vmd:schema:"


def load_generator():
    spec = importlib.util.spec_from_file_location("vmd_protocol_generate", PROTOCOL_DIR / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GENERATE = load_generator()
DOCUMENT = json.loads((PROTOCOL_DIR / "openrpc.json").read_text(encoding="utf-8"))
METHODS = {method["name"]: method for method in DOCUMENT["methods"]}
NOTIFICATIONS = {notification["name"]: notification for notification in DOCUMENT["x-notifications"]}
SCHEMA_FILES = sorted(SCHEMAS_DIR.glob("*.json"))
EXAMPLE_FILES = sorted(EXAMPLES_DIR.glob("*.json"))


def build_registry():
    resources = []
    for path in SCHEMA_FILES:
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((contents["$id"], Resource.from_contents(contents, default_specification=DRAFT202012)))
    return Registry().with_resources(resources)


REGISTRY = build_registry()


def validator(name):
    return Draft202012Validator({"$ref": URN + name}, registry=REGISTRY)


def assert_valid(name, instance, context=""):
    errors = sorted(validator(name).iter_errors(instance), key=lambda error: list(error.path))
    messages = ["%s at %s: %s" % (name, "/".join(map(str, error.path)), error.message) for error in errors]
    assert not messages, context + "\n" + "\n".join(messages)


def is_valid(name, instance):
    return validator(name).is_valid(instance)


def params_schema_name(method):
    """Schema of the params a client sends with method, as request or notification;
    None for a method vmd does not have (examples show its methodNotFound)."""
    if method in METHODS:
        return method + ".params"
    if method == "$/cancelRequest":
        return "cancelRequest"
    return None


def assert_client_message(message, context):
    if "id" in message:
        assert_valid("Request", message, context)
    else:
        assert_valid("Notification", message, context)
    schema_name = params_schema_name(message["method"])
    if schema_name is not None:
        assert_valid(schema_name, message.get("params", {}), context)


def assert_daemon_notification(message, context):
    assert_valid("Notification", message, context)
    notification = NOTIFICATIONS.get(message["method"])
    assert notification is not None, context + ": unknown notification " + message["method"]
    assert notification["direction"] == "daemonToClient", context
    assert_valid(message["method"], message["params"], context)


def assert_response(message, method, context):
    assert_valid("Response", message, context)
    if "result" in message:
        assert method is not None, context + ": a success response needs its request"
        assert_valid(method + ".result", message["result"], context)
    else:
        assert_valid("ErrorResponse", message, context)


# ---------------------------------------------------------------- generated files


def test_generated_files_are_up_to_date():
    stale = [str(path) for path in GENERATE.stale_files()]
    assert stale == [], "run python3 Protocol/generate.py"


def test_generator_notices_a_stale_or_orphan_file(tmp_path, monkeypatch):
    copy_dir = tmp_path / "Protocol"
    shutil.copytree(PROTOCOL_DIR, copy_dir, ignore=shutil.ignore_patterns("__pycache__", ".pytest_cache"))
    swift = tmp_path / "Sources" / "VMProtocol" / "OpenRPCDocument.swift"
    swift.parent.mkdir(parents=True)
    shutil.copy(GENERATE.SWIFT_PATH, swift)
    monkeypatch.setattr(GENERATE, "DOCUMENT_PATH", copy_dir / "openrpc.json")
    monkeypatch.setattr(GENERATE, "SCHEMAS_DIR", copy_dir / "schemas")
    monkeypatch.setattr(GENERATE, "SWIFT_PATH", swift)
    assert GENERATE.stale_files() == []

    document = json.loads((copy_dir / "openrpc.json").read_text(encoding="utf-8"))
    document["info"]["version"] = "1.0.1"
    (copy_dir / "openrpc.json").write_text(GENERATE.canonical_text(document), encoding="utf-8")
    (copy_dir / "schemas" / "Orphan.json").write_text("{}\n", encoding="utf-8")
    stale = {path.name for path in GENERATE.stale_files()}
    assert stale == {"OpenRPCDocument.swift", "Orphan.json"}


def test_openrpc_json_is_canonical():
    text = (PROTOCOL_DIR / "openrpc.json").read_text(encoding="utf-8")
    assert text == GENERATE.canonical_text(json.loads(text))
    assert text.endswith("}\n") and not text.endswith("\n\n")


def test_swift_literal_delimiter_outnumbers_every_hash_run():
    assert GENERATE.raw_string_delimiter("plain") == "#"
    assert GENERATE.raw_string_delimiter('"#/components"') == "##"
    assert GENERATE.raw_string_delimiter('a"###b \\## c') == "####"
    source = GENERATE.swift_source('{"a": "#"}\n', "1.0.0")
    assert '##"""\n{"a": "#"}\n\n"""##\n' in source


# ---------------------------------------------------------------- schema files


@pytest.mark.parametrize("path", SCHEMA_FILES, ids=lambda path: path.name)
def test_schema_file_is_a_valid_2020_12_schema(path):
    schema = json.loads(path.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == URN + path.name[: -len(".json")]


def references(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref":
                yield value
            else:
                yield from references(value)
    elif isinstance(node, list):
        for item in node:
            yield from references(item)


def test_every_reference_between_schema_files_resolves():
    resolver = REGISTRY.resolver()
    count = 0
    for path in SCHEMA_FILES:
        for target in references(json.loads(path.read_text(encoding="utf-8"))):
            assert target.startswith(URN), "%s: %s is not a vmd URN" % (path.name, target)
            resolver.lookup(target)
            count += 1
    assert count > 50


def test_there_is_a_schema_file_for_every_method_and_notification():
    names = {path.name[: -len(".json")] for path in SCHEMA_FILES}
    for method in METHODS:
        assert method + ".params" in names and method + ".result" in names
    for notification in NOTIFICATIONS.values():
        assert notification["params"]["$ref"].rsplit("/", 1)[1] in names
    for shared in ("InstanceId", "SubscriptionId", "Scope", "TypeDescription", "OutputDescription",
                   "ErrorData", "ErrorObject", "Limits", "Envelope", "Request", "Notification",
                   "SuccessResponse", "ErrorResponse"):
        assert shared in names


# ---------------------------------------------------------------- examples inside openrpc.json


@pytest.mark.parametrize("method", list(METHODS))
def test_method_examples_match_params_and_result_schemas(method):
    for example in METHODS[method].get("examples", []):
        params = {param["name"]: param["value"] for param in example["params"]}
        assert_valid(method + ".params", params, method + " example " + example["name"])
        assert_valid(method + ".result", example["result"]["value"], method + " example " + example["name"])


def test_every_important_method_has_an_example():
    missing = [name for name, method in METHODS.items() if name != "rpc.discover" and not method.get("examples")]
    assert missing == []


@pytest.mark.parametrize("name", list(NOTIFICATIONS))
def test_notification_examples_match_their_params_schema(name):
    notification = NOTIFICATIONS[name]
    assert notification["examples"]
    schema_name = notification["params"]["$ref"].rsplit("/", 1)[1]
    for example in notification["examples"]:
        assert_valid(schema_name, example, name)
        assert_valid("Notification", {"jsonrpc": "2.0", "method": name, "params": example}, name)


def test_component_errors_are_valid_error_objects():
    names = validator("ErrorName").schema
    for name, error in DOCUMENT["components"]["errors"].items():
        assert error["data"]["name"] == name
        assert_valid("ErrorObject", error, name)
    enum = DOCUMENT["components"]["schemas"]["ErrorName"]["enum"]
    assert list(DOCUMENT["components"]["errors"]) == enum and names


def test_method_errors_reference_component_errors():
    for name, method in METHODS.items():
        refs = [error["$ref"] for error in method["errors"]]
        assert refs, name
        assert len(refs) == len(set(refs)), name + " lists an error twice"
        for ref in refs:
            assert ref.startswith("#/components/errors/")
            assert ref.rsplit("/", 1)[1] in DOCUMENT["components"]["errors"], ref


# ---------------------------------------------------------------- schemas reject what they must


def test_error_object_rejects_a_code_that_disagrees_with_its_name():
    error = copy.deepcopy(DOCUMENT["components"]["errors"]["unknownInstance"])
    assert is_valid("ErrorObject", error)
    error["code"] = -31003
    assert not is_valid("ErrorObject", error)


def test_error_data_requires_the_members_of_its_name():
    assert not is_valid("ErrorData", {"name": "invalidValue", "path": "", "expected": "integer"})
    assert not is_valid("ErrorData", {"name": "limitReached", "limit": "maxInstances"})
    assert not is_valid("ErrorData", {"name": "noSuchName"})
    assert is_valid("ErrorData", {"name": "internalError", "future": "members are allowed"})


def test_notification_params_reject_broken_values():
    output = {"subscription": "sub-1", "instance": "counter-1", "output": "count", "value": 1, "seq": 1}
    assert is_valid("vm.output", output)
    assert not is_valid("vm.output", dict(output, seq=0))
    assert not is_valid("vm.output", dict(output, replay=False))
    assert not is_valid("vm.closed", {"instance": "a", "subscription": "s", "reason": "gone"})


def test_vm_output_carries_exactly_one_of_value_and_patch():
    base = {"subscription": "sub-1", "instance": "todo-1", "output": "items", "seq": 2}
    patch = [{"op": "replace", "path": "/0/done", "value": True}]
    assert is_valid("vm.output", dict(base, patch=patch))
    assert not is_valid("vm.output", base)
    assert not is_valid("vm.output", dict(base, patch=patch, value=[]))
    assert not is_valid("vm.output", dict(base, patch=patch, replay=True))
    assert not is_valid("vm.output", dict(base, patch=[{"op": "replace", "path": "/0/done"}]))
    assert not is_valid("vm.output", dict(base, patch=[{"op": "move", "path": "/0"}]))
    assert not is_valid("vm.output", dict(base, patch=[{"op": "frobnicate", "path": ""}]))
    assert is_valid("vm.subscribe.params", {"instance": "todo-1", "patches": True})
    assert not is_valid("vm.subscribe.params", {"instance": "todo-1", "patches": "yes"})


def test_params_reject_unknown_members_and_bad_ids():
    assert is_valid("vm.subscribe.params", {"instance": "counter-1"})
    assert not is_valid("vm.subscribe.params", {"instance": "counter-1", "replya": False})
    assert not is_valid("vm.subscribe.params", {"instance": "counter-1", "outputs": []})
    assert not is_valid("vm.create.params", {"type": "Counter", "id": "has space"})
    assert not is_valid("vm.create.params", {"type": "Counter", "scope": "forever"})
    assert not is_valid("vm.execute.params", {"instance": "a", "action": "b", "timeoutMs": 0})


def test_envelope_rejects_an_empty_batch_and_accepts_a_batch():
    assert not is_valid("Envelope", [])
    assert is_valid("Envelope", [{"jsonrpc": "2.0", "id": 1, "method": "vm.list"}])
    assert not is_valid("Request", {"jsonrpc": "1.0", "id": 1, "method": "vm.list"})
    assert not is_valid("Notification", {"jsonrpc": "2.0", "id": 1, "method": "vm.list"})


# ---------------------------------------------------------------- example files


def example_kind(path):
    return path.name.rsplit(".", 2)[-2]


def request_methods_by_id(stem):
    request_path = EXAMPLES_DIR / (stem + ".request.json")
    if not request_path.exists():
        return {}
    message = json.loads(request_path.read_text(encoding="utf-8"))
    items = message if isinstance(message, list) else [message]
    return {json.dumps(item["id"]): item["method"] for item in items if "id" in item}


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda path: path.name)
def test_example_file_is_valid(path):
    text = path.read_text(encoding="utf-8")
    message = json.loads(text)
    kind = example_kind(path)
    stem = path.name[: -len("." + kind + ".json")]
    items = message if isinstance(message, list) else [message]
    if kind == "invalid":
        assert not is_valid("Envelope", message)
    elif kind == "request":
        assert_valid("Envelope", message, path.name)
        for item in items:
            assert_client_message(item, path.name)
    elif kind == "notification":
        for item in items:
            if item["method"] in NOTIFICATIONS and NOTIFICATIONS[item["method"]]["direction"] == "daemonToClient":
                assert_daemon_notification(item, path.name)
            else:
                assert_client_message(item, path.name)
    elif kind == "response":
        assert_valid("Envelope", message, path.name)
        methods = request_methods_by_id(stem)
        for item in items:
            assert_response(item, methods.get(json.dumps(item["id"])), path.name)
    else:
        pytest.fail("unknown example kind in " + path.name)


def test_examples_cover_requests_responses_and_notifications():
    kinds = {example_kind(path) for path in EXAMPLE_FILES}
    assert {"request", "response", "notification", "invalid"} <= kinds
    for path in EXAMPLE_FILES:
        if example_kind(path) == "request":
            stem = path.name[: -len(".request.json")]
            assert (EXAMPLES_DIR / (stem + ".response.json")).exists(), path.name


# ---------------------------------------------------------------- PROTOCOL.md


PROTOCOL_TEXT = (PROTOCOL_DIR / "PROTOCOL.md").read_text(encoding="utf-8")


def transcript_lines():
    match = re.search(r"<!-- transcript:begin -->\n```text\n(.*?)\n```\n<!-- transcript:end -->", PROTOCOL_TEXT, re.S)
    assert match, "PROTOCOL.md has no transcript block"
    lines = match.group(1).split("\n")
    for line in lines:
        assert line[:2] in ("> ", "< "), line
    return [(line[0], json.loads(line[2:])) for line in lines]


def test_protocol_md_names_every_method_notification_and_error():
    for name in list(METHODS) + list(NOTIFICATIONS):
        assert "`" + name + "`" in PROTOCOL_TEXT, name
    for name, error in DOCUMENT["components"]["errors"].items():
        assert "| %d | %s |" % (error["code"], name) in PROTOCOL_TEXT, name
    for guarantee in range(1, 12):
        assert "**O%d " % guarantee in PROTOCOL_TEXT


class TranscriptChecker:
    """Follows a transcript as a client would, checking shapes and section 9's guarantees."""

    def __init__(self):
        self.pending = {}  # json(id) -> method
        self.answered = set()
        self.types = {}  # type name -> description
        self.instances = {}  # instance -> type name
        self.subscriptions = {}  # subscription -> {"seq": last seq, "live": bool, "open": bool}
        self.methods_seen = set()

    def client(self, message, context):
        assert_valid("Envelope", message, context)
        for item in message if isinstance(message, list) else [message]:
            assert_client_message(item, context)
            self.methods_seen.add(item["method"])
            if "id" in item:
                key = json.dumps(item["id"])
                assert key not in self.pending and key not in self.answered, context + ": id reused"
                self.pending[key] = item

    def daemon(self, message, context):
        assert_valid("Envelope", message, context)
        if isinstance(message, list):
            ids = [json.dumps(item["id"]) for item in message]
            order = [key for key in self.pending if key in ids]
            assert ids == order, context + ": batch responses out of request order"
            for item in message:
                self.response(item, context)
        elif "method" in message:
            self.notification(message, context)
        else:
            self.response(message, context)

    def response(self, message, context):
        key = json.dumps(message["id"])
        assert key in self.pending, context + ": response to no pending request (O8)"
        request = self.pending.pop(key)
        self.answered.add(key)
        method = request["method"]
        assert_response(message, method, context)
        result = message.get("result")
        if result is None:
            return
        if method == "vm.types":
            for description in result["types"]:
                self.types[description["name"]] = description
        if method == "vm.create":
            self.instances[result["instance"]] = result["type"]
        if "subscription" in result and method in ("vm.create", "vm.subscribe"):
            self.subscriptions[result["subscription"]] = {"seq": 0, "live": False, "open": True}
        if method == "vm.unsubscribe":
            self.subscriptions[request["params"]["subscription"]]["open"] = False

    def notification(self, message, context):
        assert_daemon_notification(message, context)
        params = message["params"]
        if message["method"] == "vm.output":
            state = self.subscriptions.get(params["subscription"])
            assert state is not None, context + ": vm.output before its subscription's reply (O1)"
            assert state["open"], context + ": vm.output after the end of its subscription (O9)"
            assert params["seq"] == state["seq"] + 1, context + ": seq gap without vm.overflow (O10)"
            state["seq"] = params["seq"]
            if params.get("replay"):
                assert not state["live"], context + ": replayed value after a live one (O2)"
            else:
                state["live"] = True
            self.check_value(params, context)
        if message["method"] == "vm.closed":
            state = self.subscriptions[params["subscription"]]
            assert state["open"], context + ": vm.closed twice"
            state["open"] = False

    def check_value(self, params, context):
        description = self.types.get(self.instances.get(params["instance"]))
        if description is None:
            return
        outputs = {output["name"]: output for output in description["outputs"]}
        output = outputs[params["output"]]
        if params.get("replay"):
            assert output["kind"] == "state", context + ": event outputs are never replayed"
        schema = dict(output["schema"], **{"$schema": "https://json-schema.org/draft/2020-12/schema"})
        assert Draft202012Validator(schema).is_valid(params["value"]), context


def test_transcript_follows_the_schemas_and_the_ordering_guarantees():
    checker = TranscriptChecker()
    for number, (direction, message) in enumerate(transcript_lines(), start=1):
        context = "transcript line %d" % number
        if direction == ">":
            checker.client(message, context)
        else:
            checker.daemon(message, context)
    assert checker.pending == {}, "requests without a response (O8)"
    assert {"Counter", "Login"} <= set(checker.types)
    assert len(checker.methods_seen) >= 10


def test_transcript_types_have_valid_schemas():
    for direction, message in transcript_lines():
        if direction == "<" and isinstance(message, dict) and "types" in (message.get("result") or {}):
            for description in message["result"]["types"]:
                for schema in [description["args"]] + [item["schema"] for item in description["inputs"] + description["outputs"]] \
                        + [item[key] for item in description["actions"] for key in ("input", "output")]:
                    Draft202012Validator.check_schema(schema)


# ---------------------------------------------------------------- transcripts


@pytest.mark.parametrize("path", sorted(EXAMPLES_DIR.glob("*.transcript")), ids=lambda path: path.name)
def test_transcript_files_hold_valid_frames(path):
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if not line or line.startswith("#"):
            continue
        connection, direction, rest = line.split(" ", 2)
        assert direction in (">", "<", "#"), "%s:%d" % (path.name, number)
        if direction == "#":
            continue
        assert_valid("Envelope", json.loads(rest), "%s:%d" % (path.name, number))
