"""A prompt in flight on the asyncio client."""

from __future__ import annotations

import asyncio
from typing import Any, AsyncIterator, Dict, Generator, Optional

from .async_connection import AsyncConnection
from .async_subscription import AsyncSubscription
from .params import PromptInput, prompt_params
from .subscription import session_filter
from .turn import SESSION_UPDATE, PromptResult, TurnCollector


class AsyncTurn:
    """A running ``session/prompt``: await it for the PromptResult, or ``async for`` its updates.

    Other calls (``steer``, ``abort``, ...) can be awaited meanwhile.
    """

    def __init__(self, connection: AsyncConnection, session_id: str, prompt: PromptInput, delivery: Optional[str] = None) -> None:
        self.session_id = session_id
        collector = TurnCollector(session_id)
        self._updates = AsyncSubscription(connection, session_filter(SESSION_UPDATE, session_id))
        remove_collector = connection.add_listener(collector.accept)
        #: Settles with the PromptResult (or the error) when the turn ends.
        self.future: "asyncio.Future[PromptResult]" = asyncio.get_running_loop().create_future()

        def stop_collecting() -> None:
            # The moment the answer is read, before any later update is dispatched.
            remove_collector()
            self._updates.close()

        answer = connection.request_future("session/prompt", prompt_params(session_id, prompt, delivery), on_answer=stop_collecting)
        #: Id of the ``session/prompt`` request (for ``$/cancel_request``).
        self.request_id = getattr(answer, "request_id", None)

        def settle(done: "asyncio.Future[Any]") -> None:
            if not self.future.done():
                if done.cancelled():
                    self.future.cancel()
                elif done.exception() is not None:
                    self.future.set_exception(done.exception())  # type: ignore[arg-type]
                else:
                    self.future.set_result(collector.result(done.result()))

        answer.add_done_callback(settle)

    def __await__(self) -> Generator[Any, None, PromptResult]:
        return asyncio.shield(self.future).__await__()

    async def result(self, timeout: Optional[float] = None) -> PromptResult:
        """Wait for the turn to end; raises AgentdError, ConnectionClosedError or asyncio.TimeoutError."""
        return await asyncio.wait_for(asyncio.shield(self.future), timeout)

    def done(self) -> bool:
        """True once the turn has answered."""
        return self.future.done()

    def __aiter__(self) -> AsyncIterator[Dict[str, Any]]:
        return self._updates.__aiter__()

    async def next_update(self, timeout: Optional[float] = None) -> Dict[str, Any]:
        """The next update of this turn; asyncio.TimeoutError after ``timeout`` s, StopAsyncIteration once it ended."""
        return await self._updates.get(timeout)
