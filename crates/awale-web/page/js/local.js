// Play without a network. When the server cannot be reached, api.js asks
// here: games against the computer (every level that needs no database)
// and between two people on one screen are played in the browser with
// the engine in WebAssembly (engine.js), kept in IndexedDB, and sent to
// the server (POST /api/uploads, once per game by its key) when the
// network is back, so that they appear in My games. The lessons and the
// analysis board sow and analyse here too. Answers have the server's
// shapes, so the views do not know where they come from.

import { ApiError } from "./api-error.js";
import { ask, reset } from "./engine.js";
import { loadJson } from "./settings.js";

const DB_NAME = "awale-offline";
const STORE = "games";
const PREFIX = "offline-";
// The engine's time for a hint or an analysis (the server's hint time).
const THINK_MS = 1000;

let opened = null;

function db() {
  opened = opened || new Promise((resolve, reject) => {
    const r = indexedDB.open(DB_NAME, 1);
    r.onupgradeneeded = () => r.result.createObjectStore(STORE, { keyPath: "id" });
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
  return opened;
}

async function store(mode, work) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const tx = d.transaction(STORE, mode);
    const r = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(r && r.result);
    tx.onerror = () => reject(tx.error);
  });
}

const load = (id) => store("readonly", (s) => s.get(id));
const save = (g) => store("readwrite", (s) => s.put(g));
const all = () => store("readonly", (s) => s.getAll());

// Whether `id` names a game kept in this browser.
export function isLocal(id) {
  return typeof id === "string" && id.startsWith(PREFIX);
}

function randomKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function refuse(code, message) {
  return new ApiError(0, code, message || code);
}

// The view of stored game `g`, in the shape of the server's GameView.
async function view(g) {
  const rules = await ask({ op: "game", rules: g.rules, start: g.start, moves: g.moves, resigned: g.resigned || undefined });
  const human = g.mode === "computer" ? g.human : null;
  return {
    ...rules,
    id: g.id,
    // Against the computer, back to the person's last move.
    can_undo: !!g.resigned || rules.plies.some((p) => !human || p.side === human),
    can_redo: g.redo.length > 0 && !g.resigned,
    computer_to_move: !!human && !rules.end && rules.to_move !== human,
    // The server's fair-play rule for a game kept in the browser (no
    // clock, never online): a hint on the person's turn, a review once over.
    can_hint: !rules.end && !(!!human && rules.to_move !== human),
    can_review: !!rules.end && rules.end.reason !== "aborted",
    clock: null,
    waiting: false,
    turn_elapsed_ms: 0,
    offers: { takeback: null, rematch: null, rematch_id: null },
    created_ms: g.created_ms,
    mode: g.mode,
    human,
    level: g.mode === "computer" ? g.level : null,
    seats: [null, null],
    public: false,
    you: human ? [human] : ["S", "N"],
    offline: true,
  };
}

// A summary for My games, in the shape of the server's list.
function summary(g, v) {
  return {
    id: g.id,
    created_ms: g.created_ms,
    updated_ms: g.updated_ms,
    mode: g.mode,
    human: g.mode === "computer" ? g.human : null,
    level: g.mode === "computer" ? g.level : null,
    rules: g.rules,
    rules_view: v.rules,
    plies: v.plies.length,
    result: v.end ? v.end.result : "*",
    reason: v.end ? v.end.reason : null,
    names: [null, null],
    offline: true,
  };
}

