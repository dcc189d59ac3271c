// Short messages over the page: the server's refusals and errors, in the
// page's language (said again in the other one when the language changes
// while they show).

import { onLangChange } from "./i18n.js";
import { errorWords } from "./words.js";

let timer = null;
// What the shown message says, as a function of the language, if known.
let saying = null;

// An API error in words (from its code and facts, never the server's
// English).
export function errorText(e) {
  return errorWords(e);
}

// Shows `text`: a string, or a function giving it in the page's language.
export function toast(text) {
  const box = document.querySelector("#toast");
  saying = typeof text === "function" ? text : null;
  box.textContent = saying ? saying() : text;
  box.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => { box.hidden = true; }, 5000);
}

export function showError(e) {
  toast(() => errorText(e));
}

onLangChange(() => {
  const box = document.querySelector("#toast");
  if (saying && !box.hidden) box.textContent = saying();
});
