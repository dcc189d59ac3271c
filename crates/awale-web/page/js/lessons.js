// Lessons (Leçons): short steps from lessons.json, each a position and a
// task in big, simple words. The learner plays the move; the page sows it
// and says what happened and why, with a hint after a wrong try (and the
// hole lit after two). Progress is kept in this browser.

import { textEl } from "./dom.js";
import { getLang, t, typography } from "./i18n.js";
import * as nav from "./nav.js";
import { loadJson, saveJson } from "./settings.js";
import { showError } from "./toast.js";
import { letterHole } from "./words.js";
import {
  StudyBoard, listenForMoves, moveOf, playMarks, positionView, whatHappened, whereLastFell, whyNot,
} from "./study-board.js";

const $ = (sel) => document.querySelector(sel);
const PROGRESS = "awale.lessons";

let lessons = null;
let board = null;
const state = {
  lesson: null, // the lesson shown, or null for the list
  step: 0,
  view: null, // the step's position, as the server sees it
  busy: false, // a move is being sown
  tries: 0, // wrong tries at this step
  solved: false,
  feedback: null, // {kind, parts}: said again in the other language
  showing: null, // the timer that puts the step back after a wrong try shown
};

async function load() {
  if (!lessons) {
    const res = await fetch(new URL("../lessons.json", import.meta.url));
    lessons = (await res.json()).lessons;
  }
  return lessons;
}

// A text of lessons.json in the page's language.
function say(words) {
  return words ? typography(words[getLang()] || words.en) : "";
}

// Steps done per lesson, kept in this browser.
function progress() {
  const p = loadJson(PROGRESS, {});
  return p && typeof p === "object" ? p : {};
}

function markDone(id, steps) {
  const p = progress();
  p[id] = Math.max(p[id] || 0, steps);
  saveJson(PROGRESS, p);
}

// Shows the list of lessons, or lesson `route.lesson` at `route.step`.
export async function show(route) {
  try {
    await load();
  } catch (e) {
    showError(e);
    return;
  }
  const lesson = lessons.find((l) => l.id === route.lesson) || null;
  $("#lesson-list").hidden = !!lesson;
  $("#lesson").hidden = !lesson;
  if (!lesson) {
    state.lesson = null;
    renderList();
    return;
  }
  const done = progress()[lesson.id] || 0;
  let step = route.step !== undefined ? route.step - 1 : done < lesson.steps.length ? done : 0;
  step = Math.max(0, Math.min(step, lesson.steps.length - 1));
  if (state.lesson !== lesson || state.step !== step || !state.view) await openStep(lesson, step);
}

let listed = null; // what the list shows: language and progress

function renderList() {
  const list = $("#lesson-list");
  const p = progress();
  // Built again only when it changes: a card being tapped stays.
  const key = getLang() + JSON.stringify(p);
  if (key === listed && list.childElementCount) return;
  listed = key;
  list.textContent = "";
  lessons.forEach((lesson, i) => {
    const done = Math.min(p[lesson.id] || 0, lesson.steps.length);
    const b = document.createElement("button");
    b.type = "button";
    b.className = "lesson-card" + (done === lesson.steps.length ? " done" : "");
    b.dataset.lesson = lesson.id;
    const num = textEl("span", "num", String(i + 1));
    const title = textEl("span", "title", say(lesson.title));
    const st = textEl("span", "state", done === lesson.steps.length ? t("lesson_done") : t("lesson_steps", done, lesson.steps.length));
    b.append(num, title, st);
    b.onclick = () => nav.go({ view: "learn", tab: "lessons", lesson: lesson.id });
    list.append(b);
  });
}

async function openStep(lesson, step) {
  clearTimeout(state.showing);
  Object.assign(state, { lesson, step, view: null, busy: false, tries: 0, solved: false, feedback: null, showing: null });
  const s = lesson.steps[step];
  renderLesson();
  // The step's task is read first: the focus goes there (from the list,
  // from Next, or a lesson's address opened).
  if (!$("#view-learn").hidden) $("#lesson-task").focus();
  try {
    state.view = await positionView(s.position, s.rules || "awale");
  } catch (e) {
    showError(e);
    return;
  }
  if (state.lesson === lesson && state.step === step) drawStep();
}

function drawStep() {
  const s = state.lesson.steps[state.step];
  const marks = playMarks(state.view);
  // After two wrong tries, the hole to play is lit.
  if (state.tries >= 2) marks.hint = letterHole(s.accept[0]);
  // The learner plays the side to move: "ton trou D", "ton grenier".
  board.you = state.view.to_move;
  board.draw(state.view, marks);
}

function renderLesson() {
  const lesson = state.lesson;
  if (!lesson) return;
  const s = lesson.steps[state.step];
  $("#lesson-title").textContent = say(lesson.title);
  $("#lesson-step").textContent = t("lesson_step", state.step + 1, lesson.steps.length);
  $("#lesson-task").textContent = say(s.task);
  const hint = $("#lesson-hint-text");
  hint.hidden = state.tries === 0 || state.solved;
  hint.textContent = t("lesson_hint", say(s.hint));
  renderFeedback();
  const last = state.step === lesson.steps.length - 1;
  const next = $("#lesson-next");
  next.hidden = !state.solved;
  next.textContent = last ? t(nextLesson() ? "lesson_next_lesson" : "lesson_all") : t("lesson_next_step");
  $("#lesson-show-hint").hidden = state.solved || state.tries > 0;
}

