"""PNG encoding of boards: ``render.common.to_png`` against Pillow's encoder (compression level 3, the old way).

    .venv/bin/python -m bench.bench_png

Boards of every game from seeded random positions; CPU time (process time), the least of 5 passes, and
the bytes. The decoded images are checked to be the same pixels.
"""

from __future__ import annotations

from bench.common import percentile
from render import common
from tests.render.test_png import boards, cpu_ms, decoded, pillow_png


def main() -> None:
    images = boards()
    for image in images:
        assert decoded(common.to_png(image)).tobytes() == image.tobytes()
    ours, pillow = cpu_ms(common.to_png, images, 5), cpu_ms(pillow_png, images, 5)
    size_ours = sum(len(common.to_png(i)) for i in images)
    size_pillow = sum(len(pillow_png(i)) for i in images)
    pixels = sorted(i.size[0] * i.size[1] for i in images)
    print(f"{len(images)} boards, median {percentile([float(p) for p in pixels], 50) / 1e6:.2f} Mpixel")
    print(f"Pillow level 3: {pillow / len(images):6.2f} ms CPU a board, {size_pillow / len(images) / 1024:6.1f} KiB")
    print(f"to_png:         {ours / len(images):6.2f} ms CPU a board, {size_ours / len(images) / 1024:6.1f} KiB"
          f"  ({ours / pillow:.2f}x the CPU, {size_ours / size_pillow:.2f}x the bytes)")


if __name__ == "__main__":
    main()
