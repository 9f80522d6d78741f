"""A busy machine for the tests that hold an answer to be the same at any load (issue 24)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def busy_machine(burners: int, niceness: int = 0) -> Iterator[None]:
    """``burners`` processes burning CPU at ``niceness`` until the block ends."""
    code = f"import os; os.nice({niceness})\nwhile True: pass"
    running = [subprocess.Popen([sys.executable, "-c", code]) for _ in range(burners)]
    time.sleep(0.3)  # they are burning before the block's work starts
    try:
        yield
    finally:
        for burner in running:
            burner.kill()
            burner.wait()
