"""Long actions against the real vmd: progress callbacks on execute (sync and asyncio),
all before the result, and the ``latest`` strategy's ``ActionSuperseded``."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, List

import pytest

import vmd_client
from vmd_client import AsyncClient, Client, Progress

WAIT = 10.0


def ready_send_list(client: Client, upload_ms: int) -> str:
    created = client.create("SendList", args={"uploadMs": upload_ms})
    client.send(created.instance, "addRecipient", "ada@example.com")
    client.send(created.instance, "message", "Hello")
    return created.instance


def test_sync_execute_calls_progress_before_returning(socket_path: str) -> None:
    with Client(socket_path, timeout=WAIT) as client:
        instance = ready_send_list(client, 200)
        seen: List[Progress] = []
        result = client.execute(instance, "send", progress=seen.append)
        assert result["uploadId"] >= 1
        assert [p.completed for p in seen] == [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
        assert all(p.total == 100 and p.action == "send" and p.instance == instance for p in seen)
        assert seen[-1].message == "uploaded" and seen[-1].fraction == 1.0


def test_sync_execute_without_a_callback_asks_for_no_progress(socket_path: str) -> None:
    with Client(socket_path, timeout=WAIT) as client:
        instance = ready_send_list(client, 100)
        heard: List[Any] = []
        client.add_listener(heard.append)
        client.execute(instance, "send")
        client.info()  # a round trip: anything written before it has been read
        assert [m for m in heard if m.get("method") == "vm.progress"] == []


def test_sync_cancel_ends_progress_with_request_cancelled(socket_path: str) -> None:
    with Client(socket_path, timeout=WAIT) as client:
        instance = ready_send_list(client, 60_000)
        started = threading.Event()
        pending = client.start_execute(instance, "send", progress=lambda p: started.set())
        assert started.wait(WAIT)
        pending.cancel()
        with pytest.raises(vmd_client.RequestCancelled):
            pending.result(WAIT)


def test_sync_latest_supersedes_the_first_search(socket_path: str) -> None:
    with Client(socket_path, timeout=WAIT) as client:
        search = client.create("Search", args={"latencyMs": 300}).instance
        first = client.start_execute(search, "search", "berry")
        second = client.start_execute(search, "search", "lemon")
        with pytest.raises(vmd_client.ActionSuperseded):
            first.result(WAIT)
        assert second.result(WAIT) == ["lemon"]


def test_asyncio_execute_calls_progress_before_returning(socket_path: str) -> None:
    async def body() -> None:
        async with AsyncClient.connect(socket_path, timeout=WAIT) as client:
            created = await client.create("SendList", args={"uploadMs": 200})
            await client.send(created.instance, "addRecipient", "ada@example.com")
            await client.send(created.instance, "message", "Hello")
            seen: List[Progress] = []
            result = await client.execute(created.instance, "send", progress=seen.append)
            assert result["uploadId"] >= 1
            assert [p.completed for p in seen] == [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100]
            search = (await client.create("Search", args={"latencyMs": 300})).instance
            first = await client.start_execute(search, "search", "berry")
            second = await client.start_execute(search, "search", "lemon")
            with pytest.raises(vmd_client.ActionSuperseded):
                await first.result(WAIT)
            assert await second.result(WAIT) == ["lemon"]
    asyncio.run(asyncio.wait_for(body(), 60))
