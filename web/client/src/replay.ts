// Replay controls: step through the game's history as the viewer saw each ply (the host replays it; a player's
// own secrets stay theirs, nobody else's are ever sent). `null`: live, following the game.

export interface Step { ply: number; last: number; label: string }

export class Replay {
  at: number | null = null;
  step: Step | null = null;

  /** The ply to show after pressing `button`, given the game's newest ply; null: back to live. */
  target(button: "first" | "prev" | "next" | "last", newest: number): number | null {
    const now = this.at ?? newest;
    const to = button === "first" ? 0 : button === "prev" ? now - 1 : button === "next" ? now + 1 : newest;
    return to >= newest ? null : Math.max(to, 0);
  }
}
