// What the study pages (lessons, puzzles, analysis) share: a position's
// moves as the server works them out (GET /api/study/position, kept for
// the page's life), drawing such a position, and sowing one of its moves
// on a board. The page never works out the rules itself.

import { api } from "./api.js";
import { drawBoard } from "./board.js";
import { settings } from "./settings.js";
import { animatePly } from "./sowing.js";
import { t } from "./i18n.js";
import { moveWords, say, unsay } from "./spoken.js";
import { errorText } from "./toast.js";
import { holeLetter, letterHole } from "./words.js";

const views = new Map();

// The server's view of `diagram` under `rules`: board, stores, to_move,
// end, rules (with columns) and, for each of the mover's six holes, what
// it does (`sown`, `captures`, `captured`, `after`) or why it cannot be
// played (`reason`).
export async function positionView(diagram, rules = "awale") {
  const key = `${rules}|${diagram}`;
  if (views.has(key)) return views.get(key);
  const query = new URLSearchParams({ position: diagram, rules });
  const v = await api("GET", `/api/study/position?${query}`);
  if (views.size > 2000) views.clear();
  views.set(key, v);
  return v;
}

// Loads what `state` (a puzzle's, a mistake's) shows for the request
// `key`: `fetch` asks the server and keeps what it needs in `state`, and
// gives the position to show (`{position, rules}`, or null for none),
// whose view becomes `state.view` with `board` turned for the side to
// move, whose holes it names as the learner's; a refusal is kept as `state.missing`. False when another request
// came meanwhile (this one's answer is then dropped).
export async function loadPosition(state, key, board, fetch) {
  try {
    const shown = await fetch();
    if (state.key !== key) return false;
    if (shown) {
      state.view = await positionView(shown.position, shown.rules);
      if (state.key !== key) return false;
      board.flipped = state.view.to_move === "N";
      board.you = state.view.to_move;
    }
  } catch (e) {
    if (state.key !== key) return false;
    state.missing = e;
  }
  return true;
}

export function moveOf(view, letter) {
  return view.moves.find((m) => m.move === letter) || null;
}

