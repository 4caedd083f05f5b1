"""A scripted daemon stand-in for the unit tests: the other end of a socket pair, driven by the test."""

from __future__ import annotations

import json
import socket
import threading
from collections import deque
from typing import Any, Deque, Dict

import src_path  # noqa: F401

from agentd.framing import LineDecoder, encode_message

INITIALIZE_RESULT = {"protocolVersion": 1, "agentInfo": {"name": "fake-agentd", "version": "0"}, "_meta": {"agentd": {"features": ["tools"]}}}


class FakeDaemon:
    """Reads what the client sends and writes what the test scripts, one message at a time."""

    def __init__(self, timeout: float = 5.0) -> None:
        self.client_socket, self._socket = socket.socketpair()
        self._socket.settimeout(timeout)
        self._decoder = LineDecoder()
        self._received: Deque[Any] = deque()

    def receive(self) -> Dict[str, Any]:
        """The next message the client sent (socket.timeout if none comes)."""
        while not self._received:
            data = self._socket.recv(65536)
            if not data:
                raise EOFError("the client closed the connection")
            self._received.extend(self._decoder.feed(data))
        return self._received.popleft()

    def expect(self, method: str) -> Dict[str, Any]:
        """The next message, which must be a ``method`` request or notification."""
        message = self.receive()
        if message.get("method") != method:
            raise AssertionError(f"expected {method}, got {json.dumps(message)}")
        return message

    def send(self, message: Any) -> None:
        """Write one message as an NDJSON line."""
        self._socket.sendall(encode_message(message))

    def send_raw(self, data: bytes) -> None:
        """Write bytes as they are (split lines, bad JSON)."""
        self._socket.sendall(data)

    def answer(self, request: Dict[str, Any], result: Any) -> None:
        self.send({"jsonrpc": "2.0", "id": request["id"], "result": result})

    def fail(self, request: Dict[str, Any], code: int, message: str, data: Any = None) -> None:
        error: Dict[str, Any] = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        self.send({"jsonrpc": "2.0", "id": request["id"], "error": error})

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, request_id: Any, method: str, params: Any) -> None:
        """Send a daemon → client request."""
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})

    def answer_initialize_in_background(self) -> threading.Thread:
        """Answers the client's ``initialize`` from a thread (the sync Client blocks on it)."""

        def run() -> None:
            self.answer(self.expect("initialize"), INITIALIZE_RESULT)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def close(self) -> None:
        """Hang up, as a daemon that exits does."""
        try:
            self._socket.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._socket.close()


def update(session_id: str, session_update: str, **fields: Any) -> Dict[str, Any]:
    """``session/update`` params."""
    return {"sessionId": session_id, "update": {"sessionUpdate": session_update, **fields}}


def text_chunk(session_id: str, text: str, kind: str = "agent_message_chunk") -> Dict[str, Any]:
    return update(session_id, kind, content={"type": "text", "text": text})


def wait_for(predicate: Any, timeout: float = 5.0, what: str = "condition") -> None:
    """Polls until ``predicate()`` holds."""
    event = threading.Event()
    for _ in range(int(timeout / 0.01)):
        if predicate():
            return
        event.wait(0.01)
    raise AssertionError(f"timed out waiting for {what}")
