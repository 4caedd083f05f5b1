"""Answering ``session/request_permission``: what a handler gets and how its choice is sent back."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional

log = logging.getLogger("agentd")

#: The option kinds ACP defines; ``*_always`` is remembered by the daemon (see its label).
OPTION_KINDS = ("allow_once", "allow_always", "reject_once", "reject_always")


@dataclass(frozen=True)
class PermissionRequest:
    """The daemon asks whether a tool call may run."""

    #: The session whose turn wants to run the tool.
    session_id: str
    #: ACP ``ToolCallUpdate``: ``toolCallId``, ``title``, ``kind``, ``rawInput`` (the arguments), ...
    tool_call: Dict[str, Any]
    #: ACP ``PermissionOption``s in the order to show them: ``optionId``, ``name``, ``kind``.
    options: List[Dict[str, Any]]

    @property
    def diffs(self) -> List[Dict[str, Any]]:
        """The change a ``write`` or ``edit`` would make, to show before answering: ACP ``diff``
        content (``path``, ``oldText`` -- None for a new file -- and ``newText``); empty when the
        question carries none (another tool, or a file outside the session's directories)."""
        content = self.tool_call.get("content")
        if not isinstance(content, list):
            return []
        return [item for item in content if isinstance(item, dict) and item.get("type") == "diff"]

    def option(self, kind: str) -> Optional[str]:
        """The ``optionId`` of the first option of ``kind`` (e.g. ``"allow_once"``), or None."""
        for option in self.options:
            if option.get("kind") == kind:
                return option.get("optionId")
        return None

    @classmethod
    def from_params(cls, params: Any) -> "PermissionRequest":
        """Read the request's params."""
        params = params if isinstance(params, dict) else {}
        options = params.get("options")
        tool_call = params.get("toolCall")
        return cls(
            session_id=str(params.get("sessionId", "")),
            tool_call=tool_call if isinstance(tool_call, dict) else {},
            options=[option for option in options if isinstance(option, dict)] if isinstance(options, list) else [],
        )


#: Decides a permission request: returns an ``optionId`` of ``request.options``, or None to
#: answer ``cancelled``. With the async client it may also be a coroutine function.
PermissionHandler = Callable[[PermissionRequest], Any]


def reject(request: PermissionRequest) -> Optional[str]:
    """The default handler: reject this one call (``reject_once``), so nothing runs unasked."""
    return request.option("reject_once") or request.option("reject_always")


def permission_response(request: PermissionRequest, choice: Any) -> Dict[str, Any]:
    """The answer for a handler's choice; an option id the daemon did not offer is rejected instead."""
    if choice is None:
        return {"outcome": {"outcome": "cancelled"}}
    offered = [option.get("optionId") for option in request.options]
    if choice not in offered:
        log.warning("agentd client: permission handler chose %r, not one of %r; rejecting", choice, offered)
        choice = reject(request)
        if choice is None:
            return {"outcome": {"outcome": "cancelled"}}
    return {"outcome": {"outcome": "selected", "optionId": choice}}


def failed_handler_response(request: PermissionRequest, error: BaseException) -> Dict[str, Any]:
    """A handler that raised: the call is rejected, never allowed."""
    log.warning("agentd client: the permission handler failed (%r); rejecting %s", error, request.tool_call.get("title"))
    return permission_response(request, reject(request))
