"""The reply text of a turn: one message's chunks joined, messages a blank line apart."""

from __future__ import annotations

import unittest

import src_path  # noqa: F401  (puts clients/python/src on sys.path)
from agentd.turn import reply_text


def chunk(message_id: str, text: str) -> dict:
    return {"sessionId": "s", "update": {"sessionUpdate": "agent_message_chunk", "messageId": message_id, "content": {"type": "text", "text": text}}}


class ReplyTextTest(unittest.TestCase):
    def test_joins_one_message_and_separates_the_next(self) -> None:
        tool = {"sessionId": "s", "update": {"sessionUpdate": "tool_call", "toolCallId": "c", "title": "Read"}}
        updates = [chunk("m1", "Counting: "), chunk("m1", "one "), tool, chunk("m2", "Cats "), chunk("m2", "purr."), chunk("m3", "Dogs bark.")]
        self.assertEqual(reply_text(updates), "Counting: one \n\nCats purr.\n\nDogs bark.")

    def test_no_text_no_separator(self) -> None:
        self.assertEqual(reply_text([]), "")
        self.assertEqual(reply_text([chunk("m1", "only")]), "only")


if __name__ == "__main__":
    unittest.main()
