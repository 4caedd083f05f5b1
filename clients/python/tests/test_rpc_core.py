"""The JSON-RPC bookkeeping: ids, out-of-order answers, sorting of what the daemon sends."""

from __future__ import annotations

import unittest
from typing import Any, Dict, List, Optional, Tuple

import src_path  # noqa: F401

from agentd.errors import AgentdError, ConnectionClosedError, ProtocolError
from agentd.rpc_core import IncomingNotification, IncomingRequest, RpcCore


class Recorder:
    def __init__(self) -> None:
        self.settled: List[Tuple[str, Any, Optional[BaseException]]] = []

    def for_(self, name: str) -> Any:
        return lambda result, error: self.settled.append((name, result, error))


class RpcCoreTest(unittest.TestCase):
    def setUp(self) -> None:
        self.core = RpcCore()
        self.record = Recorder()

    def test_requests_get_increasing_ids_and_well_formed_messages(self) -> None:
        first_id, first = self.core.request("initialize", {"protocolVersion": 1}, self.record.for_("a"))
        second_id, second = self.core.request("tools/list", None, self.record.for_("b"))
        self.assertEqual((first_id, second_id), (1, 2))
        self.assertEqual(first, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}})
        self.assertEqual(second, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        self.assertEqual(self.core.notification("session/cancel", {"sessionId": "s"}), {"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": "s"}})

    def test_answers_out_of_order_settle_the_right_waiters(self) -> None:
        ids = [self.core.request(name, {}, self.record.for_(name))[0] for name in ("one", "two", "three")]
        for request_id, value in ((ids[2], "third"), (ids[0], "first"), (ids[1], "second")):
            self.assertIsNone(self.core.receive({"jsonrpc": "2.0", "id": request_id, "result": value}))
        self.assertEqual([(name, result) for name, result, _ in self.record.settled], [("three", "third"), ("one", "first"), ("two", "second")])
        self.assertEqual(self.core.method_of(ids[0]), None)

    def test_an_error_answer_settles_with_agentd_error(self) -> None:
        request_id, _ = self.core.request("session/prompt", {}, self.record.for_("p"))
        data = {"issues": ["prompt[0].type: Invalid option"]}
        self.core.receive({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32602, "message": "invalid params", "data": data}})
        error = self.record.settled[0][2]
        assert isinstance(error, AgentdError)
        self.assertEqual((error.code, error.message, error.data, error.code_name), (-32602, "invalid params", data, "InvalidParams"))
        self.assertIn("prompt[0].type: Invalid option", str(error))

    def test_daemon_requests_and_notifications_are_returned_for_dispatch(self) -> None:
        request = self.core.receive({"jsonrpc": "2.0", "id": "d1", "method": "tools/call", "params": {"name": "x"}})
        self.assertEqual(request, IncomingRequest("d1", "tools/call", {"name": "x"}))
        note = self.core.receive({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "s"}})
        self.assertEqual(note, IncomingNotification("session/update", {"sessionId": "s"}))

    def test_malformed_messages_and_unknown_ids_are_protocol_errors(self) -> None:
        for message in ([1, 2], {"id": 1, "result": 1}, {"jsonrpc": "2.0", "id": 99, "result": 1}, {"jsonrpc": "2.0", "id": 1}):
            self.assertIsInstance(self.core.receive(message), ProtocolError, message)
        unreadable = self.core.receive({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
        self.assertIsInstance(unreadable, ProtocolError)
        self.assertIn("-32700", str(unreadable))

    def test_close_fails_every_pending_request_and_later_ones_at_once(self) -> None:
        self.core.request("session/prompt", {}, self.record.for_("prompt"))
        self.core.request("session/steer", {}, self.record.for_("steer"))
        self.assertEqual(sorted(self.core.close("agentd exited with code 1")), ["session/prompt", "session/steer"])
        messages = [str(error) for _, _, error in self.record.settled]
        self.assertEqual(
            messages,
            [
                "connection to agentd closed before the answer to session/prompt arrived (agentd exited with code 1); reconnect and retry",
                "connection to agentd closed before the answer to session/steer arrived (agentd exited with code 1); reconnect and retry",
            ],
        )
        self.core.request("session/new", {}, self.record.for_("late"))
        self.assertIsInstance(self.record.settled[-1][2], ConnectionClosedError)
        self.assertEqual(self.record.settled[-1][0], "late")

    def test_error_and_result_messages_for_daemon_requests(self) -> None:
        self.assertEqual(RpcCore.result(7, {"ok": True}), {"jsonrpc": "2.0", "id": 7, "result": {"ok": True}})
        self.assertEqual(RpcCore.error(7, -32601, "no"), {"jsonrpc": "2.0", "id": 7, "error": {"code": -32601, "message": "no"}})
        expected: Dict[str, Any] = {"jsonrpc": "2.0", "id": 7, "error": {"code": 1, "message": "m", "data": [1]}}
        self.assertEqual(RpcCore.error(7, 1, "m", [1]), expected)


if __name__ == "__main__":
    unittest.main()
