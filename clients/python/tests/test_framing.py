"""NDJSON framing: one message per line, whatever the read boundaries."""

from __future__ import annotations

import json
import unittest

import src_path  # noqa: F401

from agentd.errors import ProtocolError
from agentd.framing import LineDecoder, encode_message


class EncodeMessageTest(unittest.TestCase):
    def test_one_line_ending_in_a_newline_even_with_newlines_in_strings(self) -> None:
        message = {"jsonrpc": "2.0", "id": 1, "method": "session/prompt", "params": {"text": "line one\nline two\r\n\u2028é"}}
        data = encode_message(message)
        self.assertTrue(data.endswith(b"\n"))
        self.assertEqual(data.count(b"\n"), 1)
        self.assertEqual(json.loads(data.decode("utf-8")), message)

    def test_non_ascii_is_sent_as_utf8(self) -> None:
        self.assertEqual(encode_message({"t": "é✓"}), '{"t":"é✓"}\n'.encode("utf-8"))


class LineDecoderTest(unittest.TestCase):
    def test_several_messages_in_one_read(self) -> None:
        decoder = LineDecoder()
        self.assertEqual(decoder.feed(b'{"a":1}\n{"b":2}\n{"c":'), [{"a": 1}, {"b": 2}])
        self.assertEqual(decoder.pending_bytes, 5)
        self.assertEqual(decoder.feed(b"3}\n"), [{"c": 3}])
        self.assertEqual(decoder.pending_bytes, 0)

    def test_a_message_split_at_every_byte_inside_a_utf8_character(self) -> None:
        data = encode_message({"text": "naïve — ✓ 😀"}) + encode_message({"id": 2})
        decoder = LineDecoder()
        out = []
        for index in range(len(data)):
            out.extend(decoder.feed(data[index : index + 1]))
        self.assertEqual(out, [{"text": "naïve — ✓ 😀"}, {"id": 2}])

    def test_crlf_and_blank_lines(self) -> None:
        self.assertEqual(LineDecoder().feed(b'{"a":1}\r\n\r\n\n  \n{"b":2}\r\n'), [{"a": 1}, {"b": 2}])

    def test_a_bad_line_is_reported_in_place_and_the_stream_goes_on(self) -> None:
        out = LineDecoder().feed(b'{"a":1}\nnot json\n{"b":2}\n\xff\xfe\n')
        self.assertEqual(out[0], {"a": 1})
        self.assertIsInstance(out[1], ProtocolError)
        self.assertIn("not json", str(out[1]))
        self.assertEqual(out[2], {"b": 2})
        self.assertIsInstance(out[3], ProtocolError)

    def test_json_null_is_a_value_not_a_blank_line(self) -> None:
        self.assertEqual(LineDecoder().feed(b"null\n"), [None])

    def test_an_overlong_line_is_dropped_with_an_error(self) -> None:
        decoder = LineDecoder(max_line_bytes=10)
        out = decoder.feed(b"x" * 11)
        self.assertEqual(len(out), 1)
        self.assertIsInstance(out[0], ProtocolError)
        self.assertIn("exceeded 10 bytes", str(out[0]))
        self.assertEqual(decoder.feed(b'\n{"ok":true}\n'), [{"ok": True}])


if __name__ == "__main__":
    unittest.main()
