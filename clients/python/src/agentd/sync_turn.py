"""A prompt in flight on the threaded client."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any, Dict, Iterator, Optional

from .connection import Connection
from .params import PromptInput, prompt_params
from .subscription import Subscription, session_filter
from .turn import SESSION_UPDATE, PromptResult, TurnCollector
from .wait import wait_result


class Turn:
    """A running ``session/prompt``: wait for it, or iterate its updates as they stream.

    ``for params in turn`` yields the session's ``session/update`` params until the turn
    answers; ``turn.result()`` then gives the PromptResult. Other calls (``steer``,
    ``abort``, ...) can be made meanwhile from any thread.
    """

    def __init__(self, connection: Connection, session_id: str, prompt: PromptInput, delivery: Optional[str] = None) -> None:
        self.session_id = session_id
        self._connection = connection
        collector = TurnCollector(session_id)
        self._updates = Subscription(connection, session_filter(SESSION_UPDATE, session_id))
        remove_collector = connection.add_listener(collector.accept)
        #: Settles with the PromptResult (or the error) when the turn ends.
        self.future: "Future[PromptResult]" = Future()
        self.future.set_running_or_notify_cancel()
        answer = connection.request_future("session/prompt", prompt_params(session_id, prompt, delivery))
        #: Id of the ``session/prompt`` request (for ``$/cancel_request``).
        self.request_id = getattr(answer, "request_id", None)

        def settle(done: "Future[Any]") -> None:
            # Runs on the reader thread right after the answer: every update is in by now.
            remove_collector()
            error = done.exception()
            if error is not None:
                self.future.set_exception(error)
            else:
                self.future.set_result(collector.result(done.result()))
            self._updates.close()

        answer.add_done_callback(settle)

    def result(self, timeout: Optional[float] = None) -> PromptResult:
        """Wait for the turn to end; raises AgentdError, ConnectionClosedError or TimeoutError."""
        return wait_result(self.future, timeout, "session/prompt", self._connection)

    def done(self) -> bool:
        """True once the turn has answered."""
        return self.future.done()

    def __iter__(self) -> Iterator[Dict[str, Any]]:
        return iter(self._updates)

    def next_update(self, timeout: Optional[float] = None) -> Dict[str, Any]:
        """The next update of this turn; TimeoutError after ``timeout`` s, StopIteration once the turn ended."""
        return self._updates.get(timeout)
