"""Runs a command on a pseudo-terminal (as a user's shell would), answering prompts.

argv[1]: the command as a JSON list; argv[2]: [[text to wait for, reply], ...] as JSON,
answered in order, each trigger looked for in what came after the previous reply.
Prints one JSON object: everything the command wrote to the terminal, and its exit code
(killed, with code -9, when it writes nothing for 20 seconds).
"""
import json
import os
import pty
import select
import signal
import sys

command = json.loads(sys.argv[1])
answers = json.loads(sys.argv[2])
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(command[0], command, os.environ)
output = b""
since = 0
while True:
    ready, _, _ = select.select([fd], [], [], 20)
    if not ready:
        os.kill(pid, signal.SIGKILL)
        break
    try:
        data = os.read(fd, 4096)
    except OSError:
        break
    if not data:
        break
    output += data
    while answers and answers[0][0].encode() in output[since:]:
        since = output.index(answers[0][0].encode(), since) + len(answers[0][0])
        os.write(fd, answers.pop(0)[1].encode())
_, status = os.waitpid(pid, 0)
print(json.dumps({"output": output.decode("utf-8", "replace"), "code": os.waitstatus_to_exitcode(status)}))
