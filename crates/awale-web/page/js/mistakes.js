// Learn from your mistakes: after a game's review, each of the player's
// own mistakes is a puzzle of their list, kept by the server (guests and
// accounts alike): the position before it, "find a better move". The
// server judges the answer as its review judges a move (exact where the
// databases decide, the engine's estimate with its margin otherwise);
// then the better line is played out on the board. A mistake comes back
// until it is solved twice. The page derives no rule.

import { api } from "./api.js";
import { t } from "./i18n.js";
import * as nav from "./nav.js";
import { unsay } from "./spoken.js";
import { errorText } from "./toast.js";
import { scoreWords, sideName } from "./words.js";
import { StudyBoard, listenForMoves, loadPosition, playMarks, sayLine, tryMove } from "./study-board.js";

const $ = (sel) => document.querySelector(sel);

let board = null;
const state = {
  key: null, // what the address asked
  list: null, // the player's list, as the server gives it
  mistake: null, // the mistake shown
  view: null, // its position, as the server sees it
  busy: false,
  done: false, // answered right: the line is played out
  feedback: null, // {kind, parts}
  missing: null, // an error instead of a mistake
};

// Keeps the asker's mistakes of game `id` (reviewed) in their list, then
// shows the first of them: the review's "Learn from your mistakes".
export async function fromGame(id) {
  await api("POST", `/api/games/${id}/mistakes`);
  nav.go({ view: "learn", tab: "mistakes", game: id });
}

// Shows the mistake the address names (by number, the first of a game,
// or the first due).
export async function show(route) {
  const key = `${route.id ?? ""}:${route.game ?? ""}`;
  if (key === state.key && state.mistake && !state.busy) {
    render();
    return;
  }
  Object.assign(state, { key, list: null, mistake: null, view: null, busy: false, done: false, feedback: null, missing: null });
  unsay("#mistake-said");
  render();
  const loaded = await loadPosition(state, key, board, async () => {
    const list = await api("GET", "/api/study/mistakes");
    if (state.key !== key) return null;
    state.list = list;
    let m = null;
    if (route.id !== undefined) m = await api("GET", `/api/study/mistakes/${route.id}`);
    else if (route.game) m = list.mistakes.find((x) => x.game === route.game && !x.learnt) || null;
    else m = list.mistakes.find((x) => !x.learnt) || null;
    if (state.key !== key) return null;
    state.mistake = m;
    return m && { position: m.position, rules: m.rules };
  });
  if (!loaded) return;
  render();
  drawMistake();
  if (state.mistake) $("#mistake-task").focus();
}

function drawMistake() {
  if (!state.view) return;
  board.draw(state.view, state.done ? { over: true } : playMarks(state.view));
}

function drawList() {
  const ul = $("#mistake-list");
  ul.textContent = "";
  const list = state.list;
  $("#mistake-due").textContent = list ? t("mistake_due", list.due) : "";
  if (!list) return;
  if (!list.mistakes.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = t("mistake_none");
    ul.append(li);
    return;
  }
  for (const m of list.mistakes) {
    const li = document.createElement("li");
    li.className = "mistake-item";
    li.dataset.id = String(m.id);
    const go = document.createElement("button");
    go.type = "button";
    go.className = "link";
    go.textContent = t("mistake_item", m.game, sideName(m.side), m.played);
    if (state.mistake && state.mistake.id === m.id) go.setAttribute("aria-current", "true");
    go.onclick = () => nav.go({ view: "learn", tab: "mistakes", id: m.id });
    const count = document.createElement("span");
    count.className = "muted small";
    count.textContent = " — " + (m.learnt ? t("mistake_learnt") : t("mistake_solved", m.solved, 2));
    li.append(go, count);
    ul.append(li);
  }
}

export function render() {
  const m = state.mistake;
  const missing = $("#mistake-missing");
  const none = !!state.list && !m && !state.missing;
  missing.hidden = !state.missing && !none;
  if (state.missing) missing.textContent = errorText(state.missing);
  else if (none) missing.textContent = state.list.mistakes.length ? t("mistake_all_learnt") : t("mistake_none");
  $("#mistake-main").hidden = !m;
  drawList();
  if (!m) return;
  $("#mistake-task").textContent = t("mistake_task", sideName(m.side), m.played);
  $("#mistake-count").textContent = m.learnt ? t("mistake_learnt") : t("mistake_solved", m.solved, 2);
  const box = $("#mistake-feedback");
  const f = state.feedback;
  box.className = "feedback" + (f ? ` ${f.kind}` : "");
  box.textContent = f ? f.parts().filter(Boolean).join(" ") : "";
  $("#mistake-next").classList.toggle("primary", state.done);
}

function feedback(kind, parts) {
  state.feedback = { kind, parts };
  render();
}

// How sure the answer is: the databases' exact value, or the engine's
// estimate with the margin a good move may keep from the best.
function sureness(judged) {
  return judged.exact ? t("mistake_exact") : t("mistake_estimate", t("cost_seeds", (judged.margin || 0) / 100));
}

async function play(letter) {
  const m = state.mistake;
  if (!m || state.busy || state.done || !state.view) return;
  await tryMove(state, letter, { feedback, render, judge: (here) => judge(m, letter, here), done: refreshList });
}

// The server's word on `letter` played in mistake `m`, shown and said.
async function judge(m, letter, here) {
  const judged = await api("POST", `/api/study/mistakes/${m.id}/answer`, { move: letter });
  if (!here()) return;
  state.mistake = judged.mistake;
  const side = m.side;
  const said = () => judged.right
    ? t("mistake_right", letter, scoreWords(judged.answered.score, side))
    : t("mistake_wrong", letter, scoreWords(judged.answered.score, side));
  if (judged.right) {
    state.done = true;
    feedback("good", () => [said(), sureness(judged), t("mistake_line_follows")]);
    const end = await board.sowLine(m.position, m.rules, judged.line);
    if (!end || !here()) return;
    board.paint(end, { over: true });
    feedback("good", () => [said(), sureness(judged), t("mistake_line_done", judged.line.join(" "))]);
    await sayMistakeLine(m, judged.line);
  } else {
    feedback("bad", () => [said(), sureness(judged)]);
    drawMistake();
  }
}

// The list again, with the counts of the try just made.
async function refreshList(key) {
  try {
    const list = await api("GET", "/api/study/mistakes");
    if (state.key !== key) return;
    state.list = list;
    drawList();
  } catch {
    // The list shown stays; the next visit reads it again.
  }
}

// The line played out, each move in words (as the game view says its
// moves), in the view's log.
function sayMistakeLine(m, letters) {
  return sayLine(m.position, m.rules, m.side, letters, "#mistake-said");
}

// The next mistake to try: the first due other than this one.
function next() {
  const list = state.list ? state.list.mistakes : [];
  const here = state.mistake ? state.mistake.id : null;
  const m = list.find((x) => !x.learnt && x.id !== here);
  if (m) nav.go({ view: "learn", tab: "mistakes", id: m.id });
  else {
    state.key = null;
    nav.go({ view: "learn", tab: "mistakes" });
  }
}

export function wire() {
  board = new StudyBoard($("#mistake-board"));
  listenForMoves($("#mistake-board"), () => !$("#learn-mistakes").hidden && !$("#view-learn").hidden, () => state.view, play);
  $("#mistake-next").onclick = next;
}

// The position on the board is redrawn in the page's language.
export function redraw() {
  render();
  if (!state.busy) drawMistake();
}
