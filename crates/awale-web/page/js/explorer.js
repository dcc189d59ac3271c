// The opening explorer (Ouvertures): for the position after some moves
// from the start, each move the site's finished games played there, how
// often and with what results, each legal move's evaluation (the engine's
// estimate in seeds, the mover's view, or the endgame databases' exact
// result where they decide the move) and the databases' value where they
// reach (GET /api/explorer?play=MOVES). A move is chosen in the
// table, or played on the board (a tap, or its letter's key); the address
// keeps the line (#explorer&play=FfA). The games counted may be of one
// speed, and of players of one rating band (their mean rating before the
// game). The page derives no rule: the server gives the position, its
// moves and their counts. The counts are asked again each time the view
// is shown (games end meanwhile); the answer shown stays until the new
// one comes.

import { api } from "./api.js";
import { button, textEl } from "./dom.js";
import { locale, t } from "./i18n.js";
import * as nav from "./nav.js";
import { moveWords, say, unsay } from "./spoken.js";
import { errorText, toast } from "./toast.js";
import { fillSpeeds, leadOf, letterHole, oracleShort, oracleWords, scoreWords, sideName } from "./words.js";
import { StudyBoard, listenForMoves, moveOf, playMarks, plyOf, whyNot } from "./study-board.js";

const $ = (sel) => document.querySelector(sel);

let board = null;
// The rating bands offered: [bottom, top), null for none.
const BANDS = [[null, 1200], [1200, 1500], [1500, 1800], [1800, 2100], [2100, null]];

const state = {
  play: null, // the line asked
  asked: null, // the line and the filters asked, as the request's query
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
  const q = new URLSearchParams({ play });
  const speed = $("#explorer-speed").value;
  if (speed) q.set("speed", speed);
  // "" is any rating (Number("") would be the first band).
  const chosen = $("#explorer-band").value;
  const band = chosen === "" ? null : BANDS[Number(chosen)];
  if (band && band[0] !== null) q.set("min_rating", band[0]);
  if (band && band[1] !== null) q.set("max_rating", band[1]);
  const asked = String(q);
  // Asked again even when it is the line shown: games may have ended
  // since. What is shown stays until the new answer comes.
  const same = asked === state.asked && !!state.view;
  state.play = play;
  state.asked = asked;
  state.error = null;
  render();
  if (same) $("#explorer-main").setAttribute("aria-busy", "true");
  try {
    const v = await api("GET", `/api/explorer?${asked}`);
    if (state.asked !== asked) return;
    state.view = v;
    board.flipped = false;
  } catch (e) {
    if (state.asked !== asked) return;
    state.view = null;
    state.error = e;
  }
  $("#explorer-main").removeAttribute("aria-busy");
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
  if (!v.evaluated) status.push(t("explorer_eval_busy"));
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
  const columns = ["an_col_move", "explorer_col_games", "explorer_col_south", "explorer_col_draws", "explorer_col_north", "explorer_col_rating", "explorer_col_eval", "an_col_db"];
  for (const k of columns) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = t(k);
    if (k === "explorer_col_eval") th.title = t("explorer_eval_help");
    head.append(th);
  }
  const body = table.createTBody();
  if (!v.moves.length) {
    const cell = body.insertRow().insertCell();
    cell.colSpan = columns.length;
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
    tr.insertCell().textContent = m.average_rating == null ? "—" : String(m.average_rating);
    drawEval(tr.insertCell(), m, side, v.evaluated);
    const db = tr.insertCell();
    db.textContent = m.db ? oracleShort(m.db, side, lead) : "—";
    if (m.db) db.title = oracleWords(m.db, side, lead);
  }
}

// A move's evaluation in its cell: in short, seeds the mover is expected
// to end ahead ("+1.5"; a forced result in words), marked when exact;
// said in full to a screen reader (who leads, by how much, and whether
// the engine estimates it or the databases decide it).
function drawEval(cell, m, side, evaluated) {
  cell.className = "explorer-eval";
  const e = m.eval;
  if (!e) {
    cell.textContent = "—";
    if (!evaluated) cell.title = t("explorer_eval_busy");
    return;
  }
  let short = e.forced ? scoreWords(e, side) : seedsShort(e.cp);
  if (m.exact) short = t("explorer_eval_exact_short", short);
  const full = t(m.exact ? "explorer_eval_exact" : "explorer_eval_estimate", scoreWords(e, side));
  const seen = textEl("span", "", short);
  seen.setAttribute("aria-hidden", "true");
  cell.append(seen, textEl("span", "unseen", full));
  cell.title = full;
  cell.dataset.cp = String(e.cp);
}

// Hundredths of a seed as signed seeds with one decimal, the language's
// way: "+1.5", "−0.3", "0.0".
function seedsShort(cp) {
  return new Intl.NumberFormat(locale(), { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: "exceptZero" }).format(cp / 100);
}

// The band's choices, in the page's language.
function drawBands() {
  const select = $("#explorer-band");
  const chosen = select.value;
  select.textContent = "";
  const any = document.createElement("option");
  any.value = "";
  any.textContent = t("explorer_any_rating");
  select.append(any);
  BANDS.forEach(([low, high], i) => {
    const o = document.createElement("option");
    o.value = String(i);
    o.textContent = low === null ? t("explorer_band_below", high) : high === null ? t("explorer_band_above", low) : t("explorer_band", low, high);
    select.append(o);
  });
  select.value = chosen;
}

// The same line again, counting the games the filters now let through.
function refilter() {
  show({ play: state.play || "" });
}

export function redraw() {
  drawBands();
  render();
}

export function wire() {
  board = new StudyBoard($("#explorer-board"));
  drawBands();
  fillSpeeds($("#explorer-speed"));
  $("#explorer-speed").onchange = refilter;
  $("#explorer-band").onchange = refilter;
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
