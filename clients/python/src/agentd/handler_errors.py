"""How an exception in a daemon-request handler becomes its error answer (both connections)."""

from __future__ import annotations

import logging
from typing import Any, Dict

from .errors import INTERNAL_ERROR, AgentdError
from .rpc_core import RpcCore

log = logging.getLogger("agentd")


def error_answer(request_id: Any, method: str, error: BaseException) -> Dict[str, Any]:
    """AgentdError keeps its code; anything else answers InternalError naming the handler."""
    if isinstance(error, AgentdError):
        return RpcCore.error(request_id, error.code, error.message, error.data)
    log.warning("agentd client: the handler for %s failed: %r", method, error)
    return RpcCore.error(request_id, INTERNAL_ERROR, f"client handler for {method} failed: {type(error).__name__}: {error}")
