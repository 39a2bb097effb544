#!/usr/bin/env python3
"""Runs a command with a pseudo-terminal as its stdin, stdout and stderr, and
prints what it wrote there; exits with the command's status. For tests of
what kcc shows only on a terminal."""
import os
import pty
import sys

pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
out = b""
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:  # EIO: the child closed the terminal
        break
    if not chunk:
        break
    out += chunk
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode("utf-8", "replace"))
sys.exit(os.waitstatus_to_exitcode(status))
