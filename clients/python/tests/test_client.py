"""The blocking Client over a scripted daemon: turns, tools, permissions, errors, a spawned daemon."""

from __future__ import annotations

import sys
import threading
import unittest
from typing import Any, Dict, List

import src_path  # noqa: F401
from fake_daemon import FakeDaemon, text_chunk, update

from agentd import AgentdError, Client, ConnectionClosedError, PermissionRequest
from agentd.transport import SocketTransport

WAIT = 5.0
OPTIONS = [
    {"optionId": "allow_once", "name": "Allow once", "kind": "allow_once"},
    {"optionId": "reject_once", "name": "Reject", "kind": "reject_once"},
    {"optionId": "reject_always", "name": "Always reject", "kind": "reject_always"},
]
TOOL_CALL = {"toolCallId": "call_1", "title": "Write a.txt", "kind": "edit", "status": "pending", "rawInput": {"path": "a.txt"}}


class ClientTest(unittest.TestCase):
    def setUp(self) -> None:
        self.daemon = FakeDaemon()
        answering = self.daemon.answer_initialize_in_background()
        self.client = Client(SocketTransport(self.daemon.client_socket), events=True)
        answering.join(WAIT)

    def tearDown(self) -> None:
        self.client.close()
        self.daemon.close()

    def ask_permission(self, request_id: int) -> Dict[str, Any]:
        self.daemon.request(request_id, "session/request_permission", {"sessionId": "s1", "toolCall": TOOL_CALL, "options": OPTIONS})
        return self.daemon.receive()

    def test_initialize_opts_in_to_events_and_keeps_the_answer(self) -> None:
        self.assertEqual(self.client.info["agentInfo"], {"name": "fake-agentd", "version": "0"})

    def test_a_turn_streams_its_updates_and_returns_the_reply_text(self) -> None:
        turn = self.client.start_prompt("s1", "Hi")
        request = self.daemon.expect("session/prompt")
        self.assertEqual(request["params"], {"sessionId": "s1", "prompt": [{"type": "text", "text": "Hi"}]})
        self.daemon.notify("session/update", text_chunk("s1", "Hel"))
        self.daemon.notify("session/update", text_chunk("s1", "thinking...", kind="agent_thought_chunk"))
        self.daemon.notify("session/update", text_chunk("other-session", "not mine"))
        self.daemon.notify("session/update", update("s1", "tool_call", toolCallId="c1", title="Read", kind="read"))
        self.daemon.notify("session/update", text_chunk("s1", "lo"))
        self.daemon.answer(request, {"stopReason": "end_turn", "_meta": {"agentd": {"outcome": "done"}}})
        self.daemon.notify("session/update", text_chunk("s1", "after the answer"))

        streamed = [params["update"]["sessionUpdate"] for params in turn]
        result = turn.result(WAIT)
        self.assertEqual(streamed, ["agent_message_chunk", "agent_thought_chunk", "tool_call", "agent_message_chunk"])
        self.assertEqual(result.stop_reason, "end_turn")
        self.assertEqual(result.text, "Hello")
        self.assertEqual(result.meta, {"agentd": {"outcome": "done"}})
        self.assertEqual(result.tool_calls, [{"sessionUpdate": "tool_call", "toolCallId": "c1", "title": "Read", "kind": "read"}])

    def test_steer_follow_up_and_abort_while_a_turn_runs(self) -> None:
        turn = self.client.start_prompt("s1", [{"type": "text", "text": "Go"}])
        prompt = self.daemon.expect("session/prompt")
        results: Dict[str, Any] = {}

        def steer_follow_abort() -> None:
            results["steer"] = self.client.steer("s1", "left", interrupt=True)
            results["follow"] = self.client.follow_up("s1", "then")
            self.client.abort("s1")
            results["aborted"] = True

        worker = threading.Thread(target=steer_follow_abort)
        worker.start()
        steer = self.daemon.expect("session/steer")
        self.assertEqual(steer["params"], {"sessionId": "s1", "prompt": [{"type": "text", "text": "left"}], "interrupt": True})
        self.daemon.answer(steer, {"queued": 1})
        follow = self.daemon.expect("session/followUp")
        self.assertEqual(follow["params"], {"sessionId": "s1", "prompt": [{"type": "text", "text": "then"}]})
        self.daemon.answer(follow, {"queued": 2})
        abort = self.daemon.expect("session/abort")
        self.assertEqual(abort["params"], {"sessionId": "s1"})
        # The abort's answer comes only after the prompt's, as the daemon sends them.
        self.daemon.answer(prompt, {"stopReason": "cancelled"})
        self.daemon.answer(abort, {"stopped": True})
        worker.join(WAIT)
        self.assertEqual(results, {"steer": 1, "follow": 2, "aborted": True})
        self.assertEqual(turn.result(WAIT).stop_reason, "cancelled")

    def test_a_prompt_with_delivery_joins_the_running_turn(self) -> None:
        turn = self.client.start_prompt("s1", "also this", delivery="followUp")
        request = self.daemon.expect("session/prompt")
        self.assertEqual(request["params"]["_meta"], {"agentd": {"delivery": "followUp"}})
        self.daemon.answer(request, {"stopReason": "end_turn"})
        self.assertEqual(turn.result(WAIT).stop_reason, "end_turn")

    def test_an_error_answer_raises_agentd_error(self) -> None:
        errors: List[AgentdError] = []

        def call() -> None:
            try:
                self.client.prompt("s1", "busy?", timeout=WAIT)
            except AgentdError as error:
                errors.append(error)

        worker = threading.Thread(target=call)
        worker.start()
        self.daemon.fail(self.daemon.expect("session/prompt"), -32010, "session s1 is running a turn")
        worker.join(WAIT)
        self.assertEqual((errors[0].code, errors[0].code_name, errors[0].message), (-32010, "SessionBusy", "session s1 is running a turn"))

    def test_registered_tools_answer_tools_call_and_failures_become_tool_errors(self) -> None:
        worker = threading.Thread(
            target=lambda: self.client.register_tool(
                "add", "Add.", {"type": "object"}, lambda args: args["a"] + args["b"], access="read", kind="other"
            )
        )
        worker.start()
        register = self.daemon.expect("tools/register")
        self.assertEqual(register["params"], {"tools": [{"name": "add", "description": "Add.", "inputSchema": {"type": "object"}, "kind": "other", "access": "read"}]})
        self.daemon.answer(register, {"registered": ["add"]})
        worker.join(WAIT)

        self.daemon.request("t1", "tools/call", {"sessionId": "s1", "toolCallId": "c1", "name": "add", "arguments": {"a": 2, "b": 3}})
        self.assertEqual(self.daemon.receive(), {"jsonrpc": "2.0", "id": "t1", "result": {"content": [{"type": "text", "text": "5"}]}})
        self.daemon.request("t2", "tools/call", {"sessionId": "s1", "toolCallId": "c2", "name": "add", "arguments": {"a": 2}})
        self.assertEqual(self.daemon.receive()["result"], {"content": [{"type": "text", "text": "add failed: KeyError: 'b'"}], "isError": True})
        self.daemon.request("t3", "tools/call", {"sessionId": "s1", "toolCallId": "c3", "name": "nope", "arguments": {}})
        self.assertEqual(self.daemon.receive()["error"], {"code": -32015, "message": "this client has no tool named 'nope'; it has ['add']"})

    def test_permission_is_rejected_unless_a_handler_says_otherwise(self) -> None:
        self.assertEqual(self.ask_permission(1)["result"], {"outcome": {"outcome": "selected", "optionId": "reject_once"}})
        seen: List[PermissionRequest] = []

        def allow(request: PermissionRequest) -> Any:
            seen.append(request)
            return request.option("allow_once")

        self.client.on_permission(allow)
        self.assertEqual(self.ask_permission(2)["result"], {"outcome": {"outcome": "selected", "optionId": "allow_once"}})
        self.assertEqual(seen, [PermissionRequest("s1", TOOL_CALL, OPTIONS)])

        self.client.on_permission(lambda request: None)
        self.assertEqual(self.ask_permission(3)["result"], {"outcome": {"outcome": "cancelled"}})
        with self.assertLogs("agentd", "WARNING"):
            self.client.on_permission(lambda request: "allow_forever")
            self.assertEqual(self.ask_permission(4)["result"], {"outcome": {"outcome": "selected", "optionId": "reject_once"}})
            self.client.on_permission(lambda request: 1 / 0)
            self.assertEqual(self.ask_permission(5)["result"], {"outcome": {"outcome": "selected", "optionId": "reject_once"}})

    def test_finished_turns_leave_no_listeners_behind(self) -> None:
        for n in range(3):
            turn = self.client.start_prompt("s1", f"turn {n}")
            self.daemon.answer(self.daemon.expect("session/prompt"), {"stopReason": "end_turn"})
            self.assertEqual(turn.result(WAIT).stop_reason, "end_turn")
        connection: Any = self.client.connection
        self.assertEqual((connection._listeners, connection._close_listeners), ([], []))

    def test_updates_iterator_ends_when_the_daemon_goes_away(self) -> None:
        updates = self.client.updates("s1")
        self.daemon.notify("session/update", text_chunk("s1", "a"))
        self.daemon.notify("session/update", text_chunk("s2", "b"))
        self.daemon.notify("agentd/event", {"sessionId": "s1", "event": {"type": "turn_start", "turnId": "t"}})
        self.daemon.close()
        self.assertEqual([params["update"]["content"]["text"] for params in updates], ["a"])
        self.assertTrue(self.client.connection.wait_closed(WAIT))
        self.assertTrue(self.client.closed)
        # Subscribing after the end gives an iterator that is already finished.
        self.assertEqual(list(self.client.updates()), [])


