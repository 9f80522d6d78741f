"""The child side of host/offload.py: ``python -m host.offload_child MODULE...`` imports the modules, then
answers length-prefixed pickled ``(function, args, cpu)`` requests on stdin with ``(ok, result)`` on stdout.
Only the bot's own parent process writes to it, so unpickling its requests is safe.

``cpu`` caps the seconds of CPU time the call may use (this process's, user and system, not wall time),
so a loaded machine gives the same answer as an idle one: ``ITIMER_PROF`` stops Python code at the cap,
and ``RLIMIT_CPU`` a little above it kills the process should a long C call hold the interpreter.
The child runs at a lower priority (``nice``), so the bot's own process is served first.
"""

from __future__ import annotations

import importlib
import math
import os
import pickle
import resource
import signal
import struct
import sys
from collections.abc import Callable
from typing import Any

NICE = 10


class CpuCap(BaseException):  # not an Exception: code under test that catches Exception must not swallow it
    """The call used up its CPU time."""


def _stop(signum: int, frame: object) -> None:
    raise CpuCap


def used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def call(func: Callable[..., Any], args: tuple[Any, ...], cpu: float | None) -> tuple[bool, Any]:
    """``(ok, value)`` of one request, within ``cpu`` seconds of CPU time (``None``: no cap)."""
    if cpu is not None:
        _, hard = resource.getrlimit(resource.RLIMIT_CPU)
        soft = math.ceil(used() + 2 * cpu + 2)
        if hard == resource.RLIM_INFINITY or soft <= hard:
            resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
        signal.setitimer(signal.ITIMER_PROF, cpu)
    try:
        return True, func(*args)
    except CpuCap:
        return False, ("TooSlow", f"stopped after {cpu:g} s of CPU time")
    except Exception as error:
        return False, (type(error).__name__, str(error))
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


def main() -> None:
    signal.signal(signal.SIGPROF, _stop)
    for name in sys.argv[1:]:
        importlib.import_module(name)
    try:  # after the imports: a start on a busy machine is not slowed down too
        os.nice(NICE)
    except OSError:
        pass
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    try:
        sink.write(b"RDY\n")
        sink.flush()
        while header := source.read(4):
            request = source.read(struct.unpack(">I", header)[0])
            try:
                func, args, cpu = pickle.loads(request)
                ok, value = call(func, args, cpu)
                answer = pickle.dumps((ok, value))
            except CpuCap:  # the timer fired just as the call returned
                answer = pickle.dumps((False, ("TooSlow", "stopped at the CPU time cap")))
            except Exception as error:
                answer = pickle.dumps((False, (type(error).__name__, str(error))))
            sink.write(struct.pack(">I", len(answer)) + answer)
            sink.flush()
    except BrokenPipeError:  # the bot died while this child started or worked: nobody is left to answer
        # Leave quietly (a traceback here would read as the bot's own error): what the exit still flushes goes
        # to /dev/null instead of the closed pipe (Python's documented way out of a BrokenPipeError).
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    main()
