// Players as others see them: a player's page (#player=NAME: ratings per
// speed, the rating graph drawn here as SVG, wins, draws and losses, the
// finished games with filters) and the leaderboards (#leaderboard=SPEED).
// The server's answers are GET /api/players/NAME, /api/players/NAME/games
// and /api/leaderboard/SPEED; every game is named by its public id.

import * as learning from "./player-learning.js";
import { api } from "./api.js";
import { showButton } from "./challenges.js";
import { sayEmpty, textEl } from "./dom.js";
import { isolate, locale, t } from "./i18n.js";
import * as nav from "./nav.js";
import { playerLink, shownName } from "./people.js";
import { showError } from "./toast.js";
import { SPEEDS, errorWords, fillSpeeds, ratingChange } from "./words.js";
import { botMark } from "./names.js";

const $ = (sel) => document.querySelector(sel);
const SVG = "http://www.w3.org/2000/svg";

// What the view shows now (redrawn as it is when the language changes).
let shown = null;
let ticket = 0;

// Shows what `r` names: `r.player` (a player's page) or `r.board` (a
// leaderboard's speed).
export async function route(r) {
  const mine = ++ticket;
  $("#player-page").hidden = !r.player;
  $("#leaderboard").hidden = !!r.player;
  if (r.player) {
    shown = { player: r.player, filters: { speed: "", result: "" }, page: null, games: null };
    await loadPlayer(mine);
  } else {
    shown = { board: SPEEDS.includes(r.board) ? r.board : "blitz", data: null };
    await loadBoard(mine);
  }
}

// Draws the view again (the language changed).
export function render() {
  if (!shown) return;
  if (shown.player) {
    drawPlayer();
    learning.render();
    drawGames();
  } else drawBoard();
}

async function loadPlayer(mine) {
  const name = shown.player;
  $("#player-name").textContent = name;
  $("#player-missing").hidden = true;
  $("#player-body").hidden = true;
  showButton(null);
  try {
    const page = await api("GET", `/api/players/${encodeURIComponent(name)}`);
    if (mine !== ticket) return;
    shown.page = page;
    shown.graph = mostPlayed(page.ratings);
  } catch (e) {
    if (mine !== ticket) return;
    if (e.code === "no_such_player") {
      $("#player-missing").textContent = errorWords(e);
      $("#player-missing").hidden = false;
      return;
    }
    showError(e);
    return;
  }
  drawPlayer();
  learning.show(name, () => mine === ticket);
  await loadGames(mine);
}

function mostPlayed(ratings) {
  let best = null;
  for (const r of ratings) if (!best || r.games > best.games) best = r;
  return best ? best.speed : null;
}

function drawPlayer() {
  const page = shown.page;
  if (!page) return;
  $("#player-body").hidden = false;
  $("#player-name").textContent = page.username;
  if (page.bot) $("#player-name").append(" ", botMark());
  showButton(page.username);
  const date = new Intl.DateTimeFormat(locale(), { dateStyle: "long" });
  $("#player-since").textContent = t("player_since", date.format(new Date(page.created_ms)));
  const res = page.results;
  $("#player-results").textContent = [t("player_wins", res.wins), t("player_draws", res.draws), t("player_losses", res.losses)].join(" · ");
  const online = $("#player-online");
  online.hidden = !page.online;
  online.textContent = t("player_online");
  const playing = $("#player-playing");
  playing.hidden = !page.playing;
  if (page.playing) {
    playing.textContent = t("player_playing_now");
    playing.href = "#game=" + encodeURIComponent(page.playing);
  }
  const list = $("#player-ratings");
  list.textContent = "";
  sayEmpty(list, page.ratings, t("player_no_rating"));
  for (const r of page.ratings) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "rating-card";
    b.dataset.speed = r.speed;
    b.setAttribute("aria-pressed", String(r.speed === shown.graph));
    const speed = textEl("span", "speed", t("speed_" + r.speed));
    const value = textEl("b", "rating", r.provisional ? `${r.rating}?` : String(r.rating));
    const games = textEl("span", "muted", t("rated_games_n", r.games));
    b.append(speed, value, games);
    b.title = r.provisional ? t("rating_provisional", r.deviation) : t("rating_deviation", r.deviation);
    b.onclick = () => {
      shown.graph = r.speed;
      drawPlayer();
    };
    li.append(b);
    list.append(li);
  }
  drawGraph(page.ratings.find((r) => r.speed === shown.graph));
}

