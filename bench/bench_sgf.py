"""SGF import timings (issue 16): real records, the reported adversarial file, and the largest files allowed.

Run: ``.venv/bin/python -m bench.bench_sgf``. Target: every file the cap allows is read or refused well
under a second, and the reader's work grows linearly with the size.
"""

from __future__ import annotations

from pathlib import Path

from bench.common import report, timed
from engines.base import IllegalMove
from engines.zrtz.boardspace import parse, read_text, replay
from engines.zrtz.sgf import MAX_RECORD_BYTES, Tree, tokenize

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = (ROOT.parent / "shared" / "zrtz-records", ROOT / "tests" / "data" / "zrtz-records")


def refused_or_read(text: str) -> None:
    try:
        parse(text)
    except IllegalMove:
        pass


def work(text: str) -> int:
    tree = Tree()
    try:
        tokenize(text, tree)
    except IllegalMove:
        pass
    return tree.work


def main() -> None:
    folder = next((f for f in FOLDERS if any(f.glob("*.sgf"))), FOLDERS[-1])
    texts = [read_text(p) for p in sorted(folder.glob("*.sgf"))]
    report(f"parse, {len(texts)} real records", timed(parse, texts))
    report(f"replay, {len(texts)} real records", timed(replay, texts))
    unclosed = ["(;SU[Zertz]" + "; P0[" * n for n in (24_000, 50_000)]
    report("adversarial '; P0[' x 24k / 50k (refused)", timed(refused_or_read, unclosed, repeat=5))
    report("adversarial 1 MB (refused by the cap)", timed(refused_or_read, ["(;SU[Zertz]" + "; P0[" * 200_000], 5))
    steps = "; P0[RtoR 2 2 2]"
    largest = "(;SU[Zertz]" + steps * ((MAX_RECORD_BYTES - 20) // len(steps)) + ")"
    report(f"largest allowed, {len(largest) // 1024} KB of steps", timed(refused_or_read, [largest], repeat=3))
    for n in (4_000, 8_000, 16_000):
        text = "(;SU[Zertz]" + steps * n + ")"
        print(f"work for {len(text):>7} characters: {work(text):>7}")


if __name__ == "__main__":
    main()
