"""Waiting on a future of the threaded client, with plain TimeoutError and a deadlock guard."""

from __future__ import annotations

import concurrent.futures
from typing import Any, Optional

from .connection import Connection


def wait_result(future: "concurrent.futures.Future[Any]", timeout: Optional[float], what: str, connection: Connection) -> Any:
    """``future.result(timeout)``; raises the builtin TimeoutError (3.9's futures have their own).

    Waiting on the reader thread (inside an ``on_update`` callback) would wait for the
    thread that has to deliver the answer, so that raises RuntimeError instead.
    """
    if connection.on_reader_thread() and not future.done():
        raise RuntimeError(
            f"waiting for {what} inside a notification callback would block the reader thread that delivers its answer; "
            "use start_prompt or connection.request_future there, or do the work on another thread"
        )
    try:
        return future.result(timeout)
    except concurrent.futures.TimeoutError:
        raise TimeoutError(f"no answer to {what} within {timeout} s") from None
