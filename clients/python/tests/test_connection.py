"""The threaded connection: one reader dispatching answers by id, notifications and daemon requests."""

from __future__ import annotations

import threading
import unittest
from typing import Any, List

import src_path  # noqa: F401
from fake_daemon import FakeDaemon, wait_for

from agentd.connection import Connection
from agentd.errors import AgentdError, ConnectionClosedError, ProtocolError
from agentd.transport import SocketTransport
from agentd.wait import wait_result

WAIT = 5.0


class ConnectionTest(unittest.TestCase):
    def setUp(self) -> None:
        self.daemon = FakeDaemon()
        self.protocol_errors: List[ProtocolError] = []
        self.connection = Connection(SocketTransport(self.daemon.client_socket), self.protocol_errors.append)

    def tearDown(self) -> None:
        self.connection.close()
        self.daemon.close()

    def test_answers_in_any_order_reach_the_right_callers(self) -> None:
        futures = [self.connection.request_future(f"m/{n}", {"n": n}) for n in range(3)]
        requests = [self.daemon.receive() for _ in range(3)]
        self.assertEqual([r["method"] for r in requests], ["m/0", "m/1", "m/2"])
        for request in (requests[2], requests[0], requests[1]):
            self.daemon.answer(request, {"echo": request["params"]["n"]})
        self.assertEqual([f.result(WAIT) for f in futures], [{"echo": 0}, {"echo": 1}, {"echo": 2}])

    def test_a_blocked_daemon_request_handler_does_not_hold_up_the_reader(self) -> None:
        release = threading.Event()
        started = threading.Event()
        seen: List[Any] = []

        def slow_tool(params: Any) -> Any:
            started.set()
            release.wait(WAIT)
            return {"content": [{"type": "text", "text": f"ran {params['name']}"}]}

        self.connection.on_request("tools/call", slow_tool)
        self.connection.add_listener(lambda method, params: seen.append((method, params)))
        prompt = self.connection.request_future("session/prompt", {"sessionId": "s"})
        steer = self.connection.request_future("session/steer", {"sessionId": "s"})
        prompt_request, steer_request = self.daemon.receive(), self.daemon.receive()

        self.daemon.request("d-1", "tools/call", {"name": "slow"})
        self.assertTrue(started.wait(WAIT))
        # While the handler is blocked: an update and another answer still get through.
        self.daemon.notify("session/update", {"sessionId": "s", "update": {"sessionUpdate": "agent_message_chunk"}})
        self.daemon.answer(steer_request, {"queued": 1})
        self.assertEqual(steer.result(WAIT), {"queued": 1})
        wait_for(lambda: len(seen) == 1, what="the update")
        self.assertFalse(prompt.done())

        release.set()
        self.assertEqual(self.daemon.receive(), {"jsonrpc": "2.0", "id": "d-1", "result": {"content": [{"type": "text", "text": "ran slow"}]}})
        self.daemon.answer(prompt_request, {"stopReason": "end_turn"})
        self.assertEqual(prompt.result(WAIT), {"stopReason": "end_turn"})

    def test_handler_failures_become_error_answers(self) -> None:
        def refuse(_params: Any) -> Any:
            raise AgentdError(-32015, "tool refused", {"why": "test"})

        def crash(_params: Any) -> Any:
            raise ValueError("bad value")

        self.connection.on_request("tools/call", refuse)
        self.connection.on_request("hooks/beforeToolCall", crash)
        self.daemon.request(1, "tools/call", {})
        self.assertEqual(self.daemon.receive()["error"], {"code": -32015, "message": "tool refused", "data": {"why": "test"}})
        with self.assertLogs("agentd", "WARNING"):
            self.daemon.request(2, "hooks/beforeToolCall", {})
            answer = self.daemon.receive()
        self.assertEqual(answer["error"], {"code": -32603, "message": "client handler for hooks/beforeToolCall failed: ValueError: bad value"})
        self.daemon.request(3, "fs/read_text_file", {})
        self.assertEqual(self.daemon.receive()["error"], {"code": -32601, "message": "this client has no handler for fs/read_text_file"})

    def test_a_cancelled_daemon_request_is_answered_at_once_and_its_late_result_dropped(self) -> None:
        release = threading.Event()
        self.connection.on_request("session/request_permission", lambda _params: release.wait(WAIT) and {"outcome": {"outcome": "cancelled"}})
        self.connection.on_request("ping", lambda params: params)
        self.daemon.request(5, "session/request_permission", {})
        self.daemon.notify("$/cancel_request", {"requestId": 5})
        self.assertEqual(self.daemon.receive(), {"jsonrpc": "2.0", "id": 5, "error": {"code": -32800, "message": "cancelled by agentd before the client answered"}})
        release.set()
        self.daemon.request(6, "ping", {"n": 6})
        # The next thing written is the ping's answer, not request 5's late result.
        self.assertEqual(self.daemon.receive(), {"jsonrpc": "2.0", "id": 6, "result": {"n": 6}})

    def test_the_daemon_hanging_up_fails_pending_calls_clearly(self) -> None:
        reasons: List[str] = []
        self.connection.on_close(reasons.append)
        prompt = self.connection.request_future("session/prompt", {})
        self.daemon.receive()
        self.daemon.close()
        with self.assertRaises(ConnectionClosedError) as raised:
            prompt.result(WAIT)
        self.assertEqual(str(raised.exception), "connection to agentd closed before the answer to session/prompt arrived (the peer closed the socket); reconnect and retry")
        self.assertTrue(self.connection.wait_closed(WAIT))
        self.assertEqual(reasons, ["the peer closed the socket"])
        with self.assertRaises(ConnectionClosedError):
            self.connection.request_future("session/new", {}).result(WAIT)

    def test_closing_from_this_side_fails_pending_calls(self) -> None:
        prompt = self.connection.request_future("session/prompt", {})
        self.daemon.receive()
        self.connection.close()
        with self.assertRaisesRegex(ConnectionClosedError, r"session/prompt arrived \(this client closed the connection\)"):
            prompt.result(WAIT)

    def test_waiting_inside_a_listener_raises_instead_of_deadlocking(self) -> None:
        errors: List[BaseException] = []

        def listener(_method: str, _params: Any) -> None:
            try:
                wait_result(self.connection.request_future("tools/list", {}), WAIT, "tools/list", self.connection)
            except RuntimeError as error:
                errors.append(error)

        self.connection.add_listener(listener)
        self.daemon.notify("session/update", {})
        wait_for(lambda: errors, what="the listener")
        self.assertIn("would block the reader thread", str(errors[0]))

    def test_garbage_is_reported_and_the_connection_goes_on(self) -> None:
        future = self.connection.request_future("tools/list", {})
        request = self.daemon.receive()
        self.daemon.send_raw(b"this is not json\n")
        self.daemon.send({"jsonrpc": "2.0", "id": 4242, "result": {}})
        self.daemon.answer(request, {"tools": []})
        self.assertEqual(future.result(WAIT), {"tools": []})
        self.assertEqual(len(self.protocol_errors), 2)
        self.assertIn("not a JSON line", str(self.protocol_errors[0]))
        self.assertIn("unknown request id 4242", str(self.protocol_errors[1]))

    def test_wait_result_raises_the_builtin_timeout_error(self) -> None:
        with self.assertRaisesRegex(TimeoutError, "no answer to tools/list within 0.05 s"):
            wait_result(self.connection.request_future("tools/list", {}), 0.05, "tools/list", self.connection)


if __name__ == "__main__":
    unittest.main()
