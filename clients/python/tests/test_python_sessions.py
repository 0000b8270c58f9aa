"""Sessions that survive a reconnect (PROTOCOL.md, section 18), sync client against the real
vmd: the client's socket is dropped mid-stream and the client resumes transparently."""

from __future__ import annotations

import queue
import threading
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List, Set

import pytest

import vmd_client
from vmd_client import Client
from vmd_client.testing import DaemonProcess, find_vmd_binary

REPO_ROOT = Path(__file__).resolve().parents[3]
WAIT = 10.0


class Events:
    """The client's connection events, in order, waited for one kind at a time."""

    def __init__(self, client: Client) -> None:
        self.queue: "queue.Queue[Dict[str, Any]]" = queue.Queue()
        client.add_event_listener(self.queue.put)

    def wait_for(self, kind: str) -> Dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while True:
            event = self.queue.get(timeout=max(0.01, deadline - time.monotonic()))
            if event["event"] == kind:
                return event


def drain(subscription: vmd_client.Subscription, until_value: int) -> List[vmd_client.Output]:
    """Values of ``count`` up to ``until_value``, in order."""
    seen: List[vmd_client.Output] = []
    while True:
        output = subscription.next(WAIT)
        if output.output == "count":
            seen.append(output)
            if output.value == until_value:
                return seen


def subscribed_counter(client: Client) -> "tuple[vmd_client.Created, vmd_client.Subscription]":
    """A connection-scoped Counter with a subscription to ``count``, its replayed 0 read."""
    counter = client.create("Counter", scope="connection", subscribe=["count"], subscription_timeout=WAIT)
    subscription = counter.subscription
    assert subscription is not None
    assert subscription.next(WAIT).value == 0
    return counter, subscription


def lost_seqs(subscription: vmd_client.Subscription) -> Set[int]:
    """Every seq the subscription reported lost."""
    return {seq for low, high in subscription.lost for seq in range(low, high + 1)}


@pytest.fixture()
def client(socket_path: str) -> Iterator[Client]:
    with Client(socket_path, timeout=WAIT, reconnect=True) as connected:
        yield connected


