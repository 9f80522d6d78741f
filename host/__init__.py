"""The Discord-free host layer: seats, turns, lobby, dice, clocks and ratings."""
