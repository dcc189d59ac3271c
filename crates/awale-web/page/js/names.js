// A player's name with the BOT mark when their account is a bot
// (docs/BOTS.md), the same in every view that shows names: the mark shows
// "BOT" and is read "bot" ("robot" in French) by a screen reader.

import { t } from "./i18n.js";

// The BOT mark alone.
export function botMark() {
  const mark = document.createElement("span");
  mark.className = "bot-mark";
  const shown = document.createElement("span");
  shown.setAttribute("aria-hidden", "true");
  shown.textContent = t("bot_mark");
  const said = document.createElement("span");
  said.className = "unseen";
  said.textContent = ` (${t("bot_mark_label")})`;
  mark.append(shown, said);
  return mark;
}

// The name `name` (text only, its direction its own), followed by the BOT
// mark when `bot`.
export function nameWithMark(name, bot) {
  const box = document.createElement("span");
  box.className = "player-name";
  const text = document.createElement("span");
  text.dir = "auto";
  text.textContent = name;
  box.append(text);
  if (bot) box.append(" ", botMark());
  return box;
}

// `node` (a name's text, or a link to a player's page) followed by the
// BOT mark when `bot` (the server's view says which names are bots').
export function marked(node, bot) {
  if (!bot) return node;
  const box = document.createElement("span");
  box.className = "player-name";
  box.append(node, " ", botMark());
  return box;
}

// Fills `box` with the words of `key` whose {0}, {1}... are `parts`
// (texts or elements: names with their marks), wherever the language
// puts them.
export function fillWords(box, key, parts) {
  const holders = parts.map((_, i) => String.fromCharCode(0xe000 + i));
  box.textContent = "";
  for (const piece of t(key, ...holders).split(/([\ue000-\ue0ff])/)) {
    const i = piece.length === 1 ? piece.charCodeAt(0) - 0xe000 : -1;
    if (i >= 0 && i < parts.length) box.append(parts[i]);
    else if (piece) box.append(piece);
  }
}
