// Short messages over the page: the server's refusals and errors, in the
// page's language.

import { t, has } from "./i18n.js";
import { explainRefusal } from "./words.js";

let timer = null;

// An API error in words: a refused move says why, a known code has its
// text, anything else its message.
export function errorText(e) {
  if (e.code === "illegal_move") return explainRefusal(e.message);
  if (has("err_" + e.code)) return t("err_" + e.code);
  return t("err_other", e.message || e.code);
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
