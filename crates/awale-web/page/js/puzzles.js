// Puzzles (Problèmes) from the endgame databases: the puzzle of the day,
// then one after another at a chosen difficulty. The server checks the
// answer; then the database's line is played out on the board. A wrong
// move is refuted on the board, and the puzzle comes back for another try.
// What was solved is kept in this browser; the server keeps the player's
// puzzle rating (each first try rated) and streaks (puzzles of rising
// difficulty until the first miss, `#puzzles&streak=1`).

import { api } from "./api.js";
import { t } from "./i18n.js";
import * as nav from "./nav.js";
import { loadJson, saveJson } from "./settings.js";
import { errorText } from "./toast.js";
import { sideName } from "./words.js";
import { unsay } from "./spoken.js";
import { StudyBoard, listenForMoves, loadPosition, playMarks, sayLine, tryMove } from "./study-board.js";

const $ = (sel) => document.querySelector(sel);
const STATS = "awale.puzzles";
// Plies of a wrong move's refutation played on the board.
const REFUTATION_PLIES = 6;

let board = null;
let lastRoute = null; // the last address shown, for retry()
const state = {
  key: null, // what was asked: "daily" or "seed:S:D"
  puzzle: null, // the server's puzzle
  day: null, // its day, for the puzzle of the day
  view: null, // its position, as the server sees it
  busy: false,
  tries: 0, // wrong tries
  solved: false,
  revealed: false, // the solution was shown
  feedback: null, // {kind, parts}
  missing: null, // why there are no puzzles (no database)
  streak: false, // a puzzle of a streak
  streakOver: false, // the streak ended on this puzzle
  rating: null, // the player's puzzle rating, counts and streaks (the server's)
  change: null, // the last first try's change of the rating
};

function stats() {
  const s = loadJson(STATS, {});
  return { solved: 0, streak: 0, best: 0, days: {}, ...(s && typeof s === "object" ? s : {}) };
}

function saveStats(s) {
  saveJson(STATS, s);
}

// A new seed for "next puzzle".
function newSeed() {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  return a[0];
}

// Asks again for the puzzle the address names when it could not come for
// want of a database, which the server was still building (databases.js).
export function retry() {
  if (state.missing && state.missing.code === "no_database" && lastRoute && !$("#learn-puzzles").hidden) {
    state.key = null;
    show(lastRoute);
  }
}

// Shows the puzzle the address names: of the day, from a seed (near the
// player's rating when no difficulty or theme is asked), or the next of a
// streak.
export async function show(route) {
  lastRoute = route;
  const key = route.streak
    ? `streak:${route.seed}`
    : route.seed !== undefined ? `seed:${route.seed}:${route.difficulty || ""}:${route.theme || ""}` : "daily";
  // A puzzle that could not come for want of the network is asked again.
  if (key === state.key && (state.puzzle || (state.missing && state.missing.code !== "network"))) {
    render();
    return;
  }
  Object.assign(state, {
    key, puzzle: null, day: null, view: null, busy: false, tries: 0, solved: false, revealed: false,
    feedback: null, missing: null, streak: !!route.streak, streakOver: false, change: null,
  });
  $("#puzzle-difficulty").value = route.difficulty ? String(route.difficulty) : "";
  $("#puzzle-theme-choice").value = route.theme || "";
  unsay("#puzzle-said");
  render();
  fetchRating();
  const loaded = await loadPosition(state, key, board, async () => {
    let answer;
    if (key === "daily") {
      answer = await api("GET", "/api/study/puzzles/daily");
    } else {
      const q = new URLSearchParams({ seed: route.seed });
      if (route.streak) q.set("streak", "true");
      if (route.difficulty) q.set("difficulty", route.difficulty);
      if (route.theme) q.set("theme", route.theme);
      answer = await api("GET", `/api/study/puzzles/next?${q}`);
    }
    if (state.key !== key) return null;
    state.puzzle = answer.puzzle;
    state.day = answer.day ?? null;
    return { position: answer.puzzle.position, rules: "awale" };
  });
  if (!loaded) return;
  render();
  drawPuzzle();
}

// The player's puzzle rating, as the server keeps it (none offline, or
// before the page has a player).
async function fetchRating() {
  try {
    state.rating = await api("GET", "/api/study/puzzles/rating");
    render();
  } catch {
    // The counts kept in this browser are shown instead.
  }
}

function ratingWords(r) {
  return `${r.rating}${r.provisional ? "?" : ""}`;
}

function drawPuzzle() {
  if (!state.view) return;
  const marks = state.solved || state.revealed ? { over: true } : playMarks(state.view);
  board.draw(state.view, marks);
}

