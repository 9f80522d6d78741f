// The live board page: the server's PNG with its hotspots as a clickable overlay. Clicking walks the picks of
// the viewer's legal moves as a prefix tree (like the move builder); the final click posts the move with the
// ply it was made on. A WebSocket says when the game changed, and the page reloads its view. A secret choice
// (Zodiac's duel pick and king) is offered as buttons to its player only; the replay controls step through the
// history as this viewer saw it; the clocks count down. The board image of a change is fetched as soon as the
// change is announced, beside the view (not after it), and shown once decoded: the old board stays until then.

import { boardAccess } from "./activity";
import { Pick, Move, descend, nextPicks, finished } from "./picks";
import { Clock, showClocks } from "./clocks";
import { Replay, Step } from "./replay";

interface Hotspot { shape: "rect" | "circle" | "polygon"; points: number[] }
interface View {
  game_id: number; game: string; title: string; status: string; ply: number; version: number;
  seat: number | null;
  hotspots: Record<string, Hotspot>; picks: Move[]; secret: boolean; result: { reason?: string } | null;
  clocks: Clock[];
}

const SVG = "http://www.w3.org/2000/svg";
let gameId = 0; // from the board link, or from Discord's sign-in inside an Activity (activity.ts)
let token = "";
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
let image = $<HTMLImageElement>("image");
const overlay = document.getElementById("overlay") as unknown as SVGSVGElement;

let view: View | null = null;
let chosen: Pick[] = [];
let marks: number[] = []; // length of `chosen` after each player's click
let loading = 0;
let posting = false;
const replay = new Replay();
let stepping = 0; // the replay's own ticket: a live change arriving meanwhile must not drop the step asked for

/** The board image at `url`, decoded off screen (null: refused, e.g. the game moved past that ply). */
async function fetchBoard(url: string): Promise<HTMLImageElement | null> {
  const next = new Image();
  next.src = url;
  try { await next.decode(); return next; } catch { return null; }
}

/** The decoded image takes the place of the shown one (which stays until then). */
function showBoard(next: HTMLImageElement): void {
  next.id = image.id; next.alt = image.alt;
  image.replaceWith(next);
  image = next;
}

const boardUrl = (ply: number, version: number) =>
  `/api/games/${gameId}/board.png?ply=${ply}&v=${version}&t=${encodeURIComponent(token)}`;

/** The image fetched ahead when a change was announced: of the announced ply and version (a push from another
 * process, which knows no ply, makes the page guess the next one after the last guess or the view). The view's
 * own image URL is the same, so the load takes this one instead of asking again; a wrong guess is refused (409)
 * and costs one request. */
let ahead: { ply: number; url: string; ready: Promise<HTMLImageElement | null> } | null = null;

function fetchAhead(version: number, announced: number | null): void {
  if (!view || replay.at !== null || view.status !== "active" || version <= view.version) return;
  const ply = announced ?? (ahead && ahead.ply > view.ply ? ahead.ply : view.ply) + 1;
  const url = boardUrl(ply, version);
  if (ahead?.url !== url) ahead = { ply, url, ready: fetchBoard(url) };
}

async function api(path: string, init?: RequestInit): Promise<Response> {
  return fetch(`/api/games/${gameId}/${path}`, {
    ...init, headers: { ...(init?.headers ?? {}), Authorization: `Bearer ${token}` },
  });
}

function showError(text: string | null): void {
  const box = $("error");
  box.textContent = text ?? "";
  box.hidden = !text;
}

async function errorOf(response: Response): Promise<string> {
  try { return (await response.json()).error ?? response.statusText; } catch { return response.statusText; }
}

async function load(): Promise<void> {
  const ticket = ++loading;
  document.body.dataset.state = "loading";
  const response = await api("view");
  if (ticket !== loading) return;
  if (!response.ok) {
    if (response.status === 401) { refuse(await errorOf(response)); return; }
    showError(await errorOf(response)); document.body.dataset.state = "error"; return;
  }
  const fresh: View = await response.json();
  if (ticket !== loading) return;
  document.body.dataset.viewed = String(Date.now());
  if (replay.at !== null) { // stepping through the history: keep the step shown, count the new plies
    view = fresh;
    showClocks($("clocks"), fresh.clocks, fresh.seat);
    drawReplay();
    document.body.dataset.state = "ready";
    return;
  }
  const src = boardUrl(fresh.ply, fresh.version);
  const decoded = await (ahead?.url === src ? ahead.ready : fetchBoard(src));
  if (ticket !== loading) return;
  if (!decoded) { setTimeout(load, 200); return; } // the game moved on while loading: again
  showBoard(decoded);
  view = fresh;
  chosen = []; marks = [];
  chosen = descend(view.picks, chosen, false);
  showClocks($("clocks"), view.clocks, view.seat);
  draw();
  document.body.dataset.ply = String(view.ply);
  document.body.dataset.shown = String(Date.now());
  document.body.dataset.state = "ready";
}

