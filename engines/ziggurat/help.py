"""The rules summary shown by ``/ziggurat rules``."""

HELP = """\
**Ziggurat** is a push-and-shove race up a four-level stepped pyramid: the rim of the 8x8 board is \
Level 1, the centre four squares Level 4. Each colour has three pieces stacked on its Start Station \
beside its corner; bring all three to your Goal (your centre square) to win.

**Path.** Pieces run counterclockwise round each level and climb one square inward at their own \
colour's wall (a marked square just before their own corner), so a piece laps every level. Corners \
are the squares on the two diagonals. Pieces on one square form a stack.

**Turn.** Roll the movement die (d8) and the action die. Both are optional; use them in any order, \
with the same or different pieces. Moving a top piece takes it the full roll forward, but it must \
stop at a corner, at its own wall, at its Goal, or just before a stack (also a stack on your Goal: \
only a Hop climbs onto that); unused points are lost. \
Type `end` to finish your turn.

**Actions.** Tip: push an adjacent stack or singleton straight away (`tip c2 n`), or tip a stack you \
are in, or tip your own singleton forward; pieces land one per square, those off the board go \
back to their Start Station; never uphill. Swap: two adjacent top pieces, or two pieces \
in one stack (`swap c2 1 3`, counted from the bottom). Hop/Aim: +1 movement, Hop jumps occupied \
squares, Aim ignores corners and walls (`hop b1`, `aim b1`). Dig: your bottom piece slides out to an \
adjacent square no higher (`dig b2 a1`). Leap: run along your line over blank squares. Redo: roll \
the movement die again after moving (`redo move`) or reroll the action die (`redo action`). Wild: \
any of them.

**Variants.** 2 players on opposite corners or with two colours each; 3 players; partnerships; \
Queen Ziggurat (a Queen that pays 2 points a square, rides over stacks and carries drones); a d6 \
movement die (+1, Aim/Hop +2); the six-sided Treehouse action die (no Leap or Redo). After the \
round limit (100 rounds by default) the colour closest to home wins.
"""
