// The stored games: a list to continue, replay or export each one, and the
// import of game records (a file, or pasted text).

import { api, fetched } from "./api.js";
import { savedLevel } from "./dialogs.js";
import { sayEmpty, textEl } from "./dom.js";
import { isolate, locale, t } from "./i18n.js";
import * as nav from "./nav.js";
import { wordedName } from "./people.js";
import { showError } from "./toast.js";
import * as turns from "./turns.js";
import { errorWords, levelName, rulesWords, shortResult } from "./words.js";

const $ = (sel) => document.querySelector(sel);
let info = null;
let loading = 0;

export function setInfo(i) {
  info = i;
}

// Lists the games (again: the words follow the language), newest first,
// a page at a time.
export async function render() {
  if (importSaying) importError(importSaying);
  turns.refresh();
  const ticket = ++loading;
  const list = $("#games-list");
  const data = await fetched("/api/games", showError);
  if (data === undefined) return;
  if (ticket !== loading) return;
  list.textContent = "";
  if (sayEmpty(list, data.games, t("no_games"))) return;
  append(list, data, ticket);
}

function append(list, data, ticket) {
  const date = new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" });
  for (const s of data.games) list.append(card(s, date));
  if (!data.next) return;
  const li = document.createElement("li");
  li.className = "more";
  const more = document.createElement("button");
  more.textContent = t("more_games");
  more.onclick = async () => {
    more.disabled = true;
    try {
      const next = await api("GET", `/api/games?before=${encodeURIComponent(data.next)}`);
      if (ticket !== loading) return;
      li.remove();
      append(list, next, ticket);
    } catch (e) {
      more.disabled = false;
      showError(e);
    }
  };
  li.append(more);
  list.append(li);
}

// A seat's name on a card: a deleted account's seat (its name left empty
// by the server) named as the player page names it (issue 42: it was "?").
function seatName(name) {
  if (name === "") return isolate(t("deleted_player"));
  return isolate(name ? wordedName(name) : "?");
}

export function card(s, date) {
  const li = document.createElement("li");
  li.className = "game-card";
  li.dataset.id = s.id;
  const head = document.createElement("div");
  head.className = "head";
  const title = document.createElement("b");
  if (s.mode === "computer") title.textContent = t("vs_level", levelName(info, s.level));
  else if (s.mode === "online") title.textContent = t("online_names", seatName(s.names[0]), seatName(s.names[1]));
  else title.textContent = t("two_people");
  const when = textEl("span", "muted", `${s.offline ? t("offline_game") : t("game_n", s.id)} · ${date.format(new Date(s.created_ms))}`);
  head.append(title, when);
  const rules = textEl("div", "muted small", s.rules_view ? rulesWords(s.rules_view) : s.rules);
  const result = document.createElement("div");
  result.className = "result-line";
  const summary = s.plies ? `${t("plies_n", s.plies)} · ${shortResult(s)}` : shortResult(s);
  result.textContent = `${summary}${s.offline ? ` · ${t("offline_pending")}` : ""}`;
  const actions = document.createElement("div");
  actions.className = "actions";
  const open = document.createElement("button");
  open.className = "open";
  // A called-off game is over: it opens, it does not continue.
  const goingOn = s.result === "*" && s.reason !== "aborted";
  open.textContent = goingOn ? t("continue_game") : t("open");
  open.onclick = () => nav.go({ view: "play", game: s.id });
  const watch = textEl("button", "watch", t("replay"));
  watch.onclick = () => nav.go({ view: "play", game: s.id, ply: 0 });
  // Nothing to replay in a game without a move.
  watch.hidden = !s.plies;
  const exp = textEl("a", "button", t("export"));
  exp.href = `/api/games/${s.id}/record`;
  exp.setAttribute("download", `awale-${s.id}.ogn`);
  // A game kept in the browser is exported once it is on the server.
  if (s.offline) actions.append(open, watch);
  else actions.append(open, watch, exp);
  li.append(head, rules, result, actions);
  return li;
}

// The import's error, as a function of the language (said again when the
// language changes), or null.
let importSaying = null;

function importError(say) {
  importSaying = say;
  const err = $("#import-error");
  err.textContent = say ? say() : "";
  err.hidden = !say;
}

async function importText(text) {
  importError(null);
  const body = { record: text, mode: $("#import-mode").value };
  if (body.mode === "computer") {
    body.level = savedLevel() || (info ? info.default_level : 3);
  }
  try {
    const r = await api("POST", "/api/import", body);
    nav.go({ view: "play", game: r.game.id });
  } catch (e) {
    if (e.code === "too_large") importError(() => t("err_too_large_file"));
    else importError(() => errorWords(e));
  }
}

export function wire() {
  $("#import-file").onchange = async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    e.target.value = "";
    if (file.size > 1024 * 1024) {
      importError(() => t("err_too_large_file"));
      return;
    }
    importText(await file.text());
  };
  $("#import-go").onclick = () => importText($("#import-text").value);
}
