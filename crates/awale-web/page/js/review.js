// The review of a finished game: every move scored by the engine, the
// lead in seeds drawn over the game (South's view), and the mistakes with
// the better move. The server keeps a review once made: asking again shows
// it at once.

import { api } from "./api.js";
import { el } from "./board.js";
import { fromGame as exploreGame } from "./explorer.js";
import { current, session } from "./game.js";
import { t } from "./i18n.js";
import { fromGame } from "./mistakes.js";
import { canReview, moveNumber, refreshStatus, setEndAccuracy, setMistakes, showPly } from "./play-view.js";
import { prefersReducedMotion } from "./settings.js";
import { say } from "./spoken.js";
import { showError } from "./toast.js";
import { costWords, plotLabel, reviewCounts, sideName, scoreWords } from "./words.js";

const $ = (sel) => document.querySelector(sel);
let shown = null; // the review on screen
let asked = null; // the game whose stored review the end screen asked for

// Each side's accuracy at the end of game `g`, once its review is done
// (this page's, or the stored one, asked once quietly); "" before.
setEndAccuracy((g) => {
  if (shown && shown.id === g.id) return accuracyWords(shown.accuracy);
  if (canReview(g) && asked !== g.id) {
    asked = g.id;
    api("GET", `/api/games/${g.id}/review`)
      .then((r) => {
        if (r.id !== g.id || (shown && shown.id === r.id)) return;
        if (!session.game || session.game.id !== r.id) return;
        shown = r;
        setMistakes(r.id, r.plies.filter((p) => p.mistake).map((p) => p.ply));
        refreshStatus();
      })
      .catch(() => {
        // Not reviewed yet: the end says nothing of accuracy.
      });
  }
  return "";
});

export function hide() {
  $("#review").hidden = true;
}

// The viewer's own mistakes in the review shown: the sides they played.
function ownMistakes(r) {
  const you = (session.game && session.game.you) || [];
  return r.plies.filter((p) => p.mistake && you.includes(p.side));
}

// "Learn from your mistakes": the viewer's mistakes of this game kept as
// puzzles of their list, the first shown.
async function learnMistakes() {
  if (!shown) return;
  try {
    await fromGame(shown.id);
  } catch (e) {
    showError(e);
  }
}

// Shows the review of the game on the board: the stored one, or a new one.
export async function open() {
  const g = session.game;
  if (!g) return;
  const box = $("#review");
  // Said once when opened, not again at each position looked at.
  const aloud = box.hidden;
  box.hidden = false;
  // The opening explorer at the position shown (the game's end unless
  // it is replayed).
  $("#btn-explore-opening").onclick = () => exploreGame(g, session.replayAt ?? undefined).catch(showError);
  $("#plot").textContent = "";
  $("#mistakes").textContent = "";
  $("#btn-learn-mistakes").hidden = true;
  if (!canReview(g)) {
    status(t("review_after_end"), aloud);
    return;
  }
  if (shown && shown.id === g.id) {
    draw(aloud);
    return;
  }
  status(t("review_running"), aloud);
  box.scrollIntoView({ behavior: "smooth", block: "start" });
  const epoch = session.epoch;
  let r;
  try {
    try {
      r = await api("GET", `/api/games/${g.id}/review`);
    } catch (e) {
      if (e.code === "network") throw e;
      r = await api("POST", `/api/games/${g.id}/review`);
    }
  } catch (e) {
    if (!current(epoch)) return;
    $("#review-status").textContent = "";
    showError(e);
    return;
  }
  if (!current(epoch) || r.id !== g.id) return;
  shown = r;
  setMistakes(r.id, r.plies.filter((p) => p.mistake).map((p) => p.ply));
  draw(aloud);
  refreshStatus();
}

// Where the review is, in words: shown, and said in the play view's log
// when `aloud`, so that a screen reader hears that it runs, then what it
// found. (The review's box is shown at that moment: a live region in it
// would not be heard.)
function status(words, aloud) {
  $("#review-status").textContent = words;
  if (aloud) say(words);
}

// Drawn again in the language chosen.
export function redraw() {
  if (shown && !$("#review").hidden && session.game && shown.id === session.game.id) draw();
}

// Draws the review shown; says what it found when `aloud`.
function draw(aloud = false) {
  const r = shown;
  const plies = session.game.plies;
  const mistakes = r.plies.filter((p) => p.mistake);
  const moves = r.plies.length ? moveNumber(plies, r.plies.length - 1) : 0;
  const counts = reviewCounts(r.plies.length, moves, mistakes.length);
  status([counts, accuracyWords(r.accuracy)].filter(Boolean).join(" "), aloud);
  drawPlot(r);
  const table = $("#mistakes");
  table.textContent = "";
  const learn = $("#btn-learn-mistakes");
  learn.hidden = !ownMistakes(r).length;
  learn.onclick = learnMistakes;

  if (!mistakes.length) {
    table.insertRow().insertCell().textContent = t("no_mistake");
    return;
  }
  const head = table.createTHead().insertRow();
  for (const k of ["col_move", "col_played", "col_better", "col_cost"]) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = t(k);
    head.append(th);
  }
  const body = table.createTBody();
  for (const p of mistakes) {
    const tr = body.insertRow();
    tr.className = "clickable";
    const go = document.createElement("button");
    go.type = "button";
    go.className = "link";
    go.textContent = `${moveNumber(plies, p.ply)}. ${sideName(p.side)}`;
    go.setAttribute("aria-label", t("show_mistake", moveNumber(plies, p.ply), sideName(p.side), p.move));
    tr.insertCell().append(go);
    tr.insertCell().textContent = `${p.move} — ${scoreWords(p.played, p.side)}`;
    tr.insertCell().textContent = p.best ? `${p.best.move} — ${scoreWords(p.best.score, p.side)}` : "";
    tr.insertCell().textContent = costWords(p);
    tr.onclick = () => {
      showPly(p.ply + 1);
      window.scrollTo({ top: 0, behavior: prefersReducedMotion ? "auto" : "smooth" });
    };
  }
}

