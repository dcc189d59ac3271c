// The lobby: the player's nickname, quick pairing (one tap to seek a
// pool, a cancel), the open challenges anyone may accept in one click,
// and the games being played, to watch, with how many watch them. Live
// while shown (GET /api/lobby/events).

import { api } from "./api.js";
import { textEl } from "./dom.js";
import { isolate, t } from "./i18n.js";
import * as nav from "./nav.js";
import { isUsername, playerLink, shownName } from "./people.js";
import { marked } from "./names.js";
import { loadMe, me, nickname, onRename, rename } from "./online.js";
import { whileShown } from "./streams.js";
import { errorText, showError, toast } from "./toast.js";
import { fillList } from "./tournaments.js";
import { rulesWords, sideName } from "./words.js";

const $ = (sel) => document.querySelector(sel);
// How long the page waits before opening the lobby's stream again once the
// browser gave it up.
const REOPEN_MS = 3000;

const lobby = {
  source: null, // the live stream while the lobby is shown
  last: null, // the last lobby received
  unreachable: false, // the stream failed and no lobby came since: the server cannot be reached
  paused: false, // its stream closed while the page is left
  mine: null, // the public id of this player's own game going on (GET /api/games/current)
};

// The seek in a pool: its name, when it began, and a number that changes
// when it stops, so that a request still on its way knows it is stale.
const seek = { pool: null, since: 0, round: 0, timer: null };

// The pools, from GET /api/pools: one button each.
async function fillPools() {
  const box = $("#pools");
  if (box.childElementCount) return;
  let pools;
  try {
    pools = await api("GET", "/api/pools");
  } catch (e) {
    return;
  }
  // Asked twice while the first answer was on its way (the lobby opened
  // again, the server back): the buttons once.
  if (box.childElementCount) return;
  for (const p of pools) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.pool = p.name;
    b.textContent = t("pool_button", p.name, t("speed_" + p.speed));
    b.onclick = () => startSeek(p.name);
    box.append(b);
  }
}

function showSeek() {
  const line = $("#pool-seeking");
  line.hidden = !seek.pool;
  for (const b of document.querySelectorAll("#pools button")) {
    b.setAttribute("aria-pressed", String(b.dataset.pool === seek.pool));
  }
  if (seek.pool) {
    const waited = Math.floor((Date.now() - seek.since) / 1000);
    $("#pool-seeking-text").textContent = t("seeking_pool", seek.pool, waited);
  }
}

// Seeks in `pool` until paired (then to the game) or cancelled: each
// request waits up to 20 s for the pairing and is sent again.
async function startSeek(pool) {
  if (seek.pool === pool) return;
  const round = ++seek.round;
  seek.pool = pool;
  seek.since = Date.now();
  clearInterval(seek.timer);
  seek.timer = setInterval(showSeek, 1000);
  showSeek();
  if (me.guest === null) await loadMe();
  while (seek.round === round) {
    try {
      const news = await api("POST", `/api/pools/${pool}/seek?wait_s=20`, { name: nickname() });
      if (seek.round !== round) return;
      if (news.paired) {
        endSeek();
        nav.go({ view: "play", game: news.paired.game });
        return;
      }
    } catch (e) {
      if (seek.round === round) {
        endSeek();
        showError(e);
      }
      return;
    }
  }
}

function endSeek() {
  seek.round++;
  seek.pool = null;
  clearInterval(seek.timer);
  showSeek();
}

async function cancelSeek() {
  const was = seek.pool;
  endSeek();
  if (was) {
    try {
      await api("POST", "/api/pools/cancel", {});
    } catch (e) {
      showError(e);
    }
  }
}

// Whether anyone plays or waits online now (the home page shows the
// lobby then).
export async function busy() {
  try {
    const now = await api("GET", "/api/lobby");
    return now.challenges.length + now.live.length > 0;
  } catch (e) {
    return false;
  }
}

// Shows the lobby and keeps it live; `stop` ends that.
export function open() {
  fillNickname();
  fillPools();
  loadMe().then(fillNickname);
  api("GET", "/api/games/current").then((c) => {
    lobby.mine = c.game ? c.game.id : null;
    render();
  }, () => {});
  if (!lobby.source) listenLobby();
}

