// The moderator page (a part of the account dialog, for moderators and
// administrators): reports, pairs flagged for playing rated from one
// place, unusual rating gains with their games, and the log of every
// action. The server says what applies to each account (`actions`: mute
// or unmute, close or reopen, grant or revoke): the page offers those
// only. Each action is confirmed in a dialog that asks why (required),
// then told (a toast) and the page read again.

import { api, fetched } from "./api.js";
import { button, textEl } from "./dom.js";
import { locale, t } from "./i18n.js";
import { errorText, toast } from "./toast.js";

const $ = (sel) => document.querySelector(sel);

// What each action posts: its route and body (with the reason).
const ROUTES = {
  mute: (username) => ["/api/moderation/mute", { username, muted: true }],
  unmute: (username) => ["/api/moderation/mute", { username, muted: false }],
  close: (username) => ["/api/moderation/close", { username }],
  reopen: (username) => ["/api/moderation/reopen", { username }],
  grant_moderator: (username) => ["/api/moderation/grant", { username }],
  revoke_moderator: (username) => ["/api/moderation/revoke", { username }],
};

let onFail = () => {};

// Asks to confirm `question` with a reason; runs `act(reason)` once
// confirmed, then says `done` and reads the page again.
function confirmed(question, act, done) {
  const dialog = $("#dlg-mod-confirm");
  const form = $("#form-mod-confirm");
  const reason = $("#mod-reason");
  const error = $("#mod-confirm-error");
  $("#mod-confirm-question").textContent = question;
  reason.value = "";
  error.hidden = true;
  form.onsubmit = async (ev) => {
    ev.preventDefault();
    try {
      await act(reason.value);
      dialog.close();
      toast(done);
      await showModeration(onFail);
    } catch (e) {
      error.textContent = errorText(e);
      error.hidden = false;
      reason.focus();
    }
  };
  $("#mod-confirm-cancel").onclick = () => dialog.close();
  dialog.showModal();
  reason.focus();
}

// The buttons of the actions that apply to `account` (the server's list).
function accountActions(account) {
  const box = document.createElement("span");
  box.className = "mod-actions";
  if (!account) return box;
  for (const action of account.actions) {
    const name = account.username;
    const b = button(t("mod_" + action), "", () =>
      confirmed(
        t("mod_confirm_" + action, name),
        (reason) => {
          const [route, body] = ROUTES[action](name);
          return api("POST", route, { ...body, reason });
        },
        t("mod_done_" + action, name),
      ));
    box.append(b);
  }
  return box;
}

// A player's name: a link to their page, or plain words (with "closed")
// for a closed account, whose page is gone.
function nameEl(name, account) {
  if (account && account.closed) {
    const s = textEl("span", "", t("mod_closed_name", name));
    s.dir = "auto";
    return s;
  }
  const a = document.createElement("a");
  a.href = `#player=${encodeURIComponent(name)}`;
  a.textContent = name;
  a.dir = "auto";
  a.onclick = () => $("#dlg-account").close();
  return a;
}

// The state of `account` in words (muted, closed, its rank).
function stateEl(account) {
  const words = [];
  if (!account) return textEl("span", "", "");
  if (account.role !== "player") words.push(t("mod_role_" + account.role));
  words.push(t(account.muted ? "mod_state_muted" : "mod_state_not_muted"));
  if (account.closed) words.push(t("mod_state_closed"));
  return textEl("span", "muted small mod-state", ` (${words.join(", ")}) `);
}

function gameLink(id) {
  const link = document.createElement("a");
  link.href = `#game=${id}`;
  link.textContent = t("report_game", id);
  link.onclick = () => $("#dlg-account").close();
  return link;
}

// The rated games `games` as a list, with a refund of those not refunded.
function gamesList(games, label) {
  const box = document.createElement("div");
  const list = document.createElement("ul");
  list.className = "mod-games";
  const time = new Intl.DateTimeFormat(locale(), { dateStyle: "short", timeStyle: "short" });
  for (const g of games) {
    const li = document.createElement("li");
    const points = (g.points > 0 ? "+" : "") + g.points;
    li.append(gameLink(g.game), " ", t("mod_game_line", { points, opponent: g.opponent || "?", at: time.format(new Date(g.at_ms)) }));
    if (g.refunded_ms) li.append(" ", textEl("span", "muted", t("mod_refunded")));
    list.append(li);
  }
  box.append(list);
  const open = games.filter((g) => !g.refunded_ms).map((g) => g.game);
  if (open.length) {
    box.append(button(t("mod_refund", open.length), "", () =>
      confirmed(
        t("mod_confirm_refund", { count: open.length, who: label }),
        (reason) => api("POST", "/api/moderation/refund", { games: open, reason }),
        t("mod_done_refund", open.length),
      )));
  }
  return box;
}

