"""Fixtures for the conformance test: one real vmd per test module.

The launcher (temp socket under /tmp, readiness by connecting, SIGTERM at the end)
is clients/python's vmd_client.testing; the conformance test itself speaks raw
NDJSON and LSP frames, not through that client.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterator

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
PYTHON_CLIENT = REPO_ROOT / "clients" / "python"
if str(PYTHON_CLIENT) not in sys.path:
    sys.path.insert(0, str(PYTHON_CLIENT))

from vmd_client.testing import DaemonProcess, find_vmd_binary  # noqa: E402


@pytest.fixture(scope="module")
def daemon() -> Iterator[DaemonProcess]:
    with DaemonProcess(find_vmd_binary(REPO_ROOT)) as process:
        yield process
