"""Sessions that survive a reconnect, for the asyncio client (Protocol/PROTOCOL.md, section 18).

The same behaviour as the synchronous client's (``_session.py``): with
``AsyncClient(reconnect=True)`` a resumable session is opened on connect; when the daemon's
side of the connection ends, a task reconnects within the grace and sends
``session.resume`` first; pending calls, subscriptions and monitors go on (the same
objects). A refused resume ends every subscription with reason ``sessionExpired`` and the
client goes on with a fresh session; after a daemon restart (another ``bootId``), the
``daemonRestarted`` event, then each subscription is opened again on its instance: the same
:class:`AsyncSubscription` goes on with the current values of an instance that came back (a
durable one) and ends with reason ``daemonRestarted`` otherwise (PROTOCOL.md, section 18,
"After a restart").
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from ._errors import ConnectionLost, VMDError
from ._paths import check_socket_path
from ._sync import _End
from ._session import SessionState
from ._wire import lost_ranges, resubscribe_params, resume_refusal

if TYPE_CHECKING:
    from ._aio import AsyncClient


class AsyncSessionKeeper(SessionState):
    """The resumable session of one :class:`AsyncClient`, and the resumes after drops."""

    def __init__(self, client: "AsyncClient") -> None:
        super().__init__()
        self._client = client
        self.task: Optional["asyncio.Task[None]"] = None
        # Set while no resume is in progress (made on first use, inside the event loop).
        self._settled: Optional[asyncio.Event] = None
        # The handshake request in flight, failed at once if its connection drops too.
        self.handshake: Optional["asyncio.Future[Any]"] = None

    @property
    def resuming(self) -> bool:
        return self.task is not None and not self.task.done()

    async def wait_settled(self) -> None:
        if self.resuming and self._settled is not None:
            await asyncio.wait_for(self._settled.wait(), self.grace_ms / 1000.0 + self._client.connect_timeout)

    # ------------------------------------------------------------------ opening and closing

    async def open(self, info: Optional[Dict[str, Any]]) -> None:
        """Opens a session on the new connection; a daemon without sessions leaves none."""
        self.note_boot(info)
        try:
            opened = await self._ask("session.open", {})
        except (VMDError, ConnectionLost, OSError, asyncio.TimeoutError):
            self.token = None
            return
        self.take_grant(opened)

    async def close(self) -> None:
        if self.token is None or not self._client._open:
            return
        self.token = None
        try:
            await asyncio.wait_for(self._ask("session.close", {}), 2.0)
        except Exception:
            pass

    async def _ask(self, method: str, params: Optional[Dict[str, Any]]) -> Any:
        """A request on the current connection, not waiting for a resume (it is one)."""
        self.handshake = self._client._send_now(method, params)
        try:
            return await asyncio.wait_for(asyncio.shield(self.handshake), self._client.timeout)
        finally:
            self.handshake = None

    # ------------------------------------------------------------------ resuming

    def on_lost(self, error: BaseException) -> bool:
        """Called when the reader of the current connection ends. True: calls and streams
        stay for a resume task."""
        client = self._client
        if self.token is None or client._closed_by_user or not client.reconnect:
            return False
        if self.resuming:
            if self.handshake is not None and not self.handshake.done():
                self.handshake.set_exception(ConnectionLost(str(error)))
            return True
        if self._settled is None:
            self._settled = asyncio.Event()
        self._settled.clear()
        self.tell({"event": "disconnected", "reason": str(error)})
        self.task = asyncio.ensure_future(self._resume(error))
        return True

    async def _resume(self, error: BaseException) -> None:
        from ._aio import AsyncSubscription

        client = self._client
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.grace_ms / 1000.0
        pause = max(client.reconnect_delay, 0.01)
        held_below = client._next_id + 1
        try:
            await asyncio.sleep(client.reconnect_delay)
            while True:
                if client._closed_by_user:
                    client._shut(ConnectionLost("the client closed the connection"))
                    return
                try:
                    reader, writer = await asyncio.wait_for(
                        asyncio.open_unix_connection(check_socket_path(client.path), limit=client.line_limit),
                        client.connect_timeout)
                except (OSError, asyncio.TimeoutError):
                    if loop.time() >= deadline:
                        self.token = None
                        client._shut(ConnectionLost(str(error)))
                        return
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, 1.0)
                    continue
                client._attach(reader, writer)
                streams = dict(client._streams)
                marks = {key: len(s._seqs.gaps) for key, s in streams.items() if isinstance(s, AsyncSubscription)}
                try:
                    # The first request of the new connection (PROTOCOL.md, section 18).
                    resumed = await self._ask(
                        "session.resume", {"token": self.token, "received": self.received(marks, streams)})
                except (ConnectionLost, asyncio.TimeoutError):
                    continue
                except VMDError:
                    await self._refused()
                    return
                pending_ids = set(resumed.get("pending") or []) if isinstance(resumed, dict) else set()
                if isinstance(resumed, dict) and isinstance(resumed.get("session"), str):
                    self.session = resumed["session"]
                client._open = True
                try:
                    # Its reply comes after everything the daemon queued while detached.
                    info = await self._ask("daemon.info", None)
                except (ConnectionLost, asyncio.TimeoutError, VMDError):
                    client._open = False
                    continue
                lost_calls = ConnectionLost("the request was lost with the connection")
                for request_id in [i for i in client._pending if i < held_below and i not in pending_ids]:
                    future = client._pending.pop(request_id)
                    client._hooks.pop(request_id, None)
                    if not future.done():
                        future.set_exception(lost_calls)
                for key, stream in list(client._streams.items()):
                    if isinstance(stream, AsyncSubscription) and stream._held_at_shutdown:
                        # Resumed after all: it ends as the daemon said.
                        del client._streams[key]
                        stream.closed_reason = "shutdown"
                        stream._put(_End("shutdown"))
                gaps = {key: streams[key]._seqs.gaps for key in marks}  # type: ignore[attr-defined]
                self.tell_resumed(lost_ranges(marks, gaps), info)
                return
        finally:
            if self._settled is not None:
                self._settled.set()

    async def _refused(self) -> None:
        """``session.resume`` was refused: a restart or an expiry ends what the session held."""
        from ._aio import AsyncSubscription

        client = self._client
        try:
            info = await self._ask("daemon.info", None)
        except (ConnectionLost, VMDError, asyncio.TimeoutError):
            info = {}
        boot_id, restarted, reason = resume_refusal(info, self.boot_id)
        expired = self.session
        self.token, self.session = None, None
        error = ConnectionLost("the daemon restarted" if restarted else "the session expired")
        pending, client._pending, client._hooks = client._pending, {}, {}
        streams, client._streams = client._streams, {}
        monitors, client._monitors = client._monitors, {}
        for future in pending.values():
            if not future.done():
                future.set_exception(error)
        following: List[AsyncSubscription] = []
        for stream in streams.values():
            if restarted and isinstance(stream, AsyncSubscription) and stream._follow is not None:
                following.append(stream)  # opened again below, where its instance came back
            elif isinstance(stream, AsyncSubscription):
                stream.closed_reason = "shutdown" if stream._held_at_shutdown else reason
                stream._put(_End(stream.closed_reason))
            else:
                stream._put(_End(None, error))
        for monitor in monitors.values():
            monitor._put(_End(None, error))
        self.tell({"event": "daemonRestarted", "bootId": boot_id} if restarted else
                  {"event": "sessionExpired", "session": expired})
        client._open = True
        await self.open(info if isinstance(info, dict) else None)
        await self._resubscribe(following)
        self.tell({"event": "reconnected", "bootId": boot_id})

    async def _resubscribe(self, following: "List[Any]") -> None:
        """``vm.subscribe`` again for each subscription of the restarted daemon: it goes on
        with its instance's current values (registered as the reply is read, before they
        arrive), or ends with reason ``daemonRestarted`` when the instance did not come back."""
        client = self._client
        for subscription in following:
            def reopened(result: Any, subscription: Any = subscription) -> None:
                subscription._reopened(result["subscription"])
                client._streams[subscription.id] = subscription

            try:
                future = client._send_now("vm.subscribe", resubscribe_params(subscription.instance, subscription._follow))
                # Set before the loop reads again, so it runs as the reply is routed.
                client._hooks[client._next_id] = reopened
                await asyncio.wait_for(asyncio.shield(future), client.timeout)
            except (VMDError, ConnectionLost, OSError, asyncio.TimeoutError, KeyError, TypeError):
                client._streams.pop(subscription.id, None)
                subscription.closed_reason = "daemonRestarted"
                subscription._put(_End("daemonRestarted"))