function renderFeedback() {
  const box = $("#lesson-feedback");
  const f = state.feedback;
  box.className = "feedback" + (f ? ` ${f.kind}` : "");
  box.textContent = f ? f.parts().filter(Boolean).join(" ") : "";
}

function nextLesson() {
  const i = lessons.indexOf(state.lesson);
  return lessons[i + 1] || null;
}

function feedback(kind, parts) {
  state.feedback = { kind, parts };
  renderFeedback();
}

async function play(letter) {
  if (!state.lesson || state.busy || state.solved || !state.view) return;
  const lesson = state.lesson;
  const stepIndex = state.step;
  const s = lesson.steps[stepIndex];
  const rules = s.rules || "awale";
  if (state.showing) {
    // A wrong try still shown: the step's position back first.
    clearTimeout(state.showing);
    state.showing = null;
    drawStep();
  }
  const view = state.view;
  const m = moveOf(view, letter);
  if (!m) return;
  const wrongText = s.wrong && s.wrong[letter];
  if (!m.legal) {
    state.tries++;
    // The step's own words for this move, else why the rules refuse it.
    feedback("bad", () => [wrongText ? say(wrongText) : whyNot(m, true), t("lesson_try_again")]);
    renderLesson();
    drawStep();
    return;
  }
  const here = () => state.lesson === lesson && state.step === stepIndex;
  state.busy = true;
  feedback("", () => [t("study_sowing", letter)]);
  try {
    if (!(await board.sow(view, letter)) || !here()) return;
    const after = await positionView(m.after, rules);
    if (!here()) return;
    board.paint(after, { last: letterHole(letter), captured: new Set(m.captures), over: true });
    // "Well done!" once, then the step's own words (they never praise
    // again: no "Well done! Well done!").
    const praise = () => [t("lesson_well_done"), s.success ? say(s.success) : whatHappened(view, letter)];
    if (s.accept.includes(letter)) {
      // Done as soon as it is solved: the learner may go on before the
      // line that follows has played.
      state.solved = true;
      markDone(lesson.id, stepIndex + 1);
      feedback("good", praise);
      renderLesson();
      if (s.then && s.then.length) {
        await new Promise((r) => setTimeout(r, 500));
        if (!here()) return;
        const end = await board.sowLine(m.after, rules, s.then);
        if (!end || !here()) return;
        board.paint(end, { over: true });
      }
      $("#lesson-next").focus();
    } else {
      state.tries++;
      // The step's own words for this move, else what the move did: in a
      // lesson on sowing (or a step on where the last seed falls), where
      // it fell (the task stays shown above, not said twice), never
      // capture rules not yet taught.
      const sowing = lesson.id === "sow" || (s.check && "last" in s.check);
      const did = () => (sowing ? [whereLastFell(view, letter)] : [whatHappened(view, letter)]);
      feedback("bad", () => [...(wrongText ? [say(wrongText)] : did()), t("lesson_try_again")]);
      renderLesson();
      // The step's position again once the learner has seen the move, or
      // at once when they play again meanwhile (a tap is never lost).
      state.busy = false;
      state.showing = setTimeout(() => {
        state.showing = null;
        if (here() && !state.solved) drawStep();
      }, 1800);
    }
  } catch (e) {
    showError(e);
  } finally {
    if (here()) state.busy = false;
  }
}

function again() {
  if (!state.lesson) return;
  clearTimeout(state.showing);
  state.showing = null;
  state.solved = false;
  state.busy = false;
  state.feedback = null;
  renderLesson();
  if (state.view) drawStep();
}

function next() {
  const lesson = state.lesson;
  if (!lesson) return;
  if (state.step + 1 < lesson.steps.length) {
    nav.go({ view: "learn", tab: "lessons", lesson: lesson.id, step: state.step + 2 });
  } else {
    const n = nextLesson();
    nav.go(n ? { view: "learn", tab: "lessons", lesson: n.id, step: 1 } : { view: "learn", tab: "lessons" });
  }
}

// Again in the page's language.
export function render() {
  if (!lessons) return;
  if (state.lesson) {
    renderLesson();
    if (state.view && !state.busy) drawStep();
  } else {
    renderList();
  }
}

export function wire() {
  board = new StudyBoard($("#lesson-board"));
  listenForMoves($("#lesson-board"), () => !$("#lesson").hidden && !$("#view-learn").hidden, () => state.view, play);
  // A wrong try still shown (its position, where no hole is to be
  // played): a tap on a hole plays it from the step's position.
  $("#lesson-board").addEventListener("click", (e) => {
    const hit = e.target.closest(".hole-hit");
    if (hit && state.showing && !hit.classList.contains("tappable")) play(hit.dataset.letter);
  });
  $("#lesson-again").onclick = again;
  $("#lesson-next").onclick = next;
  $("#lesson-back").onclick = () => nav.go({ view: "learn", tab: "lessons" });
  $("#lesson-show-hint").onclick = () => {
    const hint = $("#lesson-hint-text");
    hint.hidden = false;
    $("#lesson-show-hint").hidden = true;
  };
}
