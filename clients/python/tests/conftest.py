"""Fixtures: one real vmd per test module, and the import path of vmd_client."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Iterator

import pytest

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
REPO_ROOT = Path(__file__).resolve().parents[3]
if str(PACKAGE_ROOT) not in sys.path:
    sys.path.insert(0, str(PACKAGE_ROOT))

from vmd_client.testing import DaemonProcess, find_vmd_binary  # noqa: E402


@pytest.fixture(scope="module")
def daemon() -> Iterator[DaemonProcess]:
    """A vmd of this module's own, stopped (SIGTERM) and cleaned up at the end."""
    with DaemonProcess(find_vmd_binary(REPO_ROOT)) as process:
        yield process


@pytest.fixture(scope="module")
def socket_path(daemon: DaemonProcess) -> str:
    return daemon.socket_path


#: The built-in Login's demo account (documented by the catalog; vm.types describes it).
DEMO_EMAIL = "demo@example.com"
DEMO_PASSWORD = "secret"


@pytest.fixture(scope="session")
def demo_account() -> "tuple[str, str]":
    return DEMO_EMAIL, DEMO_PASSWORD
