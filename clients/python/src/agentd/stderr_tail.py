"""The last lines a spawned daemon wrote on stderr, to say why it went away."""

from __future__ import annotations

import threading
from collections import deque
from typing import Deque


class StderrTail:
    """Keeps the last ``lines`` lines of a daemon's stderr (its log), thread-safe."""

    def __init__(self, lines: int = 20) -> None:
        self._lines: Deque[str] = deque(maxlen=lines)
        self._lock = threading.Lock()

    def add(self, line: bytes) -> None:
        """Record one line as read from the pipe."""
        text = line.decode("utf-8", "replace").rstrip()
        if text:
            with self._lock:
                self._lines.append(text)

    def explain(self, status: str) -> str:
        """``status``, followed by the recorded lines when there are any."""
        with self._lock:
            lines = list(self._lines)
        if not lines:
            return status
        return status + "; its last stderr lines:\n  " + "\n  ".join(lines)
