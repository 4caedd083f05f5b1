"""Byte streams to a daemon for the asyncio client: a Unix socket, or a spawned ``agentd serve --stdio``."""

from __future__ import annotations

import asyncio
import os
import socket
from typing import IO, Any, Mapping, Optional, Sequence, Union

from .socket_check import check_socket_path
from .stderr_tail import StderrTail
from .transport import DEFAULT_COMMAND, READ_SIZE


class AsyncTransport:
    """A StreamReader / StreamWriter pair and how to end it."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, name: str = "") -> None:
        self.reader = reader
        self.writer = writer
        self._name = name

    @classmethod
    async def connect_unix(cls, path: Union[str, "os.PathLike[str]"]) -> "AsyncTransport":
        """Connect to the daemon's Unix socket, once no other user can own or replace it (:func:`check_socket_path`)."""
        check_socket_path(path)
        try:
            reader, writer = await asyncio.open_unix_connection(os.fspath(path))
        except OSError as error:
            raise ConnectionError(f"cannot connect to agentd at {os.fspath(path)}: {error.strerror or error}; is `agentd serve --socket` running? (or connect with start=True to start it)") from error
        return cls(reader, writer, os.fspath(path))

    @classmethod
    async def from_socket(cls, sock: socket.socket) -> "AsyncTransport":
        """Wrap an already connected stream socket (e.g. one end of ``socket.socketpair()``)."""
        reader, writer = await asyncio.open_unix_connection(sock=sock)
        return cls(reader, writer)

    async def read(self) -> bytes:
        """The next bytes; ``b""`` at end of stream."""
        try:
            return await self.reader.read(READ_SIZE)
        except (OSError, asyncio.IncompleteReadError):
            return b""

    async def close(self) -> None:
        """Close the stream."""
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except OSError:
            pass

    async def end_reason(self) -> str:
        """Why the stream ended, for error messages."""
        return f"the daemon closed {self._name}" if self._name else "the peer closed the socket"


class AsyncProcessTransport(AsyncTransport):
    """The stdio of a daemon this client started; closing it ends the daemon."""

    def __init__(self, process: "asyncio.subprocess.Process", tail: StderrTail) -> None:
        assert process.stdout is not None and process.stdin is not None
        super().__init__(process.stdout, process.stdin)
        self.process = process
        self._tail = tail
        self._drain: Optional["asyncio.Task[None]"] = None
        if process.stderr is not None:
            self._drain = asyncio.ensure_future(self._drain_stderr(process.stderr))

    @classmethod
    async def spawn(
        cls,
        command: Sequence[str] = DEFAULT_COMMAND,
        env: Optional[Mapping[str, str]] = None,
        cwd: Optional[str] = None,
        stderr: Optional[IO[bytes]] = None,
    ) -> "AsyncProcessTransport":
        """Start the daemon with piped stdio (stderr kept for error messages unless ``stderr`` is given)."""
        try:
            process = await asyncio.create_subprocess_exec(
                *command,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=stderr if stderr is not None else asyncio.subprocess.PIPE,
                env=dict(env) if env is not None else None,
                cwd=cwd,
            )
        except OSError as error:
            raise ConnectionError(f"cannot start agentd ({' '.join(command)}): {error}") from error
        return cls(process, StderrTail())

    async def close(self, timeout: float = 5.0) -> None:
        """Close stdin (the daemon exits at end of input); terminate it if it lingers."""
        self.writer.close()
        try:
            await asyncio.wait_for(self.process.wait(), timeout)
        except asyncio.TimeoutError:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), 2.0)
            except asyncio.TimeoutError:
                self.process.kill()
                await self.process.wait()
        if self._drain is not None:
            await self._drain

    async def end_reason(self) -> str:
        try:
            code: Any = await asyncio.wait_for(self.process.wait(), 1.0)
        except asyncio.TimeoutError:
            code = None
        if self._drain is not None:
            await asyncio.wait({self._drain}, timeout=1.0)
        status = "agentd closed its output" if code is None else f"agentd exited with code {code}"
        return self._tail.explain(status)

    async def _drain_stderr(self, stream: asyncio.StreamReader) -> None:
        while True:
            try:
                line = await stream.readline()
            except (ValueError, asyncio.LimitOverrunError):
                # A log line longer than the stream's limit: keep a piece of it.
                line = await stream.read(READ_SIZE)
            if not line:
                return
            self._tail.add(line)
