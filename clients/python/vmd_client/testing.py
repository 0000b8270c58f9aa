"""Run a real ``vmd`` for tests: a private temp socket, readiness by connecting, clean stop.

Used by this package's tests, the shell recipes' tests and Protocol/tests; usable by
anyone testing code that talks to vmd::

    with DaemonProcess("/path/to/vmd") as daemon:
        with Client(daemon.socket_path) as client: ...
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import BinaryIO, Dict, List, Optional, Sequence

#: How long a daemon may take to start listening (a cold debug build is slow to load).
READY_DEADLINE_SECONDS = 20.0


def find_vmd_binary(repo_root: Path) -> Path:
    """``$VMD_BIN`` when set, else ``<repo>/.build/debug/vmd``. Building it is the caller's job."""
    configured = os.environ.get("VMD_BIN", "")
    return Path(configured) if configured else repo_root / ".build" / "debug" / "vmd"


def find_vmctl_binary(repo_root: Path) -> Path:
    """``$VMCTL_BIN`` when set, else ``<repo>/.build/debug/vmctl``. Building it is the caller's job."""
    configured = os.environ.get("VMCTL_BIN", "")
    return Path(configured) if configured else repo_root / ".build" / "debug" / "vmctl"


class DaemonProcess:
    """One ``vmd`` child on ``/tmp/vmdt-XXXX/vmd.sock`` (well under ``sun_path``'s 108 bytes).

    Its state directory and configuration home are private temp directories, and every
    inherited ``VMD_*`` variable is removed, so the user's own daemon settings cannot leak
    in. :meth:`start` returns once a connection succeeds (bounded deadline, no fixed sleep).
    """

    def __init__(self, binary: Path, extra_args: Sequence[str] = ()) -> None:
        self.binary = Path(binary)
        self.extra_args = list(extra_args)
        # mkdtemp makes a 0700 directory we own, as the daemon's directory check requires.
        self.directory = Path(tempfile.mkdtemp(prefix="vmdt-", dir="/tmp"))
        self.socket_path = str(self.directory / "vmd.sock")
        self.state_dir = self.directory / "state"
        self.log_path = self.directory / "vmd.log"
        self.process: Optional["subprocess.Popen[bytes]"] = None
        self._log: Optional[BinaryIO] = None

    def environment(self) -> Dict[str, str]:
        env = {key: value for key, value in os.environ.items() if not key.startswith("VMD_")}
        env["XDG_CONFIG_HOME"] = str(self.directory / "config")
        env["XDG_STATE_HOME"] = str(self.directory / "xdg-state")
        env.pop("NOTIFY_SOCKET", None)
        env.pop("LISTEN_FDS", None)
        env.pop("LISTEN_PID", None)
        return env

    def command(self) -> List[str]:
        return [str(self.binary), "--socket", self.socket_path, "--state-dir", str(self.state_dir)] + self.extra_args

    def start(self) -> "DaemonProcess":
        if not self.binary.is_file():
            raise FileNotFoundError(
                "vmd binary not found at %s: run `swift build --product vmd` or set VMD_BIN" % self.binary
            )
        self.state_dir.mkdir(mode=0o700, exist_ok=True)
        self._log = open(self.log_path, "wb")
        self.process = subprocess.Popen(self.command(), env=self.environment(), stdin=subprocess.DEVNULL,
                                        stdout=self._log, stderr=subprocess.STDOUT)
        self.wait_until_ready()
        return self

    def wait_until_ready(self, deadline_seconds: float = READY_DEADLINE_SECONDS) -> None:
        assert self.process is not None
        deadline = time.monotonic() + deadline_seconds
        while True:
            if self.process.poll() is not None:
                raise RuntimeError("vmd exited with %s before listening:\n%s" % (self.process.returncode, self.log()))
            probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                probe.connect(self.socket_path)
                return
            except (FileNotFoundError, ConnectionRefusedError):
                if time.monotonic() >= deadline:
                    self.stop()
                    raise RuntimeError("vmd did not listen on %s within %.0f s:\n%s"
                                       % (self.socket_path, deadline_seconds, self.log()))
                # Not a guess at a start-up time: the wait ends early when the process exits.
                try:
                    self.process.wait(timeout=0.02)
                except subprocess.TimeoutExpired:
                    pass
            finally:
                probe.close()

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log(self) -> str:
        try:
            return self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ""

    def wait(self, timeout: float = 10.0) -> int:
        """Wait for the process to exit by itself; its exit code."""
        assert self.process is not None
        return self.process.wait(timeout=timeout)

    def stop(self, timeout: float = 10.0) -> Optional[int]:
        """SIGTERM, then SIGKILL after ``timeout``; the exit code (None if never started)."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=timeout)
        if self._log is not None:
            self._log.close()
            self._log = None
        return self.process.returncode

    def cleanup(self) -> None:
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self) -> "DaemonProcess":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.cleanup()
