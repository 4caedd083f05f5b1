"""Notifications as an async iterator, for the asyncio client."""

from __future__ import annotations

import asyncio
from typing import Any, AsyncIterator, Callable, Dict, Optional

from .async_connection import AsyncConnection
from .subscription import Filter

_END = object()


class AsyncSubscription:
    """The params of matching notifications, in arrival order.

    ``async for params in client.updates(session_id): ...``; the iteration ends when the
    subscription is closed or the connection ends. Notifications are queued from the
    moment it is created, so none are lost between subscribing and iterating.
    """

    def __init__(self, connection: AsyncConnection, accept: Filter) -> None:
        self._accept = accept
        self._queue: "asyncio.Queue[Any]" = asyncio.Queue()
        self._closed = False
        self._remove = connection.add_listener(self._on_notification)
        self._remove_on_close: Callable[[], None] = lambda: None
        # Removed again on close, so a long-lived client does not collect one per turn.
        self._remove_on_close = connection.on_close(lambda _reason: self.close())

    def __aiter__(self) -> AsyncIterator[Dict[str, Any]]:
        return self

    async def __anext__(self) -> Dict[str, Any]:
        item = await self._queue.get()
        if item is _END:
            self._queue.put_nowait(_END)
            raise StopAsyncIteration
        return item

    async def get(self, timeout: Optional[float] = None) -> Dict[str, Any]:
        """The next params; raises asyncio.TimeoutError after ``timeout`` seconds, StopAsyncIteration once ended."""
        return await asyncio.wait_for(self.__anext__(), timeout)

    def close(self) -> None:
        """Stop receiving; an iteration in progress ends after what is already queued."""
        if self._closed:
            return
        self._closed = True
        self._remove()
        self._remove_on_close()
        self._queue.put_nowait(_END)

    async def __aenter__(self) -> "AsyncSubscription":
        return self

    async def __aexit__(self, *_exc: Any) -> None:
        self.close()

    def _on_notification(self, method: str, params: Any) -> None:
        if self._accept(method, params):
            self._queue.put_nowait(params)
