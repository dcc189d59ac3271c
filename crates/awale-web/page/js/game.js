// The game on the board and what the person does to it. The page shows
// one game at a time; every request, answer and live event belongs to the
// game it was made for, and is dropped when the page has moved on to
// another (a new game started while the computer thinks, a game opened
// from the list). The server holds the truth: this module asks and shows.

import { api } from "./api.js";
import { listen } from "./live.js";
import { isLocal, stopThinking } from "./local.js";
import { saveJson } from "./settings.js";

export const session = {
  id: null, // the game shown
  game: null, // the server's view of it, as drawn once animations are done
  latest: null, // the last view received (drawn, or waiting for its sowing)
  epoch: 0, // changes with the game shown: work of an older epoch is dropped
  busy: false, // a request of this page about this game is under way
  animating: null, // {view, ply} while a move is being sown on the board
  thinking: null, // the computer's search ({depth}) while it thinks
  hint: null, // the last hint, for the position it was asked in
  replayAt: null, // the ply shown when stepping through the game
  clock: null, // {left_ms, running, at}: the server's clock when received
  queue: Promise.resolve(), // animations, one after the other
  live: null,
  offline: false, // the live stream is lost (the server or the network is down)
  lostAt: null, // when, while the clocks wait for the server's word
};

// What the play view provides: redraw, animate a ply, show an error.
const hooks = { render() {}, animate: async () => {}, error() {} };

// Other modules' listeners of the game shown's live events: `chat`,
// `chat_removed` (a line a moderator removed), `reaction`, `presence`
// (online games), `state` (each whole view),
// `stream` (the first view of each connection, with `you`) and
// `connection` (the stream lost, false, or back, true).
const listeners = { chat: [], chat_removed: [], reaction: [], presence: [], state: [], stream: [], connection: [] };

// An event of no such name is a mistake of the page's own: said at once,
// rather than left to stop whatever starts the page.
export function onLive(name, f) {
  if (!listeners[name]) throw new Error(`no live event "${name}"`);
  listeners[name].push(f);
}

function tell(name, data) {
  for (const f of listeners[name]) f(data);
}

export function setHooks(h) {
  Object.assign(hooks, h);
}

// Whether work started in `epoch` still concerns the game shown.
export function current(epoch) {
  return epoch === session.epoch;
}

// Shows game `id` (its view comes later, from `apply`): drops everything
// about the game shown before, and listens to the new one's live events.
export function select(id) {
  if (session.id === id && session.live) return;
  session.epoch++;
  if (session.live) session.live.close();
  // The page's own engine stops thinking about a game no longer shown.
  if (isLocal(session.id) && session.thinking) stopThinking();
  Object.assign(session, {
    id, game: null, latest: null, busy: false, animating: null, thinking: null, hint: null,
    replayAt: null, clock: null, queue: Promise.resolve(), live: null, offline: false, lostAt: null,
  });
  // A game kept in the browser has no live events: the page plays it.
  if (id !== null && !isLocal(id)) {
    const epoch = session.epoch;
    const told = (name) => (data) => current(epoch) && tell(name, data);
    session.live = listen(id, {
      state: (view) => {
        if (current(epoch) && view.you !== undefined) tell("stream", view);
        onLiveState(view, epoch);
        if (current(epoch)) tell("state", view);
      },
      chat: told("chat"),
      chat_removed: told("chat_removed"),
      reaction: told("reaction"),
      presence: told("presence"),
      move: (event) => onLiveMove(event, epoch),
      clock: (now) => {
        if (!current(epoch) || now.id !== session.id) return;
        setClock(now.clock);
        hooks.render();
      },
      connection: (up) => {
        if (!current(epoch) || up === !session.offline) return;
        session.offline = !up;
        // The clocks wait while the server cannot be heard: they go on
        // from what it says once back.
        if (!up) session.lostAt = Date.now();
        tell("connection", up);
        hooks.render();
      },
      thinking: (info) => {
        if (!current(epoch)) return;
        // Only how deep it looks: never its line or its score, which would
        // be free hints in the middle of a game.
        session.thinking = { depth: info.depth };
        hooks.render();
      },
    });
  }
  hooks.render();
}

