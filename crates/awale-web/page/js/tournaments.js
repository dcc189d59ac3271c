// Tournaments: the list and a new tournament's form in the lobby (an arena
// or a Swiss), and a tournament's page (#tournament=ID): join, pause,
// withdraw, berserk; the standings as the server sends them (GET
// /api/tournaments/ID/events), with the flame of a streak; the top game to
// watch; the podium at the end. A Swiss shows its round, its games, the
// standings with their tie-breaks, the crosstable, the organiser's "start
// the round" and the files to download. A player is sent to each new game
// of theirs, and back here once it ends.

import { api, eventJson } from "./api.js";
import * as arenaChat from "./arena-chat.js";
import { icon, sayEmpty, textEl } from "./dom.js";
import { locale, t } from "./i18n.js";
import { botMark } from "./names.js";
import * as nav from "./nav.js";
import { whileShown } from "./streams.js";
import { showError } from "./toast.js";

const $ = (sel) => document.querySelector(sel);

// The tournament followed: its id, the last view, the stream, the viewer's
// game last seen (to go to a new one, and back when it ends).
// `paused`: its stream closed while the page is left.
// `offset`: the server's clock less the page's (waits and time left are
// counted on the server's); `seen`: the games of this tournament seen, whose
// pages name it.
const state = { id: null, view: null, source: null, paused: false, you: null, game: null, list: [], offset: 0, seen: new Set(), asking: false };

// A duration as minutes and seconds ("2:05").
function duration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The server's time now, as the page reckons it.
function serverNow() {
  return Date.now() + state.offset;
}

// A view just come from the server: its clock against the page's.
function heard(view) {
  if (typeof view.now_ms === "number") state.offset = view.now_ms - Date.now();
}

function clockText(x) {
  const minutes = x.initial_ms / 60000;
  return `${minutes}+${x.increment_ms / 1000}`;
}

function timeText(ms) {
  const fmt = new Intl.DateTimeFormat(locale(), { dateStyle: "short", timeStyle: "short" });
  return fmt.format(new Date(ms));
}

// The lobby's list of arenas.
export async function fillList() {
  try {
    state.list = await api("GET", "/api/tournaments");
  } catch (e) {
    // Without the server the lobby says that it needs the network.
    if (e.code !== "network") showError(e);
    return;
  }
  renderList();
}

// "bots welcome" for a tournament its organiser opened to bots (the
// server's `bots_allowed`), else nothing.
function botsWelcome(facts) {
  return facts.bots_allowed ? [t("arena_bots_welcome")] : [];
}

export function renderList() {
  const ul = $("#arena-list");
  if (!ul) return;
  ul.textContent = "";
  sayEmpty(ul, state.list, t("arena_none"));
  for (const a of state.list) {
    const li = document.createElement("li");
    const link = document.createElement("a");
    link.href = "#tournament=" + a.id;
    link.className = "arena-link";
    link.textContent = a.name;
    const info = document.createElement("span");
    info.className = "muted";
    const length = a.kind === "swiss" ? t("swiss_n_rounds", a.rounds) : t("arena_minutes", a.minutes);
    info.textContent = " · " + [t("arena_kind_" + a.kind), clockText(a), t(a.rated ? "arena_rated" : "arena_casual"), ...botsWelcome(a), length, t("arena_state_" + a.state), timeText(a.starts_ms)].join(" · ");
    li.append(link, info);
    ul.append(li);
  }
}