async function create(body) {
  const mode = body.mode || "computer";
  if (mode === "online") throw refuse("needs_network");
  if (mode !== "computer" && mode !== "humans") throw refuse("bad_mode");
  if (body.clock) throw refuse("offline_clock");
  // The engine fills in the default level and refuses the one that plays
  // from the server's endgame databases (needs_server).
  const level =
    mode === "computer"
      ? (await ask({ op: "level", level: body.level === undefined ? undefined : Number(body.level) })).level
      : null;
  const start = body.position || (await ask({ op: "new", rules: body.rules })).start;
  let human = body.human || "S";
  if (human === "random") human = crypto.getRandomValues(new Uint8Array(1))[0] & 1 ? "N" : "S";
  const now = Date.now();
  const g = {
    id: PREFIX + now.toString(36) + Math.floor(Math.random() * 1296).toString(36),
    key: randomKey(),
    rules: body.rules || "awale",
    start,
    moves: "",
    redo: "",
    mode,
    human,
    level,
    resigned: null,
    created_ms: now,
    updated_ms: now,
    uploaded: null,
  };
  await ask({ op: "game", rules: g.rules, start: g.start }); // checks the rules and the start
  await save(g);
  return view(g);
}

async function changed(g, moves, redo) {
  g.moves = moves;
  g.redo = redo;
  g.updated_ms = Date.now();
  await save(g);
  const v = await view(g);
  if (v.end) sync();
  return v;
}

// What to do with `/api/games/offline-...[/action]`.
async function onGame(method, id, action, body) {
  const g = await load(id);
  if (!g) throw new ApiError(404, "no_such_game", `no game with id \`${id}\``);
  if (g.uploaded && method === "GET" && !action) {
    // Sent to the server since: the server's copy.
    return null;
  }
  if (method === "GET" && action === "record") {
    // Its record with the server's tags, in the notation other Oware
    // programs read (the engine writes it as the server does).
    return ask({
      op: "record", rules: g.rules, start: g.start, moves: g.moves, resigned: g.resigned || undefined,
      human: g.mode === "computer" ? g.human : undefined, level: g.mode === "computer" ? g.level : undefined,
      created_ms: g.created_ms, id: g.id,
    });
  }
  const v = await view(g);
  const stale = () => body && body.ply !== undefined && body.ply !== v.plies.length;
  if (method === "GET" && !action) return v;
  if (g.uploaded) throw refuse("game_over", "the game is over");
  switch (action) {
    case "moves": {
      if (stale()) throw new ApiError(409, "stale", "the game has moved on");
      if (v.end) throw new ApiError(409, "game_over", "the game is over");
      if (v.computer_to_move) throw new ApiError(409, "not_your_turn", "not your turn");
      const letter = String(body && body.move);
      if (!v.legal.includes(letter)) {
        const why = await ask({ op: "position", rules: g.rules, position: v.position });
        const hole = why.moves.find((m) => m.move === letter);
        throw new ApiError(422, "illegal_move", hole && hole.message ? hole.message : `${letter} cannot be played`);
      }
      const next = await changed(g, g.moves + letter, "");
      return { ...next, index: next.plies.length - 1, ply: next.plies[next.plies.length - 1] };
    }
    case "computer": {
      if (stale()) throw new ApiError(409, "stale", "the game has moved on");
      if (!v.computer_to_move) throw new ApiError(409, "not_computer_turn", "not the computer's turn");
      const seed = crypto.getRandomValues(new Uint32Array(1))[0];
      const answer = await ask({ op: "computer", rules: g.rules, start: g.start, moves: g.moves, level: g.level, seed });
      const fresh = await load(id);
      if (!fresh || fresh.moves !== g.moves) throw new ApiError(409, "stale", "the game has moved on");
      return changed(fresh, fresh.moves + answer.move, "");
    }
    case "undo": {
      if (!v.can_undo) throw new ApiError(409, "nothing_to_undo", "no move to take back");
      let moves = g.moves;
      let redo = g.redo;
      let resigned = g.resigned;
      if (resigned) {
        g.resigned = null;
        return changed(g, moves, redo);
      }
      // Against the computer, back to a position where the person moves.
      do {
        redo = moves.slice(-1) + redo;
        moves = moves.slice(0, -1);
        const back = await ask({ op: "game", rules: g.rules, start: g.start, moves });
        if (v.mode !== "computer" || back.to_move === g.human) break;
      } while (moves.length);
      return changed(g, moves, redo);
    }
    case "redo": {
      if (!v.can_redo) throw new ApiError(409, "nothing_to_redo", "no move to play again");
      let moves = g.moves;
      let redo = g.redo;
      do {
        moves += redo[0];
        redo = redo.slice(1);
        const after = await ask({ op: "game", rules: g.rules, start: g.start, moves });
        if (v.mode !== "computer" || after.to_move === g.human || after.end) break;
      } while (redo.length);
      return changed(g, moves, redo);
    }
    case "resign": {
      if (v.end) throw new ApiError(409, "game_over", "the game is over");
      const side = (body && body.side) || (g.mode === "computer" ? g.human : v.to_move);
      g.resigned = side;
      return changed(g, g.moves, "");
    }
    case "hint": {
      const h = await ask({ op: "hint", rules: g.rules, start: g.start, moves: g.moves, time_ms: THINK_MS });
      return h;
    }
    default:
      // The review, chat and the rest are the server's.
      throw refuse("needs_network");
  }
}

