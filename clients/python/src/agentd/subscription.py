"""Notifications as a blocking iterator, for the threaded client."""

from __future__ import annotations

import queue
from typing import Any, Callable, Dict, Iterator, Optional

from .connection import Connection

#: Decides whether a notification belongs to a subscription: ``accept(method, params)``.
Filter = Callable[[str, Any], bool]

#: The agentd extension's rich-event notification.
EVENT = "agentd/event"

_END = object()


class Subscription:
    """The params of matching notifications, in arrival order.

    Iterate it (``for params in client.updates(session_id): ...``); the iteration ends
    when the subscription is closed or the connection ends. Notifications are queued from
    the moment it is created, so none are lost between subscribing and iterating.
    """

    def __init__(self, connection: Connection, accept: Filter) -> None:
        self._accept = accept
        self._queue: "queue.Queue[Any]" = queue.Queue()
        self._closed = False
        self._remove = connection.add_listener(self._on_notification)
        self._remove_on_close: Callable[[], None] = lambda: None
        # Removed again on close, so a long-lived client does not collect one per turn.
        self._remove_on_close = connection.on_close(lambda _reason: self.close())

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        return self

    def __next__(self) -> Dict[str, Any]:
        item = self._queue.get()
        if item is _END:
            self._queue.put(_END)
            raise StopIteration
        return item

    def get(self, timeout: Optional[float] = None) -> Dict[str, Any]:
        """The next params; raises TimeoutError after ``timeout`` seconds, StopIteration once ended."""
        try:
            item = self._queue.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no matching notification within {timeout} s") from None
        if item is _END:
            self._queue.put(_END)
            raise StopIteration
        return item

    def close(self) -> None:
        """Stop receiving; an iteration in progress ends after what is already queued."""
        if self._closed:
            return
        self._closed = True
        self._remove()
        self._remove_on_close()
        self._queue.put(_END)

    def __enter__(self) -> "Subscription":
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.close()

    def _on_notification(self, method: str, params: Any) -> None:
        if self._accept(method, params):
            self._queue.put(params)


def session_filter(method: str, session_id: Optional[str] = None) -> Filter:
    """Accepts ``method`` notifications, of one session when ``session_id`` is given."""

    def accept(got: str, params: Any) -> bool:
        if got != method:
            return False
        return session_id is None or (isinstance(params, dict) and params.get("sessionId") == session_id)

    return accept