function goalWords(p) {
  const side = sideName(p.position.endsWith("N") ? "N" : "S");
  return t(p.goal === "draw" ? "puzzle_goal_draw" : "puzzle_goal_win", side);
}

// What the solver (to move in the puzzle) wins from here, `value` seeds
// more than the opponent (fewer when negative), in words.
function valueWords(value) {
  const solver = state.puzzle && state.puzzle.position.endsWith("N") ? "N" : "S";
  const me = sideName(solver);
  const them = sideName(solver === "S" ? "N" : "S");
  if (value > 0) return t("puzzle_value", value, me, them);
  if (value < 0) return t("puzzle_value", -value, them, me);
  return t("puzzle_value_even", me, them);
}

export function render() {
  const p = state.puzzle;
  const missing = $("#puzzle-missing");
  missing.hidden = !state.missing;
  if (state.missing) {
    missing.textContent = "";
    if (state.missing.code === "no_database") {
      missing.append(t("puzzle_no_database"), " ");
      const code = document.createElement("code");
      code.textContent = "awale db build --max-seeds 16";
      missing.append(code, " ", t("oracle_missing_then"));
    } else if (state.missing.code === "network") {
      missing.textContent = `${t("puzzle_needs_network")} ${t("offline_works")}`;
    } else {
      missing.textContent = errorText(state.missing);
    }
  }
  $("#puzzle-main").hidden = !p;
  // Without a database no puzzle can come: no buttons that do nothing.
  const none = !!state.missing && state.missing.code === "no_database";
  for (const sel of ["#puzzle-daily", "#puzzle-next", "#puzzle-streak", "#puzzle-difficulty", "#puzzle-theme-choice"]) {
    const el = $(sel);
    (el.closest("label") || el).hidden = none;
  }
  const s = stats();
  $("#puzzle-stats").textContent = t("puzzle_stats", s.solved, s.streak, s.best);
  const r = state.rating;
  const rating = $("#puzzle-rating");
  rating.hidden = !r;
  if (r) {
    rating.textContent = [
      t("puzzle_rating", ratingWords(r.rating), r.attempts, r.solved),
      t("puzzle_best_streak", r.best_streak),
    ].join(" · ");
  }
  const streak = $("#puzzle-streak-count");
  streak.hidden = !state.streak;
  if (state.streak && r) streak.textContent = t("puzzle_streak_now", r.streak);
  if (!p) return;
  $("#puzzle-title").textContent = state.streak ? t("puzzle_streak") : state.day !== null ? t("puzzle_daily") : t("puzzle_title");
  $("#puzzle-theme").textContent = t("theme_" + p.theme);
  const stars = "★".repeat(p.difficulty) + "☆".repeat(5 - p.difficulty);
  const diff = $("#puzzle-level");
  diff.textContent = stars;
  diff.setAttribute("aria-label", t("puzzle_difficulty", p.difficulty));
  diff.title = t("puzzle_difficulty", p.difficulty);
  $("#puzzle-goal").textContent = goalWords(p);
  const box = $("#puzzle-feedback");
  const f = state.feedback;
  box.className = "feedback" + (f ? ` ${f.kind}` : "");
  box.textContent = f ? f.parts().filter(Boolean).join(" ") : "";
  const solution = $("#puzzle-solution");
  solution.hidden = state.solved || state.revealed || state.tries === 0;
  // Not while a move's answer is being sown: a click then would do nothing.
  solution.disabled = state.busy;
  // In a streak, "next" goes on with it while it lasts.
  const goesOn = state.streak && !state.streakOver;
  $("#puzzle-next").textContent = t(goesOn ? "puzzle_streak_next" : "puzzle_next");
  $("#puzzle-next").classList.toggle("primary", state.solved || state.revealed);
}

function feedback(kind, parts) {
  state.feedback = { kind, parts };
  render();
}

async function play(letter) {
  const p = state.puzzle;
  if (!p || state.busy || state.solved || state.revealed || !state.view) return;
  await tryMove(state, letter, { feedback, render, judge: (here) => judge(p, letter, here) });
}

