// Accounts in the page: sign up, log in (or reset the password with a
// recovery code), and the account's settings (kid mode, password, new
// recovery codes, blocked players, log out here or everywhere, delete);
// a moderator's reports. One dialog, its panes shown by state. The
// server answers codes, worded here (words.js errorWords); the session
// cookie is the server's (HttpOnly): the page never sees its secret.

import { api } from "./api.js";
import { lineItem } from "./chat-lines.js";
import { setReadChat, showModeration } from "./moderation.js";
import { button, textEl } from "./dom.js";
import { session } from "./game.js";
import { locale, t } from "./i18n.js";
import { me } from "./online.js";
import { setKid, setModerator } from "./people.js";
import { errorText, toast } from "./toast.js";
import { showTokens, wireTokens } from "./tokens.js";

const $ = (sel) => document.querySelector(sel);

// The account shown (GET /api/account), when logged in.
let page = null;

// Called once /api/me answered: the header button and kid mode follow.
export function render() {
  const account = me.account || null;
  setKid(account && account.kid);
  setModerator(account && (account.role === "moderator" || account.role === "admin"));
  const button = $("#btn-account");
  button.textContent = account ? account.username : t("log_in");
  button.classList.toggle("signed-in", !!account);
}

function pane(name) {
  for (const p of document.querySelectorAll("#dlg-account .pane")) p.hidden = p.dataset.pane !== name;
  $("#account-error").hidden = true;
}

function fail(e) {
  const box = $("#account-error");
  box.textContent = errorText(e);
  box.hidden = false;
}

// Runs `work`, which asks the server: a refusal is shown in the dialog.
async function tried(work) {
  try {
    await work();
  } catch (e) {
    fail(e);
  }
}

function value(id) {
  return $(id).value;
}

// After a log-in or a log-out the whole page starts again as the new
// player (its games, its seats, its name).
// `said`: the key of the words the page says once started again.
function restart(said = null) {
  // Not a first visit: the new game dialog is not opened by itself then.
  sessionStorage.setItem("awale.restarted", said || "1");
  // The other tabs of this browser share the cookie: they start again
  // too (the storage event), rather than show the old name.
  localStorage.setItem("awale.account-changed", String(Date.now()));
  location.reload();
}

async function open() {
  const dialog = $("#dlg-account");
  if (me.account) {
    await showAccount();
  } else {
    pane("login");
  }
  if (!dialog.open) dialog.showModal();
}

async function showAccount() {
  try {
    page = await api("GET", "/api/account");
  } catch (e) {
    pane("login");
    fail(e);
    return;
  }
  pane("account");
  $("#account-name").textContent = page.account.username;
  const mine = $("#account-page");
  mine.href = "#player=" + encodeURIComponent(page.account.username);
  mine.onclick = () => $("#dlg-account").close();
  $("#chk-kid").checked = page.account.kid;
  $("#codes-left").textContent = t("recovery_codes_left", page.recovery_codes_left);
  const list = $("#blocked-list");
  list.textContent = "";
  for (const name of page.blocked) {
    const li = document.createElement("li");
    const unblock = button(t("unblock"), "link", () => block(name, false));
    const who = document.createElement("span");
    who.textContent = name;
    who.dir = "auto";
    li.append(who, " ", unblock);
    list.append(li);
  }
  $("#blocked-none").hidden = page.blocked.length > 0;
  await showTokens();
  const moderates = page.account.role === "moderator" || page.account.role === "admin";
  $("#moderation").hidden = !moderates;
  if (moderates) {
    setReadChat((game, box) => tried(() => readChat(game, box)));
    await showModeration(fail);
  }
}

function showCodes(codes, then) {
  pane("codes");
  const list = $("#codes-list");
  list.textContent = "";
  for (const code of codes) {
    const li = document.createElement("li");
    li.textContent = code;
    list.append(li);
  }
  $("#codes-done").onclick = then;
  $("#codes-copied").textContent = "";
  const text = codes.join("\n");
  $("#codes-copy").onclick = async () => {
    try {
      await navigator.clipboard.writeText(text);
      $("#codes-copied").textContent = t("codes_copied");
    } catch (e) {
      // No clipboard allowed here: the codes selected, to copy by hand.
      getSelection().selectAllChildren(list);
      $("#codes-copied").textContent = t("codes_selected");
    }
  };
  // The page printed shows the codes alone (style.css, @media print).
  $("#codes-print").onclick = () => window.print();
}

async function signUp(ev) {
  ev.preventDefault();
  await tried(async () => {
    const made = await api("POST", "/api/account/signup", {
      username: value("#signup-name"),
      password: value("#signup-password"),
    });
    showCodes(made.recovery_codes, () => restart());
  });
}

