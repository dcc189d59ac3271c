// The analysis board (Analyse): a position set up by hand (seeds in every
// hole and store, the side to move, the rules; the seed total shown) or
// taken from a stored game, explored move by move as a tree of
// variations. For the position on the board the server gives the engine's
// best lines and, where the endgame databases reach, each move's value.
// The address holds the position and the moves that lead to it, so it can
// be shared and opened again.

import { api } from "./api.js";
import { button, textEl } from "./dom.js";
import { t } from "./i18n.js";
import * as nav from "./nav.js";
import { moveWords, say } from "./spoken.js";
import { errorText, showError, toast } from "./toast.js";
import { holeLetter, leadOf, letterHole, oracleShort, oracleWords, scoreWords, sideName } from "./words.js";
import { StudyBoard, moveOf, playMarks, plyOf, positionView, whyNot } from "./study-board.js";

const $ = (sel) => document.querySelector(sel);
const START = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
const LINES = 3;

let board = null;
const state = {
  key: null, // the address shown
  rules: "awale",
  root: null, // {diagram, move: null, children, parent}
  current: null, // the node on the board
  view: null, // its position, as the server sees it
  analysis: null, // the server's analysis of it
  asked: 0, // analyses asked: older answers are dropped
  editing: false,
  busy: false,
};

function node(diagram, move, parent, captured = 0) {
  return { diagram, move, parent, captured, children: [] };
}

// The moves from the root to `n`.
function path(n) {
  const out = [];
  for (let x = n; x && x.move; x = x.parent) out.unshift(x.move);
  return out;
}

function diagramOf(board12, stores, side) {
  return [...board12, ...stores, side].join("-");
}

// The address of what is on the board.
function routeOf() {
  return { view: "learn", tab: "analysis", position: state.root.diagram, rules: state.rules, moves: path(state.current).join("") };
}

// Shows the position the address names: a diagram with moves after it, a
// stored game at a ply, or the start.
export async function show(route) {
  const key = JSON.stringify([route.position, route.rules, route.moves, route.game, route.ply]);
  if (key === state.key && state.root) {
    render();
    return;
  }
  state.key = key;
  state.editing = false;
  try {
    if (route.game) await fromGame(route.game, route.ply);
    else await fromPosition(route.position || START, route.rules || "awale", route.moves || "");
  } catch (e) {
    showError(e);
    await fromPosition(START, "awale", "");
  }
  if (state.key === key) select(state.current, false);
}

async function fromPosition(diagram, rules, moves) {
  const view = await positionView(diagram, rules);
  state.rules = rules;
  state.root = node(view.position, null, null);
  state.current = state.root;
  let here = view;
  for (const letter of moves) {
    const m = moveOf(here, letter);
    if (!m || !m.legal) break;
    const child = node(m.after, letter, state.current, m.captured);
    state.current.children.push(child);
    state.current = child;
    here = await positionView(m.after, rules);
  }
}

// A stored game: its moves are the main line; the board shows it after
// `ply` moves (the end when absent).
async function fromGame(id, ply) {
  const g = await api("GET", `/api/games/${id}`);
  state.rules = g.rules.name;
  state.root = node(g.start, null, null);
  let n = state.root;
  let at = state.root;
  g.plies.forEach((p, i) => {
    const next = i + 1 < g.plies.length ? g.plies[i + 1] : null;
    const diagram = next ? diagramOf(next.before, next.stores_before, next.side) : g.position;
    const child = node(diagram, p.move, n, p.captured || 0);
    n.children.push(child);
    n = child;
    if (ply === undefined || i < ply) at = child;
  });
  state.current = ply === undefined ? n : at;
}

// Puts node `n` on the board and asks for its analysis.
async function select(n, remember = true) {
  state.current = n;
  state.analysis = null;
  const asked = ++state.asked;
  if (remember) nav.note(routeOf());
  render();
  try {
    state.view = await positionView(n.diagram, state.rules);
  } catch (e) {
    showError(e);
    return;
  }
  if (asked !== state.asked) return;
  drawCurrent();
  renderTree();
  analyse(asked);
}

