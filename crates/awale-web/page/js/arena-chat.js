// A tournament's chat room on its page: its players and watchers talk.
// The lines come with the standings (the tournament's events, `chat` and
// `chat_removed`); on each (re)connection the room is read again. Text
// only (never read as HTML); no chat in kid mode; a moderator may remove
// a line.

import { api } from "./api.js";
import { atEnd, errorShower, keep, lineItem, loadLines, sayInput } from "./chat-lines.js";
import { textEl } from "./dom.js";
import { getLang, locale, t } from "./i18n.js";
import { isModerator, kidMode } from "./people.js";

const $ = (sel) => document.querySelector(sel);

const room = { id: null, lines: new Map(), drawn: null };

function add(line) {
  return keep(room.lines, line);
}

async function load(id) {
  if (kidMode()) return;
  await loadLines(room, id, `/api/tournaments/${id}/chat`, add, render);
}

// Follows the room of tournament `id` on its events' `source`.
export function attach(source, id) {
  Object.assign(room, { id, lines: new Map(), drawn: null });
  source.addEventListener("open", () => load(id));
  source.addEventListener("chat", (ev) => {
    try {
      if (room.id === id && add(JSON.parse(ev.data))) render();
    } catch (e) {
      // A line unread: the next reading brings it.
    }
  });
  source.addEventListener("chat_removed", (ev) => {
    try {
      if (room.id === id && room.lines.delete(JSON.parse(ev.data).id)) {
        room.drawn = null;
        render();
      }
    } catch (e) {
      // Idem.
    }
  });
}

export function render() {
  const box = $("#arena-chat");
  if (!box) return;
  box.hidden = room.id === null || kidMode();
  if (box.hidden) return;
  const key = `${room.id}:${[...room.lines.keys()].join(",")}:${getLang()}:${isModerator()}`;
  if (room.drawn === key) return;
  room.drawn = key;
  const list = $("#arena-chat-lines");
  const latest = atEnd(list);
  list.textContent = "";
  if (!room.lines.size) list.append(textEl("li", "empty", t("arena_chat_empty")));
  const time = new Intl.DateTimeFormat(locale(), { timeStyle: "short" });
  const id = room.id;
  for (const line of room.lines.values()) {
    const remove = () => api("POST", "/api/moderation/tournament-chat-remove", { tournament: id, line: line.id });
    list.append(lineItem(line, time, remove, showError).li);
  }
  list.scrollTop = latest ? list.scrollHeight : list.scrollTop;
}

const showError = errorShower("#arena-chat-error");

async function send(e) {
  e.preventDefault();
  const id = room.id;
  if (id === null) return;
  const post = (text) => api("POST", `/api/tournaments/${id}/chat`, { text });
  await sayInput($("#arena-chat-text"), post, (line) => {
    if (room.id === id && add(line)) render();
  }, showError);
}

export function setup() {
  $("#arena-chat-form").addEventListener("submit", send);
  document.addEventListener("awale-kid", render);
}