async function logIn(ev) {
  ev.preventDefault();
  await tried(async () => {
    await api("POST", "/api/account/login", { username: value("#login-name"), password: value("#login-password") });
    restart();
  });
}

async function reset(ev) {
  ev.preventDefault();
  await tried(async () => {
    await api("POST", "/api/account/reset", {
      username: value("#reset-name"),
      code: value("#reset-code"),
      password: value("#reset-password"),
    });
    restart("reset_done");
  });
}

async function changePassword(ev) {
  ev.preventDefault();
  await tried(async () => {
    await api("POST", "/api/account/password", { current: value("#password-current"), new: value("#password-new") });
    $("#password-current").value = "";
    $("#password-new").value = "";
    toast(() => t("password_changed"));
  });
}

async function newCodes(ev) {
  ev.preventDefault();
  await tried(async () => {
    const answer = await api("POST", "/api/account/recovery-codes", { password: value("#codes-password") });
    $("#codes-password").value = "";
    showCodes(answer.recovery_codes, showAccount);
  });
}

async function block(username, blocked) {
  await tried(async () => {
    await api("POST", "/api/account/blocks", { username, blocked });
    await showAccount();
  });
}

async function deleteAccount(ev) {
  ev.preventDefault();
  if (!confirm(t("delete_confirm"))) return;
  await tried(async () => {
    await api("POST", "/api/account/delete", { password: value("#delete-password") });
    restart();
  });
}

// ---------------------------------------------------------- moderators --

// Both rooms of reported game `game`, as a moderator reads them, drawn in
// `box` (each line with its removal).
async function readChat(game, box) {
  const chat = await api("GET", `/api/moderation/games/${encodeURIComponent(game)}/chat`);
  box.textContent = "";
  const time = new Intl.DateTimeFormat(locale(), { dateStyle: "short", timeStyle: "short" });
  const shown = (text) => {
    const error = $("#account-error");
    error.textContent = text;
    error.hidden = !text;
  };
  const rooms = [
    ["players", "room_players", "no_messages_players"],
    ["public", "room_public", "no_messages_public"],
  ];
  for (const [room, title, none] of rooms) {
    const head = document.createElement("p");
    head.append(textEl("b", "", t(title)));
    const lines = document.createElement("ul");
    lines.className = "chat-lines";
    for (const line of chat[room]) {
      const remove = async () => {
        await api("POST", "/api/moderation/chat-remove", { game, line: line.id });
        await readChat(game, box);
      };
      lines.append(lineItem(line, time, remove, shown).li);
    }
    if (!chat[room].length) lines.append(textEl("li", "empty", t(none)));
    box.append(head, lines);
  }
}

// Reports a player, about the online game shown if there is one.
async function report(ev) {
  ev.preventDefault();
  const g = session.game;
  await tried(async () => {
    await api("POST", "/api/reports", {
      username: value("#report-name").trim(),
      game: g && g.mode === "online" ? g.id : null,
      reason: value("#report-reason"),
      text: value("#report-text"),
    });
    $("#report-name").value = "";
    $("#report-text").value = "";
    toast(() => t("report_sent"));
  });
}

export function wire() {
  $("#btn-account").onclick = open;
  for (const b of document.querySelectorAll("#dlg-account [data-to]")) {
    b.onclick = () => pane(b.dataset.to);
  }
  $("#form-login").onsubmit = logIn;
  $("#form-signup").onsubmit = signUp;
  $("#form-reset").onsubmit = reset;
  $("#form-password").onsubmit = changePassword;
  $("#form-codes").onsubmit = newCodes;
  $("#form-delete").onsubmit = deleteAccount;
  $("#form-report").onsubmit = report;
  wireTokens();
  $("#form-block").onsubmit = (ev) => {
    ev.preventDefault();
    const name = value("#block-name").trim();
    if (name) block(name, true).then(() => { $("#block-name").value = ""; });
  };
  $("#chk-kid").onchange = async () => {
    await tried(async () => {
      const answer = await api("POST", "/api/account/settings", { kid: $("#chk-kid").checked });
      me.account = answer.account;
      render();
      document.dispatchEvent(new Event("awale-kid"));
    });
  };
  $("#btn-logout").onclick = async () => {
    await api("POST", "/api/account/logout").catch(() => {});
    restart();
  };
  $("#btn-logout-everywhere").onclick = async () => {
    await tried(async () => {
      await api("POST", "/api/account/logout-everywhere");
      restart();
    });
  };
  $("#account-close").onclick = () => $("#dlg-account").close();
  window.addEventListener("storage", (e) => {
    if (e.key !== "awale.account-changed") return;
    sessionStorage.setItem("awale.restarted", "1");
    location.reload();
  });
}
