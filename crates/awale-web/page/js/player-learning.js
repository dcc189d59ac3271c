// The learning part of a player's page (GET /api/players/NAME/learning):
// their puzzle rating and best streak, and their mean accuracy by speed
// over their reviewed games. players.js shows the rest of the page.

import { api } from "./api.js";
import { getLang, t } from "./i18n.js";

const $ = (sel) => document.querySelector(sel);

let shown = null; // the server's answer for the page shown

// Asks for the learning part of `name`'s page; drawn if `current()` still
// holds when it comes.
export async function show(name, current) {
  shown = null;
  $("#player-learning").hidden = true;
  try {
    const view = await api("GET", `/api/players/${encodeURIComponent(name)}/learning`);
    if (!current()) return;
    shown = view;
  } catch {
    // The rest of the page stands without it.
    return;
  }
  render();
}

// Drawn again (in the page's language).
export function render() {
  const v = shown;
  $("#player-learning").hidden = !v;
  if (!v) return;
  const p = v.puzzles;
  $("#player-puzzles").textContent = p
    ? [
        t("player_puzzle_rating", `${p.rating.rating}${p.rating.provisional ? "?" : ""}`, p.attempts),
        t("player_best_streak", p.best_streak),
      ].join(" · ")
    : t("player_no_puzzles");
  const list = $("#player-accuracy");
  list.textContent = "";
  const fmt = new Intl.NumberFormat(getLang(), { maximumFractionDigits: 1 });
  if (!v.accuracy.length) {
    const li = document.createElement("li");
    li.className = "muted";
    li.textContent = t("player_no_accuracy");
    list.append(li);
  }
  for (const a of v.accuracy) {
    const li = document.createElement("li");
    li.textContent = t("player_accuracy", t("speed_" + a.speed), fmt.format(a.accuracy), a.games);
    list.append(li);
  }
}
