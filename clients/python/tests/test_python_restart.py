"""Following durable instances across a daemon restart (PROTOCOL.md, section 18, "After a
restart"), sync and asyncio clients against the real vmd: the daemon is killed (SIGKILL) or
stopped (SIGTERM) and started again on the same socket and state directory; a reconnecting
client tells ``daemonRestarted``, its subscription to a durable Counter goes on with the
current value, and its subscription to a non-durable one ends (``shutdown`` at SIGTERM,
``daemonRestarted`` when the reconnect finds it gone)."""

from __future__ import annotations

import asyncio
import queue
import signal
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

import vmd_client
from vmd_client import AsyncClient, Client
from vmd_client.testing import DaemonProcess, find_vmd_binary

REPO_ROOT = Path(__file__).resolve().parents[3]
WAIT = 10.0


def end(daemon: DaemonProcess, how: str) -> None:
    """Ends the daemon by SIGKILL or SIGTERM (the state directory stays)."""
    assert daemon.process is not None
    if how == "kill":
        daemon.process.send_signal(signal.SIGKILL)
        assert daemon.process.wait(timeout=WAIT) == -signal.SIGKILL
    daemon.stop()


def end_and_start(daemon: DaemonProcess, how: str) -> None:
    end(daemon, how)
    daemon.start()


def outputs_until(subscription: vmd_client.Subscription, value: int) -> List[vmd_client.Output]:
    """The subscription's values up to the first equal to ``value``."""
    seen: List[vmd_client.Output] = []
    while not seen or seen[-1].value != value:
        seen.append(subscription.next(WAIT))
    return seen


@pytest.mark.parametrize("how", ["kill", "term"])
def test_the_sync_client_follows_a_durable_instance_across_a_restart(how: str) -> None:
    daemon = DaemonProcess(find_vmd_binary(REPO_ROOT)).start()
    try:
        with Client(daemon.socket_path, timeout=WAIT, reconnect=True, connect_timeout=WAIT) as client:
            events: "queue.Queue[Dict[str, Any]]" = queue.Queue()
            client.add_event_listener(events.put)
            visits = client.create("Counter", id="visits", durable=True, subscribe=["count"], subscription_timeout=WAIT)
            plain = client.create("Counter", id="plain", subscribe=["count"], subscription_timeout=WAIT)
            assert visits.subscription is not None and plain.subscription is not None
            for _ in range(3):
                client.send("visits", "increment")
            outputs_until(visits.subscription, 3)
            assert plain.subscription.next(WAIT).value == 0
            first_boot = client.info()["bootId"]

            end_and_start(daemon, how)

            kinds: List[str] = []
            deadline = time.monotonic() + WAIT
            while "reconnected" not in kinds:
                kinds.append(events.get(timeout=max(0.01, deadline - time.monotonic()))["event"])
            assert "daemonRestarted" in kinds
            assert kinds.index("daemonRestarted") < kinds.index("reconnected")
            current = outputs_until(visits.subscription, 3)[-1]
            assert current.replay and current.instance == "visits"
            assert list(plain.subscription) == []
            assert plain.subscription.closed_reason == ("daemonRestarted" if how == "kill" else "shutdown")
            assert client.info()["bootId"] != first_boot

            client.send("visits", "increment")
            live = visits.subscription.next(WAIT)
            assert (live.value, live.replay) == (4, False)
            client.unsubscribe(visits.subscription)
            assert list(visits.subscription) == []
            assert [entry["instance"] for entry in client.list()] == ["visits"]
    finally:
        daemon.cleanup()


@pytest.mark.parametrize("how", ["kill", "term"])
def test_the_asyncio_client_follows_a_durable_instance_across_a_restart(how: str) -> None:
    daemon = DaemonProcess(find_vmd_binary(REPO_ROOT)).start()

    async def body() -> None:
        async with AsyncClient.connect(daemon.socket_path, timeout=WAIT, reconnect=True) as client:
            events: "asyncio.Queue[Dict[str, Any]]" = asyncio.Queue()
            client.add_event_listener(events.put_nowait)
            visits = await client.create("Counter", id="visits", durable=True, subscribe=["count"],
                                         subscription_timeout=WAIT)
            plain = await client.create("Counter", id="plain", subscribe=["count"], subscription_timeout=WAIT)
            assert visits.subscription is not None and plain.subscription is not None
            for _ in range(3):
                await client.send("visits", "increment")
            while (await visits.subscription.next(WAIT)).value != 3:
                pass
            assert (await plain.subscription.next(WAIT)).value == 0

            # The daemon ends and starts off the event loop, so the client's reader runs meanwhile.
            await asyncio.get_running_loop().run_in_executor(None, end_and_start, daemon, how)

            kinds: List[str] = []
            while "reconnected" not in kinds:
                kinds.append((await asyncio.wait_for(events.get(), WAIT))["event"])
            assert "daemonRestarted" in kinds
            current = await visits.subscription.next(WAIT)
            while current.value != 3:
                current = await visits.subscription.next(WAIT)
            assert current.replay and current.instance == "visits"
            assert [o async for o in plain.subscription] == []
            assert plain.subscription.closed_reason == ("daemonRestarted" if how == "kill" else "shutdown")

            await client.send("visits", "increment")
            live = await visits.subscription.next(WAIT)
            assert (live.value, live.replay) == (4, False)
            await client.unsubscribe(visits.subscription)
            assert [o async for o in visits.subscription] == []
            assert [entry["instance"] for entry in await client.list()] == ["visits"]

    try:
        asyncio.run(asyncio.wait_for(body(), 60))
    finally:
        daemon.cleanup()