function shape(spot: Hotspot): SVGElement {
  const p = spot.points;
  if (spot.shape === "circle") {
    const c = document.createElementNS(SVG, "circle");
    c.setAttribute("cx", String(p[0])); c.setAttribute("cy", String(p[1])); c.setAttribute("r", String(p[2]));
    return c;
  }
  if (spot.shape === "rect") {
    const r = document.createElementNS(SVG, "rect");
    r.setAttribute("x", String(p[0])); r.setAttribute("y", String(p[1]));
    r.setAttribute("width", String(p[2] - p[0])); r.setAttribute("height", String(p[3] - p[1]));
    return r;
  }
  const g = document.createElementNS(SVG, "polygon");
  const pairs: string[] = [];
  for (let i = 0; i + 1 < p.length; i += 2) pairs.push(`${p[i]},${p[i + 1]}`);
  g.setAttribute("points", pairs.join(" "));
  return g;
}

function statusText(v: View, next: Pick[]): string {
  if (v.status !== "active") return v.result?.reason ? `Game over: ${v.result.reason}` : `Game ${v.status}.`;
  if (v.seat === null) return "You are watching.";
  if (posting) return "Playing…";
  if (v.secret) return "Your secret choice: only you see these options.";
  if (!v.picks.length) return "Waiting for the other side…";
  if (!next.length) return "Your move.";
  return `Your move: choose ${/^[aeiou]/i.test(next[0].kind) ? "an" : "a"} ${next[0].kind}.`;
}

function draw(): void {
  if (!view) return;
  const v = view;
  $("title").textContent = v.status === "active" ? `${v.title} #${v.game_id} · move ${v.ply + 1}`
    : `${v.title} #${v.game_id} · ${v.ply} moves`;
  // The whole board in view on a wide screen: as wide as the window's height allows (CSSOM, allowed by the CSP).
  $("board").style.maxWidth = `max(320px, calc((100vh - 150px) * ${image.naturalWidth / image.naturalHeight}))`;
  const next = posting ? [] : nextPicks(v.picks, chosen);
  $("status").textContent = statusText(v, next);
  overlay.setAttribute("viewBox", `0 0 ${image.naturalWidth} ${image.naturalHeight}`);
  overlay.replaceChildren();
  const offered = new Map<string, Pick[]>();
  for (const pick of next) if (pick.target) offered.set(pick.target, [...(offered.get(pick.target) ?? []), pick]);
  const picked = new Set(chosen.map((p) => p.target).filter((t): t is string => !!t));
  for (const [target, spot] of Object.entries(v.hotspots)) {
    const el = shape(spot);
    el.dataset.target = target;
    el.classList.add("spot");
    const picks = offered.get(target);
    if (picks) {
      el.classList.add("offered");
      const title = document.createElementNS(SVG, "title");
      title.textContent = picks.map((p) => p.label).join(" / ");
      el.appendChild(title);
      el.addEventListener("click", () => (picks.length === 1 ? choose(picks[0]) : offer(picks)));
    } else if (picked.has(target)) {
      el.classList.add("picked");
    }
    overlay.appendChild(el);
  }
  offer(next.filter((p) => !p.target));
  const done = posting ? null : finished(v.picks, chosen);
  if (done) { // only one move was left, taken for the player: one press plays it
    const play = document.createElement("button");
    play.type = "button";
    play.textContent = `Play ${done.move}`;
    play.addEventListener("click", () => void post(done));
    $("choices").appendChild(play);
  }
  $("back").hidden = !marks.length;
  $("cancel").hidden = !marks.length;
  drawReplay();
}

function drawReplay(): void {
  if (!view) return;
  const newest = view.ply, at = replay.at;
  $<HTMLButtonElement>("first").disabled = $<HTMLButtonElement>("prev").disabled = at === 0 || newest === 0;
  $<HTMLButtonElement>("next").disabled = $<HTMLButtonElement>("last").disabled = at === null;
  $("at").textContent = at === null ? `${newest} / ${newest}` : `${at} / ${newest}`;
  $("replay-label").textContent = at !== null && replay.step ? replay.step.label : "";
  document.body.dataset.replay = at === null ? "" : String(at);
  if (at === null) return;
  $("title").textContent = `${view.title} #${view.game_id} · replay`;
  $("status").textContent = at === newest ? "The newest position: press ▶| to play on." : `Move ${at} of ${newest}.`;
  overlay.replaceChildren();
  $("choices").replaceChildren();
  $("back").hidden = $("cancel").hidden = true;
}

