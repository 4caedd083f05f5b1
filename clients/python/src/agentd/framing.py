"""NDJSON framing: one JSON-RPC message per line (protocol/PROTOCOL.md, "Transports and framing").

The daemon chooses its framing from a connection's first bytes; anything but
``Content-Length:`` is NDJSON, so this client always speaks NDJSON.
"""

from __future__ import annotations

import json
from typing import Any, List, Union

from .errors import ProtocolError

#: The daemon's default frame limit (32 MiB); a longer line without a newline is refused.
DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024


def encode_message(message: Any) -> bytes:
    """One message as one line: compact UTF-8 JSON ended by ``\\n``.

    ``json.dumps`` escapes every control character inside strings, so the only newline
    in the output is the terminator.
    """
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


class LineDecoder:
    """Cuts a byte stream into messages, whatever the chunk boundaries.

    Bytes are kept until a ``\\n`` arrives, so a line (or a UTF-8 character) split
    across reads is decoded whole. ``\\r\\n`` is accepted and blank lines are skipped.
    A line that is not JSON comes out as a :class:`ProtocolError` in its place, so one
    bad line does not end the stream.
    """

    def __init__(self, max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> None:
        self._buffer = bytearray()
        self._max_line_bytes = max_line_bytes

    def feed(self, data: bytes) -> List[Union[Any, ProtocolError]]:
        """Add bytes; returns the messages (or errors) of every line they completed."""
        self._buffer.extend(data)
        out: List[Union[Any, ProtocolError]] = []
        start = 0
        while True:
            end = self._buffer.find(b"\n", start)
            if end < 0:
                break
            line = bytes(self._buffer[start:end])
            start = end + 1
            parsed = _parse_line(line)
            if parsed is not _BLANK:
                out.append(parsed)
        del self._buffer[:start]
        if len(self._buffer) > self._max_line_bytes:
            size = len(self._buffer)
            self._buffer.clear()
            out.append(ProtocolError(f"a line exceeded {self._max_line_bytes} bytes ({size} bytes without a newline); dropped"))
        return out

    @property
    def pending_bytes(self) -> int:
        """Bytes of an unfinished line held back, waiting for its newline."""
        return len(self._buffer)


_BLANK = object()


def _parse_line(line: bytes) -> Any:
    """The line's JSON value, a ProtocolError, or ``_BLANK`` for an empty line."""
    text = line.strip()
    if not text:
        return _BLANK
    try:
        return json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        preview = text[:120].decode("utf-8", "replace")
        return ProtocolError(f"not a JSON line ({error}): {preview}")
