"""host/offload_child.py on its own: a child whose bot died before it was ready leaves quietly."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_a_child_whose_bot_is_gone_exits_without_a_traceback() -> None:
    """A bot SIGKILLed while its child still imports (tests/e2e/test_crash_outbox.py on a busy machine): the
    child's "ready" meets a closed pipe. Its stderr is the bot's, where a traceback reads as the bot's error."""
    read, write = os.pipe()
    os.close(read)  # nobody will read the answers
    child = subprocess.run([sys.executable, "-m", "host.offload_child", "json"], cwd=ROOT, stdin=subprocess.DEVNULL,
                           stdout=write, stderr=subprocess.PIPE, timeout=60)
    os.close(write)
    assert child.stderr == b"" and child.returncode == 0, child.stderr.decode()
