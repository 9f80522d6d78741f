"""Make the Zodiac Chess piece icons in ``render/icons/zodiac/`` from the Noto Color Emoji font.

Run once by hand; the bot and the tests only read the PNG files this writes, nothing is fetched at run time.

Source: Noto Color Emoji (https://github.com/googlefonts/noto-emoji), Copyright 2013-2017 Google Inc.,
licensed under the SIL Open Font License 1.1 (full text in ``render/icons/zodiac/LICENSE-NotoColorEmoji.txt``).
The icons were made from Debian 12's package ``fonts-noto-color-emoji`` 2.042-0+deb12u1. To rerun::

    apt-get install -y fonts-noto-color-emoji
    .venv/bin/python -m render.icons.make_zodiac_icons [path/to/NotoColorEmoji.ttf]

Each glyph is drawn at the font's only bitmap size (109), cropped to its visible pixels, centred on a
square canvas, given a thin white outline (so dark glyphs such as the penguin stay readable on Dark's
charcoal discs), scaled to ``SIZE`` px and saved as an optimised RGBA PNG named after the piece.
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
OUT = Path(__file__).with_name("zodiac")
SIZE = 96
OUTLINE = 5  # px of white outline at the font's size, about 4 px once scaled to SIZE

# Piece -> emoji. There is no crane emoji: the flamingo is the closest long-legged wading bird.
EMOJI = {
    "Bear": "\U0001F43B",     # bear face
    "Crane": "\U0001F9A9",    # flamingo
    "Frog": "\U0001F438",     # frog
    "Fungi": "\U0001F344",    # mushroom
    "Goat": "\U0001F410",     # goat
    "Monkey": "\U0001F412",   # monkey (whole body, so it does not look like the bear's face)
    "Octopus": "\U0001F419",  # octopus
    "Penguin": "\U0001F427",  # penguin
    "Rhino": "\U0001F98F",    # rhinoceros
    "Snake": "\U0001F40D",    # snake
    "Tree": "\U0001F333",     # deciduous tree
    "Wolf": "\U0001F43A",     # wolf
    "Virus": "\U0001F9A0",    # microbe
}


def glyph(font: ImageFont.FreeTypeFont, char: str) -> Image.Image:
    canvas = Image.new("RGBA", (200, 200), (0, 0, 0, 0))
    ImageDraw.Draw(canvas).text((30, 30), char, font=font, embedded_color=True)
    box = canvas.getchannel("A").getbbox()
    if box is None:
        raise SystemExit(f"the font has no glyph for U+{ord(char):X}")
    return canvas.crop(box)


def icon(art: Image.Image) -> Image.Image:
    side = max(art.size) + 2 * OUTLINE + 2
    square = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    square.paste(art, ((side - art.width) // 2, (side - art.height) // 2))
    alpha = square.getchannel("A").filter(ImageFilter.MaxFilter(2 * OUTLINE + 1))
    halo = Image.new("RGBA", square.size, (255, 255, 255, 0))
    halo.putalpha(alpha)
    halo.alpha_composite(square)
    return halo.resize((SIZE, SIZE), Image.Resampling.LANCZOS)


def main(argv: list[str]) -> None:
    font = ImageFont.truetype(str(Path(argv[0]) if argv else FONT), 109)
    OUT.mkdir(exist_ok=True)
    for kind, char in EMOJI.items():
        path = OUT / f"{kind.lower()}.png"
        icon(glyph(font, char)).save(path, optimize=True)
        print(f"{path} {path.stat().st_size} bytes")


if __name__ == "__main__":
    main(sys.argv[1:])
