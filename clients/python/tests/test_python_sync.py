"""The synchronous client against the real vmd: every helper, errors, subscriptions,
two clients on one instance, dropped connections, long lines, monitor, shutdown."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path
from typing import Any, Dict, Iterator, List

import pytest

import vmd_client
from vmd_client import Client
from vmd_client.testing import DaemonProcess, find_vmd_binary

REPO_ROOT = Path(__file__).resolve().parents[3]
WAIT = 5.0  # seconds any single expected thing may take before a test fails


@pytest.fixture()
def client(socket_path: str) -> Iterator[Client]:
    with Client(socket_path, timeout=WAIT) as connected:
        yield connected


def values(outputs: List[vmd_client.Output]) -> List[Any]:
    return [(o.output, o.value) for o in outputs]


# ---------------------------------------------------------------------- connecting


class TestConnecting:
    def test_the_socket_path_rule_reaches_the_daemon_through_vmd_socket(
            self, socket_path: str, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("VMD_SOCKET", socket_path)
        with Client() as connected:
            assert connected.path == socket_path
            assert connected.info()["protocol"] == 1

    def test_a_missing_socket_is_a_connection_error_naming_the_path(self, tmp_path: Path) -> None:
        missing = str(tmp_path / "none.sock")
        with pytest.raises(vmd_client.ConnectionLost, match="none.sock"):
            Client(missing, connect_timeout=1)

    def test_a_too_long_socket_path_is_refused_before_connecting(self) -> None:
        with pytest.raises(vmd_client.SocketPathTooLong):
            Client("/tmp/" + "x" * 200)


# ---------------------------------------------------------------------- daemon.*


class TestDaemonMethods:
    def test_info_reports_protocol_1_limits_and_our_socket(self, client: Client, socket_path: str) -> None:
        info = client.info()
        assert info["protocol"] == 1
        assert info["socket"] == socket_path
        assert info["limits"]["maxFrameBytes"] == 1048576
        assert info["connections"] >= 1
        assert isinstance(info["bootId"], str) and info["bootId"]

    def test_discover_serves_protocol_openrpc_json(self, client: Client) -> None:
        served = client.discover()
        assert served == json.loads((REPO_ROOT / "Protocol" / "openrpc.json").read_text(encoding="utf-8"))

    def test_monitor_reports_another_connections_messages_and_unmonitor_ends_it(
            self, client: Client, socket_path: str) -> None:
        monitor = client.monitor(timeout=WAIT)
        with Client(socket_path, timeout=WAIT, check_protocol=False) as other:
            other.call("vm.list")
        seen = []
        while not any(m.direction == "out" and isinstance(m.message, dict) and "instances" in
                      (m.message.get("result") or {}) for m in seen):
            seen.append(monitor.next())
        inbound = [m for m in seen if m.direction == "in"]
        assert any(m.message.get("method") == "vm.list" for m in inbound if isinstance(m.message, dict))
        assert [m.seq for m in seen] == list(range(seen[0].seq, seen[0].seq + len(seen)))
        client.unmonitor(monitor)
        assert monitor.ended or list(monitor) is not None
        with pytest.raises(StopIteration):
            while True:
                monitor.next()

    def test_unmonitor_of_an_unknown_monitor_is_unknown_subscription(self, client: Client) -> None:
        with pytest.raises(vmd_client.UnknownSubscription):
            client.unmonitor("mon-none")


# ---------------------------------------------------------------------- vm.* helpers


class TestTypes:
    def test_types_describes_the_built_in_catalog(self, client: Client) -> None:
        names = [t["name"] for t in client.types()]
        assert {"Counter", "Login"} <= set(names)
        assert names == sorted(names)

    def test_types_of_one_type_describes_its_inputs_outputs_and_actions(self, client: Client) -> None:
        [counter] = client.types("Counter")
        assert [i["name"] for i in counter["inputs"]][:3] == ["increment", "decrement", "set"]
        assert {"name": "count", "kind": "state"}.items() <= counter["outputs"][0].items()
        assert [a["name"] for a in counter["actions"]] == ["reset"]

    def test_an_unknown_type_is_unknown_type_with_the_name_in_data(self, client: Client) -> None:
        with pytest.raises(vmd_client.UnknownType) as caught:
            client.types("Conter")
        assert caught.value.code == -31001
        assert caught.value.data["type"] == "Conter"


class TestInstances:
    def test_create_get_send_execute_list_destroy(self, client: Client) -> None:
        created = client.create("Counter", args={"start": 5})
        assert (created.type, created.scope, created.subscription) == ("Counter", "daemon", None)
        assert created.instance.startswith("counter-")
        assert client.get(created.instance, "count") == 5
        assert client.send(created.instance, "increment", 2) is None
        assert client.get(created.instance, "count") == 7
        client.send(created.instance, "increment")  # the schema default, 1
        assert client.get(created.instance, "count") == 8
        client.send(created.instance, "set", 42)
        assert client.get(created.instance, "count") == 42
        assert client.execute(created.instance, "reset") == 0
        assert client.get(created.instance, "count") == 0
        listed = {entry["instance"]: entry for entry in client.list()}
        assert listed[created.instance]["type"] == "Counter"
        client.destroy(created.instance)
        assert created.instance not in {entry["instance"] for entry in client.list()}
        with pytest.raises(vmd_client.UnknownInstance):
            client.get(created.instance, "count")

    def test_a_chosen_id_is_used_and_cannot_be_taken_twice(self, client: Client) -> None:
        client.create("Counter", id="py-sync-chosen")
        try:
            with pytest.raises(vmd_client.InstanceExists) as caught:
                client.create("Counter", id="py-sync-chosen")
            assert caught.value.data["instance"] == "py-sync-chosen"
        finally:
            client.destroy("py-sync-chosen")

    def test_a_durable_instance_says_so_in_its_reply_and_in_the_list(self, client: Client) -> None:
        created = client.create("Counter", id="py-sync-durable", durable=True)
        try:
            assert created.durable is True
            listed = {entry["instance"]: entry for entry in client.list()}
            assert listed["py-sync-durable"].get("durable") is True
            with pytest.raises(vmd_client.InvalidParams):
                client.create("Counter", scope="connection", durable=True)
        finally:
            client.destroy("py-sync-durable")

    def test_an_id_outside_the_pattern_is_invalid_params(self, client: Client) -> None:
        with pytest.raises(vmd_client.InvalidParams):
            client.create("Counter", id="has space")

    def test_fire_and_forget_send_runs_and_a_failure_arrives_as_vm_error(self, client: Client) -> None:
        instance = client.create("Counter").instance
        errors: List[Dict[str, Any]] = []
        arrived = threading.Event()

        def listener(message: Dict[str, Any]) -> None:
            if message.get("method") == "vm.error":
                errors.append(message["params"])
                arrived.set()

        remove = client.add_listener(listener)
        try:
            client.send(instance, "increment", 3, notify=True)
            client.send(instance, "set", "ten", notify=True)
            assert arrived.wait(WAIT)
            assert errors[0]["method"] == "vm.send" and errors[0]["input"] == "set"
            assert errors[0]["error"]["data"]["name"] == "invalidValue"
            assert client.get(instance, "count") == 3
        finally:
            remove()
            client.destroy(instance)


class TestErrors:
    @pytest.fixture()
    def counter(self, client: Client) -> Iterator[str]:
        instance = client.create("Counter").instance
        yield instance
        client.destroy(instance)

    def test_unknown_input_output_action_carry_their_names(self, client: Client, counter: str) -> None:
        with pytest.raises(vmd_client.UnknownInput) as input_error:
            client.send(counter, "incremnt", 1)
        assert input_error.value.data["input"] == "incremnt"
        with pytest.raises(vmd_client.UnknownOutput) as output_error:
            client.get(counter, "cont")
        assert output_error.value.data["output"] == "cont"
        with pytest.raises(vmd_client.UnknownAction) as action_error:
            client.execute(counter, "rest")
        assert action_error.value.data["action"] == "rest"

    def test_a_value_of_the_wrong_type_is_invalid_value_with_expected_and_got(
            self, client: Client, counter: str) -> None:
        with pytest.raises(vmd_client.InvalidValue) as caught:
            client.send(counter, "set", "ten")
        error = caught.value
        assert (error.code, error.name) == (-31006, "invalidValue")
        assert error.data["expected"] == "integer" and error.data["got"] == "string"
        assert "path" in error.data and error.message

    def test_an_unknown_method_is_method_not_found(self, client: Client) -> None:
        with pytest.raises(vmd_client.MethodNotFound) as caught:
            client.call("vm.sned", {})
        assert caught.value.data["method"] == "vm.sned"

    def test_an_unknown_or_mistyped_param_is_invalid_params_with_its_path(self, client: Client, counter: str) -> None:
        with pytest.raises(vmd_client.InvalidParams) as unknown:
            client.call("vm.get", {"instance": counter, "output": "count", "extra": 1})
        assert unknown.value.data["path"] == "/extra"
        with pytest.raises(vmd_client.InvalidParams) as mistyped:
            client.call("vm.get", {"instance": 1, "output": "count"})
        assert mistyped.value.data["path"] == "/instance"

    def test_get_of_an_event_output_is_not_state_output(self, client: Client) -> None:
        login = client.create("Login").instance
        try:
            with pytest.raises(vmd_client.NotStateOutput):
                client.get(login, "loginSuccess")
        finally:
            client.destroy(login)

    def test_unsubscribe_of_an_unknown_subscription_is_unknown_subscription(self, client: Client) -> None:
        with pytest.raises(vmd_client.UnknownSubscription) as caught:
            client.unsubscribe("sub-none")
        assert caught.value.data["subscription"] == "sub-none"

    def test_every_error_is_a_vmd_error_with_code_message_and_data(self, client: Client) -> None:
        with pytest.raises(vmd_client.VMDError) as caught:
            client.destroy("nobody-here")
        assert isinstance(caught.value, vmd_client.UnknownInstance)
        assert caught.value.code == -31002 and caught.value.data == {"name": "unknownInstance", "instance": "nobody-here"}


# ---------------------------------------------------------------------- subscriptions


class TestSubscriptions:
    def test_subscribe_replays_state_first_then_live_values_with_growing_seq(self, client: Client) -> None:
        instance = client.create("Counter", args={"start": 1}).instance
        subscription = client.subscribe(instance, ["count"], timeout=WAIT)
        client.send(instance, "increment", 1)
        client.send(instance, "decrement")
        outputs = subscription.take(3)
        assert [(o.value, o.seq, o.replay) for o in outputs] == [(1, 1, True), (2, 2, False), (1, 3, False)]
        assert all(o.subscription == subscription.id and o.instance == instance for o in outputs)
        client.unsubscribe(subscription)
        assert list(subscription) == []
        client.destroy(instance)

    def test_without_replay_the_first_value_is_live(self, client: Client) -> None:
        instance = client.create("Counter", args={"start": 1}).instance
        subscription = client.subscribe(instance, replay=False, timeout=WAIT)
        client.send(instance, "set", 9)
        first = subscription.next()
        assert (first.value, first.seq, first.replay) == (9, 1, False)
        client.destroy(instance)

    def test_create_with_subscribe_delivers_from_seq_1_and_ends_on_destroy(self, client: Client) -> None:
        created = client.create("Counter", args={"start": 3}, subscribe=True, subscription_timeout=WAIT)
        assert created.subscription is not None
        client.send(created.instance, "increment", 4)
        client.destroy(created.instance)
        outputs = list(created.subscription)
        assert [(o.value, o.seq, o.replay) for o in outputs] == [(3, 1, True), (7, 2, False)]
        assert created.subscription.closed_reason == "destroyed"

    def test_an_unknown_output_opens_nothing(self, client: Client) -> None:
        instance = client.create("Counter").instance
        with pytest.raises(vmd_client.UnknownOutput):
            client.subscribe(instance, ["nope"])
        assert {e["instance"]: e for e in client.list()}[instance]["subscribers"] == 0
        client.destroy(instance)

    def test_waiting_for_a_value_that_never_comes_times_out(self, client: Client) -> None:
        instance = client.create("Counter").instance
        subscription = client.subscribe(instance, replay=False)
        with pytest.raises(vmd_client.CallTimeout):
            subscription.next(timeout=0.2)
        client.destroy(instance)

    def test_two_clients_on_one_instance_see_the_same_values_in_the_same_order(
            self, client: Client, socket_path: str) -> None:
        instance = client.create("Counter").instance
        with Client(socket_path, timeout=WAIT) as other:
            mine = client.subscribe(instance, timeout=WAIT)
            theirs = other.subscribe(instance, timeout=WAIT)
            for step in range(1, 6):
                (client if step % 2 else other).send(instance, "increment", step)
            assert [o.value for o in mine.take(6)] == [0, 1, 3, 6, 10, 15]
            assert [o.value for o in theirs.take(6)] == [0, 1, 3, 6, 10, 15]
            other.destroy(instance)
            assert list(mine) == [] and mine.closed_reason == "destroyed"
            assert list(theirs) == [] and theirs.closed_reason == "destroyed"

    def test_a_connection_scoped_instance_goes_when_its_creator_disconnects(
            self, client: Client, socket_path: str) -> None:
        creator = Client(socket_path, timeout=WAIT)
        instance = creator.create("Counter", scope="connection").instance
        watching = client.subscribe(instance, timeout=WAIT)
        assert watching.next().replay
        creator.close()
        assert list(watching) == []
        assert watching.closed_reason == "ownerDisconnected"
        with pytest.raises(vmd_client.UnknownInstance):
            client.get(instance, "count")


# ---------------------------------------------------------------------- Login and actions


class TestLogin:
    def test_a_demo_login_session(self, client: Client, demo_account: "tuple[str, str]") -> None:
        login = client.create("Login", args={"latencyMs": 50}, scope="connection",
                              subscribe=True, subscription_timeout=WAIT)
        assert login.subscription is not None
        assert values(login.subscription.take(2)) == [("isLoginAllowed", False), ("isLoading", False)]
        with pytest.raises(vmd_client.ActionNotEnabled):
            client.execute(login.instance, "submit")
        email, password = demo_account
        client.send(login.instance, "email", email)
        client.send(login.instance, "password", password)
        assert client.get(login.instance, "isLoginAllowed") is True
        assert client.execute(login.instance, "submit", timeout_ms=5000) == email
        assert values(login.subscription.take(4)) == [
            ("isLoginAllowed", True), ("isLoading", True), ("loginSuccess", email), ("isLoading", False)]
        client.destroy(login.instance)

    def test_a_wrong_password_fails_the_action_and_emits_login_failure(
            self, client: Client, demo_account: "tuple[str, str]") -> None:
        login = client.create("Login", args={"latencyMs": 10}, subscribe=["loginFailure"],
                              subscription_timeout=WAIT)
        client.send(login.instance, "email", demo_account[0])
        client.send(login.instance, "password", "wrong-password")
        with pytest.raises(vmd_client.ActionFailed) as caught:
            client.execute(login.instance, "submit")
        assert isinstance(caught.value.data["error"]["message"], str)
        assert login.subscription is not None
        failure = login.subscription.next()
        assert failure.output == "loginFailure" and isinstance(failure.value, str) and failure.value
        client.destroy(login.instance)

    def _slow_valid_login(self, client: Client, demo_account: "tuple[str, str]") -> str:
        instance = client.create("Login", args={"latencyMs": 60000}).instance
        client.send(instance, "email", demo_account[0])
        client.send(instance, "password", demo_account[1])
        return instance

    def test_a_second_submit_while_the_first_runs_is_not_enabled(
            self, client: Client, demo_account: "tuple[str, str]") -> None:
        instance = self._slow_valid_login(client, demo_account)
        first = client.start_execute(instance, "submit")
        assert client.get(instance, "isLoading") is True  # answered while submit runs
        with pytest.raises(vmd_client.ActionNotEnabled):
            client.execute(instance, "submit")
        first.cancel()
        with pytest.raises(vmd_client.RequestCancelled) as caught:
            first.result(WAIT)
        assert caught.value.code == -32800
        assert client.get(instance, "isLoading") is False
        client.destroy(instance)

    def test_timeout_ms_expiring_is_action_timed_out(self, client: Client, demo_account: "tuple[str, str]") -> None:
        instance = self._slow_valid_login(client, demo_account)
        with pytest.raises(vmd_client.ActionTimedOut) as caught:
            client.execute(instance, "submit", timeout_ms=50)
        assert caught.value.data["timeoutMs"] == 50
        assert client.get(instance, "isLoading") is False
        client.destroy(instance)

    def test_a_client_side_timeout_raises_and_cancels_the_execution(
            self, client: Client, demo_account: "tuple[str, str]") -> None:
        instance = self._slow_valid_login(client, demo_account)
        watching = client.subscribe(instance, ["isLoading"], replay=False, timeout=WAIT)
        with pytest.raises(vmd_client.CallTimeout):
            client.execute(instance, "submit", timeout=0.2)
        assert [o.value for o in watching.take(2)] == [True, False]  # the cancel reached the daemon
        client.destroy(instance)

    def test_destroying_an_instance_answers_its_pending_execute_with_unknown_instance(
            self, client: Client, socket_path: str, demo_account: "tuple[str, str]") -> None:
        instance = self._slow_valid_login(client, demo_account)
        pending = client.start_execute(instance, "submit")
        with Client(socket_path, timeout=WAIT) as other:
            other.destroy(instance)
        with pytest.raises(vmd_client.UnknownInstance):
            pending.result(WAIT)


# ---------------------------------------------------------------------- long lines


class TestLongLines:
    def test_a_line_of_exactly_the_frame_limit_is_accepted_and_its_value_comes_back(self, client: Client) -> None:
        instance = client.create("TextField").instance
        frame_of = lambda text: len(vmd_client._wire.encode_frame(  # noqa: E731
            vmd_client._wire.request(99999, "vm.send", {"instance": instance, "input": "set", "value": text}),
            10 * 1048576)) - 1
        text = "x" * (1048576 - frame_of(""))
        assert frame_of(text) == 1048576
        client.send(instance, "set", text)
        assert client.get(instance, "text") == text  # a reply line far above asyncio's 64 KiB default
        client.destroy(instance)

    def test_a_message_over_the_limit_is_refused_locally_and_the_connection_stays_usable(self, client: Client) -> None:
        with pytest.raises(vmd_client.FrameTooLarge):
            client.send("anything", "set", "x" * 1048576)
        assert client.info()["protocol"] == 1


# ---------------------------------------------------------------------- dropped connections


class TestDroppedConnection:
    def test_pending_calls_and_subscriptions_end_with_connection_lost(self, socket_path: str,
                                                                      demo_account: "tuple[str, str]") -> None:
        victim = Client(socket_path, timeout=WAIT)
        instance = victim.create("Login", args={"latencyMs": 60000}).instance
        victim.send(instance, "email", demo_account[0])
        victim.send(instance, "password", demo_account[1])
        subscription = victim.subscribe(instance, replay=False, timeout=WAIT)
        pending = victim.start_execute(instance, "submit")
        subscription.next()  # isLoading true: the execution is running
        victim._connection._sock.shutdown(socket.SHUT_RDWR)  # the network drops it, not close()
        with pytest.raises(vmd_client.ConnectionLost):
            pending.result(WAIT)
        with pytest.raises(vmd_client.ConnectionLost):
            list(subscription)
        assert not victim.connected
        with pytest.raises(vmd_client.ConnectionLost):
            victim.info()
        victim.close()
        with Client(socket_path, timeout=WAIT) as observer:
            # The daemon cancels the execution when it notices the close, which requests on
            # other connections may precede: wait for it with a deadline.
            deadline = time.monotonic() + WAIT
            while observer.get(instance, "isLoading") is not False:
                assert time.monotonic() < deadline, "the execution outlived its connection"
            observer.destroy(instance)

    def test_with_reconnect_the_next_call_opens_a_new_connection(self, socket_path: str) -> None:
        with Client(socket_path, timeout=WAIT, reconnect=True) as resilient:
            before = resilient.info()["connections"]
            resilient._connection._sock.shutdown(socket.SHUT_RDWR)
            resilient._connection._reader.join(WAIT)
            assert not resilient.connected
            assert resilient.info()["connections"] == before
            assert resilient.connected


# ---------------------------------------------------------------------- daemon restarts and shutdown


@pytest.fixture()
def own_daemon() -> Iterator[DaemonProcess]:
    with DaemonProcess(find_vmd_binary(REPO_ROOT)) as process:
        yield process


class TestShutdown:
    def test_shutdown_closes_subscriptions_with_reason_shutdown_and_the_daemon_exits_0(
            self, own_daemon: DaemonProcess) -> None:
        with Client(own_daemon.socket_path, timeout=WAIT) as connected:
            created = connected.create("Counter", subscribe=True, subscription_timeout=WAIT)
            assert connected.shutdown() == {"stopping": True}
            assert created.subscription is not None
            assert [o.value for o in created.subscription] == [0]
            assert created.subscription.closed_reason == "shutdown"
        assert own_daemon.wait(WAIT * 2) == 0
        assert not Path(own_daemon.socket_path).exists()

    def test_reconnect_reaches_a_restarted_daemon_with_a_new_boot_id(self, own_daemon: DaemonProcess) -> None:
        with Client(own_daemon.socket_path, timeout=WAIT, reconnect=True, connect_timeout=20) as resilient:
            first_boot = resilient.info()["bootId"]
            assert own_daemon.stop() == 0
            own_daemon.start()  # same socket path, new process
            assert resilient.info()["bootId"] != first_boot