class TestResuming:
    def test_a_reconnecting_client_opens_a_session(self, client: Client) -> None:
        assert client.session is not None and client.session.startswith("s")

    def test_without_reconnect_no_session_is_opened(self, socket_path: str) -> None:
        with Client(socket_path, timeout=WAIT) as plain:
            assert plain.session is None

    def test_a_dropped_subscription_resumes_with_every_seq_once_in_order_or_reported_lost(
            self, client: Client, socket_path: str) -> None:
        events = Events(client)
        counter, subscription = subscribed_counter(client)
        session = client.session
        with Client(socket_path, timeout=WAIT) as other:
            for _ in range(50):
                other.send(counter.instance, "increment")
            client._drop_connection()
            for _ in range(50):
                other.send(counter.instance, "increment")
        resumed = events.wait_for("resumed")
        assert resumed["session"] == session
        outputs = drain(subscription, 100)
        seqs = [o.seq for o in outputs]
        assert seqs == sorted(set(seqs)), "every seq at most once, in order"
        lost = lost_seqs(subscription)
        assert set(range(2, 102)) == set(seqs) | lost, "every seq delivered or reported lost"
        reported = {(r["fromSeq"], r["toSeq"]) for r in resumed["lost"]}
        assert reported <= set(subscription.lost)
        # The connection-scoped instance is the same one, still owned by this client.
        assert client.get(counter.instance, "count") == 100

    def test_a_submit_pending_across_the_drop_gets_its_reply(
            self, client: Client, demo_account: "tuple[str, str]") -> None:
        events = Events(client)
        login = client.create("Login", args={"latencyMs": 800}, scope="connection")
        email, password = demo_account
        client.send(login.instance, "email", email)
        client.send(login.instance, "password", password)
        pending = client.start_execute(login.instance, "submit", timeout_ms=10000)
        time.sleep(0.1)
        client._drop_connection()
        events.wait_for("resumed")
        assert pending.result(WAIT) == email

    def test_a_burst_of_10000_increments_across_a_drop_loses_nothing_silently(
            self, client: Client, socket_path: str) -> None:
        events = Events(client)
        counter, subscription = subscribed_counter(client)
        with Client(socket_path, timeout=WAIT) as other:
            for index in range(10000):
                other.notify("vm.send", {"instance": counter.instance, "input": "increment"})
                if index == 3000:
                    client._drop_connection()
            assert other.get(counter.instance, "count") == 10000
        events.wait_for("resumed")
        outputs = drain(subscription, 10000)
        seqs = [o.seq for o in outputs]
        assert seqs == sorted(set(seqs))
        lost = lost_seqs(subscription)
        assert set(range(2, outputs[-1].seq + 1)) == set(seqs) | lost

    def test_values_the_dropped_socket_took_with_it_are_reported_lost_and_the_newest_value_arrives(
            self, client: Client, socket_path: str) -> None:
        events = Events(client)
        counter, subscription = subscribed_counter(client)
        # The reader thread stalls on the first value of the burst, so the daemon hands the rest
        # to the socket, which is then closed unread: nothing of it follows the resume unless
        # session.resume says what was received (PROTOCOL.md, section 18).
        stalled, release = threading.Event(), threading.Event()

        def stall(message: Dict[str, Any]) -> None:
            if message.get("method") == "vm.output" and not stalled.is_set():
                stalled.set()
                release.wait(WAIT)

        remove = client.add_listener(stall)
        dropped = client._connection._sock
        with Client(socket_path, timeout=WAIT) as other:
            other.send(counter.instance, "increment")
            assert stalled.wait(WAIT)
            for _ in range(999):
                other.notify("vm.send", {"instance": counter.instance, "input": "increment"})
            assert other.get(counter.instance, "count") == 1000
            dropped.close()
            remove()
            release.set()
            resumed = events.wait_for("resumed")
            outputs = drain(subscription, 1000)
        seqs = [o.seq for o in outputs]
        assert seqs == sorted(set(seqs))
        assert subscription.lost, "the values in the closed socket are reported lost"
        lost = lost_seqs(subscription)
        assert set(range(2, seqs[-1])) <= set(seqs) | lost, "every seq before the replay delivered or lost"
        assert {(r["fromSeq"], r["toSeq"]) for r in resumed["lost"]} == set(subscription.lost)
        assert outputs[-1].replay, "the newest value is replayed after the reported loss"


class TestEndings:
    def test_a_daemon_restart_ends_every_subscription_with_daemon_restarted(self) -> None:
        binary = find_vmd_binary(REPO_ROOT)
        first = DaemonProcess(binary).start()
        try:
            client = Client(first.socket_path, timeout=WAIT, reconnect=True, connect_timeout=WAIT)
            events = Events(client)
            counter = client.create("Counter", subscribe=["count"], subscription_timeout=WAIT)
            subscription = counter.subscription
            assert subscription is not None
            assert subscription.next(WAIT).value == 0
            first.stop()
            first.start()  # the same socket path, a new boot
            try:
                restarted = events.wait_for("daemonRestarted")
                assert isinstance(restarted["bootId"], str)
                remaining = list(subscription)
                assert all(o.output == "count" for o in remaining)
                assert subscription.closed_reason in ("daemonRestarted", "shutdown")
                events.wait_for("reconnected")
                assert client.list() == []
                assert client.session is not None, "a new session on the new daemon"
            finally:
                client.close()
        finally:
            first.cleanup()

    def test_a_resume_after_the_grace_ends_subscriptions_with_session_expired(self) -> None:
        with DaemonProcess(find_vmd_binary(REPO_ROOT), ["--session-grace-ms", "100"]) as daemon:
            with Client(daemon.socket_path, timeout=WAIT, reconnect=True, reconnect_delay=0.6) as client:
                events = Events(client)
                counter = client.create("Counter", scope="connection", subscribe=["count"],
                                        subscription_timeout=WAIT)
                subscription = counter.subscription
                assert subscription is not None
                assert subscription.next(WAIT).value == 0
                client._drop_connection()
                expired = events.wait_for("sessionExpired")
                assert expired["session"] is not None
                with pytest.raises(StopIteration):
                    subscription.next(WAIT)
                assert subscription.closed_reason == "sessionExpired"
                events.wait_for("reconnected")
                with pytest.raises(vmd_client.UnknownInstance):
                    client.get(counter.instance, "count")
