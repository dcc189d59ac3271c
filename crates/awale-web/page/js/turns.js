// Games over days: the games where it is this player's move, listed first
// in "My games", counted in the tab's title, and told by a notification
// (with the browser's permission) when a move arrives while the page is
// open. Read from the server every 20 seconds, and when the page comes
// back into view.

import { api } from "./api.js";
import { textEl } from "./dom.js";
import { getLang, isolate, locale, onLangChange, t } from "./i18n.js";
import * as nav from "./nav.js";
import { card } from "./game-card.js";

const $ = (sel) => document.querySelector(sel);
const EVERY_MS = 20000;
let known = null; // the ids of the last answer (null before the first)
let turns = [];
let timer = null;

export function start() {
  refresh();
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) refresh();
  });
  const button = $("#btn-notify");
  button.onclick = async () => {
    await Notification.requestPermission();
    show();
  };
  onLangChange(show);
}

// Asks the server again now (after a move of one's own, on the games view).
export async function refresh() {
  clearTimeout(timer);
  timer = setTimeout(refresh, EVERY_MS);
  let answer;
  try {
    answer = await api("GET", "/api/turns");
  } catch {
    return; // offline, or the server away: the last list stays
  }
  turns = answer.games || [];
  const ids = new Set(turns.map((g) => g.id));
  if (known) for (const g of turns) if (!known.has(g.id)) notify(g);
  known = ids;
  show();
}

function notify(g) {
  // The game on the screen tells its own moves.
  const here = nav.parse(location.hash);
  if (!document.hidden && here.view === "play" && here.game === g.id) return;
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  const note = new Notification(t("turn_notice_title"), {
    body: t("online_names", isolate(g.names[0] || "?"), isolate(g.names[1] || "?")),
    tag: `awale-turn-${g.id}`,
    lang: getLang(),
  });
  note.onclick = () => {
    window.focus();
    nav.go({ view: "play", game: g.id });
    note.close();
  };
}

// The count in the title, the list in "My games", the permission button.
function show() {
  const base = document.title.replace(/^\(\d+\) /, "");
  document.title = turns.length ? `(${turns.length}) ${base}` : base;
  const box = $("#turns");
  box.hidden = !turns.length;
  const list = $("#turns-list");
  list.textContent = "";
  const date = new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" });
  for (const g of turns) {
    const li = card(g, date);
    if (g.deadline_ms) {
      const until = textEl("div", "small deadline", t("move_before", date.format(new Date(g.deadline_ms))));
      li.insertBefore(until, li.querySelector(".actions"));
    }
    list.append(li);
  }
  $("#btn-notify").hidden = typeof Notification === "undefined" || Notification.permission !== "default";
}
