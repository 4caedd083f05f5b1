"""End-to-end scenario for the blocking Client, run by test/clients/python-client.test.ts.

The vitest test starts a real ``agentd serve --socket`` whose model is a loopback replay
server, queues the model's responses, then runs this script with AGENTD_SOCKET and
AGENTD_WORKSPACE set. It prints one JSON summary line for the test to assert on.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any, Dict, List

from agentd import AgentdError, Client, ConnectionClosedError, PermissionRequest, message_text, update_kind

WAIT = 15.0


def main() -> None:
    socket_path = os.environ["AGENTD_SOCKET"]
    workspace = os.environ["AGENTD_WORKSPACE"]
    summary: Dict[str, Any] = {}
    permissions: List[Dict[str, Any]] = []

    def allow_writes(request: PermissionRequest) -> Any:
        permissions.append({"sessionId": request.session_id, "toolCall": request.tool_call, "options": request.options, "diffs": request.diffs})
        return request.option("allow_once")

    client = Client.connect(socket_path, on_permission=allow_writes, events=True)
    summary["agentInfo"] = client.info.get("agentInfo")
    summary["features"] = client.info.get("_meta", {}).get("agentd", {}).get("features")
    session = client.new_session(workspace)
    summary["sessionId"] = session

    # 1. A turn whose model calls the built-in `write` tool: permission asked and granted.
    turn = client.start_prompt(session, "Write hello.txt")
    kinds = [update_kind(params) for params in turn]
    first = turn.result(WAIT)
    summary["write"] = {
        "stopReason": first.stop_reason,
        "text": first.text,
        "chunks": [message_text(params) for params in first.updates if update_kind(params) == "agent_message_chunk"],
        "streamedKinds": sorted(set(kind for kind in kinds if kind)),
        "toolCalls": [{"toolCallId": call["toolCallId"], "kind": call.get("kind"), "title": call.get("title")} for call in first.tool_calls],
        "toolStatuses": [
            params["update"].get("status") for params in first.updates if update_kind(params) == "tool_call_update"
        ],
        "file": _read(os.path.join(workspace, "hello.txt")),
        "permissions": permissions,
    }

    # 2. Python tools: one answers, one raises (the model is told it failed).
    calls: List[Dict[str, Any]] = []

    def add_numbers(arguments: Dict[str, Any]) -> str:
        calls.append(arguments)
        return str(arguments["a"] + arguments["b"])

    def explode(arguments: Dict[str, Any]) -> str:
        raise RuntimeError(arguments.get("reason", "boom"))

    number_schema = {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}
    summary["registered"] = [
        client.register_tool("add_numbers", "Add two numbers.", number_schema, add_numbers, access="read"),
        client.register_tool("explode", "Always fails.", {"type": "object", "properties": {"reason": {"type": "string"}}}, explode, access="read"),
    ]
    listed = {tool["name"]: tool for tool in client.list_tools(session)}
    summary["listedTools"] = {name: listed[name].get("origin") for name in ("add_numbers", "explode", "write") if name in listed}
    second = client.prompt(session, "Add 2 and 3, then explode", timeout=WAIT)
    summary["tools"] = {"stopReason": second.stop_reason, "text": second.text, "calls": calls}

    # 3. A turn held in flight (the model stream stalls): steer, then abort.
    held = client.start_prompt(session, "Count slowly")
    summary["heldFirstChunk"] = message_text(_first_chunk(held))
    summary["steerQueued"] = client.steer(session, "Stop counting")
    started = time.monotonic()
    client.abort(session)
    aborted = held.result(WAIT)
    summary["abort"] = {"stopReason": aborted.stop_reason, "text": aborted.text, "seconds": round(time.monotonic() - started, 3)}

    # 4. Held again: queue a follow-up, then steer with interrupt; the turn goes on to the end.
    held = client.start_prompt(session, "Count again")
    _first_chunk(held)
    summary["followUpQueued"] = client.follow_up(session, "Then dogs")
    summary["interruptQueued"] = client.steer(session, "Talk about cats instead", interrupt=True)
    steered = held.result(WAIT)
    summary["steer"] = {"stopReason": steered.stop_reason, "text": steered.text}

    # 5. A second client loads the session: its history is replayed as updates before the answer.
    with Client.connect(socket_path) as other:
        with other.updates(session) as replayed:
            other.load_session(session, workspace)
        history = list(replayed)
    summary["loaded"] = {
        "user": [_chunk_text(params) for params in history if update_kind(params) == "user_message_chunk"],
        "agent": "".join(message_text(params) for params in history),
        "toolCalls": [params["update"]["toolCallId"] for params in history if update_kind(params) == "tool_call"],
    }

    # 6. Errors: an error answer raises AgentdError; a closed connection fails calls clearly.
    try:
        client.prompt("no-such-session", "hello", timeout=WAIT)
        summary["unknownSession"] = None
    except AgentdError as error:
        summary["unknownSession"] = {"code": error.code, "codeName": error.code_name, "message": error.message}
    client.close()
    try:
        client.new_session(workspace)
        summary["afterClose"] = None
    except ConnectionClosedError as error:
        summary["afterClose"] = str(error)

    print(json.dumps(summary))


def _first_chunk(turn: Any) -> Dict[str, Any]:
    """Waits for the turn's first streamed text chunk."""
    deadline = time.monotonic() + WAIT
    while True:
        params = turn.next_update(max(0.0, deadline - time.monotonic()))
        if update_kind(params) == "agent_message_chunk":
            return params


def _chunk_text(params: Dict[str, Any]) -> str:
    content = params["update"].get("content", {})
    return content.get("text", "") if isinstance(content, dict) else ""


def _read(path: str) -> Any:
    try:
        with open(path, encoding="utf-8") as file:
            return file.read()
    except OSError:
        return None


if __name__ == "__main__":
    try:
        main()
    except Exception as error:  # noqa: BLE001 - the test prints stderr on failure
        print(f"scenario failed: {error!r}", file=sys.stderr)
        raise
