// How far the server's own build of the endgame databases is (it builds
// the levels it lacks at its first start, in the background): "perfect
// play and puzzles: levels up to 14 of 20 ready", above the Learn view's
// tabs, told politely to screen readers (role="status") as it changes,
// asked again every few seconds while the Learn view is open and the
// build goes on. The server says it all (GET /api/study's `databases`).

import { api } from "./api.js";
import { t } from "./i18n.js";

const $ = (sel) => document.querySelector(sel);
// Seconds between two questions while a level is being built.
const EVERY_MS = 10_000;

let last = null; // the server's `databases`, or null
let timer = null;
let whenPuzzles = null; // called once puzzles come

function words(d) {
  if (d.stopped) return t("db_progress_stopped", d.ready ?? 0, d.target);
  if (d.ready === null || d.ready === undefined) return t("db_progress_none", d.target);
  if (d.building) return t("db_progress", d.ready, d.target);
  return t("db_progress_done", d.ready);
}

// Draws what is known, in the page's language.
export function render() {
  const p = $("#db-progress");
  if (!p) return;
  // Once every level is ready there is nothing to wait for: said no more.
  p.hidden = !last || (!last.building && !last.stopped);
  const text = last ? words(last) : "";
  // Written only when it changes, so a screen reader hears each level once.
  if (p.textContent !== text) p.textContent = text;
}

// Asks the server, then again while the build goes on and the Learn view
// is shown; `onPuzzles` is called when puzzles become available.
export async function follow(onPuzzles) {
  if (onPuzzles) whenPuzzles = onPuzzles;
  clearTimeout(timer);
  timer = null;
  let puzzles = false;
  try {
    const info = await api("GET", "/api/study");
    last = info.databases ?? null;
    puzzles = info.puzzles === true;
  } catch {
    last = null;
  }
  render();
  if (puzzles && whenPuzzles) {
    const call = whenPuzzles;
    whenPuzzles = null;
    call();
  }
  if (last && last.building) {
    timer = setTimeout(() => {
      const view = $("#view-learn");
      if (view && !view.hidden) follow();
      else timer = null;
    }, EVERY_MS);
  }
}
