"""Sessions that survive a reconnect (PROTOCOL.md, section 18), asyncio client against the
real vmd: the client's socket is dropped mid-stream and the client resumes on its own."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Awaitable, Callable, Dict, List, Set

import vmd_client
from vmd_client import AsyncClient
from vmd_client.testing import DaemonProcess, find_vmd_binary

REPO_ROOT = Path(__file__).resolve().parents[3]
WAIT = 10.0


def run(body: Callable[[], Awaitable[Any]]) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(body(), 60)
    return asyncio.run(bounded())


class Events:
    def __init__(self, client: AsyncClient) -> None:
        self.queue: "asyncio.Queue[Dict[str, Any]]" = asyncio.Queue()
        client.add_event_listener(self.queue.put_nowait)

    async def wait_for(self, kind: str) -> Dict[str, Any]:
        while True:
            event = await asyncio.wait_for(self.queue.get(), WAIT)
            if event["event"] == kind:
                return event


async def subscribed_counter(client: AsyncClient) -> "tuple[vmd_client.Created, vmd_client.AsyncSubscription]":
    """A connection-scoped Counter with a subscription to ``count``, its replayed 0 read."""
    counter = await client.create("Counter", scope="connection", subscribe=["count"], subscription_timeout=WAIT)
    subscription = counter.subscription
    assert subscription is not None
    assert (await subscription.next(WAIT)).value == 0
    return counter, subscription


def lost_seqs(subscription: vmd_client.AsyncSubscription) -> Set[int]:
    """Every seq the subscription reported lost."""
    return {seq for low, high in subscription.lost for seq in range(low, high + 1)}


def test_a_burst_across_a_drop_delivers_every_seq_once_in_order_or_reports_it_lost(socket_path: str) -> None:
    async def body() -> None:
        async with AsyncClient.connect(socket_path, timeout=WAIT, reconnect=True) as client, \
                AsyncClient.connect(socket_path, timeout=WAIT) as other:
            assert client.session is not None
            events = Events(client)
            counter, subscription = await subscribed_counter(client)
            for index in range(10000):
                await other.notify("vm.send", {"instance": counter.instance, "input": "increment"})
                if index == 3000:
                    client._drop_connection()
            assert await other.get(counter.instance, "count") == 10000
            resumed = await events.wait_for("resumed")
            seqs: List[int] = []
            while True:
                output = await subscription.next(WAIT)
                seqs.append(output.seq)
                if output.value == 10000:
                    break
            assert seqs == sorted(set(seqs))
            lost = lost_seqs(subscription)
            assert set(range(2, seqs[-1] + 1)) == set(seqs) | lost
            assert {(r["fromSeq"], r["toSeq"]) for r in resumed["lost"]} <= set(subscription.lost)
            assert await client.get(counter.instance, "count") == 10000
    run(body)


def test_values_the_dropped_socket_took_with_it_are_reported_lost_and_the_newest_value_arrives(
        socket_path: str) -> None:
    async def body() -> None:
        async with AsyncClient.connect(socket_path, timeout=WAIT, reconnect=True) as client:
            events = Events(client)
            counter, subscription = await subscribed_counter(client)
            # The burst runs on the synchronous client while the event loop is blocked, so the
            # daemon hands it to a socket nobody reads; aborting the transport closes it unread.
            # Nothing of it follows the resume unless session.resume says what was received
            # (PROTOCOL.md, section 18).
            with vmd_client.Client(socket_path, timeout=WAIT) as other:
                for _ in range(1000):
                    other.notify("vm.send", {"instance": counter.instance, "input": "increment"})
                assert other.get(counter.instance, "count") == 1000
            assert client._writer is not None
            client._writer.transport.abort()
            resumed = await events.wait_for("resumed")
            outputs: List[vmd_client.Output] = []
            while True:
                output = await subscription.next(WAIT)
                outputs.append(output)
                if output.value == 1000:
                    break
            seqs = [o.seq for o in outputs]
            assert seqs == sorted(set(seqs))
            assert outputs[-1].replay, "the newest value is replayed after the reported loss"
            assert subscription.lost, "the values in the closed socket are reported lost"
            lost = lost_seqs(subscription)
            assert set(range(2, seqs[-1])) <= set(seqs) | lost, "every seq before the replay delivered or lost"
            assert {(r["fromSeq"], r["toSeq"]) for r in resumed["lost"]} == set(subscription.lost)
    run(body)

def test_a_submit_pending_across_the_drop_gets_its_reply(socket_path: str, demo_account: "tuple[str, str]") -> None:
    async def body() -> None:
        async with AsyncClient.connect(socket_path, timeout=WAIT, reconnect=True) as client:
            events = Events(client)
            login = await client.create("Login", args={"latencyMs": 800}, scope="connection")
            await client.send(login.instance, "email", demo_account[0])
            await client.send(login.instance, "password", demo_account[1])
            pending = await client.start_execute(login.instance, "submit", timeout_ms=10000)
            await asyncio.sleep(0.1)
            client._drop_connection()
            assert (await events.wait_for("resumed"))["lost"] == []
            assert await pending.result(WAIT) == demo_account[0]
    run(body)


def test_a_resume_after_the_grace_ends_subscriptions_with_session_expired() -> None:
    async def body() -> None:
        with DaemonProcess(find_vmd_binary(REPO_ROOT), ["--session-grace-ms", "100"]) as daemon:
            async with AsyncClient.connect(daemon.socket_path, timeout=WAIT, reconnect=True,
                                           reconnect_delay=0.6) as client:
                events = Events(client)
                counter, subscription = await subscribed_counter(client)
                client._drop_connection()
                assert (await events.wait_for("sessionExpired"))["session"] is not None
                assert [o async for o in subscription] == []
                assert subscription.closed_reason == "sessionExpired"
                await events.wait_for("reconnected")
                try:
                    await client.get(counter.instance, "count")
                    raise AssertionError("the expired session's instance still exists")
                except vmd_client.UnknownInstance:
                    pass
                assert client.session is not None
    run(body)