// The lobby's stream; closed while the page is left (streams.js), opened
// again if it comes back to the lobby.
function listenLobby() {
  const source = new EventSource("/api/lobby/events");
  source.addEventListener("lobby", (ev) => {
    try {
      lobby.last = JSON.parse(ev.data);
    } catch (e) {
      return;
    }
    if (lobby.unreachable) {
      // The server is back: what could not be fetched without it.
      lobby.unreachable = false;
      fillPools();
      fillList();
    }
    render();
  });
  // No network or no server: the lobby says so rather than drawing lists
  // it does not know. The browser tries again by itself, or, once it
  // gives up, the page does; the next lobby received clears it.
  source.addEventListener("error", () => {
    if (lobby.source !== source) return;
    if (source.readyState === EventSource.CLOSED) {
      setTimeout(() => {
        if (lobby.source !== source) return;
        lobby.source = null;
        open();
      }, REOPEN_MS);
    }
    if (lobby.unreachable) return;
    lobby.unreachable = true;
    lobby.last = null;
    render();
  });
  lobby.source = source;
}

export function stop() {
  // Seeking is for the lobby only: leaving it stops.
  cancelSeek();
  if (lobby.source) lobby.source.close();
  lobby.source = null;
  lobby.paused = false;
}

whileShown(
  () => {
    if (!lobby.source) return;
    lobby.source.close();
    lobby.source = null;
    lobby.paused = true;
  },
  () => {
    if (!lobby.paused) return;
    lobby.paused = false;
    listenLobby();
  },
);

function fillNickname() {
  // An account plays under its username: no nickname to choose.
  $("#me-form").hidden = !!me.account;
  const input = $("#me-name");
  if (document.activeElement !== input) input.value = me.name || "";
  input.placeholder = nickname();
}

// "5 min + 3 s", and a clock under a minute in seconds ("30 s + 0 s").
function clockWords(clock, perMove) {
  if (!clock) return t("no_clock");
  if (perMove) return t("days_per_move_words", Math.round(clock[0] / 86400000));
  if (clock[0] < 60000) return t("clock_short_s", clock[0] / 1000, clock[1] / 1000);
  return t("clock_short", clock[0] / 60000, clock[1] / 1000);
}

// Fills `box` with `text`, each U+0000 in it replaced by the next of
// `parts` (a text or an element: a link to a player's page).
function fill(box, text, parts) {
  box.textContent = "";
  text.split("\u0000").forEach((piece, i) => {
    box.append(piece);
    if (i < parts.length) box.append(parts[i]);
  });
}

function item(game, challenge) {
  const li = document.createElement("li");
  li.className = "lobby-item";
  li.dataset.id = game.id;
  const who = document.createElement("b");
  const what = document.createElement("span");
  what.className = "muted small";
  const parts = [(game.rules_view ? rulesWords(game.rules_view) : game.rules), clockWords(game.clock, game.per_move)];
  const b = document.createElement("button");
  // An account's name links to its page (the server says which seats are
  // accounts'); a guest's does not; a bot's is marked.
  const named = (name, side) => {
    const shown = shownName(name ?? "?");
    if (!shown) return sideName(side);
    const seat = side === "S" ? 0 : 1;
    const account = game.accounts ? game.accounts[seat] : game.rated;
    const who = account && isUsername(name) ? playerLink(name, isolate(shown)) : isolate(shown);
    return marked(who, game.bots && game.bots[seat]);
  };
  if (game.rated) parts.push(t("rated_game"));
  if (game.rating_range) parts.push(t("rating_range_short", game.rating_range));
  if (challenge) {
    const maker = game.names[0] ? "S" : "N";
    fill(who, t("challenge_by", "\u0000"), [named(game.names[maker === "S" ? 0 : 1], maker)]);
    parts.push(t("you_would_play", sideName(maker === "S" ? "N" : "S")));
    if (game.start) parts.push(t("from_position", game.start));
    b.className = "primary accept";
    b.textContent = t("accept");
    b.onclick = () => accept(game.id, b);
  } else {
    fill(who, t("names_vs", "\u0000", "\u0000"), [named(game.names[0], "S"), named(game.names[1], "N")]);
    parts.push(game.plies ? t("plies_n", game.plies) : t("no_move_yet"), t("spectators_n", game.spectators || 0));
    // One's own game (played from another device or tab): to play, not
    // to watch.
    const mine = game.id === lobby.mine;
    b.className = mine ? "primary resume" : "watch";
    b.textContent = t(mine ? "lobby_resume" : "watch");
    b.onclick = () => nav.go({ view: "play", game: game.id });
  }
  what.textContent = parts.join(" · ");
  const text = document.createElement("div");
  text.className = "lobby-text";
  text.append(who, what);
  li.append(text, b);
  return li;
}

