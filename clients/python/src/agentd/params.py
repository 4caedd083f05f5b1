"""Params of the requests the client sends, built the same way for the sync and the asyncio face.

Field names and shapes follow protocol/PROTOCOL.md; agentd's extension methods
(``session/steer``, ``session/followUp``, ``session/abort``, ``tools/*``) are closed, so
only the fields the protocol names are ever sent.
"""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Union

#: The ACP version this client speaks (``initialize`` ``protocolVersion``).
PROTOCOL_VERSION = 1

CLIENT_NAME = "agentd-python"
CLIENT_VERSION = "0.1.0"

#: A prompt: plain text, or ACP content blocks (``{"type": "text", "text": ...}``, ``resource_link``, ...).
PromptInput = Union[str, Sequence[Dict[str, Any]]]


def initialize_params(events: bool = False, token: Optional[str] = None, client_name: str = CLIENT_NAME) -> Dict[str, Any]:
    """``initialize``: ACP v1, no file-system or terminal methods served, agentd opt-ins in ``_meta.agentd``."""
    agentd: Dict[str, Any] = {}
    if events:
        agentd["events"] = True
    if token is not None:
        agentd["token"] = token
    params: Dict[str, Any] = {
        "protocolVersion": PROTOCOL_VERSION,
        "clientCapabilities": {"fs": {"readTextFile": False, "writeTextFile": False}, "terminal": False},
        "clientInfo": {"name": client_name, "version": CLIENT_VERSION},
    }
    if agentd:
        params["_meta"] = {"agentd": agentd}
    return params


def content_blocks(prompt: PromptInput) -> List[Dict[str, Any]]:
    """A prompt as ACP content blocks: a string becomes one text block."""
    if isinstance(prompt, str):
        return [{"type": "text", "text": prompt}]
    return [dict(block) for block in prompt]


def new_session_params(cwd: str, mcp_servers: Optional[Sequence[Dict[str, Any]]] = None) -> Dict[str, Any]:
    """``session/new`` in ``cwd`` (made absolute, as the protocol requires)."""
    return {"cwd": os.path.abspath(cwd), "mcpServers": list(mcp_servers or [])}


def load_session_params(session_id: str, cwd: str, mcp_servers: Optional[Sequence[Dict[str, Any]]] = None) -> Dict[str, Any]:
    """``session/load``: the history is replayed as ``session/update`` before the answer."""
    return {"sessionId": session_id, "cwd": os.path.abspath(cwd), "mcpServers": list(mcp_servers or [])}


def prompt_params(session_id: str, prompt: PromptInput, delivery: Optional[str] = None) -> Dict[str, Any]:
    """``session/prompt``; ``delivery`` ``"steer"`` or ``"followUp"`` joins a running turn instead of failing SessionBusy."""
    params: Dict[str, Any] = {"sessionId": session_id, "prompt": content_blocks(prompt)}
    if delivery is not None:
        params["_meta"] = {"agentd": {"delivery": delivery}}
    return params


def steer_params(session_id: str, prompt: PromptInput, interrupt: bool = False) -> Dict[str, Any]:
    """``session/steer``: into the running turn at the next safe point, or at once with ``interrupt``."""
    params: Dict[str, Any] = {"sessionId": session_id, "prompt": content_blocks(prompt)}
    if interrupt:
        params["interrupt"] = True
    return params


def follow_up_params(session_id: str, prompt: PromptInput) -> Dict[str, Any]:
    """``session/followUp``: for when the agent would otherwise stop."""
    return {"sessionId": session_id, "prompt": content_blocks(prompt)}


def abort_params(session_id: str, keep_queues: bool = False) -> Dict[str, Any]:
    """``session/abort``; queued steering and follow-ups are dropped unless ``keep_queues``."""
    params: Dict[str, Any] = {"sessionId": session_id}
    if keep_queues:
        params["keepQueues"] = True
    return params


def session_params(session_id: str) -> Dict[str, Any]:
    """Params naming only a session (``session/cancel``, ``session/close``, ``session/delete``, ``session/compact``)."""
    return {"sessionId": session_id}
