"""The asyncio client: one connection, one reader task, calls from one event loop."""

from __future__ import annotations

import asyncio
import socket
from typing import Any, Awaitable, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union, cast

from . import _wire
from ._errors import CallTimeout, ConnectionLost, ProtocolMismatch, UnknownInstance, error_from_object
from ._aio_session import AsyncSessionKeeper
from ._paths import check_socket_path, default_socket_path
from ._session import FollowedValues
from ._sync import DEFAULT_TIMEOUT, EXECUTE_SLACK, _End
from ._wire import MISSING, Closed, Created, MonitorMessage, Output, Overflow, Progress

Listener = Callable[[Dict[str, Any]], None]

#: asyncio's StreamReader refuses lines longer than its ``limit`` (64 KiB by default);
#: the daemon's lines are unbounded (``vm.list``, ``rpc.discover``), so allow far more.
DEFAULT_LINE_LIMIT = 64 * 1024 * 1024


class _AsyncStream:
    def __init__(self, timeout: Optional[float]) -> None:
        self.timeout = timeout
        self._queue: "asyncio.Queue[Any]" = asyncio.Queue()
        self._ended: Optional[_End] = None

    def _put(self, item: Any) -> None:
        self._queue.put_nowait(item)

    async def _next_item(self, timeout: Any) -> Any:
        if self._ended is not None:
            return self._ended
        wait = self.timeout if timeout is MISSING else timeout
        try:
            item = await asyncio.wait_for(self._queue.get(), wait)
        except asyncio.TimeoutError:
            raise CallTimeout("nothing arrived within %s s" % wait) from None
        if isinstance(item, _End):
            self._ended = item
        return item

    @property
    def ended(self) -> bool:
        return self._ended is not None


class AsyncSubscription(FollowedValues, _AsyncStream):
    """A subscription: ``async for output in subscription`` yields :class:`Output` values
    until ``vm.closed`` (:attr:`closed_reason`) or :meth:`AsyncClient.unsubscribe`;
    raises :class:`ConnectionLost` when the connection closes. With ``reconnect=True`` it
    goes on across a daemon restart when its instance came back (a durable one), with the
    instance's current values (``seq`` from 1 again, a new :attr:`id`); otherwise it ends
    with :attr:`closed_reason` ``"daemonRestarted"``. Overflow ranges are recorded in
    :attr:`lost`."""

    def __init__(self, subscription_id: str, instance: str, timeout: Optional[float]) -> None:
        super().__init__(timeout)
        self._start_following(subscription_id, instance)

    def _put(self, item: Any) -> None:
        for admitted in self._admitted(item):
            super()._put(admitted)

    async def next(self, timeout: Any = MISSING) -> Output:
        """The next value; :class:`StopAsyncIteration` once the subscription has ended."""
        while True:
            item = await self._next_item(timeout)
            if isinstance(item, _End):
                if item.error is not None:
                    raise item.error
                raise StopAsyncIteration
            if isinstance(item, Overflow):
                self.lost.append((item.lost_from, item.lost_to))
                continue
            return cast(Output, item)

    async def take(self, count: int, timeout: Any = MISSING) -> List[Output]:
        values: List[Output] = []
        for _ in range(count):
            try:
                values.append(await self.next(timeout))
            except StopAsyncIteration:
                break
        return values

    def __aiter__(self) -> "AsyncSubscription":
        return self

    async def __anext__(self) -> Output:
        return await self.next()


class AsyncMonitor(_AsyncStream):
    """A monitor: ``async for message in monitor`` yields :class:`MonitorMessage` items."""

    def __init__(self, monitor_id: str, timeout: Optional[float]) -> None:
        super().__init__(timeout)
        self.id = monitor_id

    async def next(self, timeout: Any = MISSING) -> MonitorMessage:
        item = await self._next_item(timeout)
        if isinstance(item, _End):
            if item.error is not None:
                raise item.error
            raise StopAsyncIteration
        return cast(MonitorMessage, item)

    def __aiter__(self) -> "AsyncMonitor":
        return self

    async def __anext__(self) -> MonitorMessage:
        return await self.next()


