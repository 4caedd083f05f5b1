"""The asyncio JSON-RPC connection under :class:`agentd.AsyncClient`.

One reader task reads every message. It settles the future of each answer by id (in
whatever order answers arrive), hands notifications to listeners in arrival order, and
runs each daemon request (permission questions, ``tools/call``) as its own task, so a
slow handler never holds up answers, updates or other requests. Create it inside a
running event loop.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from typing import Any, Callable, Coroutine, Dict, List, Optional, Set

from .async_transport import AsyncTransport
from .errors import METHOD_NOT_FOUND, REQUEST_CANCELLED, ConnectionClosedError, ProtocolError
from .framing import LineDecoder, encode_message
from .handler_errors import error_answer
from .rpc_core import IncomingNotification, IncomingRequest, RequestId, RpcCore

log = logging.getLogger("agentd")

#: Answers a daemon request: gets the params, returns the result or an awaitable of it.
AsyncRequestHandler = Callable[[Any], Any]
#: Sees every notification ``(method, params)`` on the reader task; must not block.
NotificationListener = Callable[[str, Any], object]
#: Told once, with the reason, when the connection has ended.
CloseListener = Callable[[str], None]

CANCEL_METHODS = ("$/cancel_request", "$/cancelRequest")


class AsyncConnection:
    """A JSON-RPC 2.0 peer over one :class:`~agentd.async_transport.AsyncTransport`."""

    def __init__(self, transport: AsyncTransport, on_protocol_error: Optional[Callable[[ProtocolError], None]] = None) -> None:
        self._transport = transport
        self._core = RpcCore()
        self._decoder = LineDecoder()
        self._on_protocol_error = on_protocol_error or (lambda error: log.warning("agentd client: %s", error))
        self._handlers: Dict[str, AsyncRequestHandler] = {}
        self._listeners: List[NotificationListener] = []
        self._close_listeners: List[CloseListener] = []
        # Daemon requests being answered: id → task, so a cancel can stop it and answer once.
        self._incoming: Dict[RequestId, "asyncio.Task[None]"] = {}
        self._tasks: Set["asyncio.Task[Any]"] = set()
        self._drain_lock = asyncio.Lock()
        self._closing_reason = ""
        self._closed = asyncio.Event()
        self.close_reason = ""
        self._reader = asyncio.ensure_future(self._read_loop())

    # -- outgoing -------------------------------------------------------------------------

    def request_future(self, method: str, params: Any = None, on_answer: Optional[Callable[[], None]] = None) -> "asyncio.Future[Any]":
        """Send a request; the future settles with its result or raises AgentdError / ConnectionClosedError.

        ``on_answer`` runs the moment the answer is read, before any later message is
        dispatched (a future's own callbacks run only on a later loop iteration).
        """
        future: "asyncio.Future[Any]" = asyncio.get_running_loop().create_future()

        def settle(result: Any, error: Optional[BaseException]) -> None:
            if on_answer is not None:
                on_answer()
            if future.done():  # The caller stopped waiting (its task was cancelled).
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        request_id, message = self._core.request(method, params, settle)
        future.request_id = request_id  # type: ignore[attr-defined]
        if not future.done():
            self._send(message, request_id, method)
        return future

    async def request(self, method: str, params: Any = None) -> Any:
        """Send a request and wait for its result."""
        return await self.request_future(method, params)

    def notify(self, method: str, params: Any = None) -> None:
        """Send a notification; does nothing once the connection has closed."""
        if not self._core.closed:
            self._send(RpcCore.notification(method, params), None, method)

    def cancel_request(self, request_id: RequestId) -> None:
        """Ask the daemon to cancel one of this client's pending requests (ACP ``$/cancel_request``)."""
        self.notify("$/cancel_request", {"requestId": request_id})

    # -- incoming -------------------------------------------------------------------------

    def on_request(self, method: str, handler: Optional[AsyncRequestHandler]) -> None:
        """Answer daemon requests of ``method`` with ``handler`` (None removes it)."""
        if handler is None:
            self._handlers.pop(method, None)
        else:
            self._handlers[method] = handler

    def add_listener(self, listener: NotificationListener) -> Callable[[], None]:
        """Call ``listener(method, params)`` for every notification; returns a function that removes it."""
        self._listeners = self._listeners + [listener]

        def remove() -> None:
            self._listeners = [each for each in self._listeners if each is not listener]

        return remove

    def on_close(self, listener: CloseListener) -> Callable[[], None]:
        """Call ``listener(reason)`` when the connection ends (at once if it already has); returns a remover."""
        if self._closed.is_set():
            listener(self.close_reason)
            return lambda: None
        self._close_listeners.append(listener)

        def remove() -> None:
            self._close_listeners = [each for each in self._close_listeners if each is not listener]

        return remove

    # -- lifecycle ------------------------------------------------------------------------

    @property
    def transport(self) -> AsyncTransport:
        """The byte stream underneath."""
        return self._transport

    @property
    def closed(self) -> bool:
        """True once the connection has ended and every pending request has failed."""
        return self._closed.is_set()

    async def close(self) -> None:
        """End the connection: pending requests fail with ConnectionClosedError."""
        if not self._closing_reason:
            self._closing_reason = "this client closed the connection"
        await self._transport.close()
        await self.wait_closed()
        for task in list(self._tasks):
            task.cancel()

    async def wait_closed(self) -> None:
        """Wait until the connection has ended."""
        await self._closed.wait()

    # -- internals ------------------------------------------------------------------------

    def _spawn(self, coroutine: Coroutine[Any, Any, Any]) -> "asyncio.Task[Any]":
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _send(self, message: Dict[str, Any], request_id: Optional[RequestId] = None, method: str = "answer") -> None:
        """Write now (so messages leave in call order), then drain in the background."""
        try:
            self._transport.writer.write(encode_message(message))
        except (OSError, RuntimeError) as error:
            self._write_failed(error, request_id, method)
            return
        self._spawn(self._drain(request_id, method))

    async def _drain(self, request_id: Optional[RequestId], method: str) -> None:
        try:
            # One drain at a time: Python 3.9's StreamWriter does not allow concurrent drains.
            async with self._drain_lock:
                await self._transport.writer.drain()
        except (OSError, RuntimeError) as error:
            self._write_failed(error, request_id, method)

    def _write_failed(self, error: BaseException, request_id: Optional[RequestId], method: str) -> None:
        if request_id is not None:
            self._core.forget(request_id, ConnectionClosedError(method, f"writing to agentd failed: {error}"))

    async def _read_loop(self) -> None:
        try:
            while True:
                data = await self._transport.read()
                if not data:
                    break
                for item in self._decoder.feed(data):
                    self._dispatch(item)
        finally:
            await self._finish()

    def _dispatch(self, item: Any) -> None:
        incoming = self._core.receive(item)
        if incoming is None:
            return
        if isinstance(incoming, ProtocolError):
            self._on_protocol_error(incoming)
        elif isinstance(incoming, IncomingRequest):
            self._incoming[incoming.id] = self._spawn(self._answer(incoming))
        elif isinstance(incoming, IncomingNotification):
            if incoming.method in CANCEL_METHODS:
                self._cancel_incoming(incoming.params)
            for listener in self._listeners:
                try:
                    listener(incoming.method, incoming.params)
                except Exception:  # noqa: BLE001 - a listener's bug must not stop the reader
                    log.exception("agentd client: a listener for %s failed", incoming.method)

    async def _answer(self, request: IncomingRequest) -> None:
        handler = self._handlers.get(request.method)
        if handler is None:
            answer = RpcCore.error(request.id, METHOD_NOT_FOUND, f"this client has no handler for {request.method}")
        else:
            try:
                result = handler(request.params)
                if inspect.isawaitable(result):
                    result = await result
                answer = RpcCore.result(request.id, result)
            except asyncio.CancelledError:
                return  # Cancelled by the daemon; _cancel_incoming answered already.
            except Exception as error:  # noqa: BLE001 - every failure becomes an error answer
                answer = error_answer(request.id, request.method, error)
        if self._incoming.pop(request.id, None) is not None:
            self._send(answer)

    def _cancel_incoming(self, params: Any) -> None:
        if not isinstance(params, dict):
            return
        request_id = params.get("requestId", params.get("id"))
        task = self._incoming.pop(request_id, None) if isinstance(request_id, (int, str)) else None
        if task is None:
            return
        task.cancel()
        answer = RpcCore.error(request_id, REQUEST_CANCELLED, "cancelled by agentd before the client answered")
        self._send(answer)

    async def _finish(self) -> None:
        reason = self._closing_reason or await self._transport.end_reason() or "the connection ended"
        self.close_reason = reason
        self._core.close(reason)
        self._closed.set()
        listeners, self._close_listeners = self._close_listeners, []
        for listener in listeners:
            try:
                listener(reason)
            except Exception:  # noqa: BLE001
                log.exception("agentd client: a close listener failed")
