"""Refuses a socket path another local user controls, as protocol/wire/check-socket-path.ts does for agentd itself."""

from __future__ import annotations

import os
import stat
from typing import Optional, Union


class UnsafeSocketPathError(ConnectionError):
    """The socket's folder or the socket itself is another user's, or writable by others; nothing was connected."""


def check_socket_path(path: Union[str, "os.PathLike[str]"], action: str = "connect to", uid: Optional[int] = None) -> None:
    """Raise :class:`UnsafeSocketPathError` unless only ``uid`` (this process's user by default) controls ``path``.

    The folder must be a real folder (not a symlink) owned by ``uid`` and not writable by
    group or others; the socket, when there, must not be a symlink and must belong to
    ``uid``. The folder is checked first: once nobody else can write there, nobody else can
    swap the socket before the connect. Python can ask a connected peer for its
    credentials, but by then the editor's first message may be on its way; owner and mode
    decide before anything is sent. An absent folder or socket passes (there is nothing to
    connect to). Where there are no uids (Windows) nothing is checked.
    """
    if uid is None:
        if not hasattr(os, "getuid"):
            return
        uid = os.getuid()
    full = os.path.abspath(os.fspath(path))
    folder = os.path.dirname(full)
    elsewhere = (
        f"set AGENTD_HOME to a folder of your own, or XDG_RUNTIME_DIR to your private runtime folder (normally /run/user/{uid}), "
        "or pass a socket path in a folder only you can write"
    )

    def refuse(problem: str, fix: str) -> None:
        raise UnsafeSocketPathError(f"agentd will not {action} {full}: {problem}, so another user could have put a socket there or could replace it; {fix}")

    folder_stat = _lstat(folder)
    if folder_stat is None:
        return
    mode = f"0{stat.S_IMODE(folder_stat.st_mode):o}"
    if stat.S_ISLNK(folder_stat.st_mode):
        refuse(f"its folder {folder} is a symbolic link (to {os.readlink(folder)})", f"use the real folder's path instead, or {elsewhere}")
    if not stat.S_ISDIR(folder_stat.st_mode):
        refuse(f"{folder} is not a folder", elsewhere)
    if folder_stat.st_uid != uid:
        refuse(f"its folder {folder} belongs to uid {folder_stat.st_uid}, not to you (uid {uid}), mode {mode}", elsewhere)
    if folder_stat.st_mode & 0o022:
        group, others = folder_stat.st_mode & 0o020, folder_stat.st_mode & 0o002
        writers = "its group and everyone" if group and others else "its group" if group else "everyone"
        refuse(f"its folder {folder} (yours, mode {mode}) is writable by {writers}", f"run chmod 700 {folder}, or {elsewhere}")
    socket_stat = _lstat(full)
    if socket_stat is None:
        return
    if stat.S_ISLNK(socket_stat.st_mode):
        refuse(f"{full} is a symbolic link, not a socket (to {os.readlink(full)})", f"remove the link, or {elsewhere}")
    if socket_stat.st_uid != uid:
        refuse(f"{full} belongs to uid {socket_stat.st_uid}, not to you (uid {uid})", f"remove it if it is stale, or {elsewhere}")


def _lstat(path: str) -> Optional[os.stat_result]:
    try:
        return os.lstat(path)
    except OSError:
        return None
