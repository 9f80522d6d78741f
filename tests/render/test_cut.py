"""A line cut to its box (``render/common.py``'s ``_cut``) measures a few prefixes, not every one: each measured
prefix is a new text to lay out (it was a newly drawn mask too), and Ziggurat's final header (the whole result) took
seconds that way."""

from __future__ import annotations

import random

from render import common


def cut_a_character_at_a_time(text: str, size: int, width: float, bold: bool) -> str:
    """The cut as it was: the reference for what the halving must give."""
    if common.text_width(None, text, size, bold) <= width:
        return text
    while text and common.text_width(None, text + "…", size, bold) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def test_a_long_line_is_cut_after_a_few_measurements() -> None:
    text = "Blue won: round limit 30 reached, so the colour closest to home wins (pieces home first, then " \
           "squares travelled): Blue 0/3 home, 79 squares travelled; Green 0/3 home, 33 squares travelled " * 2
    before = common._width.cache_info().misses
    shown = common._cut(None, text, 14, 600.0, False)
    measured = common._width.cache_info().misses - before
    assert shown.endswith("…") and common.text_width(None, shown, 14) <= 600.0
    assert measured <= 12, measured  # about log2(len(text)) + 2; a character at a time took hundreds


def test_the_cut_is_the_longest_prefix_that_fits() -> None:
    rng = random.Random(22)
    words = ["alice", "Bob", "won:", "round", "limit", "30", "reached,", "closest", "to", "home", "(pieces", "3/5)",
             "AVAWAY", "ÈRTZ", "日本", "🎲", "fi", "W.W"]
    for _ in range(20):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 8)))
        size, width, bold = rng.choice([9, 14, 24]), rng.uniform(5, 300), rng.random() < 0.5
        assert common._cut(None, text, size, width, bold) == cut_a_character_at_a_time(text, size, width, bold)


def test_named_lines_cut_the_names_never_the_words_around_them_with_one_ellipsis() -> None:
    """``Maximilian_the_Ex……`` (a name cut to 18 characters, then the line cut again) and ``とて… (Lig…`` (the
    colour word lost): a line with names is fitted by cutting only its names."""
    names = ["Maximilian_the_Extraordinary_XYZ", "ＡＢＣＤ王様のプレイヤー名前がとても長い人です🎲🎲"]
    line = common.Named(("", " (Light) lost: ", " (Dark) won"), tuple(names)).fit(420, 18)
    assert common.text_width(None, line, 18) <= 420
    first, second = line.split(" (Light) lost: ")
    assert second.endswith(" (Dark) won") and first.startswith("Maxim") and first.endswith("…")
    assert line.count("…") == 2 and "……" not in line
    assert (common.Named.of("Ann") + " (Blue) to move").fit(420, 18) == "Ann (Blue) to move"
    assert (common.Named.of(names[0]) + " (Blue)").fit(2000, 18) == "Maximilian_the_Ex… (Blue)"  # NAME_CHARS still caps
