"""End-to-end scenario for the AsyncClient, run by test/clients/python-client.test.ts.

Connects to the daemon at AGENTD_SOCKET, works in AGENTD_WORKSPACE, and prints one JSON
summary line for the test to assert on.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any, Dict, List

from agentd import AsyncClient, PermissionRequest, message_text, update_kind

WAIT = 15.0


async def main() -> None:
    workspace = os.environ["AGENTD_WORKSPACE"]
    summary: Dict[str, Any] = {}
    permissions: List[Dict[str, Any]] = []

    async def allow(request: PermissionRequest) -> Any:
        permissions.append({"title": request.tool_call.get("title"), "rawInput": request.tool_call.get("rawInput")})
        return request.option("allow_once")

    async with await AsyncClient.connect(os.environ["AGENTD_SOCKET"], events=True, on_permission=allow) as client:
        session = await client.new_session(workspace)
        events = client.events(session)

        # A coroutine tool with the default access (execute): the daemon asks first.
        cities: List[str] = []

        async def lookup_city(arguments: Dict[str, Any]) -> str:
            await asyncio.sleep(0.01)
            cities.append(arguments["code"])
            return {"PAR": "Paris"}.get(arguments["code"], "unknown")

        schema = {"type": "object", "properties": {"code": {"type": "string"}}, "required": ["code"]}
        summary["registered"] = await client.register_tool("lookup_city", "City of an airport code.", schema, lookup_city)

        turn = client.start_prompt(session, "Where is PAR?")
        streamed = [message_text(params) async for params in turn if update_kind(params) == "agent_message_chunk"]
        result = await turn
        summary["lookup"] = {"stopReason": result.stop_reason, "text": result.text, "streamed": streamed, "cities": cities, "permissions": permissions}

        # A turn held in flight: other calls are answered meanwhile, then abort ends it.
        held = client.start_prompt(session, "Count slowly")
        first = await held.next_update(WAIT)
        while update_kind(first) != "agent_message_chunk":
            first = await held.next_update(WAIT)
        tools, queued = await asyncio.wait_for(asyncio.gather(client.list_tools(session), client.steer(session, "Stop counting")), WAIT)
        summary["whileHeld"] = {"firstChunk": message_text(first), "toolNames": [tool["name"] for tool in tools], "steerQueued": queued}
        await asyncio.wait_for(client.abort(session), WAIT)
        aborted = await held.result(WAIT)
        summary["abort"] = {"stopReason": aborted.stop_reason, "text": aborted.text}

        events.close()
        summary["events"] = [
            {key: params["event"][key] for key in ("type", "stopReason", "steering") if key in params["event"]}
            async for params in events
            if params["event"]["type"] in ("turn_start", "turn_end", "queue")
        ]
    summary["closed"] = client.closed
    print(json.dumps(summary))


if __name__ == "__main__":
    asyncio.run(main())
