// How players' names are shown: a deleted account's seat (its name left
// empty by the server) as "deleted player"; a link to a player's page.
// Kid mode is lichess's: no chat, read or written (the server refuses and
// filters it); names are shown as everywhere, in every view alike.

import { guestNumber, t } from "./i18n.js";

let kid = false;
let moderator = false;

// A moderator sees a "remove" button by each chat line.
export function setModerator(on) {
  moderator = !!on;
}

export function isModerator() {
  return moderator;
}

export function setKid(on) {
  kid = !!on;
  document.documentElement.classList.toggle("kid-mode", kid);
}

export function kidMode() {
  return kid;
}

// `name` (a nickname as the server sent it) in this page's words: a
// guest's default one ("Guest 4821", made by a page in English) is
// worded by each reader's page ("Invité 4821" in French), as the chat
// words a guest's number.
export function wordedName(name) {
  const guest = guestNumber(name);
  return guest === null ? name : t("guest_name", guest);
}

// The name to show for `name` (as the server sent it), or null when there
// is none: the caller shows the side instead.
export function shownName(name) {
  if (name == null) return null;
  if (name === "") return t("deleted_player");
  return wordedName(name);
}

// Whether `text` may be a username (3-20 letters, digits, `_` or `-`).
export function isUsername(text) {
  return typeof text === "string" && /^[A-Za-z0-9_-]{3,20}$/.test(text);
}

// A link to the page of the player named `name`.
export function playerLink(name, text = name) {
  const a = document.createElement("a");
  a.href = "#player=" + encodeURIComponent(name);
  a.className = "player-link";
  a.textContent = text;
  return a;
}
