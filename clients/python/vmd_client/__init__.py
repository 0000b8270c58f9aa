"""vmd_client: talk to vmd, the view-model daemon, over its Unix socket (JSON-RPC 2.0, NDJSON).

Synchronous::

    from vmd_client import Client
    with Client() as vmd:
        counter = vmd.create("Counter", subscribe=True)
        vmd.send(counter.instance, "increment", 2)

asyncio::

    async with AsyncClient.connect() as vmd:
        await vmd.get("counter-1", "count")

Standard library only; Python 3.9+. The protocol is Protocol/PROTOCOL.md.
"""

from ._aio import AsyncClient, AsyncMonitor, AsyncPendingCall, AsyncSubscription
from ._errors import (
    ActionFailed, ActionNotEnabled, ActionSuperseded, ActionTimedOut, CallTimeout, ConnectionLost, ERROR_CLASSES,
    FrameTooLarge, InstanceExists, InternalError, InvalidParams, InvalidRequest, InvalidValue,
    LimitReached, MethodNotFound, NotRecording, NotStateOutput, ParseError, PermissionDenied, ProtocolMismatch,
    RequestCancelled, ShuttingDown, UnknownAction, UnknownInput, UnknownInstance, UnknownOutput,
    UnknownSession, UnknownSubscription, UnknownType, VMDError, error_from_object,
)
from ._paths import SocketPathTooLong, check_socket_path, default_socket_path
from ._sync import Client, Monitor, PendingCall, Subscription
from ._tapes import BadTape, TapeMismatch, replay_tape
from ._wire import (
    DEFAULT_MAX_FRAME_BYTES, MISSING, PROTOCOL_LEVEL, Closed, Created, MonitorMessage, Output, Overflow,
    Progress,
)

# vmd's release (Sources/VMProtocol/VMDVersion.swift); pyproject.toml reads it from here and
# Tests/IntegrationTests/ClientVersionTests.swift checks that the two agree.
__version__ = "0.1.0"

__all__ = [
    "Client", "AsyncClient", "Subscription", "AsyncSubscription", "Monitor", "AsyncMonitor",
    "PendingCall", "AsyncPendingCall", "Created", "Output", "Overflow", "Closed", "MonitorMessage", "Progress",
    "ActionSuperseded",
    "VMDError", "ParseError", "InvalidRequest", "MethodNotFound", "InvalidParams", "InternalError",
    "RequestCancelled", "UnknownType", "UnknownInstance", "UnknownInput", "UnknownOutput",
    "UnknownAction", "InvalidValue", "ActionNotEnabled", "ActionFailed", "ActionTimedOut",
    "LimitReached", "InstanceExists", "UnknownSubscription", "UnknownSession", "NotRecording", "NotStateOutput", "ShuttingDown",
    "PermissionDenied", "ConnectionLost", "CallTimeout", "FrameTooLarge", "ProtocolMismatch",
    "SocketPathTooLong", "ERROR_CLASSES", "error_from_object", "default_socket_path",
    "check_socket_path", "DEFAULT_MAX_FRAME_BYTES", "PROTOCOL_LEVEL", "MISSING",
    "replay_tape", "TapeMismatch", "BadTape",
]