DYING_DAEMON = r"""
import json, sys
request = json.loads(sys.stdin.readline())
print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": {"protocolVersion": 1}}), flush=True)
sys.stdin.readline()
print("agentd: fatal: the store is corrupt", file=sys.stderr, flush=True)
sys.exit(3)
"""


class SpawnTest(unittest.TestCase):
    def test_a_spawned_daemon_that_dies_fails_the_call_with_its_exit_code_and_stderr(self) -> None:
        with Client.spawn([sys.executable, "-c", DYING_DAEMON]) as client:
            with self.assertRaises(ConnectionClosedError) as raised:
                client.new_session(".")
        message = str(raised.exception)
        self.assertIn("before the answer to session/new arrived (agentd exited with code 3", message)
        self.assertIn("agentd: fatal: the store is corrupt", message)

    def test_a_missing_command_is_a_clear_connection_error(self) -> None:
        with self.assertRaisesRegex(ConnectionError, r"cannot start agentd \(/nonexistent/agentd serve --stdio\)"):
            Client.spawn(["/nonexistent/agentd", "serve", "--stdio"])

    def test_a_missing_socket_is_a_clear_connection_error(self) -> None:
        with self.assertRaisesRegex(ConnectionError, r"cannot connect to agentd at /nonexistent/agentd.sock: .*is `agentd serve --socket` running\?"):
            Client.connect("/nonexistent/agentd.sock")


if __name__ == "__main__":
    unittest.main()
