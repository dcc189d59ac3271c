// Arenas: the list and a new arena's form in the lobby, and a tournament's
// page (#tournament=ID): join, pause, withdraw, berserk; the standings as
// the server sends them (GET /api/tournaments/ID/events), with the flame
// of a streak; the top game to watch; the podium at the end. A player in
// the arena is sent to each new game of theirs, and back here once it
// ends.

import { api } from "./api.js";
import * as arenaChat from "./arena-chat.js";
import { getLang, t } from "./i18n.js";
import * as nav from "./nav.js";
import { showError } from "./toast.js";

const $ = (sel) => document.querySelector(sel);

// The tournament followed: its id, the last view, the stream, the viewer's
// game last seen (to go to a new one, and back when it ends).
const state = { id: null, view: null, source: null, you: null, game: null, list: [] };

function clockText(x) {
  const minutes = x.initial_ms / 60000;
  return `${minutes}+${x.increment_ms / 1000}`;
}

function timeText(ms) {
  const fmt = new Intl.DateTimeFormat(getLang() === "fr" ? "fr-FR" : "en-GB", { dateStyle: "short", timeStyle: "short" });
  return fmt.format(new Date(ms));
}

// The lobby's list of arenas.
export async function fillList() {
  try {
    state.list = await api("GET", "/api/tournaments");
  } catch (e) {
    showError(e);
    return;
  }
  renderList();
}

export function renderList() {
  const ul = $("#arena-list");
  if (!ul) return;
  ul.textContent = "";
  if (!state.list.length) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t("arena_none");
    ul.append(li);
  }
  for (const a of state.list) {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = "#tournament=" + a.id;
    link.className = "arena-link";
    link.textContent = a.name;
    const info = document.createElement("span");
    info.className = "muted";
    info.textContent = " · " + [clockText(a), t(a.rated ? "arena_rated" : "arena_casual"), t("arena_minutes", a.minutes), t("arena_state_" + a.state), timeText(a.starts_ms)].join(" · ");
    li.append(link, info);
    ul.append(li);
  }
}

async function create(ev) {
  ev.preventDefault();
  const [each, inc] = $("#arena-clock").value.split("+").map(Number);
  try {
    const made = await api("POST", "/api/tournaments", {
      name: $("#arena-name").value,
      minutes_each: each,
      increment_s: inc,
      rated: $("#arena-rated").checked,
      minutes: Number($("#arena-length").value),
      starts_in_minutes: Number($("#arena-starts").value),
    });
    nav.go({ view: "tournament", tournament: made.id });
  } catch (e) {
    showError(e);
  }
}

// Shows tournament `r.tournament`.
export async function route(r) {
  follow(r.tournament);
  await load();
}

// Follows tournament `id`'s standings (kept while its player plays).
function follow(id) {
  if (state.id === id && state.source) return;
  stopFollowing();
  state.id = id;
  state.view = null;
  state.game = null;
  const source = new EventSource(`/api/tournaments/${id}/events`);
  source.addEventListener("standings", (ev) => {
    let view;
    try {
      view = JSON.parse(ev.data);
    } catch (e) {
      return;
    }
    view.you = state.you;
    view.can_berserk = state.view ? state.view.can_berserk : false;
    view.yours = state.view ? state.view.yours : false;
    changed(view);
  });
  // The viewer's own game, told at once (the standings come at most
  // twice a second).
  source.addEventListener("your_game", (ev) => {
    if (!state.view) return;
    try {
      changed({ ...state.view, your_game: JSON.parse(ev.data).your_game });
    } catch (e) {
      // The next standings name it.
    }
  });
  arenaChat.attach(source, id);
  state.source = source;
}

function stopFollowing() {
  if (state.source) state.source.close();
  state.source = null;
}

async function load() {
  try {
    const view = await api("GET", `/api/tournaments/${state.id}`);
    state.you = view.you;
    changed(view);
  } catch (e) {
    showError(e);
  }
}

function mine(view) {
  return view.you === null || view.you === undefined ? null : view.standings.find((l) => l.number === view.you) || null;
}

// A new view of the tournament: drawn; the viewer sent to their new game,
// or back here when it ended.
function changed(view) {
  const before = state.game;
  state.view = view;
  const me = mine(view);
  // The server names the viewer's own game (their line may be below the
  // standings shown).
  const game = "your_game" in view ? view.your_game : me ? me.game : null;
  state.game = game;
  const here = location.hash === "#tournament=" + view.id;
  if (game && game !== before) {
    nav.go({ view: "play", game });
    // The berserk button's state is the viewer's own: asked again.
    if (view.state !== "finished") setTimeout(refreshMine, 300);
    return;
  }
  if (!game && before && location.hash.startsWith("#game=" + before)) {
    setTimeout(() => {
      if (location.hash.startsWith("#game=" + before)) nav.go({ view: "tournament", tournament: view.id });
    }, 2500);
  }
  if (here) render();
  if (view.state === "finished" && !game && !here) stopFollowing();
}

