"""Tools this client executes: their ``tools/register`` definition and their ``tools/call`` answers."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional

from .errors import TOOL_ERROR, AgentdError

#: A tool's implementation: gets the arguments (already checked against the schema by
#: the daemon) and returns a string, content blocks, a ``{"content": [...]}`` answer, or
#: any JSON value (sent as its JSON text). With the async client it may be a coroutine
#: function. An exception becomes a failed call the model is told about.
ToolFunction = Callable[[Dict[str, Any]], Any]


@dataclass
class Tool:
    """A tool registered by this client."""

    #: Name the model calls it by: 1-64 of ``a-z A-Z 0-9 _ -``.
    name: str
    #: What it does and when to use it; the model reads this.
    description: str
    #: JSON Schema of the arguments object (root ``"type": "object"``).
    input_schema: Dict[str, Any]
    #: The implementation.
    fn: ToolFunction
    #: ACP tool kind for clients' UI (``read``, ``edit``, ``execute``, ... ``other``); daemon default ``other``.
    kind: Optional[str] = None
    #: Side effects for permission rules (``read``, ``search``, ``write``, ``execute``, ``network``);
    #: daemon default ``execute``, which asks permission before each call.
    access: Optional[str] = None
    #: Only this session sees the tool; None: every session of the daemon.
    session_id: Optional[str] = None
    #: Fail the call after this many milliseconds; None: the daemon's default.
    timeout_ms: Optional[int] = None

    def definition(self) -> Dict[str, Any]:
        """The protocol's ``ToolDefinition`` (only the fields that are set)."""
        definition: Dict[str, Any] = {"name": self.name, "description": self.description, "inputSchema": self.input_schema}
        optional = {"kind": self.kind, "access": self.access, "sessionId": self.session_id, "timeoutMs": self.timeout_ms}
        definition.update({key: value for key, value in optional.items() if value is not None})
        return definition


def tool_result(value: Any) -> Dict[str, Any]:
    """A tool function's return value as a ``CallToolResponse``."""
    if isinstance(value, dict) and isinstance(value.get("content"), list):
        return value
    if isinstance(value, str):
        return {"content": [_text(value)]}
    if value is None:
        return {"content": [_text("")]}
    if isinstance(value, list) and value and all(isinstance(block, dict) and "type" in block for block in value):
        return {"content": list(value)}
    return {"content": [_text(json.dumps(value, ensure_ascii=False, default=str))]}


def tool_failure(name: str, error: BaseException) -> Dict[str, Any]:
    """A failed call (``isError``); the text tells the model what went wrong."""
    message = error.message if isinstance(error, AgentdError) else str(error)
    return {"content": [_text(f"{name} failed: {type(error).__name__}: {message}")], "isError": True}


def find_tool(tools: Dict[str, Tool], params: Any) -> Tool:
    """The tool a ``tools/call`` names; an unknown name answers ToolError."""
    name = params.get("name") if isinstance(params, dict) else None
    tool = tools.get(name) if isinstance(name, str) else None
    if tool is None:
        raise AgentdError(TOOL_ERROR, f"this client has no tool named {name!r}; it has {sorted(tools)}")
    return tool


def tool_arguments(params: Any) -> Dict[str, Any]:
    """The ``arguments`` object of a ``tools/call``."""
    arguments = params.get("arguments") if isinstance(params, dict) else None
    return arguments if isinstance(arguments, dict) else {}


def _text(text: str) -> Dict[str, Any]:
    return {"type": "text", "text": text}


def registered_names(result: Any) -> List[str]:
    """``tools/register``'s ``registered`` list."""
    names = result.get("registered") if isinstance(result, dict) else None
    return list(names) if isinstance(names, list) else []
