"""End-to-end scenario: both clients spawn ``agentd serve --stdio`` themselves.

Run by test/clients/python-client.test.ts with AGENTD_E2E_NODE and AGENTD_E2E_CLI (the
daemon's command) and AGENTD_WORKSPACE; the daemon inherits this process's environment
(the test's daemon environment). Prints one JSON summary line.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any, Dict, List

from agentd import AsyncClient, Client

WAIT = 15.0


def command() -> List[str]:
    return [os.environ["AGENTD_E2E_NODE"], os.environ["AGENTD_E2E_CLI"], "serve", "--stdio"]


def run_sync(workspace: str) -> Dict[str, Any]:
    with Client.spawn(command(), env=dict(os.environ), cwd=workspace) as client:
        process = client.process
        assert process is not None
        session = client.new_session(workspace)
        result = client.prompt(session, "Hello over stdio?", timeout=WAIT)
        summary = {"agentInfo": client.info.get("agentInfo"), "stopReason": result.stop_reason, "text": result.text}
    summary["exitCode"] = process.wait(WAIT)
    return summary


async def run_async(workspace: str) -> Dict[str, Any]:
    client = await AsyncClient.spawn(command(), env=dict(os.environ), cwd=workspace)
    process = client.process
    assert process is not None
    try:
        session = await client.new_session(workspace)
        result = await asyncio.wait_for(client.prompt(session, "Hello from asyncio?"), WAIT)
        summary = {"agentInfo": client.info.get("agentInfo"), "stopReason": result.stop_reason, "text": result.text}
    finally:
        await client.close()
    summary["exitCode"] = await asyncio.wait_for(process.wait(), WAIT)
    return summary


def main() -> None:
    workspace = os.environ["AGENTD_WORKSPACE"]
    summary = {"sync": run_sync(workspace), "async": asyncio.run(run_async(workspace))}
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
