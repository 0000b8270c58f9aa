"""``vmctl watch`` survives a connection the daemon's side drops: it reconnects, resumes its
session (PROTOCOL.md, section 18) and keeps printing with continuing seq.

vmctl reaches the daemon through a small proxy socket of the test's own; cutting the
proxied connection mid-stream is, for vmctl and for vmd, a connection dropped from outside.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import List, Tuple

import pytest

from vmd_client import Client

REPO_ROOT = Path(__file__).resolve().parents[3]
WAIT = 10.0


def find_vmctl() -> Path:
    explicit = os.environ.get("VMCTL_BIN")
    return Path(explicit) if explicit else REPO_ROOT / ".build" / "debug" / "vmctl"


class Proxy:
    """Forwards each connection on ``path`` to ``target``; :meth:`cut` drops them all."""

    def __init__(self, path: str, target: str) -> None:
        self.path, self.target = path, target
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(path)
        self.listener.listen(8)
        self.pairs: List[Tuple[socket.socket, socket.socket]] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            upstream.connect(self.target)
            with self.lock:
                self.pairs.append((client, upstream))
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while True:
                chunk = source.recv(65536)
                if not chunk:
                    break
                sink.sendall(chunk)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> int:
        with self.lock:
            pairs, self.pairs = self.pairs, []
        for pair in pairs:
            for end in pair:
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
        return len(pairs)

    def close(self) -> None:
        self.listener.close()
        self.cut()


def test_vmctl_watch_resumes_after_a_dropped_connection_and_keeps_printing(socket_path: str, tmp_path: Path) -> None:
    vmctl = find_vmctl()
    if not vmctl.is_file():
        pytest.fail("vmctl not found at %s: run `swift build --product vmctl` or set VMCTL_BIN" % vmctl)
    proxy = Proxy(str(tmp_path / "proxy.sock"), socket_path)
    try:
        with Client(socket_path, timeout=WAIT) as other:
            counter = other.create("Counter").instance
            watch = subprocess.Popen(
                [str(vmctl), "--socket", proxy.path, "--json", "watch", counter, "count", "--count-changes", "40",
                 "--timeout", "20"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            assert watch.stdout is not None and watch.stderr is not None
            notes: "queue.Queue[str]" = queue.Queue()
            threading.Thread(target=lambda: [notes.put(line) for line in watch.stderr], daemon=True).start()
            first = json.loads(watch.stdout.readline())
            assert first["seq"] == 1 and first["value"] == 0
            for _ in range(20):
                other.send(counter, "increment")
            # Wait until vmctl printed the 20th change, then drop its connection from outside.
            seen = [first]
            while seen[-1]["value"] < 20:
                seen.append(json.loads(watch.stdout.readline()))
            assert proxy.cut() == 1
            # vmctl notices, reconnects through the proxy, resumes, and says so on standard error.
            deadline = time.monotonic() + WAIT
            said: List[str] = []
            while not any("resumed session" in line for line in said):
                said.append(notes.get(timeout=max(0.01, deadline - time.monotonic())))
            for _ in range(20):
                other.send(counter, "increment")
            seen += [json.loads(line) for line in watch.stdout]
            assert watch.wait(timeout=WAIT) == 0, "".join(said)
            outputs = [line for line in seen if "seq" in line]
            seqs = [line["seq"] for line in outputs]
            assert seqs == list(range(1, 42)), "continuing seq, each once: %s" % seqs
            assert outputs[-1]["value"] == 40
            other.destroy(counter)
    finally:
        proxy.close()


def test_vmctl_watch_reports_values_the_dropped_connection_took_and_prints_the_newest(
        socket_path: str, tmp_path: Path) -> None:
    vmctl = find_vmctl()
    if not vmctl.is_file():
        pytest.fail("vmctl not found at %s: run `swift build --product vmctl` or set VMCTL_BIN" % vmctl)
    proxy = Proxy(str(tmp_path / "proxy.sock"), socket_path)
    watch = None
    try:
        with Client(socket_path, timeout=WAIT) as other:
            counter = other.create("Counter").instance
            watch = subprocess.Popen(
                [str(vmctl), "--socket", proxy.path, "--json", "watch", counter, "count", "--timeout", "20"],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            assert watch.stdout is not None and watch.stderr is not None
            notes: "queue.Queue[str]" = queue.Queue()
            reader = threading.Thread(target=lambda: [notes.put(line) for line in watch.stderr], daemon=True)
            reader.start()
            assert json.loads(watch.stdout.readline())["value"] == 0
            # vmctl is stopped while vmd hands it a burst larger than the sockets hold; cutting
            # the connection then loses what sits in the proxy and the daemon's send buffer.
            # Only session.resume's `received` makes vmd report that and send the newest value
            # again (PROTOCOL.md, section 18).
            watch.send_signal(signal.SIGSTOP)
            try:
                for _ in range(5000):
                    other.notify("vm.send", {"instance": counter, "input": "increment"})
                assert other.get(counter, "count") == 5000
                time.sleep(0.2)
                assert proxy.cut() == 1
            finally:
                watch.send_signal(signal.SIGCONT)
            seen = []
            for line in watch.stdout:
                seen.append(json.loads(line))
                if seen[-1].get("value") == 5000:
                    break
            watch.terminate()
            watch.wait(timeout=WAIT)
            reader.join(timeout=WAIT)  # everything vmctl wrote to standard error is queued (a loaded machine is slow)
            said = []
            while not notes.empty():
                said.append(notes.get())
            assert any("resumed session" in line for line in said), "".join(said)
            outputs = [line for line in seen if "seq" in line]
            lost = [(line["lost"]["from"], line["lost"]["to"]) for line in seen if "lost" in line]
            assert lost, "the values the dropped connection took are reported lost"
            assert outputs[-1]["value"] == 5000 and outputs[-1].get("replay") is True
            seqs = [line["seq"] for line in outputs]
            assert seqs == sorted(set(seqs)), "each seq once, in order"
            covered = set(seqs) | {seq for low, high in lost for seq in range(low, high + 1)}
            assert set(range(2, seqs[-1])) <= covered, "every seq before the replay printed or reported lost"
            other.destroy(counter)
    finally:
        if watch is not None and watch.poll() is None:
            watch.kill()
        proxy.close()
