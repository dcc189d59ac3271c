// A tournament's chat room on its page: its players and watchers talk.
// The lines come with the standings (the tournament's events, `chat` and
// `chat_removed`); on each (re)connection the room is read again. Text
// only (never read as HTML); no chat in kid mode; a moderator may remove
// a line.

import { api } from "./api.js";
import { getLang, t } from "./i18n.js";
import { isModerator, kidMode } from "./people.js";
import { errorText } from "./toast.js";

const $ = (sel) => document.querySelector(sel);

// Lines kept on the page, as the server shows them.
const KEPT = 200;

const room = { id: null, lines: new Map(), drawn: null };

function add(line) {
  if (room.lines.has(line.id)) return false;
  room.lines.set(line.id, line);
  if (room.lines.size > KEPT) room.lines.delete(room.lines.keys().next().value);
  return true;
}

async function load(id) {
  if (kidMode()) return;
  try {
    const lines = await api("GET", `/api/tournaments/${id}/chat`);
    if (room.id !== id) return;
    for (const line of lines) add(line);
    room.drawn = null;
    render();
  } catch (e) {
    // The events bring the next ones.
  }
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
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
  list.textContent = "";
  if (!room.lines.size) {
    const li = document.createElement("li");
    li.className = "empty";
    li.textContent = t("arena_chat_empty");
    list.append(li);
  }
  const time = new Intl.DateTimeFormat(undefined, { timeStyle: "short" });
  for (const line of room.lines.values()) {
    const li = document.createElement("li");
    li.className = "line";
    const name = document.createElement("b");
    name.className = "name";
    name.textContent = line.name || t("guest_name", line.guest ?? "");
    name.dir = "auto";
    const text = document.createElement("span");
    text.className = "text";
    text.textContent = line.text;
    text.dir = "auto";
    li.title = time.format(new Date(line.at_ms));
    li.append(name, " ", text);
    if (isModerator()) {
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "link small remove-line";
      remove.textContent = t("remove_line");
      const id = room.id;
      remove.onclick = () => api("POST", "/api/moderation/tournament-chat-remove", { tournament: id, line: line.id })
        .catch((e) => showError(errorText(e)));
      li.append(" ", remove);
    }
    list.append(li);
  }
  list.scrollTop = atEnd ? list.scrollHeight : list.scrollTop;
}

function showError(text) {
  const box = $("#arena-chat-error");
  box.textContent = text;
  box.hidden = !text;
}

async function send(e) {
  e.preventDefault();
  const input = $("#arena-chat-text");
  const text = input.value.trim();
  const id = room.id;
  if (id === null || !text) return;
  showError("");
  try {
    const line = await api("POST", `/api/tournaments/${id}/chat`, { text });
    input.value = "";
    if (room.id === id && add(line)) render();
  } catch (err) {
    if (err.code === "too_many") {
      const wait = err.fields && err.fields.wait_s;
      showError(wait ? t("chat_wait_s", wait) : t("chat_wait"));
    } else {
      showError(errorText(err));
    }
  }
}

export function setup() {
  $("#arena-chat-form").addEventListener("submit", send);
  document.addEventListener("awale-kid", render);
}
