"""The socket-path rule shared by the daemon and every client (PROTOCOL.md section 2)."""

from __future__ import annotations

import os
from typing import Mapping, Optional

#: Longest path a Linux ``sockaddr_un.sun_path`` holds (108 bytes with the NUL).
#: macOS allows 103. A longer path is an error, never truncated.
MAX_SOCKET_PATH_BYTES_LINUX = 107
MAX_SOCKET_PATH_BYTES_DARWIN = 103


class SocketPathTooLong(ValueError):
    """The chosen socket path does not fit in ``sun_path``."""


def default_socket_path(
    explicit: Optional[str] = None,
    environ: Optional[Mapping[str, str]] = None,
    uid: Optional[int] = None,
) -> str:
    """Apply the socket-path rule; the first match wins.

    1. ``explicit`` (a ``--socket PATH`` option or a ``path=`` argument);
    2. ``VMD_SOCKET`` when set and not empty;
    3. ``$XDG_RUNTIME_DIR/vmd.sock`` when ``XDG_RUNTIME_DIR`` is set, not empty and absolute;
    4. ``/tmp/vmd-$UID/vmd.sock`` with the numeric real user id.
    """
    env = os.environ if environ is None else environ
    if explicit:
        return explicit
    from_env = env.get("VMD_SOCKET", "")
    if from_env:
        return from_env
    runtime = env.get("XDG_RUNTIME_DIR", "")
    if runtime and runtime.startswith("/"):
        return runtime.rstrip("/") + "/vmd.sock" if runtime != "/" else "/vmd.sock"
    real_uid = os.getuid() if uid is None else uid
    return "/tmp/vmd-%d/vmd.sock" % real_uid


def check_socket_path(path: str, limit: int = MAX_SOCKET_PATH_BYTES_LINUX) -> str:
    """Return ``path`` unchanged, or raise :class:`SocketPathTooLong` when it cannot be bound."""
    size = len(os.fsencode(path))
    if size > limit:
        raise SocketPathTooLong(
            "socket path is %d bytes, more than the %d a Unix socket address holds: %s"
            % (size, limit, path)
        )
    return path
