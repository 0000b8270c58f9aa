"""The synchronous client: one socket, one reader thread, calls from any thread."""

from __future__ import annotations

import queue
import socket
import threading
import time
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple, Union, cast

from . import _wire
from ._errors import CallTimeout, ConnectionLost, ProtocolMismatch, UnknownInstance, VMDError, error_from_object
from ._paths import check_socket_path, default_socket_path
from ._session import FollowedValues, SessionKeeper
from ._wire import MISSING, Closed, Created, MonitorMessage, Output, Overflow, Progress

Listener = Callable[[Dict[str, Any]], None]

#: Seconds a call waits for its reply unless told otherwise.
DEFAULT_TIMEOUT = 10.0
#: Extra seconds a client waits beyond an action's ``timeoutMs`` for the daemon's reply.
EXECUTE_SLACK = 5.0


class _End:
    """Queued after the last item of a subscription or monitor."""

    def __init__(self, reason: Optional[str], error: Optional[BaseException] = None) -> None:
        self.reason = reason
        self.error = error


class PendingCall:
    """A request that was sent and awaits its reply (see :meth:`Client.request`)."""

    def __init__(self, connection: "_Connection", request_id: int, method: str,
                 on_result: Optional[Callable[[Any], Any]]) -> None:
        self.id = request_id
        self.method = method
        self._connection = connection
        self._on_result = on_result
        # Called on the reader thread with each vm.progress of this call (execute's progress=).
        self.on_progress: Optional[Callable[[Progress], None]] = None
        self._done = threading.Event()
        self._value: Any = None
        self._error: Optional[BaseException] = None

    # Called on the reader thread, in wire order, so a subscription is registered
    # before the reader looks at the notifications that follow its reply.
    def _resolve(self, message: Mapping[str, Any]) -> None:
        if "error" in message:
            self._error = error_from_object(message["error"])
        else:
            try:
                result = message.get("result")
                self._value = self._on_result(result) if self._on_result else result
            except Exception as error:  # a malformed result must not kill the reader thread
                self._error = error
        self._done.set()

    def _fail(self, error: BaseException) -> None:
        if not self._done.is_set():
            self._error = error
            self._done.set()

    def done(self) -> bool:
        return self._done.is_set()

    def result(self, timeout: Optional[float] = DEFAULT_TIMEOUT) -> Any:
        """Wait for the reply (``None`` waits forever; the connection closing ends the wait).

        Raises the daemon's error as a :class:`VMDError` subclass, :class:`CallTimeout`
        (the late reply is then ignored; a timed-out ``vm.execute`` is cancelled), or
        :class:`ConnectionLost`.
        """
        if not self._done.wait(timeout):
            self._connection._forget(self.id)
            if self.method == "vm.execute":
                self.cancel()
            raise CallTimeout("no reply to %s (id %d) within %s s" % (self.method, self.id, timeout))
        if self._error is not None:
            raise self._error
        return self._value

    def cancel(self) -> None:
        """Send ``$/cancelRequest`` for this call (meaningful for ``vm.execute``)."""
        try:
            self._connection.notify("$/cancelRequest", {"id": self.id})
        except (ConnectionLost, OSError):
            pass


class _Stream:
    """Items of one subscription or monitor, delivered by the reader thread."""

    def __init__(self, timeout: Optional[float]) -> None:
        self.timeout = timeout
        self._queue: "queue.Queue[Any]" = queue.Queue()
        self._ended: Optional[_End] = None

    def _put(self, item: Any) -> None:
        self._queue.put(item)

    def _next_item(self, timeout: Any) -> Any:
        if self._ended is not None:
            return self._ended
        wait = self.timeout if timeout is MISSING else timeout
        try:
            item = self._queue.get(timeout=wait)
        except queue.Empty:
            raise CallTimeout("nothing arrived within %s s" % wait) from None
        if isinstance(item, _End):
            self._ended = item
        return item

    @property
    def ended(self) -> bool:
        return self._ended is not None