// The server's answer to `method path body` when the path names a game
// kept here (whatever the network), else undefined.
export async function own(method, path, body) {
  const m = path.match(/^\/api\/games\/(offline-[a-z0-9]+)(?:\/([a-z]+))?(?:\?.*)?$/);
  if (!m) return undefined;
  return onGame(method, m[1], m[2], body);
}

// The answer without the server (the network is down): undefined for
// what only the server does.
export async function offline(method, path, body) {
  const url = new URL(path, location.href);
  const route = `${method} ${url.pathname}`;
  const q = url.searchParams;
  switch (route) {
    case "POST /api/games":
      return create(body || {});
    case "GET /api/games/current": {
      const going = [];
      for (const g of await all()) {
        if (g.uploaded) continue;
        const v = await view(g);
        if (!v.end) going.push([g.updated_ms, v]);
      }
      going.sort((a, b) => b[0] - a[0]);
      return { game: going.length ? going[0][1] : null };
    }
    case "GET /api/games":
      return { games: await pendingSummaries(), next: null };
    case "GET /api/info": {
      const info = loadJson("awale.info");
      return info || undefined;
    }
    case "GET /api/study/position":
      return ask({ op: "position", position: q.get("position"), rules: q.get("rules") || undefined });
    case "POST /api/study/analysis":
      return ask({ op: "analysis", ...body, time_ms: THINK_MS });
    default:
      return undefined;
  }
}

// The games kept here and not yet sent, newest first, as My games lists
// them.
export async function pendingSummaries() {
  let games;
  try {
    games = (await all()).filter((g) => !g.uploaded);
  } catch (e) {
    return [];
  }
  games.sort((a, b) => b.updated_ms - a.updated_ms);
  const out = [];
  for (const g of games) out.push(summary(g, await view(g)));
  return out;
}

// The server's id of local game `id` once it was sent, else null.
export async function uploadedAs(id) {
  const g = await load(id);
  return g && g.uploaded ? g.uploaded : null;
}

let syncing = null;

// Sends the finished games kept here to the server, each once (its key
// makes a repeated upload harmless). A game still going on stays here
// until it ends, so that none of its moves is left behind. Resolves with
// the number sent.
export function sync() {
  syncing = syncing || (async () => {
    let sent = 0;
    try {
      for (const g of await all()) {
        if (g.uploaded) continue;
        const v = await view(g);
        if (!v.end) continue;
        const res = await fetch("/api/uploads", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            key: g.key, rules: g.rules, start: g.start, moves: g.moves, mode: g.mode,
            human: g.mode === "computer" ? g.human : undefined,
            level: g.mode === "computer" ? g.level : undefined,
            resigned: g.resigned || undefined, created_ms: g.created_ms,
          }),
        });
        if (!res.ok) continue;
        const answer = await res.json();
        g.uploaded = answer.game.id;
        await save(g);
        sent++;
      }
    } catch (e) {
      // Still offline: the next visit or the network's return tries again.
    } finally {
      syncing = null;
    }
    return sent;
  })();
  return syncing;
}

export { reset as stopThinking };