async function refreshMine() {
  try {
    const view = await api("GET", `/api/tournaments/${state.id}`);
    state.you = view.you;
    state.view = { ...state.view, can_berserk: view.can_berserk };
    renderBerserk();
  } catch (e) {
    // The next standings bring it.
  }
}

function renderBerserk() {
  const b = $("#game-berserk");
  if (!b) return;
  b.hidden = !(state.view && state.view.can_berserk && state.game);
}

export function render() {
  const view = state.view;
  renderList();
  renderBerserk();
  if (!view || $("#view-tournament").hidden) return;
  arenaChat.render();
  $("#arena-title").textContent = view.name;
  $("#arena-info").textContent = [clockText(view), t(view.rated ? "arena_rated" : "arena_casual"), t("arena_minutes", view.minutes), t("arena_players", view.players)].join(" · ");
  const status = $("#arena-status");
  if (view.state === "created") status.textContent = t("arena_starts_at", timeText(view.starts_ms));
  else if (view.state === "started") status.textContent = t("arena_ends_at", timeText(view.ends_ms));
  else status.textContent = t("arena_state_finished");
  const me = mine(view);
  const open = view.state !== "finished";
  $("#arena-join").hidden = !open || (me && (me.presence === "free" || me.presence === "playing"));
  $("#arena-join").textContent = t(me ? "arena_come_back" : "arena_join");
  $("#arena-pause").hidden = !open || !me || me.presence === "paused" || me.presence === "withdrawn";
  $("#arena-withdraw").hidden = !open || !me || me.presence === "withdrawn";
  $("#arena-berserk").hidden = !(view.can_berserk && state.game);
  $("#arena-close").hidden = !open || !view.yours;
  const top = $("#arena-top");
  top.hidden = !view.top_game;
  if (view.top_game) top.href = "#game=" + view.top_game;
  const mineLink = $("#arena-mine");
  mineLink.hidden = !state.game;
  if (state.game) mineLink.href = "#game=" + state.game;
  const podium = $("#arena-podium");
  podium.hidden = !view.podium.length;
  podium.textContent = "";
  for (const l of view.podium) {
    const li = document.createElement("li");
    li.className = "podium-" + l.rank;
    li.textContent = `${l.rank}. ${l.name} · ${t("arena_points", l.score)}`;
    podium.append(li);
  }
  const body = $("#arena-standings");
  body.textContent = "";
  for (const l of view.standings) {
    const tr = document.createElement("tr");
    if (me && l.number === me.number) tr.className = "me";
    const cells = [String(l.rank), l.name, String(l.rating), l.sheet.map((s) => s[1]).join(" "), String(l.score)];
    for (const [i, text] of cells.entries()) {
      const td = document.createElement("td");
      td.textContent = text;
      if (i === 4 && l.on_fire) {
        const flame = document.createElement("span");
        flame.className = "flame";
        flame.textContent = " 🔥";
        flame.title = t("arena_on_fire");
        td.append(flame);
      }
      if (i === 1 && l.presence !== "free" && l.presence !== "playing") {
        const p = document.createElement("span");
        p.className = "muted";
        p.textContent = " (" + t("arena_" + l.presence) + ")";
        td.append(p);
      }
      tr.append(td);
    }
    body.append(tr);
  }
  $("#arena-empty").hidden = view.standings.length > 0;
}

async function act(what) {
  try {
    const view = await api("POST", `/api/tournaments/${state.id}/${what}`, {});
    state.you = view.you;
    changed(view);
    render();
  } catch (e) {
    showError(e);
  }
}

export function setup() {
  $("#arena-form").addEventListener("submit", create);
  $("#arena-join").addEventListener("click", () => act("join"));
  $("#arena-pause").addEventListener("click", () => act("pause"));
  $("#arena-withdraw").addEventListener("click", () => act("withdraw"));
  $("#arena-berserk").addEventListener("click", () => act("berserk"));
  $("#game-berserk").addEventListener("click", () => act("berserk"));
  $("#arena-close").addEventListener("click", () => act("close"));
  arenaChat.setup();
}
