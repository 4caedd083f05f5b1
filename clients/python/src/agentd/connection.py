"""The threaded JSON-RPC connection under :class:`agentd.Client`.

One reader thread reads every message. It settles the future of each answer by id (in
whatever order answers arrive), hands notifications to listeners in arrival order, and
starts a thread per daemon request (permission questions, ``tools/call``) so that a slow
handler never holds up answers, updates or other requests.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Future
from typing import Any, Callable, Dict, List, Optional

from .errors import METHOD_NOT_FOUND, REQUEST_CANCELLED, ConnectionClosedError, ProtocolError
from .framing import LineDecoder, encode_message
from .handler_errors import error_answer
from .rpc_core import IncomingNotification, IncomingRequest, RequestId, RpcCore
from .transport import Transport

log = logging.getLogger("agentd")

#: Answers a daemon request: gets the params, returns the result (raise AgentdError for an error answer).
RequestHandler = Callable[[Any], Any]
#: Sees every notification: ``(method, params)``. Runs on the reader thread, so it must not block.
NotificationListener = Callable[[str, Any], object]
#: Told once, with the reason, when the connection has ended.
CloseListener = Callable[[str], None]

CANCEL_METHODS = ("$/cancel_request", "$/cancelRequest")


class Connection:
    """A JSON-RPC 2.0 peer over one :class:`~agentd.transport.Transport`, thread-safe."""

    def __init__(self, transport: Transport, on_protocol_error: Optional[Callable[[ProtocolError], None]] = None) -> None:
        self._transport = transport
        self._core = RpcCore()
        self._decoder = LineDecoder()
        self._on_protocol_error = on_protocol_error or (lambda error: log.warning("agentd client: %s", error))
        self._handlers: Dict[str, RequestHandler] = {}
        self._listeners: List[NotificationListener] = []
        self._close_listeners: List[CloseListener] = []
        self._lock = threading.Lock()
        # Daemon requests not yet answered: id → answered flag, so a cancel answers once.
        self._incoming: Dict[RequestId, bool] = {}
        self._closing_reason = ""
        self._closed = threading.Event()
        self.close_reason = ""
        self._reader = threading.Thread(target=self._read_loop, name="agentd-reader", daemon=True)
        self._reader.start()

    # -- outgoing -------------------------------------------------------------------------

    def request_future(self, method: str, params: Any = None) -> "Future[Any]":
        """Send a request; the future settles with its result or raises AgentdError / ConnectionClosedError."""
        future: "Future[Any]" = Future()
        future.set_running_or_notify_cancel()

        def settle(result: Any, error: Optional[BaseException]) -> None:
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        request_id, message = self._core.request(method, params, settle)
        future.request_id = request_id  # type: ignore[attr-defined]
        if not future.done():
            self._write(message, request_id, method)
        return future

    def on_reader_thread(self) -> bool:
        """True when called from the reader thread (inside a notification listener)."""
        return threading.current_thread() is self._reader

    def notify(self, method: str, params: Any = None) -> None:
        """Send a notification; does nothing once the connection has closed."""
        if not self._core.closed:
            self._write(RpcCore.notification(method, params), None, method)

    def cancel_request(self, request_id: RequestId) -> None:
        """Ask the daemon to cancel one of this client's pending requests (ACP ``$/cancel_request``)."""
        self.notify("$/cancel_request", {"requestId": request_id})

    # -- incoming -------------------------------------------------------------------------

    def on_request(self, method: str, handler: Optional[RequestHandler]) -> None:
        """Answer daemon requests of ``method`` with ``handler`` (None removes it)."""
        with self._lock:
            if handler is None:
                self._handlers.pop(method, None)
            else:
                self._handlers[method] = handler

    def add_listener(self, listener: NotificationListener) -> Callable[[], None]:
        """Call ``listener(method, params)`` for every notification; returns a function that removes it."""
        with self._lock:
            self._listeners = self._listeners + [listener]

        def remove() -> None:
            with self._lock:
                self._listeners = [each for each in self._listeners if each is not listener]

        return remove

    def on_close(self, listener: CloseListener) -> Callable[[], None]:
        """Call ``listener(reason)`` when the connection ends (at once if it already has); returns a remover."""
        with self._lock:
            if not self._closed.is_set():
                self._close_listeners.append(listener)
                return lambda: self._remove_close_listener(listener)
        listener(self.close_reason)
        return lambda: None

    def _remove_close_listener(self, listener: CloseListener) -> None:
        with self._lock:
            self._close_listeners = [each for each in self._close_listeners if each is not listener]

    # -- lifecycle ------------------------------------------------------------------------

    @property
    def transport(self) -> Transport:
        """The byte stream underneath."""
        return self._transport

    @property
    def closed(self) -> bool:
        """True once the connection has ended and every pending request has failed."""
        return self._closed.is_set()

    def close(self, timeout: float = 5.0) -> None:
        """End the connection: pending requests fail with ConnectionClosedError."""
        with self._lock:
            if not self._closing_reason:
                self._closing_reason = "this client closed the connection"
        self._transport.close()
        if threading.current_thread() is not self._reader:
            self._reader.join(timeout)

    def wait_closed(self, timeout: Optional[float] = None) -> bool:
        """Wait until the connection has ended; False on timeout."""
        return self._closed.wait(timeout)

    # -- internals ------------------------------------------------------------------------

    def _write(self, message: Dict[str, Any], request_id: Optional[RequestId], method: str) -> None:
        try:
            self._transport.write(encode_message(message))
        except (OSError, ValueError) as error:
            if request_id is not None:
                self._core.forget(request_id, ConnectionClosedError(method, f"writing to agentd failed: {error}"))

    def _read_loop(self) -> None:
        try:
            while True:
                data = self._transport.read()
                if not data:
                    break
                for item in self._decoder.feed(data):
                    self._dispatch(item)
        finally:
            self._finish()

    def _dispatch(self, item: Any) -> None:
        incoming = self._core.receive(item)
        if incoming is None:
            return
        if isinstance(incoming, ProtocolError):
            self._on_protocol_error(incoming)
        elif isinstance(incoming, IncomingRequest):
            with self._lock:
                self._incoming[incoming.id] = False
            threading.Thread(target=self._answer, args=(incoming,), name=f"agentd-{incoming.method}", daemon=True).start()
        elif isinstance(incoming, IncomingNotification):
            if incoming.method in CANCEL_METHODS:
                self._cancel_incoming(incoming.params)
            for listener in self._listeners:
                try:
                    listener(incoming.method, incoming.params)
                except Exception:  # noqa: BLE001 - a listener's bug must not stop the reader
                    log.exception("agentd client: a listener for %s failed", incoming.method)

    def _answer(self, request: IncomingRequest) -> None:
        with self._lock:
            handler = self._handlers.get(request.method)
        if handler is None:
            answer = RpcCore.error(request.id, METHOD_NOT_FOUND, f"this client has no handler for {request.method}")
        else:
            try:
                answer = RpcCore.result(request.id, handler(request.params))
            except BaseException as error:  # noqa: BLE001 - every failure becomes an error answer
                answer = error_answer(request.id, request.method, error)
        self._send_answer(request.id, answer)

    def _cancel_incoming(self, params: Any) -> None:
        if not isinstance(params, dict):
            return
        request_id = params.get("requestId", params.get("id"))
        self._send_answer(request_id, RpcCore.error(request_id, REQUEST_CANCELLED, "cancelled by agentd before the client answered"))

    def _send_answer(self, request_id: Any, answer: Dict[str, Any]) -> None:
        # First answer wins: a cancelled request's late result is dropped.
        with self._lock:
            if self._incoming.get(request_id, True):
                return
            self._incoming.pop(request_id)
        self._write(answer, None, "answer")

    def _finish(self) -> None:
        with self._lock:
            reason = self._closing_reason or self._transport.end_reason() or "the connection ended"
        self.close_reason = reason
        self._core.close(reason)
        with self._lock:
            self._closed.set()
            listeners, self._close_listeners = self._close_listeners, []
        for listener in listeners:
            try:
                listener(reason)
            except Exception:  # noqa: BLE001
                log.exception("agentd client: a close listener failed")
