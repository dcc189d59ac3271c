// Direct challenges: "Challenge" on a player's page (a dialog: clock,
// rated or casual, side), and a banner over every view with the
// challenges received (accept, decline) and sent (withdraw). The page
// listens to the player's own stream (GET /api/me/events: `challenges`,
// all of them, then `challenge`, each change), so a challenge is seen at
// once wherever the player is, and the challenger goes into the game as
// soon as it is accepted.

import { api, eventJson } from "./api.js";
import { button, textEl } from "./dom.js";
import { isolate, onLangChange, t } from "./i18n.js";
import * as nav from "./nav.js";
import { botMark } from "./names.js";
import { me, loadMe, nickname } from "./online.js";
import { playerLink, shownName } from "./people.js";
import { whileShown } from "./streams.js";
import { showError, toast } from "./toast.js";
import { errorWords } from "./words.js";

const $ = (sel) => document.querySelector(sel);
const REOPEN_MS = 3000;

// The challenges known, by id: the server's views ({sent, state, ...}).
const known = new Map();
let source = null;
let timer = null;
// Who the dialog challenges.
let target = null;

function clockWords(clock) {
  if (!clock) return t("no_clock");
  if (clock[0] < 60000) return t("clock_short_s", clock[0] / 1000, clock[1] / 1000);
  return t("clock_short", clock[0] / 60000, clock[1] / 1000);
}

function upsert(c) {
  const before = known.get(c.id);
  known.set(c.id, c);
  // Ours, accepted: to the game (once, and only when it was seen open here:
  // a page opening later does not jump into an old game).
  if (c.sent && c.state === "accepted" && c.game && before && before.state === "open") {
    nav.go({ view: "play", game: c.game });
  }
  // Ours, declined while we waited: said, as a declined draw or rematch
  // is (the banner's line goes).
  if (c.sent && c.state === "declined" && before && before.state === "open") {
    toast(() => t("challenge_declined", c.to));
  }
}

// Opens the player's stream (again when it was closed for good, waiting
// longer each time it fails at once: a browser without a player cookie
// yet is refused until it has one).
let wait = REOPEN_MS;
let started = false;
export function start() {
  started = true;
  clearTimeout(timer);
  if (source) source.close();
  if (me.guest === null && !me.account) {
    // No answer from /api/me yet (offline): tried again later.
    clearTimeout(timer);
    timer = setTimeout(() => loadMe().then(start), 30000);
    return;
  }
  source = new EventSource("/api/me/events");
  source.onopen = () => {
    wait = REOPEN_MS;
  };
  source.addEventListener("challenges", (ev) => {
    const all = eventJson(ev);
    if (all === undefined) return;
    const seen = new Map(known);
    known.clear();
    for (const c of [...all.sent, ...all.received]) {
      if (seen.has(c.id)) known.set(c.id, seen.get(c.id));
      upsert(c);
    }
    render();
  });
  source.addEventListener("challenge", (ev) => {
    try {
      upsert(JSON.parse(ev.data));
    } catch (e) {
      return;
    }
    render();
  });
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) {
      clearTimeout(timer);
      timer = setTimeout(start, wait);
      wait = Math.min(wait * 2, 60000);
    }
  };
}

// Closed while the page is left (streams.js), opened again if it comes
// back.
whileShown(
  () => {
    clearTimeout(timer);
    if (source) source.close();
  },
  () => started && start(),
);

