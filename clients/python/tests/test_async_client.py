"""The asyncio face over a scripted daemon: one reader task, handlers as tasks, the same API as Client."""

from __future__ import annotations

import asyncio
import sys
import threading
import unittest
from typing import Any, Dict, List

import src_path  # noqa: F401
from fake_daemon import INITIALIZE_RESULT, FakeDaemon, text_chunk

from agentd import AgentdError, AsyncClient, ConnectionClosedError, PermissionRequest
from agentd.async_transport import AsyncTransport
from test_client import DYING_DAEMON, OPTIONS, TOOL_CALL

WAIT = 5.0


class AsyncClientTest(unittest.IsolatedAsyncioTestCase):
    async def asyncSetUp(self) -> None:
        self.daemon = FakeDaemon()
        self.client = AsyncClient(await AsyncTransport.from_socket(self.daemon.client_socket))
        initialize = asyncio.ensure_future(self.client.initialize(events=True))
        request = await self.receive()
        self.assertEqual(request["params"]["_meta"], {"agentd": {"events": True}})
        self.daemon.answer(request, INITIALIZE_RESULT)
        self.assertEqual(await initialize, INITIALIZE_RESULT)

    async def asyncTearDown(self) -> None:
        await self.client.close()
        self.daemon.close()

    async def receive(self) -> Dict[str, Any]:
        return await asyncio.to_thread(self.daemon.receive)

    async def test_answers_in_any_order_reach_the_right_callers(self) -> None:
        calls = [asyncio.ensure_future(self.client.request(f"m/{n}", {"n": n})) for n in range(3)]
        requests = [await self.receive() for _ in range(3)]
        for request in (requests[1], requests[2], requests[0]):
            self.daemon.answer(request, request["params"]["n"] * 10)
        self.assertEqual(await asyncio.wait_for(asyncio.gather(*calls), WAIT), [0, 10, 20])

    async def test_a_turn_streams_its_updates_while_a_slow_tool_runs_and_other_calls_are_answered(self) -> None:
        release = asyncio.Event()

        async def slow_tool(arguments: Dict[str, Any]) -> str:
            await release.wait()
            return f"looked up {arguments['code']}"

        registering = asyncio.ensure_future(self.client.register_tool("lookup", "Look up.", {"type": "object"}, slow_tool, access="read"))
        self.daemon.answer(await self.receive(), {"registered": ["lookup"]})
        self.assertEqual(await registering, ["lookup"])

        turn = self.client.start_prompt("s1", "Where?")
        prompt = await self.receive()
        self.daemon.request("t1", "tools/call", {"sessionId": "s1", "toolCallId": "c1", "name": "lookup", "arguments": {"code": "PAR"}})
        # The tool is still running: an update and another answer still get through.
        self.daemon.notify("session/update", text_chunk("s1", "Looking"))
        first = await asyncio.wait_for(turn.next_update(), WAIT)
        self.assertEqual(first["update"]["content"]["text"], "Looking")
        steering = asyncio.ensure_future(self.client.steer("s1", "hurry"))
        self.daemon.answer(await self.receive(), {"queued": 1})
        self.assertEqual(await asyncio.wait_for(steering, WAIT), 1)

        release.set()
        self.assertEqual(await self.receive(), {"jsonrpc": "2.0", "id": "t1", "result": {"content": [{"type": "text", "text": "looked up PAR"}]}})
        self.daemon.notify("session/update", text_chunk("s1", " up."))
        self.daemon.answer(prompt, {"stopReason": "end_turn"})
        self.daemon.notify("session/update", text_chunk("s1", "after the answer"))
        rest = [params["update"]["content"]["text"] async for params in turn]
        result = await asyncio.wait_for(turn, WAIT)
        self.assertEqual(rest, [" up."])
        self.assertEqual((result.stop_reason, result.text), ("end_turn", "Looking up."))

    async def test_plain_tool_functions_run_in_a_thread_and_failures_become_tool_errors(self) -> None:
        threads: List[str] = []

        def add(arguments: Dict[str, Any]) -> int:
            threads.append(threading.current_thread().name)
            return arguments["a"] + arguments["b"]

        registering = asyncio.ensure_future(self.client.register_tool("add", "Add.", {"type": "object"}, add))
        self.daemon.answer(await self.receive(), {"registered": ["add"]})
        await registering
        self.daemon.request(1, "tools/call", {"sessionId": "s", "toolCallId": "c", "name": "add", "arguments": {"a": 1, "b": 2}})
        self.assertEqual((await self.receive())["result"], {"content": [{"type": "text", "text": "3"}]})
        self.assertNotEqual(threads, [threading.current_thread().name])
        self.daemon.request(2, "tools/call", {"sessionId": "s", "toolCallId": "c", "name": "add", "arguments": {"a": "1", "b": 2}})
        answer = (await self.receive())["result"]
        self.assertTrue(answer["isError"])
        self.assertRegex(answer["content"][0]["text"], r"^add failed: TypeError: ")

    async def test_permission_is_rejected_by_default_and_an_async_handler_may_allow(self) -> None:
        ask = {"sessionId": "s1", "toolCall": TOOL_CALL, "options": OPTIONS}
        self.daemon.request(1, "session/request_permission", ask)
        self.assertEqual((await self.receive())["result"], {"outcome": {"outcome": "selected", "optionId": "reject_once"}})

        async def allow(request: PermissionRequest) -> Any:
            await asyncio.sleep(0)
            return request.option("allow_once")

        self.client.on_permission(allow)
        self.daemon.request(2, "session/request_permission", ask)
        self.assertEqual((await self.receive())["result"], {"outcome": {"outcome": "selected", "optionId": "allow_once"}})

    async def test_a_daemon_cancel_stops_the_handler_task_and_answers_request_cancelled(self) -> None:
        cancelled = asyncio.Event()

        async def forever(_request: PermissionRequest) -> Any:
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                cancelled.set()
                raise

        self.client.on_permission(forever)
        self.daemon.request(9, "session/request_permission", {"sessionId": "s1", "toolCall": TOOL_CALL, "options": OPTIONS})
        await asyncio.sleep(0.05)
        self.daemon.notify("$/cancel_request", {"requestId": 9})
        self.assertEqual((await self.receive())["error"]["code"], -32800)
        await asyncio.wait_for(cancelled.wait(), WAIT)

    async def test_error_answers_raise_and_a_hang_up_fails_pending_calls(self) -> None:
        failing = asyncio.ensure_future(self.client.new_session("/tmp"))
        request = await self.receive()
        self.assertEqual(request["params"], {"cwd": "/tmp", "mcpServers": []})
        self.daemon.fail(request, -32602, "invalid params", {"issues": ["cwd: must be absolute"]})
        with self.assertRaises(AgentdError) as raised:
            await failing
        self.assertEqual((raised.exception.code, raised.exception.data), (-32602, {"issues": ["cwd: must be absolute"]}))

        updates = self.client.updates()
        pending = asyncio.ensure_future(self.client.abort("s1"))
        await self.receive()
        self.daemon.close()
        with self.assertRaisesRegex(ConnectionClosedError, r"^connection to agentd closed before the answer to session/abort arrived \(the peer closed the socket\)"):
            await asyncio.wait_for(pending, WAIT)
        self.assertEqual([params async for params in updates], [])
        self.assertTrue(self.client.closed)


class AsyncSpawnTest(unittest.IsolatedAsyncioTestCase):
    async def test_a_spawned_daemon_that_dies_fails_the_call_with_its_exit_code_and_stderr(self) -> None:
        client = await AsyncClient.spawn([sys.executable, "-c", DYING_DAEMON])
        try:
            with self.assertRaises(ConnectionClosedError) as raised:
                await client.new_session(".")
        finally:
            await client.close()
        self.assertIn("(agentd exited with code 3", str(raised.exception))
        self.assertIn("agentd: fatal: the store is corrupt", str(raised.exception))


if __name__ == "__main__":
    unittest.main()
