"""The AI's seats: turns as jobs, the process pool's functions, and game reviews."""