// Takes the free seat of a challenge; one already taken is watched.
async function accept(id, b) {
  b.disabled = true;
  try {
    if (me.guest === null) await loadMe();
    const view = await api("POST", `/api/games/${id}/join`, { name: nickname() });
    nav.go({ view: "play", game: id, created: view });
  } catch (e) {
    b.disabled = false;
    if (e.code === "seat_taken") toast(() => t("seat_taken_watch"));
    else if (e.code !== "already_seated") return showError(e);
    nav.go({ view: "play", game: id });
  }
}

// The featured game: its players (with their ratings), the board as it
// stands (North's holes on top, f to a, as the main board draws them),
// updated with each lobby the server sends.
function renderFeatured(f) {
  $("#featured").hidden = !f;
  if (!f) return;
  const names = $("#featured-names");
  const named = (i, side) => {
    const name = f.names[i];
    const shown = shownName(name ?? "?") || sideName(side);
    const rating = f.ratings[i] ? ` (${f.ratings[i]})` : "";
    // An open account's name links to its page (the server says which).
    const account = f.accounts ? f.accounts[i] : f.rated;
    const who = account && isUsername(name) ? playerLink(name, isolate(shown)) : isolate(shown);
    const span = document.createElement("span");
    span.append(marked(who, f.bots && f.bots[i]), rating);
    return span;
  };
  fill(names, t("names_vs", "\u0000", "\u0000"), [named(0, "S"), named(1, "N")]);
  const board = $("#featured-board");
  board.textContent = "";
  const b = f.board.board;
  const row = (indices, cls) => {
    const r = document.createElement("div");
    r.className = "mini-row " + cls;
    for (const i of indices) {
      const h = textEl("span", "mini-hole" + (f.last && "ABCDEFabcdef"[i] === f.last ? " last" : ""), String(b[i]));
      r.append(h);
    }
    return r;
  };
  board.append(row([11, 10, 9, 8, 7, 6], "north"), row([0, 1, 2, 3, 4, 5], "south"));
  board.setAttribute("aria-label", t("featured_board", b.slice(6).join(" "), b.slice(0, 6).join(" "), f.board.stores[0], f.board.stores[1]));
  const parts = [clockWords(f.clock, f.per_move), f.plies ? t("plies_n", f.plies) : t("no_move_yet"), t("spectators_n", f.spectators || 0)];
  if (f.rated) parts.push(t("rated_game"));
  $("#featured-what").textContent = parts.join(" · ");
  $("#featured-watch").onclick = () => nav.go({ view: "play", game: f.id });
}

export function render() {
  const away = $("#lobby-offline");
  away.hidden = !lobby.unreachable;
  $("#lobby-online").hidden = lobby.unreachable;
  if (lobby.unreachable) away.textContent = `${t("lobby_needs_network")} ${t("offline_works")}`;
  const data = lobby.last;
  renderFeatured(data && data.featured);
  for (const [sel, games, challenge, empty] of [
    ["#lobby-challenges", data ? data.challenges : [], true, "no_challenges"],
    ["#lobby-live", data ? data.live : [], false, "no_live_games"],
  ]) {
    const list = $(sel);
    list.textContent = "";
    for (const g of games) list.append(item(g, challenge));
    if (!games.length) {
      const li = textEl("li", "empty muted", data ? t(empty) : t("loading"));
      list.append(li);
    }
  }
  fillNickname();
}

async function saveNickname(e) {
  e.preventDefault();
  const err = $("#me-error");
  err.hidden = true;
  try {
    await rename($("#me-name").value);
    toast(t("nickname_saved", me.name));
  } catch (ex) {
    err.textContent = errorText(ex);
    err.hidden = false;
  }
}

export function wire(openFriendGame) {
  $("#me-form").addEventListener("submit", saveNickname);
  $("#lobby-new").onclick = openFriendGame;
  $("#pool-cancel").onclick = cancelSeek;
  onRename(fillNickname);
}
