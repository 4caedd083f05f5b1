"""Errors the client raises, and the JSON-RPC error codes agentd uses (protocol/PROTOCOL.md, "Error codes")."""

from __future__ import annotations

from typing import Any, Dict, Optional

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
REQUEST_CANCELLED = -32800
AUTH_REQUIRED = -32000
RESOURCE_NOT_FOUND = -32002
SESSION_BUSY = -32010
FRAME_TOO_LARGE = -32011
UNAUTHORIZED = -32012
PROVIDER_NOT_CONFIGURED = -32013
PROVIDER_ERROR = -32014
TOOL_ERROR = -32015

#: Code → name, as in the protocol's error table.
ERROR_CODE_NAMES: Dict[int, str] = {
    PARSE_ERROR: "ParseError",
    INVALID_REQUEST: "InvalidRequest",
    METHOD_NOT_FOUND: "MethodNotFound",
    INVALID_PARAMS: "InvalidParams",
    INTERNAL_ERROR: "InternalError",
    REQUEST_CANCELLED: "RequestCancelled",
    AUTH_REQUIRED: "AuthRequired",
    RESOURCE_NOT_FOUND: "ResourceNotFound",
    SESSION_BUSY: "SessionBusy",
    FRAME_TOO_LARGE: "FrameTooLarge",
    UNAUTHORIZED: "Unauthorized",
    PROVIDER_NOT_CONFIGURED: "ProviderNotConfigured",
    PROVIDER_ERROR: "ProviderError",
    TOOL_ERROR: "ToolError",
}


class AgentdError(Exception):
    """An error answer from the peer: the JSON-RPC error object as an exception.

    Raise it from a tool or permission handler to answer the daemon with that code.
    """

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        #: JSON-RPC error code (see the constants in this module).
        self.code = code
        #: The error message as the peer sent it.
        self.message = message
        #: The error's ``data``, e.g. ``{"issues": [...]}`` for InvalidParams.
        self.data = data

    @property
    def code_name(self) -> Optional[str]:
        """The code's name (``"SessionBusy"``), or None for codes agentd does not define."""
        return ERROR_CODE_NAMES.get(self.code)

    def __str__(self) -> str:
        name = self.code_name or "error"
        text = f"{name} ({self.code}): {self.message}"
        issues = self.data.get("issues") if isinstance(self.data, dict) else None
        if isinstance(issues, list) and issues:
            text += "\n  " + "\n  ".join(str(issue) for issue in issues)
        return text

    def __repr__(self) -> str:
        return f"AgentdError(code={self.code!r}, message={self.message!r}, data={self.data!r})"


class ConnectionClosedError(ConnectionError):
    """The connection to agentd ended before a request was answered, or was used after it closed."""

    def __init__(self, method: str, reason: str = "") -> None:
        detail = f" ({reason})" if reason else ""
        super().__init__(f"connection to agentd closed before the answer to {method} arrived{detail}; reconnect and retry")
        #: The method whose answer never came.
        self.method = method
        #: Why the connection ended, when known (the daemon's exit status and last stderr lines).
        self.reason = reason


class ProtocolError(Exception):
    """The peer sent something that is not JSON-RPC 2.0 (reported, never raised into callers)."""
