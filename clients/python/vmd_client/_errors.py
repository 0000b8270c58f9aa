"""Exceptions: one class per ``error.data.name`` of the protocol, plus local failures."""

from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Type


class VMDError(Exception):
    """An error response from vmd: JSON-RPC ``code``, ``message`` and ``data``.

    ``name`` is ``data["name"]``, the symbolic name programs should test. Unknown
    names (added by a later protocol revision) arrive as a plain :class:`VMDError`.
    """

    #: The symbolic name a subclass stands for (``None`` on the base class).
    error_name: Optional[str] = None
    #: The code a subclass stands for (``None`` on the base class).
    error_code: Optional[int] = None

    def __init__(self, code: int, message: str, data: Optional[Mapping[str, Any]] = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data: Dict[str, Any] = dict(data or {})

    @property
    def name(self) -> str:
        name = self.data.get("name")
        return name if isinstance(name, str) else (self.error_name or "unknown")

    def __repr__(self) -> str:
        return "%s(code=%d, message=%r, data=%r)" % (type(self).__name__, self.code, self.message, self.data)


class ParseError(VMDError):
    """The frame was not valid JSON or UTF-8. (``parseError``, -32700)"""

    error_name = "parseError"
    error_code = -32700


class InvalidRequest(VMDError):
    """Not a JSON-RPC 2.0 request. (``invalidRequest``, -32600)"""

    error_name = "invalidRequest"
    error_code = -32600


class MethodNotFound(VMDError):
    """No such method. (``methodNotFound``, -32601)"""

    error_name = "methodNotFound"
    error_code = -32601


class InvalidParams(VMDError):
    """Params missing, mistyped or unknown. (``invalidParams``, -32602)"""

    error_name = "invalidParams"
    error_code = -32602


class InternalError(VMDError):
    """A bug in the daemon. (``internalError``, -32603)"""

    error_name = "internalError"
    error_code = -32603


class RequestCancelled(VMDError):
    """Cancelled by $/cancelRequest. (``requestCancelled``, -32800)"""

    error_name = "requestCancelled"
    error_code = -32800


class UnknownType(VMDError):
    """The daemon serves no such type. (``unknownType``, -31001)"""

    error_name = "unknownType"
    error_code = -31001


class UnknownInstance(VMDError):
    """No live instance with that id. (``unknownInstance``, -31002)"""

    error_name = "unknownInstance"
    error_code = -31002


class UnknownInput(VMDError):
    """The type has no such input. (``unknownInput``, -31003)"""

    error_name = "unknownInput"
    error_code = -31003


class UnknownOutput(VMDError):
    """The type has no such output. (``unknownOutput``, -31004)"""

    error_name = "unknownOutput"
    error_code = -31004


class UnknownAction(VMDError):
    """The type has no such action. (``unknownAction``, -31005)"""

    error_name = "unknownAction"
    error_code = -31005


class InvalidValue(VMDError):
    """A value does not match its schema. (``invalidValue``, -31006)"""

    error_name = "invalidValue"
    error_code = -31006


class ActionNotEnabled(VMDError):
    """The action is disabled or running. (``actionNotEnabled``, -31007)"""

    error_name = "actionNotEnabled"
    error_code = -31007


class ActionSuperseded(VMDError):
    """A newer execution of the same ``latest`` action cancelled this one. (``actionSuperseded``, -31017)"""

    error_name = "actionSuperseded"
    error_code = -31017


class ActionFailed(VMDError):
    """The action ran and failed. (``actionFailed``, -31008)"""

    error_name = "actionFailed"
    error_code = -31008


class ActionTimedOut(VMDError):
    """timeoutMs expired; the action was cancelled. (``actionTimedOut``, -31009)"""

    error_name = "actionTimedOut"
    error_code = -31009


class LimitReached(VMDError):
    """A daemon limit would be exceeded. (``limitReached``, -31010)"""

    error_name = "limitReached"
    error_code = -31010


class InstanceExists(VMDError):
    """vm.create with an id already in use. (``instanceExists``, -31011)"""

    error_name = "instanceExists"
    error_code = -31011


class UnknownSubscription(VMDError):
    """No such subscription here. (``unknownSubscription``, -31012)"""

    error_name = "unknownSubscription"
    error_code = -31012


class NotStateOutput(VMDError):
    """vm.get of an event output. (``notStateOutput``, -31013)"""

    error_name = "notStateOutput"
    error_code = -31013


class ShuttingDown(VMDError):
    """The daemon is stopping. (``shuttingDown``, -31014)"""

    error_name = "shuttingDown"
    error_code = -31014


class PermissionDenied(VMDError):
    """Only the daemon's own user may. (``permissionDenied``, -31015)"""

    error_name = "permissionDenied"
    error_code = -31015


class UnknownSession(VMDError):
    """The token names no session this daemon keeps for this user: unknown, expired or
    closed. (``unknownSession``, -31016)"""

    error_name = "unknownSession"
    error_code = -31016


class NotRecording(VMDError):
    """``vm.tape`` of an instance created without ``record``. (``notRecording``, -31018)"""

    error_name = "notRecording"
    error_code = -31018


ERROR_CLASSES: Dict[str, Type[VMDError]] = {
    cls.error_name: cls
    for cls in (
        ParseError, InvalidRequest, MethodNotFound, InvalidParams, InternalError, RequestCancelled,
        UnknownType, UnknownInstance, UnknownInput, UnknownOutput, UnknownAction, InvalidValue,
        ActionNotEnabled, ActionFailed, ActionTimedOut, LimitReached, InstanceExists,
        UnknownSubscription, NotStateOutput, ShuttingDown, PermissionDenied, UnknownSession,
        ActionSuperseded,
        NotRecording,
    )
}
_BY_CODE: Dict[int, Type[VMDError]] = {cls.error_code: cls for cls in ERROR_CLASSES.values() if cls.error_code is not None}


def error_from_object(error: Any) -> VMDError:
    """Build the matching exception from a JSON-RPC ``error`` object.

    ``data.name`` picks the class; the code is the fallback; anything else is a
    plain :class:`VMDError` (an addition of a later revision, or a malformed object).
    """
    if not isinstance(error, Mapping):
        return VMDError(-32603, "malformed error object: %r" % (error,), {"name": "internalError"})
    code = error.get("code")
    code = code if isinstance(code, int) and not isinstance(code, bool) else -32603
    message = error.get("message")
    message = message if isinstance(message, str) else "error %d" % code
    data = error.get("data")
    data = data if isinstance(data, Mapping) else {}
    cls = ERROR_CLASSES.get(data.get("name", "")) or _BY_CODE.get(code) or VMDError
    return cls(code, message, data)


class ConnectionLost(ConnectionError):
    """The connection to vmd closed (or could not be opened) while a call or a
    subscription needed it."""


class CallTimeout(TimeoutError):
    """No reply, or no notification, arrived within the client-side timeout."""


class FrameTooLarge(ValueError):
    """An outgoing message is larger than the daemon's ``maxFrameBytes``; the daemon
    would answer limitReached and close the connection, so it is not sent."""


class ProtocolMismatch(RuntimeError):
    """The daemon speaks another protocol level than this client (level 1)."""