async function analyse(asked) {
  $("#an-status").textContent = t("an_thinking");
  try {
    const a = await api("POST", "/api/study/analysis", {
      position: state.root.diagram, moves: path(state.current).join(""), rules: state.rules, lines: LINES,
    });
    if (asked !== state.asked) return;
    state.analysis = a;
  } catch (e) {
    if (asked !== state.asked) return;
    state.analysis = { error: e };
  }
  renderAnalysis();
}

function drawCurrent() {
  if (!state.view || state.editing) return;
  const marks = state.view.end ? { over: true } : playMarks(state.view);
  if (state.current.move) {
    marks.last = letterHole(state.current.move);
  }
  board.draw(state.view, marks);
}

// ---------------------------------------------------------------- tree --

function renderTree() {
  const box = $("#an-tree");
  box.textContent = "";
  const line = (from, out) => {
    let n = from;
    while (n.children.length) {
      const [main, ...others] = n.children;
      out.append(moveButton(main));
      for (const alt of others) {
        const v = document.createElement("span");
        v.className = "variation";
        v.append(moveButton(alt));
        line(alt, v);
        out.append(v);
      }
      n = main;
    }
  };
  const root = button(t("an_start"), "mv" + (state.current === state.root ? " current" : ""), () => select(state.root));
  box.append(root);
  line(state.root, box);
  const cur = box.querySelector(".mv.current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

function moveButton(n) {
  const b = button(n.move, "mv" + (n === state.current ? " current" : ""), () => select(n));
  if (n.captured) {
    const c = textEl("span", "cap", "+" + n.captured);
    b.append(c);
  }
  b.setAttribute("aria-label", t(n.captured ? "an_move_capture" : "an_move", sideName(n.move < "a" ? "S" : "N"), n.move, n.captured));
  return b;
}

// Goes to the child of the current node played with `letter`, made if new.
async function playMove(letter) {
  if (state.busy || state.editing || !state.view || state.view.end) return;
  const m = moveOf(state.view, letter);
  if (!m) return;
  if (!m.legal) {
    toast(() => whyNot(m));
    return;
  }
  let child = state.current.children.find((c) => c.move === letter);
  if (!child) {
    child = node(m.after, letter, state.current, m.captured);
    state.current.children.push(child);
  }
  state.busy = true;
  const before = state.view;
  try {
    const asked = state.asked;
    await board.sow(state.view, letter);
    if (asked !== state.asked) return;
  } finally {
    state.busy = false;
  }
  select(child);
  // Said in words, as on the play view.
  say(moveWords(plyOf(before, letter), null), "#an-said");
}

// Adds an engine line to the tree from the current node and goes to its
// first move.
async function addLine(letters) {
  let n = state.current;
  let view = state.view;
  const first = [];
  for (const letter of letters) {
    const m = moveOf(view, letter);
    if (!m || !m.legal) break;
    let child = n.children.find((c) => c.move === letter);
    if (!child) {
      child = node(m.after, letter, n, m.captured);
      n.children.push(child);
    }
    first.push(child);
    n = child;
    view = await positionView(m.after, state.rules);
  }
  if (first.length) select(first[0]);
}

function removeVariation() {
  const n = state.current;
  if (!n.parent) return;
  n.parent.children = n.parent.children.filter((c) => c !== n);
  select(n.parent);
}

// ------------------------------------------------------------ analysis --

function renderAnalysis() {
  const a = state.analysis;
  const lines = $("#an-lines");
  const table = $("#an-moves");
  const note = $("#an-db-note");
  lines.textContent = "";
  table.textContent = "";
  note.hidden = true;
  const status = $("#an-status");
  if (!a) {
    status.textContent = t("an_thinking");
    return;
  }
  if (a.error) {
    status.textContent = errorText(a.error);
    return;
  }
  const side = a.to_move;
  if (a.end) {
    status.textContent = t("an_over", t("reason_" + a.end.reason), a.end.stores[0], a.end.stores[1]);
    return;
  }
  // The databases' value as the result at the end, as the engine's
  // decided scores are (the stores count).
  const lead = leadOf(a.stores, side);
  status.textContent = a.db ? t("an_db_value", oracleWords(a.db, side, lead)) : "";
  for (const l of a.lines) {
    const li = document.createElement("li");
    const b = button("", "an-line", () => addLine(l.pv));
    b.title = t("an_line_add");
    const head = document.createElement("b");
    head.textContent = l.move;
    const score = textEl("span", "score", scoreWords(l.score, side));
    const pv = textEl("span", "pv", l.pv.join(" "));
    b.append(head, " ", score, " ", pv);
    li.append(b);
    lines.append(li);
  }
  const headRow = document.createElement("tr");
  for (const key of ["an_col_move", "an_col_engine", "an_col_db"]) {
    const th = document.createElement("th");
    th.textContent = t(key);
    headRow.append(th);
  }
  table.append(headRow);
  for (const m of a.scores) {
    const tr = document.createElement("tr");
    const mv = document.createElement("td");
    mv.append(button(m.move, "mv", () => playMove(m.move)));
    const eng = document.createElement("td");
    eng.textContent = m.score ? scoreWords(m.score, side) : "";
    const db = document.createElement("td");
    db.textContent = m.db ? oracleShort(m.db, side, lead) : "—";
    if (m.db) db.title = oracleWords(m.db, side, lead);
    tr.append(mv, eng, db);
    table.append(tr);
  }
  // A range where the database alone would give a result: say why, and
  // which to trust.
  if (a.scores.some((m) => m.db && m.db.fresh)) {
    note.textContent = t("an_db_repetition_note");
    note.hidden = false;
  }
}

// -------------------------------------------------------------- editor --

const FIELDS = ["A", "B", "C", "D", "E", "F", "a", "b", "c", "d", "e", "f"];

// The inputs of the holes of each row of the editor (its data-holes, in
// order), before the row's store, made like the store's input.
function addHoleInputs() {
  for (const row of $("#an-editor").querySelectorAll(".edit-row")) {
    const store = row.querySelector(".store");
    for (const letter of row.dataset.holes) {
      const label = document.createElement("label");
      const name = document.createElement("span");
      name.textContent = letter;
      const input = store.querySelector("input").cloneNode();
      input.name = letter;
      label.append(name, input);
      store.before(label);
    }
  }
}

function editedPosition() {
  const f = $("#an-editor");
  const holes = FIELDS.map((l) => clampSeeds(f.querySelector(`[name="${l}"]`).value));
  const stores = ["store_S", "store_N"].map((k) => clampSeeds(f.querySelector(`[name="${k}"]`).value));
  const side = f.querySelector('[name="to_move"]').value === "N" ? "N" : "S";
  return { board: holes, stores, to_move: side };
}

function clampSeeds(v) {
  const n = Math.floor(Number(v));
  return Number.isFinite(n) ? Math.max(0, Math.min(48, n)) : 0;
}

function fillEditor(board12, stores, side, rules) {
  const f = $("#an-editor");
  FIELDS.forEach((l, i) => { f.querySelector(`[name="${l}"]`).value = board12[i]; });
  f.querySelector('[name="store_S"]').value = stores[0];
  f.querySelector('[name="store_N"]').value = stores[1];
  f.querySelector('[name="to_move"]').value = side;
  f.querySelector('[name="rules"]').value = rules.startsWith("abapa") ? "abapa" : "awale";
  onEdit();
}

function onEdit() {
  const p = editedPosition();
  const total = p.board.reduce((a, b) => a + b, 0) + p.stores[0] + p.stores[1];
  const out = $("#an-total");
  out.textContent = total === 48 ? t("an_total", total) : total < 48 ? t("an_total_less", total, 48 - total) : t("an_total_more", total, total - 48);
  out.classList.toggle("error", total > 48);
  $("#an-apply").disabled = total > 48;
  board.draw(p, { over: true });
}

function openEditor() {
  state.editing = true;
  const v = state.view;
  if (v) fillEditor(v.board, v.stores, v.to_move, state.rules);
  render();
}

async function applyEditor() {
  const p = editedPosition();
  const rules = $("#an-editor").querySelector('[name="rules"]').value;
  state.editing = false;
  nav.go({ view: "learn", tab: "analysis", position: diagramOf(p.board, p.stores, p.to_move), rules, moves: "" });
}

function cancelEditor() {
  state.editing = false;
  render();
  drawCurrent();
}

// --------------------------------------------------------------- share --

async function share() {
  const url = location.origin + location.pathname + nav.format(routeOf());
  const box = $("#an-link");
  box.value = url;
  box.hidden = false;
  try {
    await navigator.clipboard.writeText(url);
    toast(t("an_link_copied"));
  } catch (e) {
    box.select();
  }
}

// ------------------------------------------------------------------ all --

export function render() {
  $("#an-editor").hidden = !state.editing;
  $("#an-explore").hidden = state.editing;
  $("#an-remove").disabled = !state.current || !state.current.parent;
  if (!state.editing && state.root) {
    renderTree();
    renderAnalysis();
  }
}

export function redraw() {
  render();
  if (!state.busy) {
    if (state.editing) onEdit();
    else drawCurrent();
  }
}

function onBoardClick(e) {
  const hit = e.target.closest(".hole-hit");
  if (!hit) return;
  if (state.editing) {
    const input = $("#an-editor").querySelector(`[name="${hit.dataset.letter}"]`);
    if (input) {
      input.focus();
      input.select();
    }
    return;
  }
  if (hit.classList.contains("tappable")) playMove(hit.dataset.letter);
}

function onKey(e) {
  if ($("#learn-analysis").hidden || $("#view-learn").hidden || state.editing || !state.current) return;
  if (e.target.closest && e.target.closest("input, textarea, select, dialog[open]")) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === "ArrowLeft" && state.current.parent) select(state.current.parent);
  else if (e.key === "ArrowRight" && state.current.children.length) select(state.current.children[0]);
  else if (/^[a-fA-F]$/.test(e.key) && state.view) {
    const i = e.key.toUpperCase().charCodeAt(0) - 65;
    playMove(holeLetter(state.view.to_move === "S" ? i : i + 6));
  } else if ((e.key === "Enter" || e.key === " ") && e.target.dataset && e.target.dataset.letter) {
    playMove(e.target.dataset.letter);
  } else return;
  e.preventDefault();
}

export function wire() {
  board = new StudyBoard($("#analysis-board"));
  addHoleInputs();
  // Every hole can be tapped while editing.
  $("#analysis-board").addEventListener("click", onBoardClick);
  document.addEventListener("keydown", onKey);
  $("#an-edit").onclick = openEditor;
  $("#an-flip").onclick = () => {
    board.flipped = !board.flipped;
    redraw();
  };
  $("#an-share").onclick = share;
  $("#an-remove").onclick = removeVariation;
  $("#an-apply").onclick = applyEditor;
  $("#an-cancel").onclick = cancelEditor;
  $("#an-start-pos").onclick = () => fillEditor(new Array(12).fill(4), [0, 0], "S", "awale");
  $("#an-empty").onclick = () => fillEditor(new Array(12).fill(0), [0, 0], $("#an-editor").querySelector('[name="to_move"]').value, "awale");
  $("#an-editor").addEventListener("input", onEdit);
  $("#an-editor").addEventListener("submit", (e) => {
    e.preventDefault();
    if (!$("#an-apply").disabled) applyEditor();
  });
}