// The rating after each rated game of one speed, as a line over time;
// its own scale, with the lowest and highest ratings and the first and
// last dates written by it.
function drawGraph(rating) {
  const box = $("#player-graph");
  box.textContent = "";
  box.hidden = !rating;
  if (!rating) return;
  const points = rating.graph;
  // As wide as its box, so that its words keep the page's size on a phone.
  const W = Math.max(280, Math.round(box.clientWidth || 600)), H = 200, left = 48, right = 12, top = 14, bottom = 28;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  const first = points[0], last = points[points.length - 1];
  svg.setAttribute("aria-label", t("rating_graph_label", { speed: t("speed_" + rating.speed), count: points.length, from: 1500, to: last ? last.rating : rating.rating }));
  const ratings = [1500, ...points.map((p) => p.rating)];
  let lo = Math.min(...ratings), hi = Math.max(...ratings);
  const pad = Math.max(20, (hi - lo) * 0.1);
  lo = Math.floor((lo - pad) / 10) * 10;
  hi = Math.ceil((hi + pad) / 10) * 10;
  const x = (i) => left + ((W - left - right) * (i + 1)) / Math.max(points.length, 1);
  const y = (v) => top + ((H - top - bottom) * (hi - v)) / (hi - lo);
  const add = (name, attrs, text) => {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    svg.append(e);
    return e;
  };
  add("rect", { x: left, y: top, width: W - left - right, height: H - top - bottom, class: "graph-area" });
  for (const v of [lo, hi, 1500]) {
    if (v < lo || v > hi) continue;
    add("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), class: v === 1500 ? "graph-start" : "graph-grid" });
    add("text", { x: left - 6, y: y(v) + 4, class: "graph-label", "text-anchor": "end" }, String(v));
  }
  // From the start (1500) to each game's rating.
  const path = [`M ${left} ${y(1500)}`, ...points.map((p, i) => `L ${x(i).toFixed(1)} ${y(p.rating).toFixed(1)}`)];
  add("path", { d: path.join(" "), class: "graph-line" });
  points.forEach((p, i) => {
    const dot = add("circle", { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 3.5, class: "graph-dot" });
    const title = document.createElementNS(SVG, "title");
    title.textContent = String(p.rating);
    dot.append(title);
  });
  const date = new Intl.DateTimeFormat(locale(), { dateStyle: "medium" });
  if (first) {
    add("text", { x: left, y: H - 8, class: "graph-label" }, date.format(new Date(first.at_ms)));
    add("text", { x: W - right, y: H - 8, class: "graph-label", "text-anchor": "end" }, date.format(new Date(last.at_ms)));
  }
  box.append(svg);
}

async function loadGames(mine) {
  const q = new URLSearchParams();
  if (shown.filters.speed) q.set("speed", shown.filters.speed);
  if (shown.filters.result) q.set("result", shown.filters.result);
  q.set("limit", "50");
  await loadInto(mine, `/api/players/${encodeURIComponent(shown.player)}/games?${q}`, "games", drawGames);
}

// Reads `path` into `shown[key]` and draws it (`draw`), unless another
// load (a newer ticket than `mine`) came meanwhile; a failure is shown.
async function loadInto(mine, path, key, draw) {
  try {
    const data = await api("GET", path);
    if (mine !== ticket) return;
    shown[key] = data;
  } catch (e) {
    if (mine === ticket) showError(e);
    return;
  }
  draw();
}

function drawGames() {
  const list = $("#player-games");
  list.textContent = "";
  if (!shown.games) return;
  if (sayEmpty(list, shown.games, t("player_no_games"))) return;
  const date = new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" });
  for (const g of shown.games) {
    const li = document.createElement("li");
    li.className = "played " + g.outcome;
    li.dataset.id = g.id;
    const outcome = textEl("b", "outcome", t("outcome_" + g.outcome));
    const against = document.createElement("span");
    const mine = g.side === "S" ? 0 : 1;
    const theirs = g.names[1 - mine] ?? "?";
    if (g.opponent) {
      against.append(t("versus") + " ", playerLink(g.opponent));
      if (g.opponent_bot) against.append(" ", botMark());
    } else {
      // Named as everywhere: a guest's default name in the page's words
      // ("Invité 7055" on a French page), a deleted player said so.
      against.textContent = `${t("versus")} ${isolate(shownName(theirs) || "?")}`;
    }
    const facts = document.createElement("span");
    facts.className = "muted";
    const parts = [g.rated ? t("rated_game") : t("casual_game")];
    // A game without a clock counts as correspondence for ratings, but
    // is not one over days: said "no clock".
    if (g.clock === "none") parts.push(t("no_clock"));
    else if (g.speed) parts.push(t("speed_" + g.speed));
    parts.push(date.format(new Date(g.updated_ms)));
    facts.textContent = parts.join(" · ");
    li.append(outcome, " ", against, " ", facts);
    if (g.change !== null && g.change !== undefined) {
      const change = textEl("span", "change " + (g.change >= 0 ? "up" : "down"), ratingChange(g.change));
      li.append(" ", change);
    }
    const open = document.createElement("a");
    open.href = "#game=" + encodeURIComponent(g.id);
    open.className = "button watch";
    open.textContent = t("replay");
    li.append(" ", open);
    list.append(li);
  }
}

async function loadBoard(mine) {
  drawBoardTabs();
  $("#board-list").textContent = "";
  await loadInto(mine, `/api/leaderboard/${shown.board}`, "data", drawBoard);
}

function drawBoardTabs() {
  const tabs = $("#board-speeds");
  tabs.textContent = "";
  for (const s of SPEEDS) {
    const b = document.createElement("a");
    b.href = "#leaderboard=" + s;
    b.className = "button";
    b.dataset.speed = s;
    b.textContent = t("speed_" + s);
    if (s === shown.board) b.setAttribute("aria-current", "page");
    tabs.append(b);
  }
}

function drawBoard() {
  drawBoardTabs();
  const data = shown.data;
  if (!data) return;
  $("#board-rule").textContent = t("leaderboard_rule", { games: data.min_games, weeks: data.weeks });
  const list = $("#board-list");
  list.textContent = "";
  if (sayEmpty(list, data.players, t("leaderboard_empty"))) return;
  data.players.forEach((p, i) => {
    const li = document.createElement("li");
    const rank = textEl("span", "rank", String(i + 1));
    const rating = textEl("b", "rating", String(p.rating));
    const games = textEl("span", "muted", t("rated_games_n", p.games));
    li.append(rank, " ", playerLink(p.username), " ", rating, " ", games);
    list.append(li);
  });
}

export function wire() {
  fillSpeeds($("#player-speed"));
  for (const [sel, key] of [["#player-speed", "speed"], ["#player-result", "result"]]) {
    $(sel).onchange = () => {
      if (!shown || !shown.player) return;
      shown.filters[key] = $(sel).value;
      loadGames(ticket);
    };
  }
  $("#btn-leaderboard").onclick = () => nav.go({ view: "players", board: "blitz" });
}
