"""Python client for agentd, the agent runtime driven over JSON-RPC (a superset of ACP).

``Client`` blocks (a reader thread underneath); ``AsyncClient`` is the same API for
asyncio. Both connect to a daemon's Unix socket or spawn ``agentd serve --stdio``::

    from agentd import Client

    with Client.connect("/run/user/1000/agentd/agentd.sock") as client:
        session = client.new_session(".")
        result = client.prompt(session, "Summarise README.md")
        print(result.stop_reason, result.text)
"""

import logging

from .async_client import AsyncClient
from .async_turn import AsyncTurn
from .client import Client
from .errors import AgentdError, ConnectionClosedError, ProtocolError
from .paths import default_socket_path
from .permissions import PermissionRequest, reject
from .socket_check import UnsafeSocketPathError, check_socket_path
from .sync_turn import Turn
from .tools import Tool
from .turn import PromptResult, message_text, update_kind

__all__ = [
    "AgentdError",
    "AsyncClient",
    "AsyncTurn",
    "Client",
    "ConnectionClosedError",
    "PermissionRequest",
    "PromptResult",
    "ProtocolError",
    "Tool",
    "Turn",
    "UnsafeSocketPathError",
    "check_socket_path",
    "default_socket_path",
    "message_text",
    "reject",
    "update_kind",
]

__version__ = "0.1.0"

# A library logs, the application decides where it goes (warnings: failing handlers, bad lines).
logging.getLogger("agentd").addHandler(logging.NullHandler())