// The clock as the server sent it: the page counts down from there.
function setClock(c) {
  session.clock = c && c.left_ms ? { left_ms: c.left_ms.slice(), running: c.running, at: Date.now() } : null;
  session.lostAt = null;
}

// How `view` compares with `than` in the game's history, by the version
// of the last event each saw: 1 later, 0 the same moment, -1 earlier.
// Versions of two histories (the server restarted) cannot be compared:
// the one just received is taken.
function compare(view, than) {
  const a = view && view.version;
  const b = than && than.version;
  if (!a || !b || a.epoch !== b.epoch) return 1;
  return Math.sign(a.number - b.number);
}

// Shows `view`, a view of the game shown (any other is dropped), sowing
// the moves that are new since the one shown when `animate` and there are
// one or two. Resolves once it is on the board.
export function apply(view, animate) {
  if (!view || view.id !== session.id) return Promise.resolve(false);
  const epoch = session.epoch;
  // Views sent to every viewer do not say which sides this one plays.
  if (view.you === undefined && session.latest) view.you = session.latest.you;
  session.latest = view;
  // Who shows something beside the game (a tournament's berserk button,
  // asked again of the server) hears of each view.
  document.dispatchEvent(new CustomEvent("awale-game-view", { detail: view }));
  setClock(view.clock);
  session.queue = session.queue.then(async () => {
    if (!current(epoch)) return;
    const old = session.game;
    if (old && view.plies.length < old.plies.length) session.hint = null;
    const added = old ? view.plies.length - old.plies.length : 0;
    const fresh = animate && old && old.start === view.start && added > 0 && added <= 2 &&
      view.plies[old.plies.length - 1]?.move === old.plies[old.plies.length - 1]?.move;
    if (fresh && session.replayAt === null) {
      for (let k = old.plies.length; k < view.plies.length; k++) {
        session.animating = { view, ply: k };
        hooks.render();
        await hooks.animate(view, k, () => current(epoch));
        if (!current(epoch)) return;
      }
    }
    session.animating = null;
    session.game = view;
    saveJson("awale.last", view);
    hooks.render();
  }).catch((e) => hooks.error(e));
  return session.queue.then(() => current(epoch));
}

function onLiveState(view, epoch) {
  if (!current(epoch) || view.id !== session.id) return;
  // The page's own requests show their answers; this brings the rest:
  // another tab, a search that went on after a reload, a fall of the flag.
  const order = compare(view, session.latest);
  if (order <= 0) {
    if (order === 0) setClock(view.clock);
    return;
  }
  session.thinking = null;
  apply(view, true).then((still) => {
    if (still) computerIfDue();
  });
}

// One more move: added to the last view when it follows it, else the
// whole game is asked for.
function onLiveMove(event, epoch) {
  if (!current(epoch) || event.id !== session.id) return;
  const base = session.latest;
  const { index, ply, ...head } = event;
  if (base && index < base.plies.length) return; // already here
  session.thinking = null;
  if (!base || index > base.plies.length) {
    reload(epoch);
    return;
  }
  apply({ ...base, ...head, plies: base.plies.concat([ply]) }, true).then((still) => {
    if (still) computerIfDue();
  });
}

// Opens game `id` from the server.
export async function open(id) {
  select(id);
  const epoch = session.epoch;
  const view = await api("GET", `/api/games/${id}`);
  if (!current(epoch)) return false;
  // A game played offline and sent to the server since: the server's.
  if (view.id !== id) select(view.id);
  await apply(view, false);
  if (current(epoch)) computerIfDue();
  return current(epoch);
}

