"""Fixtures: one real vmd for the shell recipes (the launcher comes from clients/python)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterator

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
PYTHON_CLIENT = REPO_ROOT / "clients" / "python"
if str(PYTHON_CLIENT) not in sys.path:
    sys.path.insert(0, str(PYTHON_CLIENT))

from vmd_client.testing import DaemonProcess, find_vmd_binary  # noqa: E402


@pytest.fixture(scope="module")
def daemon() -> Iterator[DaemonProcess]:
    with DaemonProcess(find_vmd_binary(REPO_ROOT)) as process:
        yield process