async function create(ev) {
  ev.preventDefault();
  const [each, inc] = $("#arena-clock").value.split("+").map(Number);
  const common = { name: $("#arena-name").value, minutes_each: each, increment_s: inc, rated: $("#arena-rated").checked, bots_allowed: $("#arena-bots").checked };
  const body = $("#arena-kind").value === "swiss"
    ? { ...common, kind: "swiss", rounds: Number($("#swiss-rounds").value), manual_rounds: $("#swiss-manual").checked }
    : { ...common, minutes: Number($("#arena-length").value), starts_in_minutes: Number($("#arena-starts").value) };
  try {
    const made = await api("POST", "/api/tournaments", body);
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
  state.seen = new Set();
  listenTournament(id);
}

// The stream of tournament `id`.
function listenTournament(id) {
  const source = new EventSource(`/api/tournaments/${id}/events`);
  source.addEventListener("standings", (ev) => {
    const view = eventJson(ev);
    if (view === undefined) return;
    heard(view);
    const before = state.view;
    view.you = state.you;
    view.can_berserk = before ? before.can_berserk : false;
    view.yours = before ? before.yours : false;
    changed(view);
    // The time up or the end: whether berserk is still allowed is the
    // server's to say.
    if (before && before.can_berserk && (before.state !== view.state || before.results_pending !== view.results_pending)) refreshMine();
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
  state.paused = false;
}

// Its page left for another view: the tournament is no longer followed,
// unless the viewer plays in it (sent to each new game, and back): has a
// line, or was sent to a game of it (state.you alone was not enough: in
// arena.rs a player who had just joined was left without the stream
// that sends them back after their game).
export function leave() {
  if ((state.you === null || state.you === undefined) && !state.game) stopFollowing();
}

// Closed while the page is left (streams.js), opened again if it comes
// back.
whileShown(
  () => {
    if (!state.source) return;
    state.source.close();
    state.source = null;
    state.paused = true;
  },
  () => {
    if (!state.paused) return;
    state.paused = false;
    listenTournament(state.id);
  },
);

async function load() {
  try {
    const view = await api("GET", `/api/tournaments/${state.id}`);
    heard(view);
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
  if (game) state.seen.add(game);
  for (const l of view.standings) if (l.game) state.seen.add(l.game);
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
  if (state.asking || state.id === null) return;
  state.asking = true;
  try {
    const view = await api("GET", `/api/tournaments/${state.id}`);
    heard(view);
    state.you = view.you;
    state.view = { ...state.view, can_berserk: view.can_berserk };
    renderBerserk();
    if (!$("#view-tournament").hidden) render();
  } catch (e) {
    // The next standings bring it.
  } finally {
    state.asking = false;
  }
}

function renderBerserk() {
  const b = $("#game-berserk");
  if (!b) return;
  b.hidden = !(state.view && state.view.can_berserk && state.game);
  renderGameTournament();
}

// A game of the tournament followed names it, links back to it and says
// its time left (or that its results are pending).
function renderGameTournament() {
  const box = $("#game-tournament");
  if (!box) return;
  const view = state.view;
  const m = /^#game=([A-Za-z0-9_-]+)/.exec(location.hash);
  const shown = m ? m[1] : null;
  const ofIt = !!(view && shown && state.seen.has(shown));
  box.hidden = !ofIt;
  if (!ofIt) return;
  const link = $("#game-tournament-link");
  link.href = "#tournament=" + view.id;
  link.textContent = t("arena_of_game", view.name);
  let left = "";
  if (view.results_pending) left = t("arena_results_pending");
  else if (!view.swiss && view.state === "started") left = t("arena_time_left", duration(view.ends_ms - serverNow()));
  else if (view.state === "finished") left = t("arena_results_final");
  $("#game-tournament-left").textContent = left;
}

// The viewer looking for an opponent in an arena going on: since when.
function renderWaiting() {
  const p = $("#arena-waiting");
  if (!p) return;
  const view = state.view;
  const me = view && !view.swiss ? mine(view) : null;
  const since = me && typeof me.waiting_ms === "number" ? me.waiting_ms : null;
  p.hidden = since === null;
  if (since !== null) p.textContent = t("arena_looking", duration(serverNow() - since));
}

// Each second: the time waited and the time left, as they run.
function tick() {
  if (!state.view) return;
  renderWaiting();
  renderGameTournament();
}

export function render() {
  const view = state.view;
  renderList();
  renderBerserk();
  if (!view || $("#view-tournament").hidden) return;
  arenaChat.render();
  const swiss = view.swiss || null;
  $("#arena-title").textContent = view.name;
  const length = swiss ? t("swiss_n_rounds", swiss.rounds) : t("arena_minutes", view.minutes);
  $("#arena-info").textContent = [t("arena_kind_" + view.kind), clockText(view), t(view.rated ? "arena_rated" : "arena_casual"), ...botsWelcome(view), length, t("arena_players", view.players)].join(" · ");
  const status = $("#arena-status");
  if (swiss) status.textContent = swissStatus(view, swiss);
  else if (view.state === "created") status.textContent = t("arena_starts_at", timeText(view.starts_ms));
  else if (view.results_pending) status.textContent = t("arena_results_pending");
  else if (view.state === "started") status.textContent = t("arena_ends_at", timeText(view.ends_ms));
  else status.textContent = t("arena_results_final");
  renderWaiting();
  const me = mine(view);
  // Time up, the last games finishing: nobody joins, pauses or ends it.
  const open = view.state !== "finished" && !view.results_pending;
  $("#arena-join").hidden = !open || (me && (me.presence === "free" || me.presence === "playing"));
  $("#arena-join").textContent = t(me ? "arena_come_back" : "arena_join");
  if (swiss) $("#arena-join").hidden = !open || swiss.round_in_play || (me && me.presence !== "withdrawn");
  $("#arena-pause").hidden = !!swiss || !open || !me || me.presence === "paused" || me.presence === "withdrawn";
  $("#arena-withdraw").hidden = !open || !me || me.presence === "withdrawn";
  $("#arena-berserk").hidden = !(view.can_berserk && state.game);
  $("#arena-close").hidden = !open || !view.yours;
  const startRound = $("#swiss-start-round");
  startRound.hidden = !(swiss && view.yours && open && !swiss.round_in_play && (view.state === "created" || swiss.next_round_ready));
  startRound.textContent = view.state === "created" ? t("swiss_start") : t("swiss_start_round", swiss ? swiss.round + 1 : 1);
  $("#arena-table").hidden = !!swiss;
  $("#swiss").hidden = !swiss;
  if (swiss) renderSwiss(view, swiss, me);
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
    // A Swiss's score comes in half points, an arena's in points.
    const score = swiss ? pointsWords(l.score) : t("arena_points", l.score);
    const li = textEl("li", "podium-" + l.rank, `${l.rank}. ${l.name}`);
    if (l.bot) li.append(" ", botMark());
    li.append(` · ${score}`);
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
        // The streak's flame: drawn by the page, said by its name.
        const flame = document.createElement("span");
        flame.className = "flame";
        flame.title = t("arena_on_fire");
        flame.setAttribute("role", "img");
        flame.setAttribute("aria-label", t("arena_on_fire"));
        flame.append(icon("flame"));
        td.append(" ", flame);
      }
      if (i === 1 && l.bot) td.append(" ", botMark());
      if (i === 1 && l.presence !== "free" && l.presence !== "playing") {
        const p = textEl("span", "muted", " (" + t("arena_" + l.presence) + ")");
        td.append(p);
      }
      tr.append(td);
    }
    body.append(tr);
  }
  $("#arena-empty").hidden = view.standings.length > 0;
}

function swissStatus(view, swiss) {
  if (view.state === "created") return t(view.yours ? "swiss_waiting_yours" : "swiss_waiting");
  if (view.state === "finished") return t("swiss_finished", swiss.round, swiss.rounds);
  if (swiss.round_in_play) return t("swiss_round_in_play", swiss.round, swiss.rounds);
  return t("swiss_round_waits", swiss.round + 1);
}

// A Swiss's points, which the server counts in halves (a win is 2): 1½.
function points(half) {
  const whole = Math.floor(half / 2);
  if (half % 2 === 0) return String(whole);
  return whole ? `${whole}½` : "½";
}

// The same with their word: "1½ points", "1½ point" in French (below 2),
// and a lone "½ point" in both (English's rules would say "½ points").
export function pointsWords(half) {
  return t("arena_points", points(half), { count: half === 1 ? 1 : half / 2 });
}

function quarters(q) {
  const text = (q / 4).toLocaleString(locale(), { maximumFractionDigits: 2 });
  return text;
}

function td(text, title) {
  const cell = document.createElement("td");
  cell.textContent = text;
  if (title) cell.title = title;
  return cell;
}

function renderSwiss(view, swiss, me) {
  $("#swiss-round-title").textContent = swiss.round ? t("swiss_round_of", swiss.round, swiss.rounds) : t("swiss_no_round");
  const names = new Map(swiss.standings.map((l) => [l.number, l]));
  const games = $("#swiss-games");
  games.textContent = "";
  for (const [i, g] of swiss.games.entries()) {
    const li = document.createElement("li");
    const result = g.result === null || g.result === undefined ? "–" : g.result === 2 ? "1 – 0" : g.result === 1 ? "½ – ½" : "0 – 1";
    const text = document.createElement("span");
    // A bot's name marked, as in the standings.
    const bot = (n) => (names.get(n) || {}).bot ? [" ", botMark()] : [];
    text.append(`${i + 1}. ${g.first_name}`, ...bot(g.first), ` ${result} ${g.second_name}`, ...bot(g.second));
    li.append(text);
    if (g.game && (g.result === null || g.result === undefined)) {
      const a = document.createElement("a");
      a.href = "#game=" + g.game;
      a.className = "button";
      a.textContent = me && (me.number === g.first || me.number === g.second) ? t("arena_my_game") : t("swiss_watch");
      li.append(" ", a);
    }
    games.append(li);
  }
  const bye = $("#swiss-bye");
  bye.hidden = swiss.bye === null || swiss.bye === undefined;
  if (!bye.hidden) bye.textContent = t("swiss_bye", (names.get(swiss.bye) || {}).name || "");
  const body = $("#swiss-standings");
  body.textContent = "";
  for (const l of swiss.standings) {
    const tr = document.createElement("tr");
    if (me && l.number === me.number) tr.className = "me";
    const name = td(l.name);
    if (l.bot) name.append(" ", botMark());
    if (l.withdrawn) {
      const p = textEl("span", "muted", " (" + t("arena_withdrawn") + ")");
      name.append(p);
    }
    tr.append(td(String(l.rank)), name, td(String(l.rating)), td(points(l.points)), td(points(l.buchholz), t("swiss_buchholz")), td(quarters(l.sonneborn_berger), t("swiss_sb")));
    body.append(tr);
  }
  const table = $("#swiss-crosstable");
  table.textContent = "";
  const head = document.createElement("tr");
  const rounds = swiss.standings.reduce((n, l) => Math.max(n, l.rounds.length), 0);
  for (const h of ["#", t("arena_player"), ...Array.from({ length: rounds }, (_, r) => t("swiss_round_short", r + 1)), t("arena_score")]) {
    const th = document.createElement("th");
    th.textContent = h;
    head.append(th);
  }
  const thead = document.createElement("thead");
  thead.append(head);
  const tbody = document.createElement("tbody");
  for (const l of swiss.standings) {
    const tr = document.createElement("tr");
    if (me && l.number === me.number) tr.className = "me";
    const name = td(l.name);
    if (l.bot) name.append(" ", botMark());
    tr.append(td(String(l.rank)), name);
    for (const c of l.rounds) {
      if (c.kind === "bye") tr.append(td(t("swiss_bye_short"), t("swiss_bye_cell")));
      else if (c.kind === "absent") tr.append(td("·"));
      else {
        const other = names.get(c.opponent) || { rank: "?", name: "" };
        const sign = c.scored === null || c.scored === undefined ? "…" : c.scored === 2 ? "+" : c.scored === 1 ? "=" : "−";
        const cell = td(`${sign}${other.rank}${c.first ? "¹" : ""}`, t(c.first ? "swiss_cell_first" : "swiss_cell_second", other.name));
        tr.append(cell);
      }
    }
    tr.append(td(points(l.points)));
    tbody.append(tr);
  }
  table.append(thead, tbody);
  $("#swiss-csv").href = `/api/tournaments/${view.id}/standings.csv`;
  $("#swiss-games-file").href = `/api/tournaments/${view.id}/games.txt`;
}

function showKind() {
  const swiss = $("#arena-kind").value === "swiss";
  for (const e of document.querySelectorAll(".swiss-only")) e.hidden = !swiss;
  for (const e of document.querySelectorAll(".arena-only")) e.hidden = swiss;
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
  setInterval(tick, 1000);
  // A view of the viewer's arena game while berserk is offered: after
  // their first move the server says no more.
  document.addEventListener("awale-game-view", (ev) => {
    if (ev.detail && ev.detail.id === state.game && state.view && state.view.can_berserk) refreshMine();
    renderGameTournament();
  });
  $("#arena-form").addEventListener("submit", create);
  $("#arena-kind").addEventListener("change", showKind);
  $("#swiss-start-round").addEventListener("click", () => act("round"));
  $("#arena-join").addEventListener("click", () => act("join"));
  $("#arena-pause").addEventListener("click", () => act("pause"));
  $("#arena-withdraw").addEventListener("click", () => act("withdraw"));
  $("#arena-berserk").addEventListener("click", () => act("berserk"));
  $("#game-berserk").addEventListener("click", () => act("berserk"));
  $("#arena-close").addEventListener("click", () => act("close"));
  arenaChat.setup();
}
