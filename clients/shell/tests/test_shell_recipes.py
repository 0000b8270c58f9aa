"""Each shell recipe (socat + jq) run against the real vmd."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Dict, List

import pytest

from vmd_client.testing import DaemonProcess

SHELL_DIR = Path(__file__).resolve().parents[1]
WAIT = 20  # seconds a recipe may take before the test fails

pytestmark = pytest.mark.skipif(not (shutil.which("socat") and shutil.which("jq")),
                                reason="the shell recipes need socat and jq")


@pytest.fixture(scope="module")
def env(daemon: DaemonProcess) -> Dict[str, str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("VMD_")}
    environment["VMD_SOCKET"] = daemon.socket_path
    environment["VMD_TIMEOUT"] = "10"
    return environment


def run(env: Dict[str, str], *args: str) -> "subprocess.CompletedProcess[str]":
    return subprocess.run([str(SHELL_DIR / args[0]), *args[1:]], env=env, capture_output=True,
                          text=True, timeout=WAIT)


def ok(env: Dict[str, str], *args: str) -> str:
    result = run(env, *args)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


class TestSocketPathRule:
    def rule(self, env: Dict[str, str], explicit: str = "") -> str:
        script = '. "%s/vmd.sh"; vmd_socket_path "$1"' % SHELL_DIR
        result = subprocess.run(["bash", "-c", script, "rule", explicit], env=env,
                                capture_output=True, text=True, timeout=WAIT)
        return result.stdout.strip()

    def test_explicit_then_vmd_socket_then_runtime_dir_then_tmp(self) -> None:
        base = {"PATH": os.environ["PATH"]}
        assert self.rule({**base, "VMD_SOCKET": "/a.sock"}, "/x.sock") == "/x.sock"
        assert self.rule({**base, "VMD_SOCKET": "/a.sock", "XDG_RUNTIME_DIR": "/run/u"}) == "/a.sock"
        assert self.rule({**base, "VMD_SOCKET": "", "XDG_RUNTIME_DIR": "/run/u/"}) == "/run/u/vmd.sock"
        assert self.rule({**base, "XDG_RUNTIME_DIR": "relative"}) == "/tmp/vmd-%d/vmd.sock" % os.getuid()


def test_vmd_call_prints_the_result(env: Dict[str, str], daemon: DaemonProcess) -> None:
    info = json.loads(ok(env, "vmd-call", "daemon.info"))
    assert info["protocol"] == 1 and info["socket"] == daemon.socket_path


def test_the_socket_option_wins_over_vmd_socket(env: Dict[str, str], daemon: DaemonProcess) -> None:
    wrong = {**env, "VMD_SOCKET": "/tmp/vmdt-none/vmd.sock"}
    assert "instances" in json.loads(ok(wrong, "vmd-call", "--socket", daemon.socket_path, "vm.list"))
    failed = run(wrong, "vmd-call", "vm.list")
    assert failed.returncode == 2 and "no socket" in failed.stderr


def test_create_send_get_execute(env: Dict[str, str]) -> None:
    instance = ok(env, "vmd-create", "Counter", '{"start": 5}')
    assert instance.startswith("counter-")
    assert ok(env, "vmd-get", instance, "count") == "5"
    ok(env, "vmd-send", instance, "increment", "2")
    ok(env, "vmd-send", instance, "increment")
    assert ok(env, "vmd-get", instance, "count") == "8"
    assert ok(env, "vmd-execute", instance, "reset") == "0"
    assert ok(env, "vmd-get", instance, "count") == "0"
    ok(env, "vmd-call", "vm.destroy", json.dumps({"instance": instance}))


def test_create_with_a_chosen_id(env: Dict[str, str]) -> None:
    assert ok(env, "vmd-create", "Counter", "{}", "shell-chosen") == "shell-chosen"
    again = run(env, "vmd-create", "Counter", "{}", "shell-chosen")
    assert again.returncode == 1 and "instanceExists" in again.stderr
    ok(env, "vmd-call", "vm.destroy", '{"instance": "shell-chosen"}')


def test_an_error_exits_1_with_its_message_and_name(env: Dict[str, str]) -> None:
    result = run(env, "vmd-get", "no-such-instance", "count")
    assert result.returncode == 1
    assert "unknownInstance" in result.stderr
    called = run(env, "vmd-call", "vm.sned", "{}")
    assert called.returncode == 1 and json.loads(called.stdout)["data"]["name"] == "methodNotFound"


def test_watch_prints_replay_then_live_values_and_stops_after_count(env: Dict[str, str]) -> None:
    instance = ok(env, "vmd-create", "Counter")
    watch = subprocess.Popen([str(SHELL_DIR / "vmd-watch"), "-n", "3", instance], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert watch.stdout is not None
        first = json.loads(watch.stdout.readline())  # the subscription is open once the replay arrives
        assert first == {"output": "count", "value": 0, "seq": 1, "replay": True}
        ok(env, "vmd-send", instance, "increment", "2")
        ok(env, "vmd-send", instance, "increment", "3")
        rest, _ = watch.communicate(timeout=WAIT)
        assert [json.loads(line) for line in rest.splitlines()] == [
            {"output": "count", "value": 2, "seq": 2, "replay": False},
            {"output": "count", "value": 5, "seq": 3, "replay": False},
        ]
        assert watch.returncode == 0
    finally:
        if watch.poll() is None:
            watch.kill()
            watch.wait()
    ok(env, "vmd-call", "vm.destroy", json.dumps({"instance": instance}))


def test_watch_ends_when_the_instance_is_destroyed(env: Dict[str, str]) -> None:
    instance = ok(env, "vmd-create", "Counter")
    watch = subprocess.Popen([str(SHELL_DIR / "vmd-watch"), instance, "count"], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert watch.stdout is not None
        assert json.loads(watch.stdout.readline())["replay"] is True
        ok(env, "vmd-call", "vm.destroy", json.dumps({"instance": instance}))
        _, errors = watch.communicate(timeout=WAIT)
        assert watch.returncode == 0
        assert "closed (destroyed)" in errors
    finally:
        if watch.poll() is None:
            watch.kill()
            watch.wait()


def test_login_demo_runs_a_whole_session(env: Dict[str, str]) -> None:
    lines: List[str] = ok(env, "login-demo").splitlines()
    assert lines[:2] == ["isLoginAllowed false", "isLoading false"]
    assert "isLoginAllowed true" in lines and "isLoading true" in lines
    success = [line for line in lines if line.startswith("loginSuccess ")]
    assert len(success) == 1
    assert lines[-1] == "submit -> " + success[0].split(" ", 1)[1]


def test_login_demo_with_a_wrong_password_fails(env: Dict[str, str]) -> None:
    result = run(env, "login-demo", "demo@example.com", "wrong-password")
    assert result.returncode == 1
    assert "actionFailed" in result.stderr
    assert any(line.startswith("loginFailure ") for line in result.stdout.splitlines())


def test_the_protocol_one_liner_with_plain_socat(daemon: DaemonProcess) -> None:
    request = '{"jsonrpc":"2.0","id":1,"method":"vm.types"}\n'
    result = subprocess.run(["socat", "-t", "5", "-", "UNIX-CONNECT:" + daemon.socket_path], input=request,
                            capture_output=True, text=True, timeout=WAIT)
    response = json.loads(result.stdout.splitlines()[0])
    assert response["id"] == 1 and "Counter" in [t["name"] for t in response["result"]["types"]]


def test_the_readme_login_session_runs(env: Dict[str, str]) -> None:
    readme = (SHELL_DIR / "README.md").read_text(encoding="utf-8")
    block = readme.split("## A Login session", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    assert len(block.strip().splitlines()) < 15
    result = subprocess.run(["bash", "-euc", block], cwd=SHELL_DIR.parents[1], env=env,
                            capture_output=True, text=True, timeout=WAIT * 2)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == ["true", '"demo@example.com"']
    assert [json.loads(line)["value"] for line in lines[2:4]] == [True, False]
    assert json.loads(lines[4]) == {"destroyed": True}
