// A stored game as a card of a list (My games, the games where it is your
// move): who plays, when, the rules, the result, and its buttons (continue
// or open, replay, export). Its own module, so that the lists that show
// cards (games.js, turns.js) need not import each other.

import { api } from "./api.js";
import { textEl } from "./dom.js";
import { isolate, t } from "./i18n.js";
import { fillWords, marked } from "./names.js";
import * as nav from "./nav.js";
import { shownName } from "./people.js";
import { showError } from "./toast.js";
import { levelName, rulesWords, shortResult, sideName } from "./words.js";

// The server's facts (the levels' names).
let info = null;

export function setInfo(i) {
  info = i;
}

export function card(s, date) {
  const li = document.createElement("li");
  li.className = "game-card";
  li.dataset.id = s.id;
  const head = document.createElement("div");
  head.className = "head";
  const title = document.createElement("b");
  if (s.mode === "computer") title.textContent = t("vs_level", levelName(info, s.level));
  else if (s.mode === "online") {
    // Named as everywhere else: a guest's default name in the page's
    // words, a deleted player said so; a bot's marked.
    const named = (i) => marked(isolate(shownName(s.names[i] ?? "?") || sideName(i ? "N" : "S")), s.bots && s.bots[i]);
    // A challenge nobody took (open, or called off): no "against ?".
    const alone = s.plies ? -1 : [0, 1].findIndex((i) => s.names[i] == null);
    if (alone >= 0 && s.names[1 - alone] != null) fillWords(title, "online_alone", [named(1 - alone)]);
    else fillWords(title, "online_names", [named(0), named(1)]);
  }
  else title.textContent = t("two_people");
  const when = textEl("span", "muted", `${s.offline ? t("offline_game") : t("game_n", s.id)} · ${date.format(new Date(s.created_ms))}`);
  head.append(title, when);
  const rules = textEl("div", "muted small", s.rules_view ? rulesWords(s.rules_view) : s.rules);
  // What kind of game: over days, of a tournament (a link back to it).
  if (s.per_move) rules.append(` · ${t("days_game")}`);
  if (s.tournament) {
    const link = textEl("a", "", t("tournament_game"));
    link.href = `#tournament=${s.tournament}`;
    rules.append(" · ", link);
  }
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
  const exp = textEl("a", "button export", t("export"));
  exp.href = `/api/games/${s.id}/record`;
  exp.setAttribute("download", `awale-${s.id}.ogn`);
  // A game kept in the browser: its record written here, as the server
  // writes it.
  if (s.offline) exp.onclick = (e) => {
    e.preventDefault();
    saveOfflineRecord(s.id);
  };
  actions.append(open, watch, exp);
  li.append(head, rules, result, actions);
  return li;
}

// Saves the record of the game `id` kept in the browser as a file.
async function saveOfflineRecord(id) {
  try {
    const answer = await api("GET", `/api/games/${encodeURIComponent(id)}/record`);
    const url = URL.createObjectURL(new Blob([answer.record], { type: "text/plain;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = `awale-${id}.ogn`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (e) {
    showError(e);
  }
}
