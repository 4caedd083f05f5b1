"""Byte streams to a daemon for the threaded client: a Unix socket, or a spawned ``agentd serve --stdio``."""

from __future__ import annotations

import os
import socket
import subprocess
import threading
from typing import IO, Mapping, Optional, Sequence, Union

from .socket_check import check_socket_path
from .stderr_tail import StderrTail

#: Bytes asked for per read; a read returns as soon as any bytes are there.
READ_SIZE = 65536

#: What ``agentd serve --stdio`` is started as when no command is given.
DEFAULT_COMMAND = ("agentd", "serve", "--stdio")


class Transport:
    """A duplex byte stream. ``read`` blocks and returns ``b""`` at end of stream."""

    def read(self) -> bytes:
        raise NotImplementedError

    def write(self, data: bytes) -> None:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def end_reason(self) -> str:
        """Why the stream ended, for error messages (e.g. the daemon's exit code and stderr)."""
        return ""


class SocketTransport(Transport):
    """A connected stream socket (a Unix socket, or one end of ``socket.socketpair()`` in tests)."""

    def __init__(self, sock: socket.socket, name: str = "") -> None:
        self._sock = sock
        self._name = name
        self._write_lock = threading.Lock()

    @classmethod
    def connect_unix(cls, path: Union[str, "os.PathLike[str]"]) -> "SocketTransport":
        """Connect to the daemon's Unix socket, once no other user can own or replace it (:func:`check_socket_path`)."""
        check_socket_path(path)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.connect(os.fspath(path))
        except OSError as error:
            sock.close()
            raise ConnectionError(f"cannot connect to agentd at {os.fspath(path)}: {error.strerror or error}; is `agentd serve --socket` running? (or connect with start=True to start it)") from error
        return cls(sock, os.fspath(path))

    def read(self) -> bytes:
        try:
            return self._sock.recv(READ_SIZE)
        except OSError:
            return b""

    def write(self, data: bytes) -> None:
        with self._write_lock:
            self._sock.sendall(data)

    def close(self) -> None:
        try:
            # Wakes a reader blocked in recv, which close alone may not do.
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()

    def end_reason(self) -> str:
        return f"the daemon closed {self._name}" if self._name else "the peer closed the socket"


class ProcessTransport(Transport):
    """The stdio of a daemon this client started; closing it ends the daemon."""

    def __init__(
        self,
        command: Sequence[str] = DEFAULT_COMMAND,
        env: Optional[Mapping[str, str]] = None,
        cwd: Optional[str] = None,
        stderr: Optional[IO[bytes]] = None,
    ) -> None:
        try:
            self.process = subprocess.Popen(
                list(command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr if stderr is not None else subprocess.PIPE,
                env=dict(env) if env is not None else None,
                cwd=cwd,
            )
        except OSError as error:
            raise ConnectionError(f"cannot start agentd ({' '.join(command)}): {error}") from error
        self._tail = StderrTail()
        if stderr is None:
            assert self.process.stderr is not None
            pipe = self.process.stderr
            threading.Thread(target=self._drain_stderr, args=(pipe,), name="agentd-stderr", daemon=True).start()
        self._write_lock = threading.Lock()

    def read(self) -> bytes:
        assert self.process.stdout is not None
        try:
            return os.read(self.process.stdout.fileno(), READ_SIZE)
        except (OSError, ValueError):
            return b""

    def write(self, data: bytes) -> None:
        assert self.process.stdin is not None
        with self._write_lock:
            self.process.stdin.write(data)
            self.process.stdin.flush()

    def close(self, timeout: float = 5.0) -> None:
        """Close stdin (the daemon exits at end of input); terminate it if it lingers."""
        try:
            if self.process.stdin is not None:
                self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            try:
                self.process.wait(2.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()

    def end_reason(self) -> str:
        try:
            code = self.process.wait(1.0)
        except subprocess.TimeoutExpired:
            code = None
        status = "agentd closed its output" if code is None else f"agentd exited with code {code}"
        return self._tail.explain(status)

    def _drain_stderr(self, pipe: IO[bytes]) -> None:
        for line in iter(pipe.readline, b""):
            self._tail.add(line)
        pipe.close()
