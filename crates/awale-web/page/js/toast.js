// Short messages over the page: the server's refusals and errors, in the
// page's language.

import { errorWords } from "./words.js";

let timer = null;

// An API error in words (from its code and facts, never the server's
// English).
export function errorText(e) {
  return errorWords(e);
}

export function toast(text) {
  const box = document.querySelector("#toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(timer);
  timer = setTimeout(() => { box.hidden = true; }, 5000);
}

export function showError(e) {
  toast(errorText(e));
}
