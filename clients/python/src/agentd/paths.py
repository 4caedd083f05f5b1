"""Where a daemon started with ``agentd serve --socket`` (no path) listens, as src/config/agentd-paths.ts resolves it."""

from __future__ import annotations

import os
import sys
from typing import Mapping, Optional

APP = "agentd"


def default_socket_path(env: Optional[Mapping[str, str]] = None) -> str:
    """The daemon's default Unix socket: ``<runtime dir>/agentd.sock``.

    ``$AGENTD_HOME/run`` when AGENTD_HOME is set; else ``$XDG_RUNTIME_DIR/agentd``; else
    ``<state dir>/run`` (``~/.local/state/agentd/run`` on Linux).
    """
    env = os.environ if env is None else env
    home = env.get("AGENTD_HOME")
    if home:
        return os.path.join(os.path.abspath(home), "run", "agentd.sock")
    runtime_root = _absolute(env.get("XDG_RUNTIME_DIR"))
    if runtime_root is not None:
        return os.path.join(runtime_root, APP, "agentd.sock")
    return os.path.join(_state_dir(env), "run", "agentd.sock")


def _state_dir(env: Mapping[str, str]) -> str:
    xdg_state = _absolute(env.get("XDG_STATE_HOME"))
    uses_xdg = xdg_state is not None or _absolute(env.get("XDG_CONFIG_HOME")) is not None or _absolute(env.get("XDG_DATA_HOME")) is not None
    user_home = env.get("HOME") or os.path.expanduser("~")
    if sys.platform == "darwin" and not uses_xdg:
        # env-paths' data folder on macOS, as the daemon uses it.
        return os.path.join(user_home, "Library", "Application Support", APP, "state")
    return os.path.join(xdg_state or os.path.join(user_home, ".local", "state"), APP)


def _absolute(value: Optional[str]) -> Optional[str]:
    # The XDG spec: a relative path is invalid and ignored.
    return value if value and os.path.isabs(value) else None
