// The opening explorer (Ouvertures): for the position after some moves
// from the start, each move the site's finished games played there, how
// often and with what results, and the endgame databases' value where
// they reach (GET /api/explorer?play=MOVES). A move is chosen in the
// table, or played on the board (a tap, or its letter's key); the address
// keeps the line (#explorer&play=FfA). The page derives no rule: the
// server gives the position, its moves and their counts.

import { api } from "./api.js";
import { button, textEl } from "./dom.js";
import { t } from "./i18n.js";
import * as nav from "./nav.js";
import { moveWords, say, unsay } from "./spoken.js";
import { errorText, toast } from "./toast.js";
import { leadOf, letterHole, oracleShort, oracleWords, sideName } from "./words.js";
import { StudyBoard, listenForMoves, moveOf, playMarks, plyOf, whyNot } from "./study-board.js";

const $ = (sel) => document.querySelector(sel);

let board = null;
const state = {
  play: null, // the line asked
  view: null, // the server's answer
  error: null,
  busy: false,
  said: null, // what to say once the next line is shown: {before, letter}
};

// The line of the address: letters only.
function lineOf(route) {
  return String(route.play || "").replace(/[^A-Fa-f]/g, "");
}

// Shows the position after the line the address names.
export async function show(route) {
  const play = lineOf(route);
  if (play === state.play && (state.view || state.error)) {
    render();
    return;
  }
  state.play = play;
  state.error = null;
  render();
  try {
    const v = await api("GET", `/api/explorer?play=${encodeURIComponent(play)}`);
    if (state.play !== play) return;
    state.view = v;
    board.flipped = false;
  } catch (e) {
    if (state.play !== play) return;
    state.view = null;
    state.error = e;
  }
  render();
  if (state.said && state.view) {
    say(moveWords(plyOf(state.said.before, state.said.letter), null), "#explorer-said");
    say(countWords(state.view), "#explorer-said");
  }
  state.said = null;
}

// Goes on with `letter` from the position shown.
async function playMove(letter) {
  const v = state.view;
  if (state.busy || !v || v.position.end) return;
  const m = moveOf(v.position, letter);
  if (!m) return;
  if (!m.legal) {
    toast(() => whyNot(m));
    return;
  }
  state.busy = true;
  try {
    await board.sow(v.position, letter);
  } finally {
    state.busy = false;
  }
  state.said = { before: v.position, letter };
  nav.go({ view: "learn", tab: "explorer", play: v.play + letter });
}

function back() {
  if (!state.view || !state.view.play) return;
  unsay("#explorer-said");
  nav.go({ view: "learn", tab: "explorer", play: state.view.play.slice(0, -1) });
}

// "12 games went on from here." or "No game went on from here yet."
function countWords(v) {
  return v.games ? t("explorer_games", v.games) : t("explorer_no_games");
}

// A share of `n` in `games`, in whole percents.
function share(n, games) {
  return games ? `${Math.round((100 * n) / games)} %` : "—";
}

export function render() {
  if (!board) return;
  const v = state.view;
  const missing = $("#explorer-missing");
  missing.hidden = !state.error;
  missing.textContent = state.error ? errorText(state.error) : "";
  $("#explorer-main").hidden = !v;
  if (!v) return;
  const line = $("#explorer-line");
  line.textContent = v.play ? t("explorer_after", v.play.split("").join(" ")) : t("explorer_at_start");
  $("#explorer-back").disabled = !v.play;
  const p = v.position;
  const side = p.to_move;
  const lead = leadOf(p.stores, side);
  const status = [countWords(v)];
  if (v.db) status.push(t("an_db_value", oracleWords(v.db, side, lead)));
  $("#explorer-status").textContent = status.join(" ");
  const marks = p.end ? { over: true } : playMarks(p);
  if (v.play) marks.last = letterHole(v.play.slice(-1));
  board.draw(p, marks);
  drawTable(v, side, lead);
}

function drawTable(v, side, lead) {
  const table = $("#explorer-moves");
  table.textContent = "";
  const caption = table.createCaption();
  caption.textContent = t("explorer_caption", sideName(side));
  const head = table.createTHead().insertRow();
  for (const k of ["an_col_move", "explorer_col_games", "explorer_col_south", "explorer_col_draws", "explorer_col_north", "an_col_db"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = t(k);
    head.append(th);
  }
  const body = table.createTBody();
  if (!v.moves.length) {
    const cell = body.insertRow().insertCell();
    cell.colSpan = 6;
    cell.textContent = t("explorer_over");
    return;
  }
  for (const m of v.moves) {
    const tr = body.insertRow();
    const th = document.createElement("th");
    th.scope = "row";
    const go = button(m.move, "link mv", () => playMove(m.move));
    go.setAttribute("aria-label", t("explorer_play", m.move, m.games));
    th.append(go);
    tr.append(th);
    tr.insertCell().textContent = String(m.games);
    tr.insertCell().textContent = share(m.south_wins, m.games);
    tr.insertCell().textContent = share(m.draws, m.games);
    tr.insertCell().textContent = share(m.north_wins, m.games);
    const db = tr.insertCell();
    db.textContent = m.db ? oracleShort(m.db, side, lead) : "—";
    if (m.db) db.title = oracleWords(m.db, side, lead);
  }
}

export function redraw() {
  render();
}

export function wire() {
  board = new StudyBoard($("#explorer-board"));
  listenForMoves(
    $("#explorer-board"),
    () => !$("#learn-explorer").hidden && !!state.view,
    () => state.view && state.view.position,
    playMove,
  );
  $("#explorer-back").onclick = back;
  $("#explorer-start").onclick = () => {
    unsay("#explorer-said");
    nav.go({ view: "learn", tab: "explorer", play: "" });
  };
  $("#explorer-analyse").onclick = () => {
    if (state.view) nav.go({ view: "learn", tab: "analysis", moves: state.view.play });
  };
}

// The explorer at the first `ply` moves of game `g` (a game's view), when
// it was played from the explorer's start under its rules (as the server
// says them); at the start otherwise.
export async function fromGame(g, ply) {
  const start = await api("GET", "/api/explorer");
  const same = g.rules.name === start.rules && g.start === start.start;
  const moves = same ? g.plies.slice(0, ply ?? g.plies.length).map((p) => p.move).join("") : "";
  nav.go({ view: "learn", tab: "explorer", play: moves });
}