// The banner: open challenges, received first.
export function render() {
  const box = $("#challenges");
  box.textContent = "";
  const now = Date.now();
  const open = [...known.values()]
    .filter((c) => c.state === "open" && c.expires_ms > now)
    .sort((a, b) => Number(a.sent) - Number(b.sent) || b.id - a.id);
  box.hidden = !open.length;
  for (const c of open) {
    const li = document.createElement("li");
    li.className = "challenge " + (c.sent ? "sent" : "received");
    li.dataset.id = c.id;
    const text = document.createElement("span");
    const facts = [clockWords(c.clock), c.rated ? t("rated_game") : t("casual_game")];
    if (c.sent) {
      const side = c.colour === "R" ? t("random_side") : t(c.colour === "S" ? "south" : "north");
      facts.push(t("challenge_your_side", side));
      const [before, after] = t("challenge_sent_to", "\u0000").split("\u0000");
      text.append(before, playerLink(c.to, isolate(c.to)), ...(c.to_bot ? [" ", botMark()] : []), after ?? "");
    } else {
      const name = shownName(c.from) || t("challenge_someone");
      const who = c.from_account ? playerLink(c.from, isolate(name)) : isolate(name);
      const [before, after] = t("challenge_received_from", "\u0000").split("\u0000");
      text.append(before, who, ...(c.from_bot ? [" ", botMark()] : []), after ?? "");
      if (c.colour !== "R") facts.push(t("you_would_play", t(c.colour === "S" ? "north" : "south")));
    }
    const what = textEl("span", "muted small", " · " + facts.join(" · "));
    text.append(what);
    li.append(text);
    const act = (label, cls, path) => {
      const b = button(t(label), cls, () => answer(c, path, b));
      li.append(" ", b);
    };
    if (c.sent) act("challenge_withdraw", "cancel", "cancel");
    else {
      act("accept", "primary accept", "accept");
      act("decline", "decline", "decline");
    }
    box.append(li);
  }
}

async function answer(c, path, b) {
  b.disabled = true;
  try {
    const res = await api("POST", `/api/challenges/${c.id}/${path}`);
    if (path === "accept") {
      known.set(c.id, res.challenge);
      render();
      nav.go({ view: "play", game: res.game });
      return;
    }
    known.set(c.id, res);
  } catch (e) {
    showError(e);
    // What it is now (settled elsewhere, expired).
    try {
      const all = await api("GET", "/api/challenges");
      known.clear();
      for (const x of [...all.sent, ...all.received]) known.set(x.id, x);
    } catch (e2) {
      // The banner stays as it was.
    }
  }
  render();
}

// The player's page shows "Challenge" unless it is one's own.
export function showButton(username) {
  const b = $("#player-challenge");
  if (!b) return;
  const mine = me.account && me.account.username.toLowerCase() === String(username).toLowerCase();
  b.hidden = !username || !!mine;
  b.onclick = () => openDialog(username);
}

async function openDialog(username) {
  target = username;
  if (me.guest === null) await loadMe();
  $("#challenge-title").textContent = t("challenge_title", username);
  const rated = $("#challenge-rated");
  // Rated between two accounts only.
  rated.disabled = !me.account;
  if (!me.account) rated.checked = false;
  $("#challenge-rated-note").hidden = !!me.account;
  $("#challenge-error").hidden = true;
  $("#dlg-challenge").showModal();
}

async function send(ev) {
  ev.preventDefault();
  const clock = $("#challenge-clock").value;
  const body = {
    to: target,
    rated: $("#challenge-rated").checked,
    colour: $("#challenge-colour").value,
    name: me.account ? undefined : nickname(),
  };
  if (clock !== "none") {
    const [minutes, inc] = clock.split("+").map(Number);
    body.clock = { minutes, increment_seconds: inc };
  }
  const button = $("#challenge-send");
  button.disabled = true;
  try {
    const made = await api("POST", "/api/challenges", body);
    upsert(made);
    render();
    $("#dlg-challenge").close();
  } catch (e) {
    const box = $("#challenge-error");
    box.textContent = errorWords(e);
    box.hidden = false;
  } finally {
    button.disabled = false;
  }
}

export function wire() {
  $("#form-challenge").onsubmit = send;
  $("#challenge-close").onclick = () => $("#dlg-challenge").close();
  onLangChange(render);
  // Expired ones leave the banner by themselves.
  setInterval(() => {
    if (!$("#challenges").hidden) render();
  }, 15000);
}
