// The account page's personal API tokens (docs/BOTS.md): made with a name
// and scopes, the secret shown once with a copy button, listed (name,
// scopes, made, last used), revoked after a confirmation; and the upgrade to a bot
// account, said to be for good before it is confirmed. The server holds
// every rule (which scopes, how many tokens, who may become a bot): the
// page words its answers.

import { api } from "./api.js";
import { button, sayEmpty, textEl } from "./dom.js";
import { locale, t } from "./i18n.js";
import { errorText } from "./toast.js";

const $ = (sel) => document.querySelector(sel);

// The words of a scope the server names.
function scopeWords(scope) {
  return t({ "bot:play": "scope_bot_play", "board:play": "scope_board_play", read: "scope_read" }[scope] || scope);
}

function failed(e) {
  const box = $("#tokens-error");
  box.textContent = errorText(e);
  box.hidden = false;
}

async function tried(work) {
  $("#tokens-error").hidden = true;
  try {
    await work();
  } catch (e) {
    failed(e);
  }
}

// Lists the account's tokens, and shows the upgrade for a person.
export async function showTokens() {
  $("#token-made").hidden = true;
  $("#tokens-error").hidden = true;
  let answer;
  try {
    answer = await api("GET", "/api/account/tokens");
  } catch (e) {
    failed(e);
    return;
  }
  const list = $("#tokens-list");
  list.textContent = "";
  const date = new Intl.DateTimeFormat(locale(), { dateStyle: "medium", timeStyle: "short" });
  const live = answer.tokens.filter((tk) => tk.revoked_ms === null || tk.revoked_ms === undefined);
  if (!sayEmpty(list, live, t("tokens_none"))) {
    for (const tk of live) list.append(tokenItem(tk, date));
  }
  $("#bot-upgrade").hidden = answer.bot;
  $("#bot-already").hidden = !answer.bot;
  $("#chk-bot-sure").checked = false;
  $("#btn-bot-upgrade").disabled = true;
}

function tokenItem(tk, date) {
  const li = document.createElement("li");
  const name = textEl("b", "", tk.name);
  name.dir = "auto";
  const scopes = textEl("span", "muted", tk.scopes.map(scopeWords).join(", "));
  const made = textEl("span", "muted small", t("token_made_on", { date: date.format(new Date(tk.created_ms)) }));
  // Kept to the minute by the server (written once a minute at most).
  const usedWords = tk.used_ms === null || tk.used_ms === undefined ? t("token_never_used") : t("token_used_on", { date: date.format(new Date(tk.used_ms)) });
  const used = textEl("span", "muted small token-used", usedWords);
  const revoke = button(t("token_revoke"), "link", () => revokeToken(tk));
  revoke.setAttribute("aria-label", t("token_revoke_named", { name: tk.name }));
  li.append(name, " · ", scopes, " · ", made, " · ", used, " ", revoke);
  return li;
}

async function revokeToken(tk) {
  if (!confirm(t("token_revoke_confirm", { name: tk.name }))) return;
  await tried(async () => {
    await api("POST", `/api/account/tokens/${encodeURIComponent(tk.id)}/revoke`);
    await showTokens();
    $("#tokens-status").textContent = t("token_revoked", { name: tk.name });
  });
}

async function makeToken(ev) {
  ev.preventDefault();
  const scopes = [...document.querySelectorAll("#form-token input[name=scope]:checked")].map((c) => c.value);
  await tried(async () => {
    const made = await api("POST", "/api/account/tokens", { name: $("#token-name").value, scopes });
    await showTokens();
    $("#token-name").value = "";
    $("#token-secret").textContent = made.token;
    $("#token-copied").textContent = "";
    $("#token-made").hidden = false;
    $("#tokens-status").textContent = t("token_made", { name: made.name });
    $("#token-copy").focus();
  });
}

async function copySecret() {
  const secret = $("#token-secret");
  try {
    await navigator.clipboard.writeText(secret.textContent);
    $("#token-copied").textContent = t("token_copied");
  } catch (e) {
    // No clipboard allowed here: the token selected, to copy by hand.
    getSelection().selectAllChildren(secret);
    $("#token-copied").textContent = t("token_selected");
  }
}

async function upgrade() {
  if (!confirm(t("bot_upgrade_confirm"))) return;
  await tried(async () => {
    await api("POST", "/api/account/bot");
    await showTokens();
    $("#tokens-status").textContent = t("bot_upgraded");
  });
}

export function wireTokens() {
  $("#form-token").onsubmit = makeToken;
  $("#token-copy").onclick = copySecret;
  $("#token-hide").onclick = () => {
    $("#token-secret").textContent = "";
    $("#token-made").hidden = true;
  };
  $("#chk-bot-sure").onchange = () => {
    $("#btn-bot-upgrade").disabled = !$("#chk-bot-sure").checked;
  };
  $("#btn-bot-upgrade").onclick = upgrade;
}