// Each side's accuracy (0 to 100, docs/ACCURACY.md), with how many of its
// moves' losses were exact (the databases decided them) rather than
// the engine's estimates.
function accuracyWords(list) {
  if (!Array.isArray(list) || !list.length) return "";
  const lang = document.documentElement.lang || undefined;
  const sides = list.map((a) =>
    t("review_accuracy_side", sideName(a.side), Number(a.accuracy).toLocaleString(lang, { maximumFractionDigits: 1 }), a.exact, a.moves),
  );
  return t("review_accuracy", sides.join(", "));
}

// A forced result without its margin: its cp (±50 seeds) is no lead.
function noSeeds(sc) {
  return !!sc && sc.decided && Math.abs(sc.cp) >= 5000;
}

function drawPlot(r) {
  const svg = $("#plot");
  svg.textContent = "";
  const PW = 800;
  const PH = 240;
  const left = 44;
  const right = 12;
  const n = Math.max(r.plies.length, 1);
  // Scaled to the game: the largest lead it saw fits (a big loss is not
  // flattened at 12 seeds), at least ±12 seeds.
  const south = (sc, side) => (sc ? (side === "S" ? sc.cp : -sc.cp) : 0);
  // A forced result without a margin is drawn at the edge, and does not
  // stretch the scale.
  const seen = Math.max(0, ...r.plies.filter((p) => !noSeeds(p.played)).map((p) => Math.abs(south(p.played, p.side)) / 100));
  const span = [12, 15, 20, 25, 30, 40, 50].find((s) => seen <= s) ?? Math.ceil(seen / 10) * 10;
  const step = span <= 15 ? 5 : span <= 30 ? 10 : 25;
  const x = (i) => left + (i * (PW - left - right)) / n;
  const y = (cp) => PH / 2 - (Math.max(-span, Math.min(span, cp / 100)) * (PH / 2 - 18)) / span;
  svg.dataset.span = String(span);
  const marks = [0];
  for (let v = step; v <= span; v += step) marks.push(v, -v);
  for (const v of marks) {
    el("line", { x1: left, x2: PW - right, y1: y(v * 100), y2: y(v * 100), stroke: v === 0 ? "#8a7660" : "#3a2f24", "stroke-width": v === 0 ? 1.5 : 1 }, svg);
    const lb = el("text", { x: left - 6, y: y(v * 100) + 5, "text-anchor": "end", class: "plot-label" }, svg);
    lb.textContent = (v > 0 ? "+" : v < 0 ? "−" : "") + Math.abs(v);
  }
  const top = el("text", { x: left + 6, y: 16, class: "plot-side" }, svg);
  top.textContent = t("plot_south_ahead");
  const bottom = el("text", { x: left + 6, y: PH - 6, class: "plot-side" }, svg);
  bottom.textContent = t("plot_north_ahead");
  // Before the first move, then after each move (South's view): a mistake
  // shows as a drop for the side that made it.
  const pts = [[x(0), y(r.plies.length ? r.plies[0].eval_south ?? 0 : 0)]];
  r.plies.forEach((p, i) => pts.push([x(i + 1), y(south(p.played, p.side))]));
  const area = `M${pts[0][0]} ${PH / 2} ` + pts.map((p) => `L${p[0]} ${p[1]}`).join(" ") + ` L${pts[pts.length - 1][0]} ${PH / 2} Z`;
  el("path", { d: area, fill: "#f0b64a", opacity: 0.18 }, svg);
  el("polyline", { points: pts.map((p) => p.join(",")).join(" "), fill: "none", stroke: "#f0b64a", "stroke-width": 2.5, "stroke-linejoin": "round" }, svg);
  const plies = session.game.plies;
  r.plies.forEach((p, i) => {
    const [px, py] = pts[i + 1];
    const dot = el("circle", { cx: px, cy: py, r: p.mistake ? 6 : 3, fill: p.mistake ? "#e0553f" : "#f0b64a", class: "plot-dot" }, svg);
    el("title", {}, dot).textContent = `${moveNumber(plies, i)}. ${p.move}: ${scoreWords(p.played, p.side)}`;
    dot.addEventListener("click", () => {
      showPly(i + 1);
      window.scrollTo({ top: 0, behavior: prefersReducedMotion ? "auto" : "smooth" });
    });
  });
  svg.setAttribute("aria-label", plotLabel(r.end || session.game.end));
}
