"""JSON-RPC 2.0 bookkeeping without I/O, shared by the threaded and the asyncio connection.

It numbers outgoing requests, remembers who waits for which id, settles a waiter when
its answer arrives (in whatever order answers come), and sorts everything else the
daemon sends into requests (``session/request_permission``, ``tools/call``, ...) and
notifications (``session/update``, ``agentd/event``, ``$/cancel_request``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from .errors import AgentdError, ConnectionClosedError, ProtocolError

RequestId = Union[int, str]

#: Called once with ``(result, None)`` or ``(None, error)`` when a request settles.
Settle = Callable[[Any, Optional[BaseException]], None]


@dataclass(frozen=True)
class IncomingRequest:
    """A request the daemon sent; it must be answered with :meth:`RpcCore.result` or :meth:`RpcCore.error`."""

    id: RequestId
    method: str
    params: Any


@dataclass(frozen=True)
class IncomingNotification:
    """A notification the daemon sent (never answered)."""

    method: str
    params: Any


@dataclass
class _Pending:
    method: str
    settle: Settle


Incoming = Union[IncomingRequest, IncomingNotification, ProtocolError, None]


class RpcCore:
    """Ids, pending requests and message sorting for one connection. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._next_id = 1
        self._pending: Dict[RequestId, _Pending] = {}
        self._closed_reason: Optional[str] = None

    @property
    def closed(self) -> bool:
        """True once :meth:`close` ran; new requests fail at once."""
        return self._closed_reason is not None

    def request(self, method: str, params: Any, settle: Settle) -> Tuple[RequestId, Dict[str, Any]]:
        """Register a waiter and build the request message; returns ``(id, message)``.

        On a closed connection ``settle`` is called at once with ConnectionClosedError
        and the message should not be sent.
        """
        with self._lock:
            request_id = self._next_id
            self._next_id += 1
            reason = self._closed_reason
            if reason is None:
                self._pending[request_id] = _Pending(method, settle)
        if reason is not None:
            settle(None, ConnectionClosedError(method, reason))
        return request_id, _message(id=request_id, method=method, params=params)

    def forget(self, request_id: RequestId, error: BaseException) -> None:
        """Settle a pending request with ``error`` now (e.g. it could not be written)."""
        with self._lock:
            pending = self._pending.pop(request_id, None)
        if pending is not None:
            pending.settle(None, error)

    def method_of(self, request_id: RequestId) -> Optional[str]:
        """The method of a request still waiting for its answer."""
        with self._lock:
            pending = self._pending.get(request_id)
        return pending.method if pending is not None else None

    @staticmethod
    def notification(method: str, params: Any) -> Dict[str, Any]:
        """A notification message."""
        return _message(method=method, params=params)

    @staticmethod
    def result(request_id: RequestId, result: Any) -> Dict[str, Any]:
        """The success answer to a daemon request."""
        return {"jsonrpc": "2.0", "id": request_id, "result": result}

    @staticmethod
    def error(request_id: Optional[RequestId], code: int, message: str, data: Any = None) -> Dict[str, Any]:
        """The error answer to a daemon request."""
        body: Dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            body["data"] = data
        return {"jsonrpc": "2.0", "id": request_id, "error": body}

    def receive(self, message: Any) -> Incoming:
        """Take one decoded message.

        An answer settles its waiter here and gives None; a daemon request or
        notification is returned for the caller to dispatch; anything malformed comes
        back as a ProtocolError to report.
        """
        if isinstance(message, ProtocolError):
            return message
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            return ProtocolError(f"not a JSON-RPC 2.0 message: {_preview(message)}")
        method = message.get("method")
        if isinstance(method, str):
            if "id" in message and message["id"] is not None:
                return IncomingRequest(message["id"], method, message.get("params"))
            return IncomingNotification(method, message.get("params"))
        if "result" in message or "error" in message:
            return self._settle(message)
        return ProtocolError(f"neither a request, a notification nor an answer: {_preview(message)}")

    def close(self, reason: str = "") -> List[str]:
        """Fail every pending request with ConnectionClosedError; returns their methods."""
        with self._lock:
            if self._closed_reason is not None:
                return []
            self._closed_reason = reason or "the connection ended"
            pending = list(self._pending.values())
            self._pending.clear()
        for entry in pending:
            entry.settle(None, ConnectionClosedError(entry.method, self._closed_reason))
        return [entry.method for entry in pending]

    def _settle(self, message: Dict[str, Any]) -> Incoming:
        request_id = message.get("id")
        with self._lock:
            pending = self._pending.pop(request_id, None) if isinstance(request_id, (int, str)) else None
        if pending is None:
            error = message.get("error")
            if request_id is None and isinstance(error, dict):
                # An error the daemon could not tie to a request (FrameTooLarge, ParseError).
                return ProtocolError(f"agentd answered an unreadable message: {error.get('code')} {error.get('message')}")
            return ProtocolError(f"an answer to unknown request id {request_id!r}")
        error = message.get("error")
        if error is not None:
            if isinstance(error, dict):
                code = error.get("code")
                exc = AgentdError(code if isinstance(code, int) else -32603, str(error.get("message", "")), error.get("data"))
            else:
                exc = AgentdError(-32603, f"malformed error answer to {pending.method}: {_preview(error)}")
            pending.settle(None, exc)
        else:
            pending.settle(message.get("result"), None)
        return None


def _message(method: str, params: Any, id: Optional[RequestId] = None) -> Dict[str, Any]:
    message: Dict[str, Any] = {"jsonrpc": "2.0"}
    if id is not None:
        message["id"] = id
    message["method"] = method
    if params is not None:
        message["params"] = params
    return message


def _preview(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + "..."