/** Show ply `to` as this viewer saw it (null: back to the live board). */
async function stepTo(to: number | null): Promise<void> {
  if (!view) return;
  replay.at = to;
  if (to === null) { replay.step = null; document.body.dataset.replay = ""; await load(); return; }
  const ticket = ++stepping;
  document.body.dataset.state = "loading";
  const response = await api(`replay?ply=${to}`);
  if (ticket !== stepping || replay.at !== to) return;
  if (response.status === 401) { refuse(await errorOf(response)); return; }
  if (!response.ok) { showError(await errorOf(response)); document.body.dataset.state = "ready"; return; }
  replay.step = await response.json() as Step;
  const decoded = await fetchBoard(`/api/games/${gameId}/board.png?at=${to}&t=${encodeURIComponent(token)}`);
  if (ticket !== stepping || replay.at !== to) return;
  if (decoded) showBoard(decoded);
  drawReplay();
  document.body.dataset.state = "ready";
}

function offer(picks: Pick[]): void {
  const box = $("choices");
  box.replaceChildren(...picks.map((pick) => {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = pick.label;
    button.addEventListener("click", () => choose(pick));
    return button;
  }));
}

function choose(pick: Pick): void {
  if (!view || posting) return;
  document.body.dataset.clicked = String(Date.now());
  chosen = descend(view.picks, [...chosen, pick]);
  marks.push(chosen.length);

  const done = finished(view.picks, chosen);
  if (done) { void post(done); return; }
  draw();
}

function back(): void {
  if (!view) return;
  marks.pop();

  const keep = marks.length ? marks[marks.length - 1] : 0;
  chosen = keep ? chosen.slice(0, keep) : descend(view.picks, [], false);
  draw();
}

async function post(move: Move): Promise<void> {
  if (!view) return;
  posting = true;
  document.body.dataset.state = "posting";
  draw();
  const response = await api("move", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ move: move.move, ply: view.ply }),
  });
  posting = false;
  showError(response.ok ? null : await errorOf(response));
  await load();
}

let retry = 500;
let refused = false; // the server refused the token: no use trying again (until the Activity renews it)
let socket: WebSocket | null = null;

/** The token is refused (a bad link, or one that expired since the page opened): the server's reason shown, the
 * board marked as no longer live (dimmed, nothing to click, no clocks), and no more reconnecting, which would only
 * be refused again. Without this a page whose link expired showed its old board as if it were live, forever. */
function refuse(reason: string): void {
  refused = true;
  showError(reason);
  document.body.dataset.state = "error";
  document.body.dataset.live = "no";
  socket?.close();
  if (!view) return;
  $("status").textContent = "Not live: this board no longer follows the game.";
  $("board").before($("error")); // the reason under the status, not below the board where a phone hides it
  overlay.replaceChildren(); $("choices").replaceChildren();
  $("back").hidden = $("cancel").hidden = true;
  for (const id of ["first", "prev", "next", "last"]) $<HTMLButtonElement>(id).disabled = true;
  showClocks($("clocks"), [], view.seat);
}

/** The Activity renewed a token the server had refused (its renewal was late): live again. */
function resume(): void {
  refused = false;
  delete document.body.dataset.live;
  showError(null);
  retry = 500;
  connect();
}

/** After a reconnection failed: does the server still take the token? The view answers, with the reason if not
 * (a 401: the page stops); no answer (the server is away) or any other leaves the page retrying. */
async function checkToken(): Promise<void> {
  const response = await api("view").catch(() => null);
  if (response?.status === 401) refuse(await errorOf(response));
}

function connect(): void {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const live = new WebSocket(`${scheme}://${location.host}/api/games/${gameId}/live?t=${encodeURIComponent(token)}`);
  socket = live;
  let opened = false;
  live.onopen = () => { opened = true; retry = 500; void load(); }; // anything missed while away is in the view
  live.onmessage = (event) => {
    const data = JSON.parse(String(event.data));
    document.body.dataset.heard = String(Date.now()); // for the latency test: when the push arrived
    if (data.type !== "changed") return;
    if (typeof data.version === "number") fetchAhead(data.version, typeof data.ply === "number" ? data.ply : null);
    if (!posting) void load();
  };
  live.onclose = async () => {
    // Refused? The view says why, and whether to retry: at once (a bad link), or after a restart or a network drop
    // (a link that expired meanwhile: the server refuses the upgrade alone, and the close event cannot say why).
    if (!opened && !refused) await (view ? checkToken() : load().catch(() => undefined));
    if (refused || socket !== live) return;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  };
}

$("back").addEventListener("click", back);
for (const button of ["first", "prev", "next", "last"] as const) {
  $(button).addEventListener("click", () => { if (view) void stepTo(replay.target(button, view.ply)); });
}
document.addEventListener("keydown", (event) => { // ← and → step through the history too
  const button = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
  if (button && view && !(event.target instanceof HTMLInputElement)) $(button).click();
});
$("cancel").addEventListener("click", () => { marks = []; chosen = view ? descend(view.picks, [], false) : []; draw(); });
boardAccess((fresh) => { token = fresh; if (refused && view) resume(); }).then(
  (access) => { ({ gameId, token } = access); connect(); },
  (error) => { showError(String(error?.message ?? error)); document.body.dataset.state = "error"; });
