"""Starting the shared daemon when none listens on its socket, as ``agentd acp`` does."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time
from typing import Awaitable, Callable, Mapping, Optional, Sequence, TypeVar, Union

from .socket_check import UnsafeSocketPathError

T = TypeVar("T")

#: How long ``connect(start=True)`` waits for the daemon it started to listen, in seconds.
START_TIMEOUT = 10.0


def on_demand_command(socket_path: Union[str, "os.PathLike[str]"]) -> Sequence[str]:
    """``agentd serve --socket PATH --on-demand``: it exits by itself after ``server.idleExitMs``
    (30 minutes) with no client, turn or enabled schedule, and logs to ``agentd logs``."""
    return ("agentd", "serve", "--socket", os.fspath(socket_path), "--on-demand")


def start_daemon(command: Sequence[str], env: Optional[Mapping[str, str]]) -> "subprocess.Popen[bytes]":
    """Start ``command`` detached (its own session, no stdio): it outlives this process, to serve other clients."""
    try:
        return subprocess.Popen(
            list(command),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            env=None if env is None else dict(env),
        )
    except OSError as error:
        raise ConnectionError(f"cannot start {command[0]}: {error.strerror or error}; is agentd on PATH? (or pass start_command)") from error


def describe_early_exit(command: Sequence[str], socket_path: Union[str, "os.PathLike[str]"], returncode: int) -> str:
    return f"{' '.join(command)} exited with code {returncode} before serving {os.fspath(socket_path)}; `agentd logs` shows why"


def connect_starting(
    connect: Callable[[], T],
    socket_path: Union[str, "os.PathLike[str]"],
    command: Optional[Sequence[str]],
    env: Optional[Mapping[str, str]],
    timeout: float = START_TIMEOUT,
) -> T:
    """``connect()``, or when nothing listens: start the daemon and retry until it answers or ``timeout`` passes.

    Another client may start one meanwhile, so only our child's exit while nothing listens is fatal.
    """
    try:
        return connect()
    except UnsafeSocketPathError:
        # Another user's folder or socket: starting a daemon there would not make it ours.
        raise
    except ConnectionError:
        pass
    command = list(command or on_demand_command(socket_path))
    child = start_daemon(command, env)
    deadline = time.monotonic() + timeout
    while True:
        try:
            return connect()
        except UnsafeSocketPathError:
            raise
        except ConnectionError as error:
            if child.poll() is not None:
                raise ConnectionError(describe_early_exit(command, socket_path, child.returncode)) from error
            if time.monotonic() > deadline:
                raise ConnectionError(f"started {' '.join(command)}, but nothing listened on {os.fspath(socket_path)} within {timeout} s; `agentd logs` shows why") from error
        time.sleep(0.05)


async def connect_starting_async(
    connect: Callable[[], Awaitable[T]],
    socket_path: Union[str, "os.PathLike[str]"],
    command: Optional[Sequence[str]],
    env: Optional[Mapping[str, str]],
    timeout: float = START_TIMEOUT,
) -> T:
    """:func:`connect_starting` for asyncio."""
    try:
        return await connect()
    except UnsafeSocketPathError:
        raise
    except ConnectionError:
        pass
    command = list(command or on_demand_command(socket_path))
    child = start_daemon(command, env)
    deadline = time.monotonic() + timeout
    while True:
        try:
            return await connect()
        except UnsafeSocketPathError:
            raise
        except ConnectionError as error:
            if child.poll() is not None:
                raise ConnectionError(describe_early_exit(command, socket_path, child.returncode)) from error
            if time.monotonic() > deadline:
                raise ConnectionError(f"started {' '.join(command)}, but nothing listened on {os.fspath(socket_path)} within {timeout} s; `agentd logs` shows why") from error
        await asyncio.sleep(0.05)
