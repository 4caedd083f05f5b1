"""F11 (SECURITY.md): the client refuses a socket another local user controls, before it connects."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import tempfile
import threading
import unittest

import src_path  # noqa: F401

from agentd import AsyncClient, Client, UnsafeSocketPathError, check_socket_path

ROOT = os.getuid() == 0
NOBODY = 65534


class SocketFolderTest(unittest.TestCase):
    """Each case: "another user's daemon" listens; the client must refuse and connect nothing."""

    def setUp(self) -> None:
        self.root = tempfile.mkdtemp(prefix="agentd-py-sock-")
        self.folder = os.path.join(self.root, "run")
        os.mkdir(self.folder, 0o700)
        self.path = os.path.join(self.folder, "agentd.sock")
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(self.path)
        self.server.listen(4)
        self.connections = 0
        # Counts and hangs up on every connection, so a client that does connect fails at once.
        self.accepting = threading.Thread(target=self._accept, daemon=True)
        self.accepting.start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()

    def tearDown(self) -> None:
        try:
            self.server.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept
        except OSError:
            pass
        self.server.close()
        self.accepting.join(2)
        shutil.rmtree(self.root, ignore_errors=True)

    def refused(self, path: str, pattern: str) -> None:
        with self.assertRaisesRegex(UnsafeSocketPathError, pattern):
            Client.connect(path)
        with self.assertRaisesRegex(UnsafeSocketPathError, pattern):
            asyncio.run(AsyncClient.connect(path))
        self.assertEqual(self.connections, 0)

    def test_f11_a_folder_anyone_may_write_is_refused_with_chmod_700_as_the_fix(self) -> None:
        os.chmod(self.folder, 0o777)
        self.refused(self.path, rf"its folder {self.folder} \(yours, mode 0777\) is writable by its group and everyone.*chmod 700 {self.folder}")

    def test_f11_a_folder_its_group_may_write_is_refused(self) -> None:
        os.chmod(self.folder, 0o770)
        self.refused(self.path, r"mode 0770\) is writable by its group,")

    def test_f11_a_folder_owned_by_another_uid_is_refused(self) -> None:
        if ROOT:
            os.chown(self.folder, NOBODY, NOBODY)
            self.refused(self.path, rf"its folder {self.folder} belongs to uid {NOBODY}, not to you \(uid 0\), mode 0700")
        with self.assertRaisesRegex(UnsafeSocketPathError, rf"not to you \(uid {os.getuid() + 1}\)"):
            check_socket_path(self.path, uid=os.getuid() + 1)

    def test_f11_a_folder_that_is_a_symlink_is_refused(self) -> None:
        link = os.path.join(self.root, "linked-run")
        os.symlink(self.folder, link)
        self.refused(os.path.join(link, "agentd.sock"), rf"its folder {link} is a symbolic link \(to {self.folder}\)")

    def test_f11_a_socket_path_that_is_a_symlink_is_refused(self) -> None:
        link = os.path.join(self.folder, "link.sock")
        os.symlink(self.path, link)
        self.refused(link, rf"{link} is a symbolic link, not a socket")

    def test_f11_a_socket_owned_by_another_uid_is_refused(self) -> None:
        if ROOT:
            os.lchown(self.path, NOBODY, NOBODY)
            self.refused(self.path, rf"{self.path} belongs to uid {NOBODY}, not to you")
        else:
            with self.assertRaises(UnsafeSocketPathError):
                check_socket_path(self.path, uid=os.getuid() + 1)

    def test_the_folder_agentd_makes_and_an_absent_folder_pass(self) -> None:
        check_socket_path(self.path)
        check_socket_path(os.path.join(self.root, "nowhere", "agentd.sock"))


if __name__ == "__main__":
    unittest.main()