class Subscription(FollowedValues, _Stream):
    """A subscription: iterate it for :class:`Output` values.

    Iteration ends when the instance is destroyed (``vm.closed``; :attr:`closed_reason`
    tells why) or after :meth:`Client.unsubscribe`; it raises :class:`ConnectionLost`
    when the connection closes. With ``reconnect=True`` it goes on across a daemon
    restart when its instance came back (a durable one): the instance's current values
    follow (replays, ``seq`` from 1 again, under a new :attr:`id`); otherwise it ends with
    :attr:`closed_reason` ``"daemonRestarted"``. Each wait is bounded by :attr:`timeout` (``None``: wait
    forever), or by the ``timeout`` given to :meth:`next`. Overflows (values the daemon
    could not write to a slow reader) are recorded in :attr:`lost` as ``(from, to)``.
    """

    def __init__(self, subscription_id: str, instance: str, timeout: Optional[float]) -> None:
        super().__init__(timeout)
        self._start_following(subscription_id, instance)

    def _put(self, item: Any) -> None:
        for admitted in self._admitted(item):
            super()._put(admitted)

    def next(self, timeout: Any = MISSING) -> Output:
        """The next value; :class:`StopIteration` once the subscription has ended."""
        while True:
            item = self._next_item(timeout)
            if isinstance(item, _End):
                if item.error is not None:
                    raise item.error
                raise StopIteration
            if isinstance(item, Overflow):
                self.lost.append((item.lost_from, item.lost_to))
                continue
            return cast(Output, item)

    def take(self, count: int, timeout: Any = MISSING) -> List[Output]:
        """The next ``count`` values (fewer only if the subscription ends first)."""
        values: List[Output] = []
        for _ in range(count):
            try:
                values.append(self.next(timeout))
            except StopIteration:
                break
        return values

    def __iter__(self) -> Iterator[Output]:
        return self

    def __next__(self) -> Output:
        return self.next()

    def __repr__(self) -> str:
        return "Subscription(id=%r, instance=%r)" % (self.id, self.instance)


class Monitor(_Stream):
    """A monitor (``daemon.monitor``): iterate it for :class:`MonitorMessage` items."""

    def __init__(self, monitor_id: str, timeout: Optional[float]) -> None:
        super().__init__(timeout)
        self.id = monitor_id

    def next(self, timeout: Any = MISSING) -> MonitorMessage:
        item = self._next_item(timeout)
        if isinstance(item, _End):
            if item.error is not None:
                raise item.error
            raise StopIteration
        return cast(MonitorMessage, item)

    def __iter__(self) -> Iterator[MonitorMessage]:
        return self

    def __next__(self) -> MonitorMessage:
        return self.next()