// Shows a game whose view the page already has (just created, imported).
export async function show(view) {
  select(view.id);
  await apply(view, false);
  computerIfDue();
}

// Runs `request` (which gets the game and returns its new view) for the
// game shown, one at a time; the answer is shown if the page still shows
// that game. A stale game (changed elsewhere) is loaded again.
export async function act(request, animate = true) {
  const g = session.game;
  if (!g || session.busy || session.animating) return;
  const epoch = session.epoch;
  session.busy = true;
  hooks.render();
  try {
    const view = await request(g);
    if (current(epoch) && view) await apply(view, animate);
  } catch (e) {
    if (!current(epoch)) return;
    if (e.code === "stale") await reload(epoch);
    hooks.error(e);
  } finally {
    if (current(epoch)) {
      session.busy = false;
      hooks.render();
      computerIfDue();
    }
  }
}

async function reload(epoch) {
  try {
    const view = await api("GET", `/api/games/${session.id}`);
    if (current(epoch)) await apply(view, true);
  } catch (e) {
    // Shown by the caller's error, or the next event brings the game.
  }
}

// Shows that the computer thinks when it is its turn. The server plays
// the computer's move by itself once the person's is stored; it comes as
// a live event (or with the game, to a page opened later).
export function computerIfDue() {
  const g = session.game;
  if (!g || !g.computer_to_move || session.thinking) return;
  session.thinking = { depth: 0 };
  hooks.render();
  // A game kept in the browser: the page's own engine plays it (local.js).
  if (isLocal(g.id)) playLocally(g);
}

async function playLocally(g) {
  const epoch = session.epoch;
  try {
    const view = await api("POST", `/api/games/${g.id}/computer`, { ply: g.plies.length });
    if (!current(epoch)) return;
    session.thinking = null;
    await apply(view, true);
  } catch (e) {
    if (!current(epoch)) return;
    session.thinking = null;
    hooks.render();
    if (e.code !== "stale") hooks.error(e);
  }
}

// Plays `letter` for the person.
export function play(letter) {
  return act(async (g) => {
    // The answer is the move and what it changed; the page has the rest.
    const answer = await api("POST", `/api/games/${g.id}/moves?answer=move`, { move: letter, ply: g.plies.length });
    const { index, ply, ...head } = answer;
    // The computer's answer may come as a live event before this answer.
    const latest = session.latest;
    if (latest && latest.plies.length > index + 1 && latest.plies[index]?.move === ply.move) return null;
    if (index === g.plies.length) return { ...g, ...head, plies: g.plies.concat([ply]) };
    // Played already (sent twice) or the game moved on: the whole game.
    return api("GET", `/api/games/${g.id}`);
  });
}

export function undo() {
  return act((g) => api("POST", `/api/games/${g.id}/undo`, { ply: g.plies.length }), false);
}

export function redo() {
  return act((g) => api("POST", `/api/games/${g.id}/redo`, { ply: g.plies.length }));
}

export function resign(side) {
  return act((g) => api("POST", `/api/games/${g.id}/resign`, side ? { side } : {}), false);
}

export function hint() {
  return act(async (g) => {
    const h = await api("POST", `/api/games/${g.id}/hint`);
    if (session.game === g) session.hint = h;
    return null;
  });
}

// The time left of each side now, counted down from the last clock the
// server sent; the side that lost on time shows 0.
export function timeLeft() {
  const g = session.game;
  const c = session.clock;
  if (!g || !g.clock || !c) return null;
  const left = c.left_ms.slice();
  if (c.running && !g.end) {
    const i = c.running === "S" ? 0 : 1;
    left[i] = Math.max(0, left[i] - ((session.lostAt ?? Date.now()) - c.at));
  }
  if (g.end && g.end.reason === "time") {
    const loser = g.end.loser_by || (g.end.winner === "S" ? "N" : "S");
    left[loser === "S" ? 0 : 1] = 0;
  }
  return left;
}
