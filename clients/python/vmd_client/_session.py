"""Sessions that survive a reconnect, for the synchronous client (Protocol/PROTOCOL.md, section 18).

With ``Client(reconnect=True)`` the client opens a resumable session (``session.open``)
when it connects. When the daemon's side of the connection ends, a background thread
reconnects within the session's grace and sends ``session.resume`` as the first request of
the new connection; pending calls, subscriptions and monitors move over and go on (the
same objects). A refused resume (``unknownSession``) ends every subscription with reason
``sessionExpired``, and the client goes on with a fresh session. When ``daemon.info``
answers another ``bootId`` the daemon restarted: the ``daemonRestarted`` event, then each
subscription is opened again on its instance (``vm.subscribe`` with replay); where the
instance came back (a durable one) the same :class:`Subscription` goes on with its current
values, where it did not it ends with reason ``daemonRestarted`` (PROTOCOL.md, section 18,
"After a restart").
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple

from ._errors import CallTimeout, ConnectionLost, VMDError
from ._wire import Materializer, Output, Overflow, lost_ranges, opened_session, resubscribe_params, resume_refusal

if TYPE_CHECKING:
    from ._sync import Client, PendingCall, _Connection

EventListener = Callable[[Dict[str, Any]], None]


class SeqTracker:
    """One subscription's last queued ``seq`` and the ranges known lost, kept by whoever
    reads the connection (the sync client's reader thread, the asyncio reader task)."""

    def __init__(self) -> None:
        self.last = 0
        #: Every range known lost: overflows, and gaps (bytes written to a dropped connection
        #: and never read). A session's ``resumed`` event reports those added during a resume.
        self.gaps: List[Tuple[int, int]] = []

    def admit(self, item: Any) -> Tuple[bool, Optional[Overflow]]:
        """Whether to queue ``item`` (False: a seq already queued, a duplicate across a resume,
        PROTOCOL.md section 18), and an :class:`Overflow` to queue first for a gap."""
        if isinstance(item, Output):
            if item.seq <= self.last:
                return False, None
            gap = None
            if self.last and item.seq > self.last + 1:
                gap = Overflow(item.subscription, item.instance, self.last + 1, item.seq - 1)
                self.gaps.append((gap.lost_from, gap.lost_to))
            self.last = item.seq
            return True, gap
        if isinstance(item, Overflow):
            if item.lost_to > self.last:
                self.gaps.append((max(item.lost_from, self.last + 1), item.lost_to))
                self.last = item.lost_to
            elif any(low <= item.lost_from and item.lost_to <= high for low, high in self.gaps):
                # Already counted: after a resume, a gap before the first queued value shows the
                # seqs the dropped connection took, then vm.overflow reports them (section 18).
                return False, None
            else:
                self.gaps.append((item.lost_from, item.lost_to))
        return True, None


class FollowedValues:
    """What a subscription, sync or asyncio, keeps to follow its instance: the seqs seen
    (gaps become :class:`Overflow`), the materializer that turns patches into whole values,
    and what to subscribe again after a daemon restart."""

    def _start_following(self, subscription_id: str, instance: str) -> None:
        self.id = subscription_id
        self.instance = instance
        self.closed_reason: Optional[str] = None
        self.lost: List[Tuple[int, int]] = []
        #: What it watches (``outputs``, ``patches``), to subscribe again after a restart.
        self._follow: Optional[Dict[str, Any]] = None
        #: Known durable (``vm.create`` answered ``durable``): a ``"shutdown"`` close waits for the restart.
        self._durable = False
        #: The daemon closed it with ``"shutdown"`` while a session holds it: the reconnect decides.
        self._held_at_shutdown = False
        self._reopened(subscription_id)

    def _reopened(self, subscription_id: str) -> None:
        """Opened again under ``subscription_id`` after a restart: seqs start again at 1."""
        self.id = subscription_id
        self._held_at_shutdown = False
        # Written by the reader only (resumes read it once the reader has passed them).
        self._seqs = SeqTracker()
        self._materializer = Materializer()

    def _admitted(self, item: Any) -> List[Any]:
        """What ``item`` puts on the stream: nothing for a seq already seen, an
        :class:`Overflow` first for a gap, and a patched value as the whole value (a patch
        with no value to apply to is dropped, PROTOCOL.md section 18)."""
        admitted, gap = self._seqs.admit(item)
        if not admitted:
            return []
        made = self._materializer.accept(item)
        return [x for x in (gap, made) if x is not None]


class SessionState:
    """What a session keeper knows of its session, shared by the synchronous
    :class:`SessionKeeper` and the asyncio one (``_aio_session.py``), and the events it tells."""

    def __init__(self) -> None:
        self.token: Optional[str] = None
        self.session: Optional[str] = None
        self.boot_id: Optional[str] = None
        self.grace_ms = 0
        self.listeners: List[EventListener] = []

    def tell(self, event: Dict[str, Any]) -> None:
        for listener in list(self.listeners):
            try:
                listener(event)
            except Exception:
                pass  # a listener's bug must not stop the resume

    def note_boot(self, info: Optional[Dict[str, Any]]) -> None:
        """Remembers the daemon's ``bootId`` from a ``daemon.info`` result."""
        if info is not None and isinstance(info.get("bootId"), str):
            self.boot_id = info["bootId"]

    def take_grant(self, opened: Any) -> None:
        """Keeps what ``session.open`` granted; none when its result is not a grant."""
        granted = opened_session(opened)
        if granted is not None:
            self.token, self.session, self.grace_ms = granted
        else:
            self.token = None

    @staticmethod
    def received(marks: Dict[str, int], streams: Dict[str, Any]) -> Dict[str, int]:
        """``session.resume``'s ``received``: the last seq each subscription in ``marks`` got
        (0: none), so the daemon reports what the dropped connection took with it and replays
        the newest state values (PROTOCOL.md, section 18, "Ordering across a resume")."""
        return {key: streams[key]._seqs.last for key in marks}

    def tell_resumed(self, lost: List[Dict[str, Any]], info: Any) -> None:
        """The two events of a resume that succeeded."""
        self.tell({"event": "resumed", "session": self.session, "lost": lost})
        self.tell({"event": "reconnected", "bootId": info.get("bootId") if isinstance(info, dict) else None})


class SessionKeeper(SessionState):
    """The resumable session of one :class:`Client`, and the resumes after drops."""

    def __init__(self, client: "Client") -> None:
        super().__init__()
        self._client = client
        # Set while no resume is in progress; calls made during one wait on it.
        self.settled = threading.Event()
        self.settled.set()
        # The handshake request in flight, failed at once if its connection drops too.
        self._handshake: Optional["PendingCall"] = None

    # ------------------------------------------------------------------ opening

    def open(self, connection: "_Connection", info: Optional[Dict[str, Any]]) -> None:
        """Opens a session on a new connection; a daemon without sessions leaves none."""
        self.note_boot(info)
        try:
            opened = connection.request("session.open", {}).result(self._client.timeout)
        except (VMDError, ConnectionLost, OSError):
            self.token = None
            return
        self.take_grant(opened)
        connection.holds_at_shutdown = self.token is not None

    def close(self, connection: "_Connection") -> None:
        """``session.close`` before the client closes, so the daemon releases at once."""
        if self.token is None or not connection.is_open:
            return
        self.token = None
        try:
            connection.request("session.close", {}).result(2.0)
        except (VMDError, ConnectionLost, OSError, Exception):
            pass

    # ------------------------------------------------------------------ resuming

    def on_lost(self, connection: "_Connection", error: BaseException) -> bool:
        """Called by the connection's reader when the daemon's side ends. True: the calls
        and streams stay with ``connection`` and a resume thread takes them over."""
        if self.token is None or self._client._closed_by_user:
            return False
        if not self.settled.is_set():
            # A resume in progress lost its new connection: it tries again.
            handshake = self._handshake
            if handshake is not None:
                handshake._fail(ConnectionLost(str(error)))
            return True
        self.settled.clear()
        self.tell({"event": "disconnected", "reason": str(error)})
        thread = threading.Thread(target=self._resume, args=(connection, error), name="vmd-client-resume", daemon=True)
        thread.start()
        return True

    def _resume(self, source: "_Connection", error: BaseException) -> None:
        from ._sync import Subscription, _Connection

        client = self._client
        deadline = time.monotonic() + self.grace_ms / 1000.0
        pause = max(client.reconnect_delay, 0.01)
        try:
            time.sleep(client.reconnect_delay)
            while True:
                if client._closed_by_user:
                    self._end_held(source, None, ConnectionLost("the client closed the connection"))
                    return
                try:
                    target = _Connection(client.path, client.connect_timeout, client.max_frame_bytes,
                                         client._listeners, on_lost=self.on_lost)
                except ConnectionLost:
                    if time.monotonic() >= deadline:
                        self.token = None
                        self._end_held(source, None, ConnectionLost(str(error)))
                        client._connection = source
                        return
                    time.sleep(pause)
                    pause = min(pause * 2, 1.0)
                    continue
                held_below = self._move(source, target)
                streams = dict(target._streams)
                marks = {key: len(s._seqs.gaps) for key, s in streams.items() if isinstance(s, Subscription)}
                try:
                    # The first request of the new connection (PROTOCOL.md, section 18).
                    self._handshake = target.request(
                        "session.resume", {"token": self.token, "received": self.received(marks, streams)})
                    resumed = self._handshake.result(client.timeout)
                except (ConnectionLost, CallTimeout):
                    # Dropped again (or silent): what it holds moves on to the next connection,
                    # whose resume takes the session over (the daemon closes this one).
                    source = target
                    continue
                except VMDError:
                    self._refused(target)
                    return
                pending_ids = set(resumed.get("pending") or []) if isinstance(resumed, dict) else set()
                self.session = resumed.get("session", self.session) if isinstance(resumed, dict) else self.session
                client._connection = target
                try:
                    # Its reply comes after everything the daemon queued while detached.
                    self._handshake = target.request("daemon.info", None)
                    info = self._handshake.result(client.timeout)
                except (ConnectionLost, CallTimeout, VMDError):
                    source = target
                    continue
                lost_calls = ConnectionLost("the request was lost with the connection")
                with target._lock:
                    stale = [call for call_id, call in target._pending.items()
                             if call_id < held_below and call_id not in pending_ids]
                    for call in stale:
                        target._pending.pop(call.id, None)
                for call in stale:
                    call._fail(lost_calls)
                self._end_held_at_shutdown(target)
                gaps = {key: streams[key]._seqs.gaps for key in marks}  # type: ignore[attr-defined]
                self.tell_resumed(lost_ranges(marks, gaps), info)
                return
        finally:
            self._handshake = None
            self.settled.set()

    @staticmethod
    def _move(source: "_Connection", target: "_Connection") -> int:
        """Moves pending calls, subscriptions and monitors to the new connection; returns the
        first request id of the new connection (ids below it were sent before the drop)."""
        with source._lock:
            pending, streams, monitors = source._pending, source._streams, source._monitors
            source._pending, source._streams, source._monitors = {}, {}, {}
            next_id = source._next_id
        with target._lock:
            target._pending.update(pending)
            target._streams.update(streams)
            target._monitors.update(monitors)
            target._next_id = max(target._next_id, next_id)
            target.holds_at_shutdown = source.holds_at_shutdown
            held_below = target._next_id + 1
        for call in pending.values():
            call._connection = target
        return held_below

    def _refused(self, target: "_Connection") -> None:
        """``session.resume`` was refused: a restart or an expiry ends what the session held."""
        client = self._client
        try:
            info = target.request("daemon.info", None).result(client.timeout)
        except (ConnectionLost, VMDError):
            info = {}
        boot_id, restarted, reason = resume_refusal(info, self.boot_id)
        expired = self.session
        self.token, self.session = None, None
        following = self._take_followed(target) if restarted else []
        self._end_held(target, reason, ConnectionLost("the daemon restarted" if restarted else "the session expired"))
        if restarted:
            self.tell({"event": "daemonRestarted", "bootId": boot_id})
        else:
            self.tell({"event": "sessionExpired", "session": expired})
        client._connection = target
        self.open(target, info if isinstance(info, dict) else None)
        self._resubscribe(target, following)
        self.tell({"event": "reconnected", "bootId": boot_id})

    @staticmethod
    def _take_followed(connection: "_Connection") -> List[Any]:
        """Takes the subscriptions that can be opened again after a restart off ``connection``."""
        from ._sync import Subscription

        with connection._lock:
            taken = [s for s in connection._streams.values() if isinstance(s, Subscription) and s._follow is not None]
            for subscription in taken:
                connection._streams.pop(subscription.id, None)
        return taken

    def _resubscribe(self, connection: "_Connection", following: List[Any]) -> None:
        """``vm.subscribe`` again for each subscription taken: it goes on with its instance's
        current values (registered on the reader thread, before they arrive), or ends with
        reason ``daemonRestarted`` when the instance did not come back."""
        from ._sync import _End

        for subscription in following:
            def reopened(result: Any, subscription: Any = subscription) -> None:
                subscription._reopened(result["subscription"])
                connection.register_stream(subscription.id, subscription)

            try:
                params = resubscribe_params(subscription.instance, subscription._follow)
                connection.request("vm.subscribe", params, reopened).result(self._client.timeout)
            except (VMDError, ConnectionLost, CallTimeout, OSError, KeyError, TypeError):
                with connection._lock:
                    connection._streams.pop(subscription.id, None)
                subscription.closed_reason = "daemonRestarted"
                subscription._put(_End("daemonRestarted"))

    @staticmethod
    def _end_held_at_shutdown(connection: "_Connection") -> None:
        """The session resumed after all: subscriptions held at a ``"shutdown"`` close end so."""
        from ._sync import Subscription, _End

        with connection._lock:
            held = [s for s in connection._streams.values() if isinstance(s, Subscription) and s._held_at_shutdown]
            for subscription in held:
                connection._streams.pop(subscription.id, None)
        for subscription in held:
            subscription.closed_reason = "shutdown"
            subscription._put(_End("shutdown"))

    @staticmethod
    def _end_held(connection: "_Connection", reason: Optional[str], error: ConnectionLost) -> None:
        """Ends the subscriptions (with ``reason`` as their closed reason; without one, by
        raising ``error``), the monitors and the pending calls a lost session held."""
        from ._sync import Subscription, _End

        with connection._lock:
            pending, streams, monitors = list(connection._pending.values()), connection._streams, connection._monitors
            connection._pending, connection._streams, connection._monitors = {}, {}, {}
        for call in pending:
            call._fail(error)
        for stream in streams.values():
            if isinstance(stream, Subscription) and stream._held_at_shutdown:
                # The daemon already said this one ended with its shutdown.
                stream.closed_reason = "shutdown"
                stream._put(_End("shutdown"))
            elif reason is not None and isinstance(stream, Subscription):
                stream.closed_reason = reason
                stream._put(_End(reason))
            else:
                stream._put(_End(None, error))
        for monitor in monitors.values():
            monitor._put(_End(None, error))
