// The engine ladder (#ladder=bullet, #ladder=blitz): the bots of a
// ladder's pool ranked by rating, with their games, wins, draws and
// losses, the cross-table of their results against each other, and their
// latest games, each opened on the board to replay. The server's answer
// is GET /api/ladder (awale-service's ladder.rs); the page derives no
// rule from it.

import { api } from "./api.js";
import { sayEmpty, textEl } from "./dom.js";
import { t } from "./i18n.js";
import { marked } from "./names.js";
import { playerLink } from "./people.js";
import { showError } from "./toast.js";

const $ = (sel) => document.querySelector(sel);
export const LADDERS = ["bullet", "blitz"];

// What the view shows now (redrawn as it is when the language changes).
let shown = null;
let ticket = 0;

// Shows ladder `r.ladder`.
export async function route(r) {
  const mine = ++ticket;
  shown = { ladder: LADDERS.includes(r.ladder) ? r.ladder : "bullet", data: null };
  draw();
  try {
    const data = await api("GET", "/api/ladder");
    if (mine !== ticket) return;
    shown.data = data;
    draw();
  } catch (e) {
    if (mine === ticket) showError(e);
  }
}

// Draws the view again (the language changed).
export function render() {
  if (shown) draw();
}

function cell(tag, text, scope) {
  const c = document.createElement(tag);
  c.textContent = text;
  if (scope) c.scope = scope;
  return c;
}

function draw() {
  const tabs = $("#ladder-tabs");
  tabs.textContent = "";
  for (const name of LADDERS) {
    const a = document.createElement("a");
    a.href = "#ladder=" + name;
    a.className = "button";
    a.textContent = t("ladder_" + name);
    if (name === shown.ladder) a.setAttribute("aria-current", "page");
    tabs.append(a);
  }
  const ladder = shown.data && shown.data.ladders.find((l) => l.name === shown.ladder);
  $("#ladder-about").textContent = ladder
    ? t("ladder_about", { bots: ladder.entrants.length, playing: ladder.playing.length })
    : "";
  drawStandings(ladder);
  drawCrosstable(ladder);
  drawGames(ladder);
}

function drawStandings(ladder) {
  const body = $("#ladder-standings");
  body.textContent = "";
  const empty = $("#ladder-empty");
  empty.hidden = !ladder || ladder.standings.length > 0;
  if (!ladder) return;
  for (const s of ladder.standings) {
    const tr = document.createElement("tr");
    const name = cell("th", "", "row");
    // Every entrant is a bot: marked as bots are everywhere.
    name.append(marked(playerLink(s.name), true));
    if (s.house) name.append(" ", textEl("span", "muted small", t("ladder_house")));
    const rating = String(s.rating) + (s.provisional ? "?" : "");
    tr.append(cell("td", String(s.rank)), name, cell("td", rating), cell("td", String(s.games)));
    tr.append(cell("td", String(s.wins)), cell("td", String(s.draws)), cell("td", String(s.losses)));
    tr.append(cell("td", s.on_ladder ? t("ladder_on") : ""));
    body.append(tr);
  }
}

function drawCrosstable(ladder) {
  const table = $("#ladder-crosstable");
  table.textContent = "";
  $("#ladder-cross-section").hidden = !ladder || ladder.standings.length < 2;
  if (!ladder || ladder.standings.length < 2) return;
  const head = document.createElement("tr");
  head.append(cell("th", t("arena_player"), "col"));
  for (const s of ladder.standings) {
    const th = cell("th", String(s.rank), "col");
    th.title = s.name;
    th.setAttribute("aria-label", s.name);
    head.append(th);
  }
  const thead = document.createElement("thead");
  thead.append(head);
  const tbody = document.createElement("tbody");
  ladder.standings.forEach((s, i) => {
    const tr = document.createElement("tr");
    tr.append(cell("th", `${s.rank}. ${s.name}`, "row"));
    ladder.standings.forEach((other, j) => {
      const c = ladder.crosstable[i][j];
      if (i === j) tr.append(cell("td", "—"));
      else if (!c) tr.append(cell("td", "·"));
      else {
        const td = cell("td", `+${c.wins} =${c.draws} −${c.losses}`);
        td.title = t("ladder_cross_cell", { name: s.name, other: other.name, wins: c.wins, draws: c.draws, losses: c.losses });
        tr.append(td);
      }
    });
    tbody.append(tr);
  });
  table.append(thead, tbody);
}

function drawGames(ladder) {
  const list = $("#ladder-games");
  list.textContent = "";
  if (!ladder) return;
  if (sayEmpty(list, ladder.games, t("ladder_no_games"))) return;
  for (const g of ladder.games) {
    const li = document.createElement("li");
    const result = g.result === "1/2-1/2" ? "½–½" : g.result === "1-0" ? "1–0" : "0–1";
    li.append(marked(playerLink(g.names[0]), true), " ", textEl("b", "", result), " ", marked(playerLink(g.names[1]), true), " ");
    const open = document.createElement("a");
    open.href = "#game=" + encodeURIComponent(g.id);
    open.className = "button watch";
    open.textContent = t("replay");
    open.setAttribute("aria-label", t("ladder_replay", { south: g.names[0], north: g.names[1] }));
    li.append(open);
    list.append(li);
  }
}
