"""``vmctl watch`` follows the same instance across a daemon restart (PROTOCOL.md, section
18, "After a restart"): vmd is killed (SIGKILL) or stopped (SIGTERM) and started again on the
same socket and state directory; watch says vmd restarted and goes on with the durable
instance's current value; a non-durable instance ends watch: ``closed (shutdown)`` at
SIGTERM as always, ``closed (daemonRestarted)`` (exit 1) when the reconnect finds it gone."""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

from vmd_client import Client
from vmd_client.testing import DaemonProcess, find_vmctl_binary, find_vmd_binary

REPO_ROOT = Path(__file__).resolve().parents[3]
WAIT = 10.0


def vmctl_binary() -> Path:
    found = find_vmctl_binary(REPO_ROOT)
    if not found.is_file():
        pytest.fail("vmctl not found at %s: run `swift build --product vmctl` or set VMCTL_BIN" % found)
    return found


class Watch:
    """``vmctl --json watch INSTANCE count``: its JSON lines and its notes on standard error."""

    def __init__(self, socket_path: str, instance: str) -> None:
        self.process = subprocess.Popen(
            [str(vmctl_binary()), "--socket", socket_path, "--json", "watch", instance, "count", "--timeout", "30"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert self.process.stdout is not None and self.process.stderr is not None
        self.notes: "queue.Queue[str]" = queue.Queue()
        threading.Thread(target=self._read_notes, args=(self.process.stderr,), daemon=True).start()

    def _read_notes(self, stderr: Any) -> None:
        for line in stderr:
            self.notes.put(line)

    def line(self) -> Dict[str, Any]:
        assert self.process.stdout is not None
        text = self.process.stdout.readline()
        assert text, "watch ended: %s" % self.said()
        return dict(json.loads(text))

    def said(self) -> str:
        lines: List[str] = []
        while not self.notes.empty():
            lines.append(self.notes.get())
        return "".join(lines)

    def wait_for_note(self, text: str) -> str:
        deadline = time.monotonic() + WAIT
        while True:
            line = self.notes.get(timeout=max(0.01, deadline - time.monotonic()))
            if text in line:
                return line

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=WAIT)


def end(daemon: DaemonProcess, how: str) -> None:
    assert daemon.process is not None
    if how == "kill":
        daemon.process.send_signal(signal.SIGKILL)
        daemon.process.wait(timeout=WAIT)
    daemon.stop()


@pytest.mark.parametrize("how", ["kill", "term"])
def test_vmctl_watch_follows_a_durable_instance_across_a_restart(how: str) -> None:
    daemon = DaemonProcess(find_vmd_binary(REPO_ROOT)).start()
    watch = None
    try:
        with Client(daemon.socket_path, timeout=WAIT) as client:
            client.create("Counter", id="visits", durable=True)
            client.send("visits", "increment")
            client.send("visits", "increment")
        watch = Watch(daemon.socket_path, "visits")
        assert watch.line()["value"] == 2

        end(daemon, how)
        daemon.start()

        assert "visits" in watch.wait_for_note("vmd restarted")
        current = watch.line()
        assert (current["value"], current["seq"], current.get("replay")) == (2, 1, True)
        with Client(daemon.socket_path, timeout=WAIT) as client:
            client.send("visits", "increment")
        live = watch.line()
        assert (live["value"], live["seq"]) == (3, 2)
    finally:
        if watch is not None:
            watch.stop()
        daemon.cleanup()


@pytest.mark.parametrize("how", ["kill", "term"])
def test_vmctl_watch_reports_an_instance_the_restart_did_not_bring_back(how: str) -> None:
    daemon = DaemonProcess(find_vmd_binary(REPO_ROOT)).start()
    watch = None
    try:
        with Client(daemon.socket_path, timeout=WAIT) as client:
            client.create("Counter", id="plain")
        watch = Watch(daemon.socket_path, "plain")
        assert watch.line()["value"] == 0

        end(daemon, how)
        daemon.start()

        closed = watch.line()
        if how == "term":
            # A non-durable instance's shutdown close is final: watch ends as it always did.
            assert (closed["instance"], closed["reason"]) == ("plain", "shutdown")
            assert watch.process.wait(timeout=WAIT) == 0
        else:
            assert (closed["instance"], closed["reason"]) == ("plain", "daemonRestarted")
            assert watch.process.wait(timeout=WAIT) == 1
            watch.wait_for_note("plain is gone")
    finally:
        if watch is not None:
            watch.stop()
        daemon.cleanup()