// The server's word on `letter` played in puzzle `p`: the line that
// follows a right move, the start of the refutation of a wrong one.
async function judge(p, letter, here) {
  const judged = await api("POST", "/api/study/puzzles/check", { position: p.position, move: letter, streak: state.streak });
  if (!here()) return;
  const mine = judged.moves.find((x) => x.move === letter);
  // The first try rated: the player's rating as the server has it now.
  if (judged.rating) {
    state.rating = judged.rating.solver;
    if (judged.rating.rated) state.change = judged.rating.change;
    if (state.streak && !judged.correct) state.streakOver = true;
  }
  const solver = p.position.endsWith("N") ? "N" : "S";
  if (judged.correct) {
    state.solved = true;
    const s = stats();
    s.solved++;
    if (state.tries === 0) s.streak++;
    s.best = Math.max(s.best, s.streak);
    if (state.day !== null) s.days[state.day] = true;
    saveStats(s);
    feedback("good", () => [t(p.goal === "draw" ? "puzzle_right_draw" : "puzzle_right_win", letter), t("puzzle_line_follows")]);
    sayLine(p.position, "awale", solver, judged.line, "#puzzle-said");
    const end = await board.sowLine(p.position, "awale", judged.line);
    if (!end || !here()) return;
    board.paint(end, { over: true });
    feedback("good", () => [
      t(p.goal === "draw" ? "puzzle_right_draw" : "puzzle_right_win", letter),
      t("puzzle_line_done", judged.line.join(" "), valueWords(judged.value)),
      changeWords(),
      state.streak && state.rating ? t("puzzle_streak_now", state.rating.streak) : "",
    ]);
  } else {
    state.tries++;
    const s = stats();
    s.streak = 0;
    saveStats(s);
    const over = () => (state.streakOver && state.rating ? t("puzzle_streak_over", state.rating.best_streak) : "");
    feedback("bad", () => [t("puzzle_wrong", letter), valueWords(mine ? mine.value : 0), changeWords(), over(), t("puzzle_watch")]);
    sayLine(p.position, "awale", solver, judged.refutation.slice(0, REFUTATION_PLIES), "#puzzle-said");
    // The start of the refutation: enough to see what the move allows.
    const end = await board.sowLine(p.position, "awale", judged.refutation.slice(0, REFUTATION_PLIES));
    if (!end || !here()) return;
    await new Promise((r) => setTimeout(r, 900));
    if (!here()) return;
    feedback("bad", () => [t("puzzle_wrong", letter), valueWords(mine ? mine.value : 0), changeWords(), over(), t("puzzle_try_again")]);
    drawPuzzle();
  }
}

// The last first try's change of the player's rating, in words.
function changeWords() {
  if (state.change === null || !state.rating) return "";
  const sign = state.change > 0 ? "+" : state.change < 0 ? "−" : "±";
  return t("puzzle_rating_change", ratingWords(state.rating.rating), `${sign}${Math.abs(state.change)}`);
}

async function solution() {
  const p = state.puzzle;
  if (!p || state.busy) return;
  const key = state.key;
  state.revealed = true;
  state.busy = true;
  feedback("", () => [t("puzzle_solution", p.answer)]);
  try {
    const end = await board.sowLine(p.position, "awale", p.line);
    if (end && state.key === key) {
      board.paint(end, { over: true });
      feedback("", () => [t("puzzle_solution", p.answer), t("puzzle_line_done", p.line.join(" "), valueWords(p.value))]);
    }
  } catch (e) {
    feedback("bad", () => [errorText(e)]);
  } finally {
    if (state.key === key) {
      state.busy = false;
      render();
    }
  }
}

function next() {
  if (state.streak && !state.streakOver) {
    nav.go({ view: "learn", tab: "puzzles", streak: true, seed: newSeed() });
    return;
  }
  const d = $("#puzzle-difficulty").value;
  const theme = $("#puzzle-theme-choice").value || undefined;
  nav.go({ view: "learn", tab: "puzzles", seed: newSeed(), difficulty: d ? Number(d) : undefined, theme });
}

// A new streak: the server's count back to 0, then its first puzzle.
async function startStreak() {
  try {
    state.rating = await api("POST", "/api/study/puzzles/streak");
  } catch (e) {
    feedback("bad", () => [errorText(e)]);
    return;
  }
  nav.go({ view: "learn", tab: "puzzles", streak: true, seed: newSeed() });
}

export function wire() {
  board = new StudyBoard($("#puzzle-board"));
  listenForMoves($("#puzzle-board"), () => !$("#learn-puzzles").hidden && !$("#view-learn").hidden, () => state.view, play);
  $("#puzzle-next").onclick = next;
  $("#puzzle-daily").onclick = () => nav.go({ view: "learn", tab: "puzzles" });
  $("#puzzle-solution").onclick = solution;
  $("#puzzle-streak").onclick = startStreak;
  $("#puzzle-difficulty").onchange = next;
  $("#puzzle-theme-choice").onchange = next;
}

// The position on the board is redrawn in the page's language.
export function redraw() {
  render();
  if (!state.busy) drawPuzzle();
}

