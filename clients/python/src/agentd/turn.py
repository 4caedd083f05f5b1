"""What one prompt produced: its stop reason, the reply's text and the updates it streamed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional

SESSION_UPDATE = "session/update"


@dataclass
class PromptResult:
    """The end of a turn."""

    #: ``end_turn``, ``max_tokens``, ``max_turn_requests``, ``refusal`` or ``cancelled``.
    stop_reason: str
    #: The agent's reply: the text of the turn's ``agent_message_chunk`` updates, one message's
    #: chunks joined, messages (after tool calls, a steer) a blank line apart.
    text: str
    #: Every ``session/update`` params object of the session while the prompt was pending, in order.
    updates: List[Dict[str, Any]] = field(default_factory=list)
    #: The answer's ``_meta`` (e.g. ``{"agentd": {"outcome": "budget_exceeded", ...}}``), or None.
    meta: Optional[Dict[str, Any]] = None

    @property
    def tool_calls(self) -> List[Dict[str, Any]]:
        """The ``tool_call`` updates of the turn (one per call the model made)."""
        return [params["update"] for params in self.updates if update_kind(params) == "tool_call"]


def update_kind(params: Any) -> Optional[str]:
    """The ``sessionUpdate`` of a ``session/update`` params object (``agent_message_chunk``, ``tool_call``, ...)."""
    update = params.get("update") if isinstance(params, dict) else None
    kind = update.get("sessionUpdate") if isinstance(update, dict) else None
    return kind if isinstance(kind, str) else None


def message_text(params: Any) -> str:
    """The text an ``agent_message_chunk`` carries; ``""`` for any other update."""
    if update_kind(params) != "agent_message_chunk":
        return ""
    content = params["update"].get("content")
    if isinstance(content, dict) and content.get("type") == "text" and isinstance(content.get("text"), str):
        return content["text"]
    return ""


def reply_text(updates: List[Dict[str, Any]]) -> str:
    """The text of a turn's message chunks: a blank line where the ``messageId`` changes."""
    text = ""
    message_id: Any = None
    for params in updates:
        piece = message_text(params)
        if update_kind(params) != "agent_message_chunk":
            continue
        chunk_id = params["update"].get("messageId")
        if text and chunk_id != message_id:
            text += "\n\n"
        message_id = chunk_id
        text += piece
    return text


class TurnCollector:
    """Gathers a session's updates from the moment a prompt is sent until its answer.

    Both connections deliver notifications and answers in arrival order from one
    reader, and the daemon sends a turn's updates before the turn's answer, so when the
    answer settles every update of the turn has been collected.
    """

    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        self.updates: List[Dict[str, Any]] = []

    def accept(self, method: str, params: Any) -> bool:
        """Keep ``params`` if it is an update of this session; True if it was kept."""
        if method != SESSION_UPDATE or not isinstance(params, dict) or params.get("sessionId") != self.session_id:
            return False
        self.updates.append(params)
        return True

    def result(self, answer: Any) -> PromptResult:
        """The PromptResult for the ``session/prompt`` answer."""
        answer = answer if isinstance(answer, dict) else {}
        meta = answer.get("_meta")
        return PromptResult(
            stop_reason=str(answer.get("stopReason", "")),
            text=reply_text(self.updates),
            updates=list(self.updates),
            meta=meta if isinstance(meta, dict) else None,
        )
