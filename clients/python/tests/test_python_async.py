"""The asyncio client against the real vmd: helpers, errors, async iteration, long
lines past asyncio's 64 KiB default, concurrency on one connection, drops."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, Awaitable, Callable, Dict, List

import pytest

import vmd_client
from vmd_client import AsyncClient
from vmd_client.testing import DaemonProcess, find_vmd_binary

REPO_ROOT = Path(__file__).resolve().parents[3]
WAIT = 5.0


def run(body: Callable[[], Awaitable[Any]]) -> Any:
    """Run one test body on a fresh event loop, bounded so a hang fails instead of stalling."""
    async def bounded() -> Any:
        return await asyncio.wait_for(body(), 60)
    return asyncio.run(bounded())


def test_connect_checks_the_protocol_and_info_answers(socket_path: str) -> None:
    async def body() -> None:
        async with AsyncClient.connect(socket_path, timeout=WAIT) as client:
            info = await client.info()
            assert info["protocol"] == 1 and info["socket"] == socket_path
            assert client.connected
        assert not client.connected
    run(body)


def test_connect_can_be_awaited_and_closed_explicitly(socket_path: str) -> None:
    async def body() -> None:
        client = await AsyncClient.connect(socket_path, timeout=WAIT)
        assert (await client.types("Counter"))[0]["name"] == "Counter"
        await client.close()
        with pytest.raises(vmd_client.ConnectionLost):
            await client.info()
    run(body)


def test_a_missing_socket_is_connection_lost(tmp_path: Path) -> None:
    async def body() -> None:
        with pytest.raises(vmd_client.ConnectionLost):
            await AsyncClient.connect(str(tmp_path / "none.sock"), connect_timeout=1)
    run(body)


def test_discover_returns_the_whole_openrpc_document(socket_path: str) -> None:
    async def body() -> None:
        async with AsyncClient.connect(socket_path, timeout=WAIT) as client:
            document = await client.discover()
            assert document == json.loads((REPO_ROOT / "Protocol" / "openrpc.json").read_text(encoding="utf-8"))
    run(body)


def test_every_helper_on_a_counter(socket_path: str) -> None:
    async def body() -> None:
        async with AsyncClient.connect(socket_path, timeout=WAIT) as client:
            created = await client.create("Counter", id="py-async-counter", args={"start": 2})
            assert (created.instance, created.type, created.scope) == ("py-async-counter", "Counter", "daemon")
            await client.send(created.instance, "increment", 5)
            await client.send(created.instance, "decrement")
            assert await client.get(created.instance, "count") == 6
            assert await client.execute(created.instance, "reset") == 0
            assert "py-async-counter" in [entry["instance"] for entry in await client.list()]
            await client.destroy(created.instance)
            with pytest.raises(vmd_client.UnknownInstance):
                await client.get(created.instance, "count")
    run(body)


def test_subscriptions_are_async_iterators_that_end_on_vm_closed(socket_path: str) -> None:
    async def body() -> None:
        async with AsyncClient.connect(socket_path, timeout=WAIT) as client:
            created = await client.create("Counter", subscribe=True, subscription_timeout=WAIT)
            extra = await client.subscribe(created.instance, ["count"], replay=False, timeout=WAIT)
            for step in (1, 2, 3):
                await client.send(created.instance, "increment", step)
            await client.destroy(created.instance)
            assert created.subscription is not None
            seen = [(o.value, o.seq, o.replay) async for o in created.subscription]
            assert seen == [(0, 1, True), (1, 2, False), (3, 3, False), (6, 4, False)]
            assert created.subscription.closed_reason == "destroyed"
            assert [o.value async for o in extra] == [1, 3, 6]
    run(body)


def test_unsubscribe_ends_the_iteration(socket_path: str) -> None:
    async def body() -> None:
        async with AsyncClient.connect(socket_path, timeout=WAIT) as client:
            instance = (await client.create("Counter")).instance
            subscription = await client.subscribe(instance, timeout=WAIT)
            assert (await subscription.next()).replay
            await client.unsubscribe(subscription)
            assert [o async for o in subscription] == []
            with pytest.raises(vmd_client.UnknownSubscription):
                await client.unsubscribe(subscription.id)
            await client.destroy(instance)
    run(body)


def test_errors_carry_code_message_and_data(socket_path: str) -> None:
    async def body() -> None:
        async with AsyncClient.connect(socket_path, timeout=WAIT) as client:
            instance = (await client.create("Counter")).instance
            with pytest.raises(vmd_client.InvalidValue) as caught:
                await client.send(instance, "set", "ten")
            assert caught.value.code == -31006 and caught.value.data["got"] == "string"
            with pytest.raises(vmd_client.MethodNotFound):
                await client.call("vm.nothing")
            with pytest.raises(vmd_client.UnknownType):
                await client.create("Nope")
            with pytest.raises(vmd_client.InvalidParams):
                await client.call("vm.list", {"surprise": True})
            await client.destroy(instance)
    run(body)


def test_a_fire_and_forget_failure_reaches_listeners_as_vm_error(socket_path: str) -> None:
    async def body() -> None:
        async with AsyncClient.connect(socket_path, timeout=WAIT) as client:
            instance = (await client.create("Counter")).instance
            arrived: "asyncio.Queue[Dict[str, Any]]" = asyncio.Queue()
            client.add_listener(lambda m: arrived.put_nowait(m) if m.get("method") == "vm.error" else None)
            await client.send(instance, "set", [], notify=True)
            message = await asyncio.wait_for(arrived.get(), WAIT)
            assert message["params"]["error"]["data"]["name"] == "invalidValue"
            await client.destroy(instance)
    run(body)


def test_login_calls_run_concurrently_on_one_connection(socket_path: str, demo_account: "tuple[str, str]") -> None:
    async def body() -> None:
        async with AsyncClient.connect(socket_path, timeout=WAIT) as client:
            login = await client.create("Login", args={"latencyMs": 300}, scope="connection",
                                        subscribe=["loginSuccess"], subscription_timeout=WAIT)
            await client.send(login.instance, "email", demo_account[0])
            await client.send(login.instance, "password", demo_account[1])
            submit = asyncio.ensure_future(client.execute(login.instance, "submit", timeout_ms=5000))
            while not await client.get(login.instance, "isLoading"):  # answered while submit runs (O7)
                await asyncio.sleep(0)
            assert await submit == demo_account[0]
            assert login.subscription is not None
            assert (await login.subscription.next()).value == demo_account[0]
    run(body)


def test_cancel_and_timeouts(socket_path: str, demo_account: "tuple[str, str]") -> None:
    async def body() -> None:
        async with AsyncClient.connect(socket_path, timeout=WAIT) as client:
            instance = (await client.create("Login", args={"latencyMs": 60000})).instance
            await client.send(instance, "email", demo_account[0])
            await client.send(instance, "password", demo_account[1])
            pending = await client.start_execute(instance, "submit")
            await pending.cancel()
            with pytest.raises(vmd_client.RequestCancelled):
                await pending.result(WAIT)
            with pytest.raises(vmd_client.ActionTimedOut):
                await client.execute(instance, "submit", timeout_ms=30)
            with pytest.raises(vmd_client.CallTimeout):
                await client.execute(instance, "submit", timeout=0.1)
            watching = await client.subscribe(instance, ["isLoading"], timeout=WAIT)
            while (await watching.next()).value is not False:  # each wait bounded by WAIT
                pass
            assert await client.get(instance, "isLoading") is False  # the timed-out call was cancelled
            await client.destroy(instance)
    run(body)


def test_a_value_of_nearly_one_mebibyte_goes_both_ways(socket_path: str) -> None:
    async def body() -> None:
        async with AsyncClient.connect(socket_path, timeout=WAIT) as client:
            instance = (await client.create("TextField")).instance
            subscription = await client.subscribe(instance, ["text"], replay=False, timeout=WAIT)
            text = "ü" * 500_000  # 1,000,000 bytes of UTF-8
            await client.send(instance, "set", text)
            assert (await subscription.next()).value == text
            assert await client.get(instance, "text") == text
            with pytest.raises(vmd_client.FrameTooLarge):
                await client.send(instance, "set", text + "ü" * 30_000)
            await client.destroy(instance)
    run(body)


def test_two_async_clients_see_one_order(socket_path: str) -> None:
    async def body() -> None:
        async with AsyncClient.connect(socket_path, timeout=WAIT) as one, \
                AsyncClient.connect(socket_path, timeout=WAIT) as two:
            instance = (await one.create("Counter")).instance
            first = await one.subscribe(instance, replay=False, timeout=WAIT)
            second = await two.subscribe(instance, replay=False, timeout=WAIT)
            await asyncio.gather(*(c.send(instance, "increment", n) for n, c in
                                   ((1, one), (10, two), (100, one), (1000, two))))
            mine: List[Any] = [o.value for o in await first.take(4)]
            theirs: List[Any] = [o.value for o in await second.take(4)]
            assert mine == theirs and mine[-1] == 1111
            await two.destroy(instance)
    run(body)


def test_without_sessions_a_dropped_connection_fails_pending_calls_and_reconnect_recovers(tmp_path: Path) -> None:
    # --session-grace-ms 0: no session is resumable, so a reconnect starts afresh
    # (test_python_async_sessions.py covers the resumable case).
    daemon = DaemonProcess(find_vmd_binary(REPO_ROOT), ["--session-grace-ms", "0"]).start()
    socket_path = daemon.socket_path

    async def body() -> None:
        client = await AsyncClient.connect(socket_path, timeout=WAIT, reconnect=True)
        assert client.session is None
        instance = (await client.create("Counter", scope="connection")).instance
        subscription = await client.subscribe(instance, timeout=WAIT)
        await subscription.next()
        assert client._writer is not None
        client._writer.transport.abort()  # drop the socket under the client
        with pytest.raises(vmd_client.ConnectionLost):
            await subscription.next()
        assert not client.connected
        # The call reconnects. The scoped instance goes with the old connection once the daemon
        # notices the close, which the new connection's requests may precede: bounded wait.
        deadline = asyncio.get_running_loop().time() + WAIT
        with pytest.raises(vmd_client.UnknownInstance):
            while True:
                await client.get(instance, "count")
                assert asyncio.get_running_loop().time() < deadline, "the instance outlived its connection"
        assert client.connected
        await client.close()
    try:
        run(body)
    finally:
        daemon.cleanup()