class _Connection:
    """One socket and its reader thread; replaced as a whole on reconnect, so a
    reconnect never mixes the old connection's calls with the new one's."""

    def __init__(self, path: str, connect_timeout: Optional[float], max_frame_bytes: int,
                 listeners: List[Listener],
                 on_lost: Optional[Callable[["_Connection", BaseException], bool]] = None) -> None:
        self.path = path
        # Told first when the daemon's side ends; True: it keeps calls and streams (a session resumes).
        self.on_lost = on_lost
        #: A session keeps this connection's subscriptions for a reconnect: a ``"shutdown"``
        #: close is held until it shows whether the instance came back.
        self.holds_at_shutdown = False
        self.max_frame_bytes = max_frame_bytes
        self._listeners = listeners
        self._lock = threading.Lock()
        self._send_lock = threading.Lock()
        self._next_id = 0
        self._pending: Dict[int, PendingCall] = {}
        self._streams: Dict[str, _Stream] = {}
        self._monitors: Dict[str, _Stream] = {}
        self._closed: Optional[BaseException] = None
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._sock.settimeout(connect_timeout)
            self._sock.connect(check_socket_path(path))
            self._sock.settimeout(None)
        except OSError as error:
            self._sock.close()
            raise ConnectionLost("cannot connect to vmd at %s: %s" % (path, error)) from error
        self._reader = threading.Thread(target=self._read_loop, name="vmd-client-reader", daemon=True)
        self._reader.start()

    @property
    def is_open(self) -> bool:
        return self._closed is None

    # ------------------------------------------------------------------ sending

    def _write(self, message: Any) -> None:
        frame = _wire.encode_frame(message, self.max_frame_bytes)
        if self._closed is not None:
            raise ConnectionLost("the connection to vmd is closed: %s" % self._closed)
        try:
            with self._send_lock:
                self._sock.sendall(frame)
        except OSError as error:
            raise ConnectionLost("writing to vmd failed: %s" % error) from error

    def request(self, method: str, params: Optional[Mapping[str, Any]],
                on_result: Optional[Callable[[Any], Any]] = None,
                on_progress: Optional[Callable[[Progress], None]] = None) -> PendingCall:
        with self._lock:
            self._next_id += 1
            call = PendingCall(self, self._next_id, method, on_result)
            call.on_progress = on_progress
            self._pending[call.id] = call
        try:
            self._write(_wire.request(call.id, method, params))
        except BaseException:
            self._forget(call.id)
            raise
        return call

    def notify(self, method: str, params: Optional[Mapping[str, Any]]) -> None:
        self._write(_wire.notification(method, params))

    def _forget(self, request_id: int) -> None:
        with self._lock:
            self._pending.pop(request_id, None)

    def register_stream(self, key: str, stream: _Stream, monitor: bool = False) -> None:
        with self._lock:
            (self._monitors if monitor else self._streams)[key] = stream
            if self._closed is not None:
                stream._put(_End(None, ConnectionLost(str(self._closed))))

    def end_stream(self, key: str, reason: Optional[str], monitor: bool = False) -> None:
        with self._lock:
            stream = (self._monitors if monitor else self._streams).pop(key, None)
        if stream is not None:
            stream._put(_End(reason))

    # ------------------------------------------------------------------ reading

    def _read_loop(self) -> None:
        splitter = _wire.LineSplitter()
        error: BaseException = ConnectionLost("vmd closed the connection")
        try:
            while True:
                chunk = self._sock.recv(262144)
                if not chunk:
                    break
                for line in splitter.feed(chunk):
                    try:
                        message = _wire.decode_line(line)
                    except ValueError:
                        continue  # the daemon writes JSON; a broken line is skipped, not fatal
                    self._dispatch(message)
        except OSError as failure:
            if self._closed is None:
                error = ConnectionLost("reading from vmd failed: %s" % failure)
        finally:
            self._shut(error)

    def _dispatch(self, message: Any) -> None:
        if isinstance(message, list):  # a batch response
            for item in message:
                self._dispatch(item)
            return
        if not isinstance(message, dict):
            return
        if "method" not in message:
            request_id = message.get("id")
            with self._lock:
                call = self._pending.pop(request_id, None) if isinstance(request_id, int) else None
            if call is not None:
                call._resolve(message)
            else:
                self._tell_listeners(message)
            return
        method = message.get("method")
        p = message.get("params")
        p = p if isinstance(p, dict) else {}
        try:
            if method == "vm.output":
                self._route(p.get("subscription"), Output.from_params(p))
            elif method == "vm.overflow":
                self._route(p.get("subscription"), Overflow.from_params(p))
            elif method == "vm.closed":
                closed = Closed.from_params(p)
                with self._lock:
                    stream = self._streams.get(closed.subscription)
                    held = (closed.reason == "shutdown" and self.holds_at_shutdown
                            and isinstance(stream, Subscription) and stream._durable)
                    if held:
                        cast(Subscription, stream)._held_at_shutdown = True
                        stream = None
                    else:
                        self._streams.pop(closed.subscription, None)
                if isinstance(stream, Subscription):
                    stream.closed_reason = closed.reason
                if stream is not None:
                    stream._put(_End(closed.reason))
            elif method == "daemon.message":
                with self._lock:
                    monitor = self._monitors.get(p.get("monitor", ""))
                if monitor is not None:
                    monitor._put(MonitorMessage.from_params(p))
            elif method == "vm.progress":
                request_id = p.get("request")
                with self._lock:
                    call = self._pending.get(request_id) if isinstance(request_id, int) else None
                if call is not None and call.on_progress is not None:
                    try:
                        call.on_progress(Progress.from_params(p))
                    except Exception:
                        pass  # the callback's bug must not stop the reader thread
        except (KeyError, TypeError):
            pass  # a malformed notification is still shown to listeners below
        self._tell_listeners(message)

    def _route(self, key: Any, item: Any) -> None:
        with self._lock:
            stream = self._streams.get(key) if isinstance(key, str) else None
        if stream is not None:
            stream._put(item)

    def _tell_listeners(self, message: Dict[str, Any]) -> None:
        for listener in list(self._listeners):
            try:
                listener(message)
            except Exception:
                pass  # a listener's bug must not stop delivery to everyone else

    def _shut(self, error: BaseException) -> None:
        with self._lock:
            first = self._closed is None
            if first:
                self._closed = error
        if first and self.on_lost is not None and self.on_lost(self, error):
            return
        with self._lock:
            pending, self._pending = list(self._pending.values()), {}
            streams = list(self._streams.values()) + list(self._monitors.values())
            self._streams, self._monitors = {}, {}
        for call in pending:
            call._fail(ConnectionLost(str(error)))
        for stream in streams:
            stream._put(_End(None, ConnectionLost(str(error))))

    def close(self) -> None:
        if self._closed is None:
            self._closed = ConnectionLost("the client closed the connection")
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()
        if threading.current_thread() is not self._reader:
            self._reader.join(timeout=5)
        self._shut(ConnectionLost("the client closed the connection"))


