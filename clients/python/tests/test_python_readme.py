"""The README's examples run as written against the real vmd."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import List

from vmd_client.testing import DaemonProcess

PACKAGE_ROOT = Path(__file__).resolve().parents[1]


def python_blocks() -> List[str]:
    text = (PACKAGE_ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


def run_block(source: str, daemon: DaemonProcess) -> List[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VMD_")}
    env["VMD_SOCKET"] = daemon.socket_path
    env["PYTHONPATH"] = str(PACKAGE_ROOT)
    result = subprocess.run([sys.executable, "-c", source], env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_the_login_session_is_under_15_lines_and_runs(daemon: DaemonProcess) -> None:
    block = python_blocks()[0]
    assert len(block.strip().splitlines()) < 15
    lines = run_block(block, daemon)
    assert lines[:2] == ["True", "demo@example.com"]
    assert lines[2:] == ["1 isLoginAllowed False", "2 isLoading False", "3 isLoginAllowed True",
                         "4 isLoading True", "5 loginSuccess demo@example.com", "6 isLoading False"]


def test_the_asyncio_example_runs(daemon: DaemonProcess) -> None:
    assert run_block(python_blocks()[1], daemon) == ["loginSuccess demo@example.com"]


def test_the_session_example_runs(daemon: DaemonProcess) -> None:
    lines = run_block(python_blocks()[2], daemon)
    assert re.fullmatch(r"s[0-9]+", lines[0]), lines
    assert lines[1:] == ["[0, 1]"]