// Moves asked on a study board: a tap on a hole that can be played, or
// a key while `active()` (A-F for the side to move's holes; Enter or
// space on a focused hole). `view()` is the position shown.
export function listenForMoves(element, active, view, play) {
  element.addEventListener("click", (e) => {
    const hit = e.target.closest(".hole-hit.tappable");
    if (hit) play(hit.dataset.letter);
  });
  document.addEventListener("keydown", (e) => {
    if (!active() || !view()) return;
    if (e.target.closest && e.target.closest("input, textarea, select, dialog[open]")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (/^[a-fA-F]$/.test(e.key)) {
      const i = e.key.toUpperCase().charCodeAt(0) - 65;
      play(holeLetter(view().to_move === "S" ? i : i + 6));
    } else if ((e.key === "Enter" || e.key === " ") && e.target.dataset && e.target.dataset.letter) {
      e.preventDefault();
      play(e.target.dataset.letter);
    }
  });
}

// The ply of `letter` from `view`, as sowing.js animates a game's ply.
export function plyOf(view, letter) {
  const m = moveOf(view, letter);
  return {
    move: letter, side: view.to_move, before: view.board, stores_before: view.stores,
    sown: m.sown, captures: m.captures, captured: m.captured,
  };
}

export function shownOf(view) {
  return { board: view.board, stores: view.stores, to_move: view.to_move };
}

// The marks of a position the person may play in: its legal holes lit,
// the others of the mover's row tappable (to hear why not).
export function playMarks(view) {
  const legal = new Set(view.moves.filter((m) => m.legal).map((m) => letterHole(m.move)));
  const mine = new Set(view.moves.filter((m) => !m.legal).map((m) => letterHole(m.move)));
  return { legal, mine };
}

// A board of the study pages: an SVG, the way it is turned, and a run
// number that stops a sowing when the board is drawn anew.
export class StudyBoard {
  constructor(svg) {
    this.svg = svg;
    this.flipped = false;
    this.run = 0;
    this.columns = { S: [0, 1, 2, 3, 4, 5], N: [11, 10, 9, 8, 7, 6] };
    // The learner's side (a lesson's, a puzzle's, a mistake's side to
    // move), set by the view: its holes and store are named "yours",
    // with "tu" in French. Null: every hole by its side (the analysis).
    this.you = null;
  }

  // Draws `view` with `marks`, stopping any sowing going on.
  draw(view, marks = {}) {
    this.run++;
    this.paint(view, marks);
  }

  // Draws `view` (a position view, or {board, stores, to_move}). A game
  // over is drawn with the seeds left given out (in the stores), as the
  // rules say, once `marks.over`.
  paint(view, marks = {}) {
    if (view.rules) this.columns = view.rules.columns;
    let shown = view.moves ? shownOf(view) : view;
    if (view.moves && view.end && marks.over) {
      shown = { board: new Array(12).fill(0), stores: view.end.stores, to_move: view.to_move };
    }
    const learner = this.you ? { you: this.you, familiar: true } : {};
    drawBoard(this.svg, shown, this.columns, this.flipped, { krou: true, ...learner, ...marks });
  }

  // Sows `letter` of `view` seed by seed (as fast as the settings say).
  // Resolves false when the board was drawn anew meanwhile.
  async sow(view, letter) {
    const run = this.run;
    if (view.rules) this.columns = view.rules.columns;
    const alive = () => run === this.run;
    await animatePly(this.svg, plyOf(view, letter), this.columns, this.flipped,
      (shown, marks) => alive() && this.paint(shown, marks), alive);
    return alive();
  }

  // Sows `letters` one after the other from `diagram`, with a pause
  // between moves, and leaves the position reached on the board. Resolves
  // to its view, or null when the board was drawn anew meanwhile.
  async sowLine(diagram, rules, letters) {
    const pause = Math.max(150, settings.speed * 2);
    const run = ++this.run;
    let view = await positionView(diagram, rules);
    for (const letter of letters) {
      const m = moveOf(view, letter);
      if (!m || !m.legal || run !== this.run) break;
      if (!(await this.sow(view, letter))) return null;
      view = await positionView(m.after, rules);
      if (run !== this.run) return null;
      this.paint(view, { last: letterHole(letter), captured: new Set(m.captures) });
      await new Promise((r) => setTimeout(r, pause));
    }
    return run === this.run ? view : null;
  }
}

// What a legal move did, in words: what it captured, or where its last
// seed fell and what that hole holds now.
export function whatHappened(view, letter) {
  const m = moveOf(view, letter);
  if (!m || !m.legal) return "";
  if (m.captured > 0) return t("study_took", m.captured);
  if (m.grand_slam) return t("study_grand_slam_nothing");
  const last = m.sown[m.sown.length - 1];
  const mover = view.to_move === "S" ? [0, 5] : [6, 11];
  const count = view.board[last] + m.sown.filter((h) => h === last).length;
  const name = String.fromCharCode(last < 6 ? 65 + last : 97 + last - 6);
  if (last >= mover[0] && last <= mover[1]) return t("study_last_own", name);
  return t("study_last_count", count, name);
}

// Where a legal move's last seed fell, in words, and nothing of captures:
// for the lessons before capture is taught.
export function whereLastFell(view, letter) {
  const m = moveOf(view, letter);
  if (!m || !m.legal) return "";
  const last = m.sown[m.sown.length - 1];
  return t("study_last_fell", String.fromCharCode(last < 6 ? 65 + last : 97 + last - 6));
}

// Why a hole of the mover's row cannot be played, in words; `familiar`:
// as the lessons say it (to a child).
// One try of `letter` on a study board (a puzzle, a mistake of one's
// own): an illegal hole is told why; else the board is busy while `judge`
// asks the server and shows its answer, an error is told in words, and
// then `done` runs. `state.key` names what the board shows: `judge` is
// given `here`, false once another is shown, so a late answer is dropped.
export async function tryMove(state, letter, { feedback, render, judge, done = () => {} }) {
  const hole = moveOf(state.view, letter);
  if (!hole) return;
  if (!hole.legal) {
    // Said as the lessons say it ("tu" in French, as the learning views).
    feedback("bad", () => [whyNot(hole, true)]);
    return;
  }
  const key = state.key;
  const here = () => state.key === key;
  state.busy = true;
  feedback("", () => [t("study_sowing", letter)]);
  try {
    await judge(here);
  } catch (e) {
    if (here()) feedback("bad", () => [errorText(e)]);
  } finally {
    if (here()) {
      state.busy = false;
      render();
      done(key);
    }
  }
}

export function whyNot(m, familiar = false) {
  const prefix = familiar ? "lesson_why_" : "why_";
  switch (m.reason) {
    case "empty_hole":
      return t(prefix + "empty");
    case "does_not_feed":
      return t(prefix + "does_not_feed");
    case "grand_slam":
      return t(prefix + "grand_slam");
    default:
      return t("err_game_over");
  }
}

// The line `letters` played from `diagram` (rules), each move in words
// (as the game view says its moves, `you` the solver's side, but with
// "tu" in French, as the learning views speak), in the log `where`,
// emptied first.
export async function sayLine(diagram, rules, you, letters, where) {
  unsay(where);
  let view = await positionView(diagram, rules);
  for (const letter of letters) {
    const hole = moveOf(view, letter);
    if (!hole || !hole.legal) break;
    say(moveWords(plyOf(view, letter), you, false, true), where);
    view = await positionView(hole.after, rules);
  }
}