class Client:
    """A synchronous vmd client over one Unix-socket connection.

    ``Client()`` connects at once (socket-path rule: ``path`` > ``VMD_SOCKET`` >
    ``$XDG_RUNTIME_DIR/vmd.sock`` > ``/tmp/vmd-$UID/vmd.sock``) and checks that the
    daemon speaks protocol level 1. Every call waits at most ``timeout`` seconds.
    With ``reconnect=True`` the client opens a resumable session (``session.open``); after
    a drop it reconnects and resumes it in the background, so pending calls, subscriptions
    and monitors go on (see :meth:`add_event_listener`). Against a daemon without sessions,
    a call made after the drop opens a new connection (retrying for up to
    ``connect_timeout`` seconds); what the old one held is gone.
    Calls may be made from any thread.
    """

    def __init__(self, path: Optional[str] = None, *, timeout: Optional[float] = DEFAULT_TIMEOUT,
                 connect_timeout: float = 5.0, reconnect: bool = False, reconnect_delay: float = 0.05,
                 max_frame_bytes: int = _wire.DEFAULT_MAX_FRAME_BYTES, check_protocol: bool = True) -> None:
        self.path = default_socket_path(path)
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.reconnect = reconnect
        #: Seconds before the first attempt to resume after a drop (doubling up to 1 s after that).
        self.reconnect_delay = reconnect_delay
        self.max_frame_bytes = max_frame_bytes
        self.check_protocol = check_protocol
        self._listeners: List[Listener] = []
        self._connect_lock = threading.Lock()
        self._closed_by_user = False
        self._sessions = SessionKeeper(self)
        self._connection = self._open()

    # ------------------------------------------------------------------ connection

    def _open(self) -> _Connection:
        on_lost = self._sessions.on_lost if self.reconnect else None
        connection = _Connection(self.path, self.connect_timeout, self.max_frame_bytes, self._listeners, on_lost)
        info = None
        if self.check_protocol or self.reconnect:
            try:
                info = connection.request("daemon.info", None).result(self.timeout)
            except BaseException:
                connection.close()
                raise
            if self.check_protocol and info.get("protocol") != _wire.PROTOCOL_LEVEL:
                connection.close()
                raise ProtocolMismatch(
                    "vmd at %s speaks protocol %r; this client speaks %d"
                    % (self.path, info.get("protocol"), _wire.PROTOCOL_LEVEL)
                )
        if self.reconnect:
            self._sessions.open(connection, info)
        return connection

    def _live(self) -> _Connection:
        if not self._sessions.settled.is_set():
            # A session is being resumed: calls go to the new connection once it is settled.
            self._sessions.settled.wait(self._sessions.grace_ms / 1000.0 + self.connect_timeout)
        connection = self._connection
        if connection.is_open or not self.reconnect or self._closed_by_user:
            return connection
        with self._connect_lock:
            if self._connection.is_open:
                return self._connection
            deadline = time.monotonic() + self.connect_timeout
            pause = threading.Event()
            while True:
                try:
                    self._connection = self._open()
                    return self._connection
                except ConnectionLost:
                    if time.monotonic() >= deadline:
                        raise
                    pause.wait(0.05)  # retry until the deadline: the daemon may be restarting

    @property
    def connected(self) -> bool:
        return self._connection.is_open

    def close(self) -> None:
        """Close the connection; pending calls fail with :class:`ConnectionLost`. A resumable
        session is closed first (``session.close``), so the daemon releases it at once."""
        self._sessions.close(self._connection)
        self._closed_by_user = True
        self._connection.close()

    @property
    def session(self) -> Optional[str]:
        """The id of the resumable session (``"s3"``), or ``None``: ``reconnect`` is off,
        the daemon has no sessions, or its grace is 0."""
        return self._sessions.session if self._sessions.token is not None else None

    def add_event_listener(self, listener: Callable[[Dict[str, Any]], None]) -> Callable[[], None]:
        """Call ``listener(event)`` when the connection changes (``reconnect=True``), with
        ``event["event"]`` one of ``"disconnected"`` (``reason``), ``"resumed"`` (``session``,
        ``lost``: ``[{"subscription", "fromSeq", "toSeq"}]``, empty when nothing was lost),
        ``"daemonRestarted"`` (``bootId``), ``"sessionExpired"`` (``session``), then
        ``"reconnected"`` (``bootId``). Called on a client thread. Returns a remover."""
        listeners = self._sessions.listeners
        listeners.append(listener)
        return lambda: listeners.remove(listener) if listener in listeners else None

    def _drop_connection(self) -> None:
        """Drops the socket as a network failure would (no ``session.close``); for tests."""
        try:
            self._connection._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def add_listener(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(message)`` on the reader thread for every notification
        (``vm.error`` included) and every reply no call waits for. Returns a remover."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    # ------------------------------------------------------------------ raw JSON-RPC

    def request(self, method: str, params: Optional[Mapping[str, Any]] = None) -> PendingCall:
        """Send a request now; wait for it later with :meth:`PendingCall.result`."""
        return self._live().request(method, params)

    def call(self, method: str, params: Optional[Mapping[str, Any]] = None, *, timeout: Any = MISSING) -> Any:
        """Send a request and return its result (raises :class:`VMDError` subclasses)."""
        return self.request(method, params).result(self.timeout if timeout is MISSING else timeout)

    def notify(self, method: str, params: Optional[Mapping[str, Any]] = None) -> None:
        """Send a notification (no reply)."""
        self._live().notify(method, params)

    def _call_with(self, method: str, params: Mapping[str, Any], on_result: Callable[[Any], Any],
                   timeout: Any = MISSING) -> Any:
        call = self._live().request(method, params, on_result)
        return call.result(self.timeout if timeout is MISSING else timeout)

    # ------------------------------------------------------------------ daemon.*

    def info(self) -> Dict[str, Any]:
        """``daemon.info``: version, protocol, bootId, pid, counts, limits, socket."""
        return cast(Dict[str, Any], self.call("daemon.info"))

    def shutdown(self) -> Dict[str, Any]:
        """``daemon.shutdown``: the daemon replies ``{stopping: true}`` and exits."""
        return cast(Dict[str, Any], self.call("daemon.shutdown"))

    def discover(self) -> Dict[str, Any]:
        """``rpc.discover``: the daemon's OpenRPC document."""
        return cast(Dict[str, Any], self.call("rpc.discover"))

    def monitor(self, *, timeout: Optional[float] = None) -> Monitor:
        """``daemon.monitor``: every message of every connection, as :class:`MonitorMessage`."""
        connection = self._live()

        def opened(result: Any) -> Monitor:
            monitor = Monitor(result["monitor"], timeout)
            connection.register_stream(monitor.id, monitor, monitor=True)
            return monitor

        return cast(Monitor, self._call_with("daemon.monitor", {}, opened))

    def unmonitor(self, monitor: Union[Monitor, str]) -> None:
        """``daemon.unmonitor``: end a monitor; its iteration stops."""
        connection = self._live()
        key = monitor.id if isinstance(monitor, Monitor) else monitor
        self._call_with("daemon.unmonitor", {"monitor": key},
                        lambda result: connection.end_stream(key, "unmonitored", monitor=True))

    # ------------------------------------------------------------------ vm.*

    def types(self, type: Optional[str] = None) -> List[Dict[str, Any]]:
        """``vm.types``: descriptions of every type (or of one), with JSON Schemas."""
        return cast(List[Dict[str, Any]], self.call("vm.types", _wire.params(type=MISSING if type is None else type))["types"])

    def create(self, type: str, *, id: Optional[str] = None, args: Optional[Mapping[str, Any]] = None,
               scope: Optional[str] = None, subscribe: Any = None, durable: bool = False,
               subscription_timeout: Optional[float] = None, record: bool = False) -> Created:
        """``vm.create``. ``subscribe``: ``True`` (every output), a list of output names, or
        ``{"outputs": [...], "replay": bool}``; the subscription then starts atomically with
        the instance and is returned in :attr:`Created.subscription`. ``durable``: keep the
        instance, and what it saves, across daemon restarts (daemon scope only). ``record``:
        the daemon records it from its creation (read with :meth:`tape`)."""
        connection = self._live()
        p = _wire.params(type=type, id=MISSING if id is None else id,
                         args=MISSING if args is None else dict(args),
                         scope=MISSING if scope is None else scope,
                         subscribe=_wire.subscribe_options(subscribe),
                         durable=True if durable else MISSING,
                         record=True if record else MISSING)

        def created(result: Any) -> Created:
            subscription = None
            if "subscription" in result:
                subscription = Subscription(result["subscription"], result["instance"], subscription_timeout)
                subscription._follow = dict(p.get("subscribe") or {})
                subscription._durable = result.get("durable") is True
                connection.register_stream(subscription.id, subscription)
            return Created(result["instance"], result["type"], result["scope"], subscription, result.get("durable", False))

        return cast(Created, self._call_with("vm.create", p, created))

    def destroy(self, instance: str) -> None:
        """``vm.destroy``: its subscribers get ``vm.closed`` (reason ``destroyed``)."""
        self.call("vm.destroy", {"instance": instance})

    def list(self) -> List[Dict[str, Any]]:
        """``vm.list``: ``[{instance, type, scope, subscribers, parent?}]`` in creation order."""
        return cast(List[Dict[str, Any]], self.call("vm.list")["instances"])

    def send(self, instance: str, input: str, value: Any = MISSING, *, notify: bool = False) -> None:
        """``vm.send``. An omitted ``value`` means the input's default. With ``notify=True``
        it is fire-and-forget: a failure arrives later as a ``vm.error`` notification."""
        p = _wire.params(instance=instance, input=input, value=value)
        if notify:
            self.notify("vm.send", p)
        else:
            self.call("vm.send", p)

    def start_execute(self, instance: str, action: str, value: Any = MISSING, *,
                      timeout_ms: Optional[int] = None,
                      progress: Optional[Callable[[Progress], None]] = None,
                      reset_timeout_on_progress: bool = False) -> PendingCall:
        """Start ``vm.execute`` without waiting; ``.result()`` waits, ``.cancel()`` cancels.
        ``progress`` (called on the reader thread with each :class:`Progress`, all before the
        reply) asks the daemon for the action's progress."""
        p = _wire.execute_params(instance, action, value, timeout_ms, progress is not None, reset_timeout_on_progress)
        return self._live().request("vm.execute", p, lambda result: result["value"], progress)

    def execute(self, instance: str, action: str, value: Any = MISSING, *,
                timeout_ms: Optional[int] = None, timeout: Any = MISSING,
                progress: Optional[Callable[[Progress], None]] = None,
                reset_timeout_on_progress: bool = False) -> Any:
        """``vm.execute``: run an action and return its value. ``timeout_ms`` is the daemon's
        timeout (``actionTimedOut``); ``timeout`` the client's wait, which defaults to the
        client timeout, or ``timeout_ms`` plus a few seconds when that is longer.
        ``progress(p)`` is called with each :class:`Progress` of the execution before this
        returns; ``reset_timeout_on_progress`` restarts ``timeout_ms`` at each progress."""
        if timeout is MISSING:
            timeout = self.timeout
            if timeout is not None and timeout_ms is not None:
                timeout = max(timeout, timeout_ms / 1000.0 + EXECUTE_SLACK)
        return self.start_execute(instance, action, value, timeout_ms=timeout_ms, progress=progress,
                                  reset_timeout_on_progress=reset_timeout_on_progress).result(timeout)

    def execute_retrying(self, action: str, value: Any, prepare: Callable[["Client"], str], *,
                         attempts: int = 5, timeout: Any = MISSING) -> Any:
        """Run ``action`` with ``value`` until an answer comes, across lost connections and
        daemon restarts: for actions whose value carries an idempotency key, such as the
        catalog's SendList ``send`` with ``{"key": K}`` (a retry with a stored key answers
        with the first upload and stores nothing again).

        Each attempt calls ``prepare(client)``, which makes the instance ready (create it,
        send its inputs) and returns its id: a restarted daemon has lost every instance, so
        it is made again each time. Then ``vm.execute``. When the connection is lost before
        the answer (:class:`ConnectionLost`), the next attempt reconnects (the client needs
        ``reconnect=True``) and sends the same ``value``, at most ``attempts`` times in all.
        An answer, success or :class:`VMDError`, ends it. Keep one key per message (a
        UUID) until it is answered.
        """
        attempt = 0
        while True:
            attempt += 1
            try:
                instance = prepare(self)
                connection = self._connection
                try:
                    return self.execute(instance, action, value, timeout=timeout)
                except UnknownInstance:
                    # The call reconnected to a restarted daemon, which never had `instance`:
                    # nothing ran, so it is safe to prepare again.
                    if self._connection is connection:
                        raise
                    raise ConnectionLost("vmd restarted before the call; %s is gone" % instance)
            except ConnectionLost:
                if attempt >= attempts or not self.reconnect:
                    raise

    def cancel(self, request_id: int) -> None:
        """``$/cancelRequest``: cancel a pending ``vm.execute`` of this connection."""
        self.notify("$/cancelRequest", {"id": request_id})

    def get(self, instance: str, output: str) -> Any:
        """``vm.get``: the current value of a state output."""
        return self.call("vm.get", {"instance": instance, "output": output})["value"]

    def tape(self, instance: str) -> List[Dict[str, Any]]:
        """``vm.tape``: the tape so far of an instance created with ``record=True``, one dict
        per line of the file (the header first); :class:`NotRecording` otherwise."""
        return list(self.call("vm.tape", {"instance": instance})["tape"])

    def subscribe(self, instance: str, outputs: Optional[Sequence[str]] = None, *,
                  replay: Optional[bool] = None, patches: Optional[bool] = None,
                  timeout: Optional[float] = None) -> Subscription:
        """``vm.subscribe``: a :class:`Subscription` yielding :class:`Output` values
        (``outputs`` absent: every output; ``replay`` defaults to true; with ``patches`` the
        daemon may send RFC 6902 patches, which the subscription applies: values stay whole). ``timeout`` bounds
        each wait of its iteration (``None``: wait forever)."""
        connection = self._live()
        p = _wire.params(instance=instance, outputs=MISSING if outputs is None else list(outputs),
                         replay=MISSING if replay is None else replay,
                         patches=MISSING if patches is None else patches)

        def opened(result: Any) -> Subscription:
            subscription = Subscription(result["subscription"], instance, timeout)
            subscription._follow = {key: value for key, value in p.items() if key != "instance"}
            connection.register_stream(subscription.id, subscription)
            return subscription

        return cast(Subscription, self._call_with("vm.subscribe", p, opened))

    def unsubscribe(self, subscription: Union[Subscription, str]) -> None:
        """``vm.unsubscribe``: no value follows; the subscription's iteration stops."""
        connection = self._live()
        key = subscription.id if isinstance(subscription, Subscription) else subscription
        self._call_with("vm.unsubscribe", {"subscription": key},
                        lambda result: connection.end_stream(key, "unsubscribed"))


__all__ = ["Client", "Subscription", "Monitor", "PendingCall", "VMDError"]
