// What a game's chat and a tournament's room share: the lines kept, a line
// drawn (text only, never read as HTML) with a moderator's button that
// removes it, a refusal in words, the lines read when a room opens.

import { api } from "./api.js";
import { button } from "./dom.js";
import { t } from "./i18n.js";
import { isModerator, wordedName } from "./people.js";
import { errorText } from "./toast.js";

// Lines kept on the page, as the server shows them.
const KEPT = 200;

// Keeps `line` in `lines` (id -> line), the oldest going beyond KEPT;
// false when it was there already.
export function keep(lines, line) {
  if (lines.has(line.id)) return false;
  lines.set(line.id, line);
  if (lines.size > KEPT) lines.delete(lines.keys().next().value);
  return true;
}

// Whether the reader of `list` is at its latest line.
export function atEnd(list) {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 30;
}

// The item of `line`, its time (`time` formats it) as its title; for a
// moderator, a button that asks `remove()` and tells a refusal with
// `showError`. Gives the item and its name's element.
export function lineItem(line, time, remove, showError) {
  const li = document.createElement("li");
  li.className = "line";
  const name = document.createElement("b");
  name.className = "name";
  // A guest without a nickname comes as a number, worded here (and a
  // seated guest's default nickname, made by their page, too).
  name.textContent = line.name ? wordedName(line.name) : t("guest_name", line.guest ?? "");
  name.dir = "auto";
  const text = document.createElement("span");
  text.className = "text";
  // Text only: whatever it says, it is never read as HTML.
  text.textContent = line.text;
  text.dir = "auto";
  li.title = time.format(new Date(line.at_ms));
  li.append(name, " ", text);
  if (isModerator()) {
    li.append(" ", button(t("remove_line"), "link small remove-line", () => remove().catch((e) => showError(errorText(e)))));
  }
  return { li, name };
}

// What shows a refusal in the element `selector` (hidden when empty).
export function errorShower(selector) {
  return (text) => {
    const box = document.querySelector(selector);
    box.textContent = text;
    box.hidden = !text;
  };
}

// Says what `input` holds, once trimmed, with `post(text)`; the line said
// goes to `said`, a refusal to `showError` in words.
export async function sayInput(input, post, said, showError) {
  const text = input.value.trim();
  if (!text) return;
  showError("");
  try {
    const line = await post(text);
    input.value = "";
    said(line);
  } catch (err) {
    showError(refusal(err));
  }
}

// A refusal in words; too many messages: how long to wait.
function refusal(e) {
  if (e.code === "too_many") {
    const wait = e.fields && e.fields.wait_s;
    return wait ? t("chat_wait_s", wait) : t("chat_wait");
  }
  return errorText(e);
}

// Reads the lines at `path` into the room `room` (each through `add`) and
// draws them (`render`), unless another room (not `id`) is shown by then.
// A failure is passed over: the events bring the next ones.
export async function loadLines(room, id, path, add, render) {
  try {
    const lines = await api("GET", path);
    if (room.id !== id) return;
    for (const line of lines) add(line);
    room.drawn = null;
    render();
  } catch (e) {
    // The events bring the next ones.
  }
}
