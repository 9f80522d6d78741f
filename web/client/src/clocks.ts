// The clocks under the title: the host says each seat's seconds left as of its answer; the page counts the
// running ones down from the moment that answer arrived (so the machine's own clock never matters).

export interface Clock { seat: number; name: string; kind: "live" | "days"; left: number | null; running: boolean }

let shown: Clock[] = [];
let since = 0;
let mine: number | null = null;
let timer: number | undefined;

/** Two units at most, like the bot's captions: `2d 3h`, `5h 12m`; a live clock as `m:ss`. */
export function format(seconds: number, kind: Clock["kind"]): string {
  const total = Math.max(Math.floor(seconds), 0);
  const d = Math.floor(total / 86400), h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60), s = total % 60;
  const two = (n: number) => String(n).padStart(2, "0");
  if (kind === "live") return h ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
  if (d) return `${d}d ${h}h`;
  if (h) return `${h}h ${two(m)}m`;
  return m ? `${m}m ${two(s)}s` : `${s}s`;
}

function tick(box: HTMLElement): void {
  const gone = (performance.now() - since) / 1000;
  box.replaceChildren(...shown.map((c) => {
    const item = document.createElement("span");
    item.className = "clock" + (c.running ? " running" : "") + (c.seat === mine ? " mine" : "");
    item.dataset.seat = String(c.seat);
    const left = c.left === null ? null : c.running ? c.left - gone : c.left;
    if (left !== null) item.dataset.left = String(Math.max(left, 0));
    if (left !== null && left <= 0) item.classList.add("out");
    const who = `${c.name}${c.seat === mine ? " (you)" : ""}`;
    item.textContent = left === null ? who : `${who} ${format(left, c.kind)}`;
    return item;
  }));
  box.hidden = !shown.length;
}

/** Show the clocks of a fresh view (an empty list hides them) and keep the running ones counting down. */
export function showClocks(box: HTMLElement, clocks: Clock[], seat: number | null): void {
  shown = clocks; since = performance.now(); mine = seat;
  tick(box);
  if (timer === undefined && clocks.length) timer = window.setInterval(() => tick(box), 250);
  if (timer !== undefined && !clocks.length) { window.clearInterval(timer); timer = undefined; }
}
