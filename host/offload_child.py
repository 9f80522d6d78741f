"""The child side of host/offload.py: ``python -m host.offload_child MODULE...`` imports the modules, then
answers length-prefixed pickled ``(function, args)`` requests on stdin with ``(ok, result)`` on stdout.
Only the bot's own parent process writes to it, so unpickling its requests is safe."""

from __future__ import annotations

import importlib
import pickle
import struct
import sys


def main() -> None:
    for name in sys.argv[1:]:
        importlib.import_module(name)
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    sink.write(b"RDY\n")
    sink.flush()
    while header := source.read(4):
        request = source.read(struct.unpack(">I", header)[0])
        try:
            func, args = pickle.loads(request)
            answer = pickle.dumps((True, func(*args)))
        except Exception as error:
            answer = pickle.dumps((False, (type(error).__name__, str(error))))
        sink.write(struct.pack(">I", len(answer)) + answer)
        sink.flush()


if __name__ == "__main__":
    main()
