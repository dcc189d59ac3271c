// The stored games: a list to continue, replay or export each one, and the
// import of game records (a file, or pasted text).

import { api, fetched } from "./api.js";
import { card, setInfo as setCardInfo } from "./game-card.js";
import { savedLevel } from "./dialogs.js";
import { sayEmpty } from "./dom.js";
import { locale, t } from "./i18n.js";
import * as nav from "./nav.js";
import { showError } from "./toast.js";
import * as turns from "./turns.js";
import { errorWords } from "./words.js";

const $ = (sel) => document.querySelector(sel);
let info = null;
let loading = 0;

export function setInfo(i) {
  info = i;
  setCardInfo(i);
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
