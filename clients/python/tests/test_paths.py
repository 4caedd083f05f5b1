"""The default socket path follows the daemon's own resolution (src/config/agentd-paths.ts)."""

from __future__ import annotations

import sys
import unittest

import src_path  # noqa: F401

from agentd import default_socket_path


class DefaultSocketPathTest(unittest.TestCase):
    def test_agentd_home_puts_it_under_run(self) -> None:
        env = {"AGENTD_HOME": "/tmp/h", "XDG_RUNTIME_DIR": "/run/user/1000"}
        self.assertEqual(default_socket_path(env), "/tmp/h/run/agentd.sock")

    def test_the_xdg_runtime_dir_when_set_and_absolute(self) -> None:
        self.assertEqual(default_socket_path({"XDG_RUNTIME_DIR": "/run/user/1000", "HOME": "/home/ada"}), "/run/user/1000/agentd/agentd.sock")

    @unittest.skipIf(sys.platform == "darwin", "macOS uses Library/Application Support")
    def test_else_the_state_dir_relative_xdg_paths_ignored(self) -> None:
        self.assertEqual(default_socket_path({"XDG_RUNTIME_DIR": "relative", "HOME": "/home/ada"}), "/home/ada/.local/state/agentd/run/agentd.sock")
        self.assertEqual(default_socket_path({"XDG_STATE_HOME": "/s", "HOME": "/home/ada"}), "/s/agentd/run/agentd.sock")


if __name__ == "__main__":
    unittest.main()
