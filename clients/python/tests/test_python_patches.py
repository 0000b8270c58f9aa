"""Patch subscriptions (Protocol/PROTOCOL.md, "Patches") in the Python clients: RFC 6902 application, and random
edits of a TodoList whose materialized value must equal vm.get, sync and asyncio."""

from __future__ import annotations

import asyncio
import random
from typing import Any, List, Tuple

import pytest

from vmd_client import AsyncClient, Client
from vmd_client._wire import PatchError, apply_patch

WAIT = 5.0
SEEDS = [{"title": "item %d with a title long enough to make patches pay" % n} for n in range(30)]


def test_apply_patch_follows_rfc_6902_and_leaves_its_input_alone() -> None:
    document = {"foo": ["bar", "baz"], "q": {"x": 1}}
    patch = [
        {"op": "add", "path": "/foo/1", "value": "qux"},
        {"op": "remove", "path": "/foo/0"},
        {"op": "replace", "path": "/q/x", "value": 2},
        {"op": "add", "path": "/foo/-", "value": "end"},
        {"op": "copy", "from": "/q", "path": "/r"},
        {"op": "move", "from": "/foo/0", "path": "/first"},
        {"op": "test", "path": "/r/x", "value": 2},
        {"op": "add", "path": "/a~1b", "value": None},
    ]
    assert apply_patch(document, patch) == {"foo": ["baz", "end"], "q": {"x": 2}, "r": {"x": 2}, "first": "qux", "a/b": None}
    assert document == {"foo": ["bar", "baz"], "q": {"x": 1}}


@pytest.mark.parametrize("patch", [
    [{"op": "remove", "path": "/x"}],
    [{"op": "replace", "path": "/a/01", "value": 1}],
    [{"op": "test", "path": "/a/0", "value": 9}],
    [{"op": "move", "from": "/a", "path": "/a/0"}],
    [{"op": "frobnicate", "path": ""}],
])
def test_apply_patch_refuses_what_cannot_apply(patch: List[Any]) -> None:
    with pytest.raises(PatchError, match="operation 0"):
        apply_patch({"a": [0, 1]}, patch)


def random_edit(rng: random.Random, ids: List[int], step: int) -> Tuple[str, Any]:
    kind = rng.randrange(6)
    if ids and kind == 0:
        return "remove", rng.choice(ids)
    if ids and kind == 1:
        return "rename", {"id": rng.choice(ids), "title": "renamed %d" % step}
    if ids and kind in (2, 3):
        return "toggle", rng.choice(ids)
    return "add", "new item %d" % step


def test_sync_random_edits_materialize_to_vm_get(socket_path: str) -> None:
    rng = random.Random(14)
    with Client(socket_path, timeout=WAIT) as client:
        created = client.create("TodoList", id="todo", args={"items": SEEDS},
                                subscribe={"outputs": ["items"], "patches": True})
        subscription = created.subscription
        view = subscription.next().value
        patches = 0
        for step in range(150):
            input_name, value = random_edit(rng, [item["id"] for item in view], step)
            client.send("todo", input_name, value)
            output = subscription.next()
            patches += output.patch is not None
            view = output.value
            assert view == client.get("todo", "items"), "step %d" % step
        assert patches > 100


def test_asyncio_random_edits_materialize_to_vm_get(socket_path: str) -> None:
    async def body() -> None:
        rng = random.Random(15)
        async with AsyncClient.connect(socket_path, timeout=WAIT) as client:
            await client.create("TodoList", id="todo-async", args={"items": SEEDS})
            subscription = await client.subscribe("todo-async", ["items"], patches=True)
            view = (await subscription.next()).value
            patches = 0
            for step in range(150):
                input_name, value = random_edit(rng, [item["id"] for item in view], step)
                await client.send("todo-async", input_name, value)
                output = await subscription.next()
                patches += output.patch is not None
                view = output.value
                assert view == await client.get("todo-async", "items"), "step %d" % step
            assert patches > 100
    asyncio.run(asyncio.wait_for(body(), 60))
