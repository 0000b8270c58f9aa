#!/usr/bin/env python3
"""Generate every derived file of vmd's protocol from Protocol/openrpc.json.

openrpc.json is the single source of truth. From it this script writes:

  Protocol/schemas/<Name>.json          one JSON Schema (draft 2020-12) per entry of
                                        components.schemas, with "$id" urn:vmd:schema:<Name>
                                        and every "#/components/schemas/X" reference
                                        rewritten to "urn:vmd:schema:X";
  Protocol/schemas/<method>.params.json the by-name params object of every method, built
                                        from its content descriptors (unknown members are
                                        rejected by the daemon, hence additionalProperties false);
  Sources/VMProtocol/OpenRPCDocument.swift
                                        the document embedded as a Swift raw string literal,
                                        byte for byte (including the one trailing newline).

It also rewrites openrpc.json itself in canonical form (2-space indent, keys in the
order written, UTF-8, exactly one trailing newline), so hand edits cannot drift in style.

Usage:  python3 Protocol/generate.py          write every generated file
        python3 Protocol/generate.py --check  exit 1 and list the files that are stale

Python 3 standard library only.
"""

import json
import re
import sys
from pathlib import Path

PROTOCOL_DIR = Path(__file__).resolve().parent
REPO_ROOT = PROTOCOL_DIR.parent
DOCUMENT_PATH = PROTOCOL_DIR / "openrpc.json"
SCHEMAS_DIR = PROTOCOL_DIR / "schemas"
SWIFT_PATH = REPO_ROOT / "Sources" / "VMProtocol" / "OpenRPCDocument.swift"

DRAFT = "https://json-schema.org/draft/2020-12/schema"
URN_PREFIX = "urn:vmd:schema:"
COMPONENT_REF_PREFIX = "#/components/schemas/"
# Schemas of file formats rather than wire messages (PROTOCOL.md, "Tapes"): written by hand,
# kept in schemas/ next to the generated ones, never rewritten nor reported as orphans.
HAND_WRITTEN = {"tape.json"}


def canonical_text(document):
    """The one accepted spelling of a JSON document in Protocol/."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def load_document():
    return json.loads(DOCUMENT_PATH.read_text(encoding="utf-8"))


def rewrite_refs(node):
    """Point component references at the standalone schema files' URNs."""
    if isinstance(node, dict):
        result = {}
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith(COMPONENT_REF_PREFIX):
                result[key] = URN_PREFIX + value[len(COMPONENT_REF_PREFIX):]
            else:
                result[key] = rewrite_refs(value)
        return result
    if isinstance(node, list):
        return [rewrite_refs(item) for item in node]
    return node


def standalone_schema(name, schema, title=None):
    """Wrap a schema as a file of its own: $schema, $id and title first."""
    result = {"$schema": DRAFT, "$id": URN_PREFIX + name, "title": title or name}
    for key, value in rewrite_refs(schema).items():
        if key not in result:
            result[key] = value
    return result


def params_schema(method):
    """The params object of a by-name method, from its content descriptors."""
    properties = {}
    required = []
    for descriptor in method["params"]:
        schema = dict(descriptor["schema"])
        if "description" in descriptor and "description" not in schema:
            schema = {"description": descriptor["description"], **schema}
        properties[descriptor["name"]] = schema
        if descriptor.get("required", False):
            required.append(descriptor["name"])
    schema = {
        "description": "Params of " + method["name"] + " (by name; omitted params mean {}).",
        "type": "object",
    }
    if required:
        schema["required"] = required
    schema["properties"] = properties
    schema["additionalProperties"] = False
    return schema


def schema_files(document):
    """Every file under Protocol/schemas/, as {file name: text}."""
    files = {}
    for name, schema in document["components"]["schemas"].items():
        files[name + ".json"] = canonical_text(standalone_schema(name, schema))
    for method in document["methods"]:
        name = method["name"] + ".params"
        files[name + ".json"] = canonical_text(standalone_schema(name, params_schema(method)))
    return files


def raw_string_delimiter(text):
    """Enough '#' that no '"#...' or '\\#...' run inside text can end or escape the literal."""
    longest = 0
    for match in re.finditer(r'["\\](#+)', text):
        longest = max(longest, len(match.group(1)))
    return "#" * (longest + 1)


def swift_source(document_text, version):
    hashes = raw_string_delimiter(document_text)
    # A multi-line string literal drops the newline just before its closing delimiter;
    # the extra "\n" keeps the document's own trailing newline in the value.
    return (
        "// GENERATED by Protocol/generate.py from Protocol/openrpc.json. Do not edit:\n"
        "// change Protocol/openrpc.json and run `python3 Protocol/generate.py`.\n"
        "// A test fails when this file and Protocol/openrpc.json differ.\n"
        "\n"
        "/// vmd's OpenRPC document, the answer of `rpc.discover`, embedded at build time.\n"
        "///\n"
        "/// ``text`` is byte for byte `Protocol/openrpc.json`, including its single\n"
        "/// trailing newline. Parse it once and serve the resulting JSON value.\n"
        "public enum OpenRPCDocument {\n"
        "    /// The protocol revision, the document's `info.version` (major = protocol level).\n"
        '    public static let version: String = "' + version + '"\n'
        "\n"
        "    /// The protocol level reported as `protocol` by `daemon.info`.\n"
        "    public static let protocolLevel: Int = " + version.split(".")[0] + "\n"
        "\n"
        "    /// The document's UTF-8 text.\n"
        "    public static let text: String = " + hashes + '"""\n'
        + document_text + "\n"
        + '"""' + hashes + "\n"
        "}\n"
    )


def expected_files():
    """Every generated path with the text it must hold."""
    source_text = DOCUMENT_PATH.read_text(encoding="utf-8")
    document = json.loads(source_text)
    document_text = canonical_text(document)
    files = {DOCUMENT_PATH: document_text}
    for name, text in schema_files(document).items():
        files[SCHEMAS_DIR / name] = text
    files[SWIFT_PATH] = swift_source(document_text, document["info"]["version"])
    return files


def stale_files():
    """Paths whose content differs from what generation would write, plus orphans."""
    expected = expected_files()
    stale = []
    for path, text in expected.items():
        if not path.exists() or path.read_bytes() != text.encode("utf-8"):
            stale.append(path)
    if SCHEMAS_DIR.exists():
        for path in sorted(SCHEMAS_DIR.glob("*.json")):
            if path not in expected and path.name not in HAND_WRITTEN:
                stale.append(path)
    return stale


def write_all():
    expected = expected_files()
    SCHEMAS_DIR.mkdir(exist_ok=True)
    for path in sorted(SCHEMAS_DIR.glob("*.json")):
        if path not in expected and path.name not in HAND_WRITTEN:
            path.unlink()
    for path, text in expected.items():
        data = text.encode("utf-8")
        if not path.exists() or path.read_bytes() != data:
            path.write_bytes(data)
            print("wrote", path.relative_to(REPO_ROOT))


def main(arguments):
    if arguments == ["--check"]:
        stale = stale_files()
        for path in stale:
            print("stale:", path.relative_to(REPO_ROOT), file=sys.stderr)
        if stale:
            print("run: python3 Protocol/generate.py", file=sys.stderr)
            return 1
        return 0
    if arguments:
        print(__doc__.strip().split("\n\n")[-2], file=sys.stderr)
        return 2
    write_all()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
