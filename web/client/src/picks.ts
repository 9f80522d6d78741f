// The viewer's legal moves as a prefix tree of picks, walked like the move builder (host/builder.py):
// a step with a single choice is taken for the player, and a finished sequence is exactly one move.

export interface Pick { kind: string; label: string; target: string | null; group: string }
export interface Move { move: string; picks: Pick[] }

export const pickKey = (p: Pick): string => JSON.stringify([p.kind, p.label, p.target]);

/** The moves whose picks begin with `chosen`. */
export function candidates(moves: Move[], chosen: Pick[]): Move[] {
  const keys = chosen.map(pickKey);
  return moves.filter((m) => m.picks.length >= keys.length && keys.every((k, i) => pickKey(m.picks[i]) === k));
}

/** The distinct choices of the next step, in the order of the moves they first lead to. */
export function nextPicks(moves: Move[], chosen: Pick[]): Pick[] {
  const seen = new Map<string, Pick>();
  for (const m of candidates(moves, chosen)) {
    const p = m.picks[chosen.length];
    if (p && !seen.has(pickKey(p))) seen.set(pickKey(p), p);
  }
  return [...seen.values()];
}

/** The move `chosen` completes, if it completes one. */
export function finished(moves: Move[], chosen: Pick[]): Move | null {
  return candidates(moves, chosen).find((m) => m.picks.length === chosen.length) ?? null;
}

/** Take every step that has one choice only; `finish`: also the step that completes the move (after a
 * click; never before the first, so a move is always played by a click on the board). */
export function descend(moves: Move[], chosen: Pick[], finish = true): Pick[] {
  let path = chosen;
  while (moves.length && !finished(moves, path)) {
    const next = nextPicks(moves, path);
    if (next.length !== 1) break;
    const longer = [...path, next[0]];
    if (!finish && finished(moves, longer)) break;
    path = longer;
  }
  return path;
}
