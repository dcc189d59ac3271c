// The chat of an online game, as lichess has it: the players' room and the
// public's. Text only (never read as HTML); a player may mute the public's
// room on their own screen, anybody may hide the chat.

import { api } from "./api.js";
import { atEnd, errorShower, keep, lineItem, loadLines, sayInput } from "./chat-lines.js";
import { textEl } from "./dom.js";
import { onLive, session } from "./game.js";
import { getLang, locale, t } from "./i18n.js";
import { isUsername, kidMode, playerLink } from "./people.js";
import { isAccountSeat, isBotSeat, personSide } from "./play-view.js";
import { loadJson, saveJson } from "./settings.js";
import { sideName } from "./words.js";
import { marked } from "./names.js";

const $ = (sel) => document.querySelector(sel);

const chat = {
  id: null, // the game the lines are of
  lines: new Map(), // id -> ChatLine
  room: null, // the room shown
  unread: { players: 0, public: 0 },
  drawn: null, // what the list shows ("room:count:muted")
};

// This browser's choices: the chat hidden, the public's room muted.
const prefs = loadJson("awale.chat", { hidden: false, mutePublic: false });

function savePrefs() {
  saveJson("awale.chat", prefs);
}

function reset(id) {
  Object.assign(chat, { id, lines: new Map(), room: null, unread: { players: 0, public: 0 }, drawn: null });
}

function mine(g) {
  return g && g.mode === "online" ? personSide(g) : null;
}

function add(line) {
  return keep(chat.lines, line);
}

// The messages of the game so far (again after a reconnection: those
// said meanwhile).
async function load(id) {
  await loadLines(chat, id, `/api/games/${id}/chat`, add, render);
}

function onLine(line) {
  const g = session.game;
  if (!g || chat.id !== g.id || !add(line)) return;
  const muted = line.room === "public" && prefs.mutePublic && mine(g);
  if (line.room !== chat.room && !muted) chat.unread[line.room]++;
  render();
}

// ------------------------------------------------------------ drawing --

export function render() {
  const g = session.game;
  const online = !!g && g.mode === "online";
  // Kid mode: no chat at all.
  $("#chat").hidden = !online || prefs.hidden || kidMode();
  $("#btn-show-chat").hidden = !online || !prefs.hidden || kidMode();
  if (!online || kidMode()) return;
  if (chat.id !== g.id) {
    reset(g.id);
    load(g.id);
  }
  const player = !!mine(g);
  if (!player) chat.room = "public";
  else if (!chat.room) chat.room = "players";
  chat.unread[chat.room] = 0;
  $("#chat-rooms").hidden = !player;
  $("#mute-row").hidden = !player;
  $("#chk-mute-public").checked = prefs.mutePublic;
  for (const tab of document.querySelectorAll("#chat-rooms [role=tab]")) {
    const room = tab.dataset.room;
    tab.setAttribute("aria-selected", String(room === chat.room));
    const badge = tab.querySelector(".unread");
    badge.hidden = !chat.unread[room];
    badge.textContent = String(chat.unread[room]);
  }
  $("#chat-text").placeholder = t(chat.room === "players" ? "write_players" : "write_public");
  renderLines(g, player);
}

function renderLines(g, player) {
  const muted = player && chat.room === "public" && prefs.mutePublic;
  const shown = [...chat.lines.values()].filter((l) => l.room === chat.room);
  const key = `${chat.room}:${chat.lines.size}:${muted}:${getLang()}`;
  if (chat.drawn === key) return;
  const fresh = !chat.drawn || !chat.drawn.startsWith(`${chat.room}:`);
  chat.drawn = key;
  const list = $("#chat-lines");
  const latest = atEnd(list);
  list.textContent = "";
  if (muted || !shown.length) {
    list.append(textEl("li", "empty", t(muted ? "public_muted" : chat.room === "players" ? "no_messages_players" : "no_messages_public")));
    return;
  }
  const time = new Intl.DateTimeFormat(locale(), { timeStyle: "short" });
  for (const line of shown) {
    const g = session.game;
    const remove = () => api("POST", "/api/moderation/chat-remove", { game: g.id, line: line.id });
    const { li, name } = lineItem(line, time, remove, showError);
    if (line.side) {
      li.classList.add("player-line");
      name.title = sideName(line.side);
    }
    // A player's line under their account's name: a link to its page,
    // marked BOT for a bot's.
    const seat = line.side && g && g.seats && g.seats[line.side === "S" ? 0 : 1];
    if (seat && line.name && seat.name === line.name && isUsername(line.name) && isAccountSeat(g, line.side)) {
      name.textContent = "";
      name.append(marked(playerLink(line.name), isBotSeat(g, line.side)));
    }
    list.append(li);
  }
  // Kept where the reader is, unless they were at the latest.
  if (latest || fresh) list.scrollTop = list.scrollHeight;
}

// ------------------------------------------------------------ writing --

const showError = errorShower("#chat-error");

async function send(e) {
  e.preventDefault();
  const g = session.game;
  if (!g) return;
  const room = chat.room;
  const post = (text) => api("POST", `/api/games/${g.id}/chat`, { room, text });
  await sayInput($("#chat-text"), post, (line) => {
    if (chat.id === g.id && add(line)) render();
  }, showError);
}

export function wire() {
  onLive("chat", onLine);
  onLive("chat_removed", (gone) => {
    if (chat.lines.delete(gone.id)) {
      chat.drawn = null;
      render();
    }
  });
  // A new connection (a reload, the server back): what was said meanwhile.
  onLive("stream", (view) => {
    if (chat.id === view.id) load(view.id);
  });
  $("#chat-form").addEventListener("submit", send);
  for (const tab of document.querySelectorAll("#chat-rooms [role=tab]")) {
    tab.onclick = () => {
      chat.room = tab.dataset.room;
      showError("");
      render();
    };
  }
  $("#chk-mute-public").onchange = (e) => {
    prefs.mutePublic = e.target.checked;
    chat.unread.public = 0;
    savePrefs();
    render();
  };
  $("#btn-hide-chat").onclick = () => {
    prefs.hidden = true;
    savePrefs();
    render();
  };
  $("#btn-show-chat").onclick = () => {
    prefs.hidden = false;
    savePrefs();
    render();
  };
}