function section(id, title, none, items, draw) {
  const box = $(id);
  box.textContent = "";
  box.append(textEl("h4", "", t(title)));
  if (!items.length) {
    box.append(textEl("p", "muted small", t(none)));
    return;
  }
  const list = document.createElement("ol");
  list.className = "reports";
  for (const item of items) list.append(draw(item));
  box.append(list);
}

// Reads and draws the whole moderator page; `fail` tells a refusal.
export async function showModeration(fail) {
  onFail = fail;
  const desk = await fetched("/api/moderation/desk", fail);
  if (desk === undefined) return;
  const accounts = new Map(desk.accounts.map((a) => [a.username.toLowerCase(), a]));
  const of = (name) => accounts.get(String(name).toLowerCase());
  const time = new Intl.DateTimeFormat(locale(), { dateStyle: "short", timeStyle: "short" });

  section("#mod-reports", "reports", "reports_none", desk.reports, (r) => {
    const li = document.createElement("li");
    li.className = r.resolved_ms ? "report done" : "report";
    li.append(textEl("div", "", t("report_line", {
      reporter: r.reporter,
      reported: r.reported,
      reason: t("report_reason_" + r.reason),
    })));
    if (r.game) li.append(gameLink(r.game));
    if (r.text) {
      const text = textEl("p", "small", r.text);
      text.dir = "auto";
      li.append(text);
    }
    const rooms = document.createElement("div");
    rooms.className = "report-chat";
    const actions = document.createElement("div");
    actions.className = "report-actions";
    if (r.game) {
      actions.append(button(t("report_read_chat"), "read-chat", () => readChat(r.game, rooms)));
    }
    if (!r.resolved_ms) {
      actions.append(button(t("report_resolve"), "", () =>
        confirmed(
          t("mod_confirm_dismiss", r.reported),
          (reason) => api("POST", `/api/moderation/reports/${r.id}/resolve`, { reason }),
          t("mod_done_dismiss"),
        )));
    } else {
      actions.append(textEl("span", "muted small", t("report_resolved_by", r.resolved_by || "?")));
    }
    const who = document.createElement("div");
    who.append(nameEl(r.reported, of(r.reported)), stateEl(of(r.reported)), accountActions(of(r.reported)));
    li.append(who, actions, rooms);
    return li;
  });

  section("#mod-flags", "mod_flags", "mod_flags_none", desk.flags, (f) => {
    const li = document.createElement("li");
    const where = f.address && f.device ? "mod_flag_both" : f.device ? "mod_flag_device" : "mod_flag_address";
    li.append(textEl("div", "", t(where, { at: time.format(new Date(f.at_ms)) })));
    for (const name of f.names) {
      const line = document.createElement("div");
      line.append(nameEl(name, of(name)), stateEl(of(name)), accountActions(of(name)));
      li.append(line);
    }
    if (f.games.length) li.append(gamesList(f.games, f.names.join(" – ")));
    else li.append(textEl("p", "muted small", t("mod_flag_no_games")));
    return li;
  });

  section("#mod-gains", "mod_gains", "mod_gains_none", desk.gains, (g) => {
    const li = document.createElement("li");
    const head = document.createElement("div");
    head.append(nameEl(g.username, of(g.username)), " ", t("mod_gain", g.gain), stateEl(of(g.username)), accountActions(of(g.username)));
    li.append(head, gamesList(g.games, g.username));
    return li;
  });

  section("#mod-log", "mod_log", "mod_log_none", desk.log, (a) => {
    const li = document.createElement("li");
    const words = t("mod_log_line", {
      at: time.format(new Date(a.at_ms)),
      by: a.by || t("mod_by_server"),
      action: t("mod_did_" + a.action),
      target: a.target || (a.report ? t("mod_report_number", a.report) : ""),
    });
    li.append(textEl("div", "", words));
    if (a.game) li.append(gameLink(a.game));
    const why = textEl("p", "small", t("mod_reason_said", a.reason));
    why.dir = "auto";
    li.append(why);
    return li;
  });
}

// Both rooms of reported game `game`, as a moderator reads them, drawn in
// `box` (account.js draws each line with its removal).
let readChat = async () => {};
export function setReadChat(f) {
  readChat = f;
}