class AsyncPendingCall:
    """A sent request; ``await call.result()`` waits for its reply."""

    def __init__(self, client: "AsyncClient", request_id: int, method: str,
                 future: "asyncio.Future[Any]") -> None:
        self.id = request_id
        self.method = method
        self._client = client
        self._future = future

    async def result(self, timeout: Optional[float] = DEFAULT_TIMEOUT) -> Any:
        try:
            return await asyncio.wait_for(asyncio.shield(self._future), timeout)
        except asyncio.TimeoutError:
            self._client._pending.pop(self.id, None)
            if self.method == "vm.execute":
                await self.cancel()
            raise CallTimeout("no reply to %s (id %d) within %s s" % (self.method, self.id, timeout)) from None

    async def cancel(self) -> None:
        """Send ``$/cancelRequest`` for this call."""
        try:
            await self._client.notify("$/cancelRequest", {"id": self.id})
        except (ConnectionLost, OSError):
            pass


class AsyncClient:
    """An asyncio vmd client over one Unix-socket connection.

    Open with ``client = await AsyncClient.connect()`` or ``async with AsyncClient.connect()
    as client``. Same socket-path rule, timeouts, typed helpers and reconnect semantics as
    :class:`vmd_client.Client` (with ``reconnect=True``: a session resumed after a drop, and
    :meth:`add_event_listener`); subscriptions are async iterators.
    """

    def __init__(self, path: Optional[str] = None, *, timeout: Optional[float] = DEFAULT_TIMEOUT,
                 connect_timeout: float = 5.0, reconnect: bool = False, reconnect_delay: float = 0.05,
                 max_frame_bytes: int = _wire.DEFAULT_MAX_FRAME_BYTES, line_limit: int = DEFAULT_LINE_LIMIT,
                 check_protocol: bool = True) -> None:
        self.path = default_socket_path(path)
        self.timeout = timeout
        self.connect_timeout = connect_timeout
        self.reconnect = reconnect
        self.reconnect_delay = reconnect_delay
        self.max_frame_bytes = max_frame_bytes
        self.line_limit = line_limit
        self.check_protocol = check_protocol
        self._listeners: List[Listener] = []
        self._writer: Optional[asyncio.StreamWriter] = None
        self._reader_task: Optional["asyncio.Task[None]"] = None
        self._pending: Dict[int, "asyncio.Future[Any]"] = {}
        self._hooks: Dict[int, Callable[[Any], Any]] = {}
        self._progress: Dict[int, Callable[[Progress], None]] = {}
        self._streams: Dict[str, _AsyncStream] = {}
        self._monitors: Dict[str, _AsyncStream] = {}
        self._next_id = 0
        self._open = False
        self._closed_by_user = False
        self._reconnecting: Optional[asyncio.Lock] = None
        self._sessions = AsyncSessionKeeper(self)

    @classmethod
    def connect(cls, path: Optional[str] = None, **options: Any) -> "_Connecting":
        """``await AsyncClient.connect(...)`` or ``async with AsyncClient.connect(...) as c``."""
        return _Connecting(cls(path, **options))

    # ------------------------------------------------------------------ connection

    async def _start(self) -> "AsyncClient":
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_unix_connection(check_socket_path(self.path), limit=self.line_limit),
                self.connect_timeout,
            )
        except (OSError, asyncio.TimeoutError) as error:
            raise ConnectionLost("cannot connect to vmd at %s: %s" % (self.path, error)) from error
        self._attach(reader, writer)
        self._open = True
        info = None
        if self.check_protocol or self.reconnect:
            info = await self.call("daemon.info")
            if self.check_protocol and info.get("protocol") != _wire.PROTOCOL_LEVEL:
                await self.close()
                raise ProtocolMismatch("vmd at %s speaks protocol %r; this client speaks %d"
                                       % (self.path, info.get("protocol"), _wire.PROTOCOL_LEVEL))
        if self.reconnect:
            await self._sessions.open(info)
        return self

    def _attach(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Makes a new connection the current one and starts reading it."""
        self._writer = writer
        self._reader_task = asyncio.ensure_future(self._read_loop(reader, writer))

    def _send_now(self, method: str, params: Optional[Mapping[str, Any]]) -> "asyncio.Future[Any]":
        """Writes a request on the current connection at once, even while it is not open to
        callers (a resume's handshake); the future gets the reply."""
        self._next_id += 1
        future: "asyncio.Future[Any]" = asyncio.get_running_loop().create_future()
        self._pending[self._next_id] = future
        assert self._writer is not None
        self._writer.write(_wire.encode_frame(_wire.request(self._next_id, method, params), self.max_frame_bytes))
        return future

    async def _ensure_open(self) -> None:
        await self._sessions.wait_settled()  # calls during a resume go to the new connection
        if self._open or not self.reconnect or self._closed_by_user:
            if not self._open:
                raise ConnectionLost("the connection to vmd is closed")
            return
        if self._reconnecting is None:
            self._reconnecting = asyncio.Lock()
        async with self._reconnecting:
            if self._open:
                return
            loop = asyncio.get_running_loop()
            deadline = loop.time() + self.connect_timeout
            while True:
                try:
                    await self._start()
                    return
                except ConnectionLost:
                    if loop.time() >= deadline:
                        raise
                    await asyncio.sleep(0.05)  # retry until the deadline: vmd may be restarting

    @property
    def connected(self) -> bool:
        return self._open

    async def close(self) -> None:
        """Close the connection; a resumable session is closed first (``session.close``)."""
        await self._sessions.close()
        self._closed_by_user = True
        self._open = False
        if self._writer is not None:
            self._writer.close()
            try:
                await self._writer.wait_closed()
            except OSError:
                pass
        if self._reader_task is not None:
            try:
                await asyncio.wait_for(self._reader_task, 5)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                pass
        self._shut(ConnectionLost("the client closed the connection"))

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    @property
    def session(self) -> Optional[str]:
        """The id of the resumable session, or ``None`` (see :attr:`Client.session`)."""
        return self._sessions.session if self._sessions.token is not None else None

    def add_event_listener(self, listener: Callable[[Dict[str, Any]], None]) -> Callable[[], None]:
        """Connection events with ``reconnect=True``, as :meth:`Client.add_event_listener`
        describes them; called on the event loop."""
        listeners = self._sessions.listeners
        listeners.append(listener)
        return lambda: listeners.remove(listener) if listener in listeners else None

    def _drop_connection(self) -> None:
        """Drops the socket as a network failure would (no ``session.close``); for tests."""
        if self._writer is not None:
            sock = self._writer.get_extra_info("socket")
            if sock is not None:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def add_listener(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(message)`` for every notification and every unclaimed reply."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    # ------------------------------------------------------------------ reading

    async def _read_loop(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        error = ConnectionLost("vmd closed the connection")
        try:
            while True:
                try:
                    line = await reader.readuntil(b"\n")
                except asyncio.IncompleteReadError:
                    break
                except asyncio.LimitOverrunError as overrun:
                    error = ConnectionLost("a line from vmd is longer than line_limit (%d bytes): %s"
                                           % (self.line_limit, overrun))
                    break
                if not line.strip():
                    continue
                try:
                    message = _wire.decode_line(line)
                except ValueError:
                    continue
                self._dispatch(message)
        except OSError as failure:
            error = ConnectionLost("reading from vmd failed: %s" % failure)
        finally:
            writer.close()
            # A failed write may have ended this connection already, and a reconnect made a
            # new one: only the reader of the current connection may shut it.
            if self._writer is writer:
                self._open = False
                if not self._sessions.on_lost(error):
                    self._shut(error)

    def _dispatch(self, message: Any) -> None:
        if isinstance(message, list):
            for item in message:
                self._dispatch(item)
            return
        if not isinstance(message, dict):
            return
        if "method" not in message:
            request_id = message.get("id")
            future = self._pending.pop(request_id, None) if isinstance(request_id, int) else None
            hook = self._hooks.pop(request_id, None) if isinstance(request_id, int) else None
            if isinstance(request_id, int):
                self._progress.pop(request_id, None)
            if future is None:
                self._tell_listeners(message)
            elif not future.done():
                if "error" in message:
                    future.set_exception(error_from_object(message["error"]))
                else:
                    try:
                        result = message.get("result")
                        future.set_result(hook(result) if hook else result)
                    except Exception as failure:
                        future.set_exception(failure)
            return
        method = message.get("method")
        p = message.get("params")
        p = p if isinstance(p, dict) else {}
        try:
            if method == "vm.output":
                stream = self._streams.get(p.get("subscription", ""))
                if stream is not None:
                    stream._put(Output.from_params(p))
            elif method == "vm.overflow":
                stream = self._streams.get(p.get("subscription", ""))
                if stream is not None:
                    stream._put(Overflow.from_params(p))
            elif method == "vm.closed":
                closed = Closed.from_params(p)
                stream = self._streams.get(closed.subscription)
                if (closed.reason == "shutdown" and self.reconnect and self._sessions.token is not None
                        and isinstance(stream, AsyncSubscription) and stream._durable):
                    # A session keeps it for the reconnect, which shows whether it came back.
                    stream._held_at_shutdown = True
                    stream = None
                else:
                    self._streams.pop(closed.subscription, None)
                if isinstance(stream, AsyncSubscription):
                    stream.closed_reason = closed.reason
                if stream is not None:
                    stream._put(_End(closed.reason))
            elif method == "daemon.message":
                monitor = self._monitors.get(p.get("monitor", ""))
                if monitor is not None:
                    monitor._put(MonitorMessage.from_params(p))
            elif method == "vm.progress":
                request_id = p.get("request")
                on_progress = self._progress.get(request_id) if isinstance(request_id, int) else None
                if on_progress is not None:
                    try:
                        on_progress(Progress.from_params(p))
                    except Exception:
                        pass  # the callback's bug must not stop the reader
        except (KeyError, TypeError):
            pass
        self._tell_listeners(message)

    def _tell_listeners(self, message: Dict[str, Any]) -> None:
        for listener in list(self._listeners):
            try:
                listener(message)
            except Exception:
                pass

    def _shut(self, error: BaseException) -> None:
        pending, self._pending, self._hooks, self._progress = self._pending, {}, {}, {}
        streams = list(self._streams.values()) + list(self._monitors.values())
        self._streams, self._monitors = {}, {}
        for future in pending.values():
            if not future.done():
                future.set_exception(ConnectionLost(str(error)))
        for stream in streams:
            if isinstance(stream, AsyncSubscription) and stream._held_at_shutdown:
                stream.closed_reason = "shutdown"  # as the daemon said before the connection ended
                stream._put(_End("shutdown"))
            else:
                stream._put(_End(None, ConnectionLost(str(error))))

    # ------------------------------------------------------------------ raw JSON-RPC

    async def _write(self, message: Any) -> None:
        frame = _wire.encode_frame(message, self.max_frame_bytes)
        await self._ensure_open()
        assert self._writer is not None
        writer = self._writer
        try:
            writer.write(frame)
            await writer.drain()
        except OSError as error:
            lost = ConnectionLost("writing to vmd failed: %s" % error)
            # The connection is over: say so now, so the next call reconnects (with
            # reconnect=True) instead of writing to the dead socket until its reader notices.
            if self._writer is writer:
                self._open = False
                writer.close()
                if not self._sessions.on_lost(lost):
                    self._shut(lost)
            raise lost from error

    async def request(self, method: str, params: Optional[Mapping[str, Any]] = None,
                      on_result: Optional[Callable[[Any], Any]] = None,
                      on_progress: Optional[Callable[[Progress], None]] = None) -> AsyncPendingCall:
        """Send a request now; ``await pending.result()`` later."""
        await self._ensure_open()
        self._next_id += 1
        request_id = self._next_id
        future: "asyncio.Future[Any]" = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        if on_result is not None:
            self._hooks[request_id] = on_result
        if on_progress is not None:
            self._progress[request_id] = on_progress
            future.add_done_callback(lambda _: self._progress.pop(request_id, None))
        try:
            await self._write(_wire.request(request_id, method, params))
        except BaseException:
            self._pending.pop(request_id, None)
            self._hooks.pop(request_id, None)
            self._progress.pop(request_id, None)
            raise
        return AsyncPendingCall(self, request_id, method, future)

    async def call(self, method: str, params: Optional[Mapping[str, Any]] = None, *,
                   timeout: Any = MISSING, on_result: Optional[Callable[[Any], Any]] = None) -> Any:
        """Send a request and return its result (raises :class:`VMDError` subclasses)."""
        pending = await self.request(method, params, on_result)
        return await pending.result(self.timeout if timeout is MISSING else timeout)

    async def notify(self, method: str, params: Optional[Mapping[str, Any]] = None) -> None:
        await self._write(_wire.notification(method, params))

    # ------------------------------------------------------------------ daemon.*

    async def info(self) -> Dict[str, Any]:
        return cast(Dict[str, Any], await self.call("daemon.info"))

    async def shutdown(self) -> Dict[str, Any]:
        return cast(Dict[str, Any], await self.call("daemon.shutdown"))

    async def discover(self) -> Dict[str, Any]:
        return cast(Dict[str, Any], await self.call("rpc.discover"))

    async def monitor(self, *, timeout: Optional[float] = None) -> AsyncMonitor:
        def opened(result: Any) -> AsyncMonitor:
            monitor = AsyncMonitor(result["monitor"], timeout)
            self._monitors[monitor.id] = monitor
            return monitor

        return cast(AsyncMonitor, await self.call("daemon.monitor", {}, on_result=opened))

    async def unmonitor(self, monitor: Union[AsyncMonitor, str]) -> None:
        key = monitor.id if isinstance(monitor, AsyncMonitor) else monitor

        def ended(result: Any) -> None:
            stream = self._monitors.pop(key, None)
            if stream is not None:
                stream._put(_End("unmonitored"))

        await self.call("daemon.unmonitor", {"monitor": key}, on_result=ended)

    # ------------------------------------------------------------------ vm.*

    async def types(self, type: Optional[str] = None) -> List[Dict[str, Any]]:
        return cast(List[Dict[str, Any]], (await self.call("vm.types", _wire.params(type=MISSING if type is None else type)))["types"])

    async def create(self, type: str, *, id: Optional[str] = None, args: Optional[Mapping[str, Any]] = None,
                     scope: Optional[str] = None, subscribe: Any = None, durable: bool = False,
                     subscription_timeout: Optional[float] = None, record: bool = False) -> Created:
        p = _wire.params(type=type, id=MISSING if id is None else id,
                         args=MISSING if args is None else dict(args),
                         scope=MISSING if scope is None else scope,
                         subscribe=_wire.subscribe_options(subscribe),
                         durable=True if durable else MISSING,
                         record=True if record else MISSING)

        def created(result: Any) -> Created:
            subscription = None
            if "subscription" in result:
                subscription = AsyncSubscription(result["subscription"], result["instance"], subscription_timeout)
                subscription._follow = dict(p.get("subscribe") or {})
                subscription._durable = result.get("durable") is True
                self._streams[subscription.id] = subscription
            return Created(result["instance"], result["type"], result["scope"], subscription, result.get("durable", False))

        return cast(Created, await self.call("vm.create", p, on_result=created))

    async def destroy(self, instance: str) -> None:
        await self.call("vm.destroy", {"instance": instance})

    async def list(self) -> List[Dict[str, Any]]:
        return cast(List[Dict[str, Any]], (await self.call("vm.list"))["instances"])

    async def send(self, instance: str, input: str, value: Any = MISSING, *, notify: bool = False) -> None:
        p = _wire.params(instance=instance, input=input, value=value)
        if notify:
            await self.notify("vm.send", p)
        else:
            await self.call("vm.send", p)

    async def start_execute(self, instance: str, action: str, value: Any = MISSING, *,
                            timeout_ms: Optional[int] = None,
                            progress: Optional[Callable[[Progress], None]] = None,
                            reset_timeout_on_progress: bool = False) -> AsyncPendingCall:
        """Like :meth:`vmd_client.Client.start_execute`; ``progress`` is called on the event
        loop with each :class:`Progress`, all before the reply."""
        p = _wire.execute_params(instance, action, value, timeout_ms, progress is not None, reset_timeout_on_progress)
        return await self.request("vm.execute", p, lambda result: result["value"], progress)

    async def execute(self, instance: str, action: str, value: Any = MISSING, *,
                      timeout_ms: Optional[int] = None, timeout: Any = MISSING,
                      progress: Optional[Callable[[Progress], None]] = None,
                      reset_timeout_on_progress: bool = False) -> Any:
        if timeout is MISSING:
            timeout = self.timeout
            if timeout is not None and timeout_ms is not None:
                timeout = max(timeout, timeout_ms / 1000.0 + EXECUTE_SLACK)
        pending = await self.start_execute(instance, action, value, timeout_ms=timeout_ms, progress=progress,
                                           reset_timeout_on_progress=reset_timeout_on_progress)
        return await pending.result(timeout)

    async def execute_retrying(self, action: str, value: Any,
                               prepare: Callable[["AsyncClient"], Awaitable[str]], *,
                               attempts: int = 5, timeout: Any = MISSING) -> Any:
        """Like :meth:`vmd_client.Client.execute_retrying`: ``await prepare(client)`` makes
        the instance ready and returns its id, then ``vm.execute`` runs with ``value`` (which
        carries an idempotency key); a connection lost before the answer is retried with the
        same ``value`` after reconnecting (``reconnect=True``), at most ``attempts`` times."""
        attempt = 0
        while True:
            attempt += 1
            try:
                instance = await prepare(self)
                writer = self._writer
                try:
                    return await self.execute(instance, action, value, timeout=timeout)
                except UnknownInstance:
                    # The call reconnected to a restarted daemon, which never had `instance`:
                    # nothing ran, so it is safe to prepare again.
                    if self._writer is writer:
                        raise
                    raise ConnectionLost("vmd restarted before the call; %s is gone" % instance)
            except ConnectionLost:
                if attempt >= attempts or not self.reconnect:
                    raise

    async def cancel(self, request_id: int) -> None:
        await self.notify("$/cancelRequest", {"id": request_id})

    async def get(self, instance: str, output: str) -> Any:
        return (await self.call("vm.get", {"instance": instance, "output": output}))["value"]

    async def tape(self, instance: str) -> List[Dict[str, Any]]:
        """``vm.tape``: see :meth:`Client.tape`."""
        return list((await self.call("vm.tape", {"instance": instance}))["tape"])

    async def subscribe(self, instance: str, outputs: Optional[Sequence[str]] = None, *,
                        replay: Optional[bool] = None, patches: Optional[bool] = None,
                        timeout: Optional[float] = None) -> AsyncSubscription:
        p = _wire.params(instance=instance, outputs=MISSING if outputs is None else list(outputs),
                         replay=MISSING if replay is None else replay,
                         patches=MISSING if patches is None else patches)

        def opened(result: Any) -> AsyncSubscription:
            subscription = AsyncSubscription(result["subscription"], instance, timeout)
            subscription._follow = {key: value for key, value in p.items() if key != "instance"}
            self._streams[subscription.id] = subscription
            return subscription

        return cast(AsyncSubscription, await self.call("vm.subscribe", p, on_result=opened))

    async def unsubscribe(self, subscription: Union[AsyncSubscription, str]) -> None:
        key = subscription.id if isinstance(subscription, AsyncSubscription) else subscription

        def ended(result: Any) -> None:
            stream = self._streams.pop(key, None)
            if stream is not None:
                stream._put(_End("unsubscribed"))

        await self.call("vm.unsubscribe", {"subscription": key}, on_result=ended)


class _Connecting:
    """What :meth:`AsyncClient.connect` returns: awaitable, and an async context manager."""

    def __init__(self, client: AsyncClient) -> None:
        self._client = client

    def __await__(self) -> Any:
        return self._client._start().__await__()

    async def __aenter__(self) -> AsyncClient:
        return await self._client._start()

    async def __aexit__(self, *exc: Any) -> None:
        await self._client.close()
