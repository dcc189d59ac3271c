// The play view: the board, the players and their clocks, what is going on
// (in step with the sowing on the board), the move list, the buttons and
// the hint. Draws the session of game.js; the person's clicks go back to it.

import { api } from "./api.js";
import { drawBoard, CCW_COLUMNS } from "./board.js";
import { textEl } from "./dom.js";
import { session, setHooks, play, undo, redo, hint, timeLeft, computerIfDue } from "./game.js";
import { isolate, t, getLang } from "./i18n.js";
import { animatePly, plyHoles } from "./sowing.js";
import { settings } from "./settings.js";
import * as nav from "./nav.js";
import { isUsername, playerLink, shownName } from "./people.js";
import { showError, toast } from "./toast.js";
import { say, unsay, moveWords, boardWords, commandOf, helpWords } from "./spoken.js";
import {
  sideName, levelName, letterHole, holeLetter, scoreWords, oracleWords, leadOf, rulesWords,
  storesWords, resultWords, reasonWords, whyWords,
} from "./words.js";
import { botMark } from "./names.js";

const $ = (sel) => document.querySelector(sel);

const view = {
  info: null, // /api/info
  flipped: false, // North drawn at the bottom
  flippedFor: null, // the game and person `flipped` was chosen for
  shown: null, // the position on the board during a sowing
  actions: {}, // what the result's buttons do: {review, newGame}
  welcome: false, // no game to show
  unreachable: null, // the server's game the welcome stands for, out of reach without a network
  spoken: null, // the game and plies last said in words ({id, n, end, waiting})
  hintSaid: null, // the hint last said in words
};

export function setInfo(info) {
  view.info = info;
}

// Whether the page has found no game to show (the welcome is shown then);
// `unreachable`, the server's game of the address when the server could
// not be reached: the welcome then says so, and what works without it.
export function setWelcome(on, unreachable = null) {
  view.welcome = on;
  view.unreachable = on ? unreachable : null;
  render();
}

function renderWelcome() {
  const box = $("#welcome");
  box.hidden = !!session.id || !view.welcome;
  const away = view.unreachable;
  $("#welcome-text").hidden = !!away;
  $("#welcome-online").hidden = !!away;
  const offline = $("#welcome-offline");
  offline.hidden = !away;
  if (away) offline.textContent = `${t("welcome_unreachable", away)} ${t("offline_works")}`;
}

export function setActions(actions) {
  Object.assign(view.actions, actions);
}

// What other modules draw with the game (online play, chat): called
// after each redraw.
const renderers = [];

export function onRender(f) {
  renderers.push(f);
}

// The sides this page may play: the server says (`you`); a spectator
// plays none.
export function mySides(g) {
  if (!g) return [];
  if (Array.isArray(g.you)) return g.you;
  if (g.mode === "computer") return [g.human];
  return g.mode === "humans" ? ["S", "N"] : [];
}

// The one side the person here plays (against the computer, or in an
// online seat), to speak to them as "you"; null otherwise.
export function personSide(g) {
  const sides = mySides(g);
  return sides.length === 1 && g.mode !== "humans" ? sides[0] : null;
}

export function isHumanTurn(g) {
  if (!g || g.end || g.waiting || g.computer_to_move) return false;
  return mySides(g).includes(g.to_move);
}

// Fair play is the server's rule: its view says when a hint may be asked
// (`can_hint`) and when the game may be reviewed (`can_review`).
export function canHint(g) {
  return !!g && !!g.can_hint;
}

export function canReview(g) {
  return !!g && !!g.can_review;
}

function columns() {
  return session.game ? session.game.rules.columns : CCW_COLUMNS;
}

// ------------------------------------------------------------- board --

// Without counting, no number shows until the game is over.
function hideCounts() {
  const g = session.game;
  return settings.noCount && !!g && !g.end;
}

function drawShown(shown, marks) {
  view.shown = shown;
  const you = personSide(session.game);
  drawBoard($("#board"), shown, columns(), view.flipped, { krou: true, noCount: hideCounts(), you, ...marks });
  renderPlayers(shown);
}

function renderBoard() {
  const g = session.game;
  if (session.animating) return; // the sowing draws
  if (!g) {
    drawShown({ board: new Array(12).fill(4), stores: [0, 0], to_move: null }, { over: true });
    return;
  }
  let shown = { board: g.board, stores: g.stores, to_move: g.to_move };
  const marks = { over: !!g.end };
  const k = session.replayAt;
  const upTo = k === null ? g.plies.length : k;
  if (k !== null && k < g.plies.length) {
    const p = g.plies[k];
    shown = { board: p.before, stores: p.stores_before, to_move: p.side };
    marks.over = false;
  } else if (g.end && (g.end.stores[0] !== g.stores[0] || g.end.stores[1] !== g.stores[1])) {
    // The seeds left were given out at the end (starvation, resignation,
    // repetition under own_row): they are in the stores.
    shown = { board: new Array(12).fill(0), stores: g.end.stores, to_move: g.to_move };
  }
  if (upTo > 0) {
    const { origin, captures } = plyHoles(g.plies[upTo - 1]);
    marks.last = origin;
    marks.captured = new Set(captures);
  }
  if (k === null) {
    if (isHumanTurn(g) && !session.busy) {
      marks.legal = new Set(g.legal.map(letterHole));
      const row = g.to_move === "S" ? [0, 1, 2, 3, 4, 5] : [6, 7, 8, 9, 10, 11];
      marks.mine = new Set(row.filter((h) => !marks.legal.has(h)));
    }
    if (session.hint && session.hint.ply === g.plies.length && session.hint.best && !g.end) {
      marks.hint = letterHole(session.hint.best.mv);
    }
  }
  drawShown(shown, marks);
}

export async function animate(g, ply, alive) {
  const p = g.plies[ply];
  renderStatus();
  renderControls();
  await animatePly($("#board"), p, g.rules.columns, view.flipped, drawShown, alive);
}

// A click (or Enter) on a hole: a legal one is played; another of the
// mover's row is sent too, and the server's refusal says why it cannot be.
function onBoardClick(e) {
  if (session.replayAt !== null) return;
  const hit = e.target.closest(".hole-hit.tappable");
  if (hit) play(hit.dataset.letter);
  else if (e.target.closest(".hole-hit") && watching(session.game)) toast(t("watching_no_move"));
}

// Whether the page only watches the game shown, going on: someone else's
// game (online, a spectator's).
export function watching(g) {
  return !!g && !g.end && !g.waiting && !mySides(g).length;
}

// ----------------------------------------------------------- players --

function playerLabel(g, side) {
  if (g.mode === "computer") {
    if (side === g.human) return personSide(g) === side ? t("player_you", sideName(side)) : t("player_person", sideName(side));
    return t("player_computer", sideName(side), levelName(view.info, g.level));
  }
  const seat = g.seats && g.seats[side === "S" ? 0 : 1];
  const shown = seat && shownName(seat.name);
  const name = shown ? `${sideName(side)} · ${isolate(shown)}` : sideName(side);
  return personSide(g) === side ? t("player_you", name) : name;
}

// The record of the offline game shown, as a file's address (made once
// for each state of the game), or null until the engine has written it.
let offlineRecord = { key: "", url: null };

function offlineRecordUrl(g) {
  const key = `${g.id}|${g.plies.map((p) => p.move).join("")}|${g.end ? g.end.result : ""}`;
  if (offlineRecord.key !== key) {
    if (offlineRecord.url) URL.revokeObjectURL(offlineRecord.url);
    offlineRecord = { key, url: null };
    api("GET", `/api/games/${encodeURIComponent(g.id)}/record`).then((a) => {
      if (offlineRecord.key !== key || !a || typeof a.record !== "string") return;
      offlineRecord.url = URL.createObjectURL(new Blob([a.record], { type: "text/plain;charset=utf-8" }));
      render();
    }, () => {
      // The engine could not write it: the button stays greyed.
    });
  }
  return offlineRecord.url;
}

// Which seats of the online game shown are open accounts' (the server's
// GET /api/games/ID/accounts), asked again when its seats change.
let seatAccounts = { key: "", accounts: null, bots: null };

export function isAccountSeat(g, side) {
  if (!g || g.mode !== "online" || !g.seats) return false;
  // A rated game is between two accounts.
  if (g.rated) return true;
  const key = g.id + "|" + g.seats.map((s) => (s ? s.name : "")).join("|");
  if (seatAccounts.key !== key) {
    seatAccounts = { key, accounts: null, bots: null };
    api("GET", `/api/games/${encodeURIComponent(g.id)}/accounts`).then((a) => {
      if (seatAccounts.key !== key || !a || !Array.isArray(a.accounts)) return;
      seatAccounts.accounts = a.accounts;
      seatAccounts.bots = Array.isArray(a.bots) ? a.bots : null;
      render();
    }, () => {
      // Offline: the names stay text.
    });
  }
  return !!(seatAccounts.accounts && seatAccounts.accounts[side === "S" ? 0 : 1]);
}

// Whether `side`'s seat of the online game shown is a bot's (marked BOT).
export function isBotSeat(g, side) {
  return isAccountSeat(g, side) && !!(seatAccounts.bots && seatAccounts.bots[side === "S" ? 0 : 1]);
}

// The player's label; an account's name is a link to its page (a
// guest's is not), a bot's marked BOT.
function showWho(who, g, side) {
  const label = g ? playerLabel(g, side) : sideName(side);
  const seat = g && isAccountSeat(g, side) && g.seats && g.seats[side === "S" ? 0 : 1];
  const name = seat && shownName(seat.name);
  const at = name && isUsername(seat.name) ? label.indexOf(isolate(name)) : -1;
  if (isBotSeat(g, side)) {
    if (who.querySelector(".bot-mark") && who.dataset.label === label) return;
    who.dataset.label = label;
    who.textContent = "";
    if (at < 0) who.append(label);
    else who.append(label.slice(0, at), playerLink(seat.name, isolate(name)), label.slice(at + isolate(name).length));
    who.append(" ", botMark());
    return;
  }
  if (at < 0) {
    if (who.textContent !== label || who.childElementCount) who.textContent = label;
    return;
  }
  const link = who.querySelector("a.player-link");
  if (link && link.textContent === name && who.textContent === label) return;
  who.textContent = "";
  who.append(label.slice(0, at), playerLink(seat.name, isolate(name)), label.slice(at + isolate(name).length));
}

function renderPlayers(shown) {
  const g = session.game;
  const bottom = view.flipped ? "N" : "S";
  for (const [id, side] of [["#player-top", bottom === "S" ? "N" : "S"], ["#player-bottom", bottom]]) {
    const box = $(id);
    showWho(box.querySelector(".who"), g, side);
    box.dataset.side = side;
    const active = !!(g && !g.end && session.replayAt === null && shown && shown.to_move === side);
    box.classList.toggle("active", active);
  }
  renderClocks();
}

export function fmtClock(ms) {
  if (ms <= 0) return "0:00";
  // Games over days: days and hours, then hours and minutes.
  if (ms >= 86400000) return t("clock_days_hours", Math.floor(ms / 86400000), Math.floor((ms % 86400000) / 3600000));
  if (ms >= 3600000) return t("clock_hours_minutes", Math.floor(ms / 3600000), String(Math.floor((ms % 3600000) / 60000)).padStart(2, "0"));
  const s = Math.ceil(ms / 1000);
  const m = Math.floor(s / 60);
  if (ms < 10000) return `0:0${Math.floor(ms / 1000)}${getLang() === "fr" ? "," : "."}${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

// A clock in words: "3 + 2" in full, or the days per move.
export function clockWords(c) {
  if (c.per_move) return t("days_per_move_words", Math.round(c.initial_ms / 86400000));
  return t("clock_words", c.initial_ms / 60000, c.increment_ms / 1000);
}

function renderClocks() {
  const g = session.game;
  const left = timeLeft();
  for (const id of ["#player-top", "#player-bottom"]) {
    const box = $(id);
    const c = box.querySelector(".clock");
    // No clock: no timer for a screen reader to find empty.
    c.hidden = !left;
    if (!left) {
      c.textContent = "";
      c.className = "clock";
      c.removeAttribute("aria-label");
      continue;
    }
    const side = box.dataset.side;
    const ms = left[side === "S" ? 0 : 1];
    const running = !g.end && session.clock && session.clock.running === side;
    const flagged = !!(g.end && g.end.reason === "time" && g.end.winner && g.end.winner !== side);
    c.textContent = fmtClock(ms);
    c.className = "clock" + (running && ms < 20000 ? " low" : "") + (flagged ? " flagged" : "");
    c.setAttribute("aria-label", flagged ? t("clock_flagged", sideName(side)) : t("clock_label", sideName(side), fmtClock(ms)));
  }
}

setInterval(renderClocks, 200);

// ------------------------------------------------------------ status --

// Each side's accuracy in words for the end of game `g`, once its review
// is known (review.js sets it: the play view knows no review).
let endAccuracy = () => "";

export function setEndAccuracy(f) {
  endAccuracy = f;
}

// The status drawn again (a review came: the end shows its accuracy).
export function refreshStatus() {
  renderStatus();
}

function renderStatus() {
  const g = session.game;
  const box = $("#status");
  const text = (words) => {
    delete box.dataset.result;
    if (box.textContent !== words || box.childElementCount) box.textContent = words;
  };
  if (!g) {
    text("");
    return;
  }
  const a = session.animating;
  if (a) {
    const p = a.view.plies[a.ply];
    if (personSide(g) === p.side) text(t("you_sow", p.move));
    else if (g.mode === "computer" && p.side !== g.human) text(t("computer_sows", p.move));
    else text(t("side_sows", sideName(p.side), p.move));
    return;
  }
  const k = session.replayAt;
  if (k !== null && (k < g.plies.length || !g.end)) {
    const side = k < g.plies.length ? g.plies[k].side : g.to_move;
    text(t("replay_to_move", sideName(side)));
    return;
  }
  if (g.end) {
    const result = resultWords(g, g.end, personSide(g));
    const reason = `${reasonWords(g, g.end, personSide(g))} ${storesWords(g.end.stores)}.`;
    // Drawn again only when it changes: its buttons keep the focus.
    const accuracy = k === null ? endAccuracy(g) : "";
    const key = JSON.stringify([g.id, result, reason, k === null, canReview(g), t("review"), t("new_game"), accuracy]);
    if (box.dataset.result === key) return;
    // A button of the end that had the focus has it again once drawn
    // anew (the accuracy comes after the review its button asked for).
    const focused = box.contains(document.activeElement) ? document.activeElement.id : "";
    box.textContent = "";
    box.dataset.result = key;
    const res = document.createElement("div");
    res.className = "result";
    res.id = "result";
    res.textContent = result;
    // The focus may be put there (after resigning).
    res.tabIndex = -1;
    const why = textEl("span", "reason", reason);
    box.append(res, why);
    if (accuracy) {
      const line = textEl("p", "accuracy", accuracy);
      line.id = "result-accuracy";
      box.append(line);
    }
    if (k === null) {
      const actions = document.createElement("div");
      actions.className = "actions";
      const review = document.createElement("button");
      review.id = "result-review";
      review.textContent = t("review");
      review.hidden = !canReview(g);
      review.onclick = () => view.actions.review && view.actions.review();
      const again = textEl("button", "primary", t("new_game"));
      again.onclick = () => view.actions.newGame && view.actions.newGame();
      actions.append(review, again);
      box.append(actions);
    }
    if (focused) document.getElementById(focused)?.focus();
    return;
  }
  text(turnWords(g));
}

// Whose turn it is in game `g`, not over, in words.
function turnWords(g) {
  if (g.computer_to_move) return t("thinking");
  if (g.waiting) return t("waiting_opponent");
  if (personSide(g) === g.to_move) return t("your_turn");
  if (watching(g)) return t("watching_turn_of", sideLabel(g, g.to_move));
  return t("turn_of", sideLabel(g, g.to_move));
}

// A game just started (from the new game dialog) is said, with whose
// turn it is. The focus goes to the board if the dialog left it nowhere:
// it opened by itself on a first visit, or from a button gone since.
export function started() {
  const g = session.game;
  if (!g) return;
  say(`${t("said_game_started")} ${sentence(g.end ? endWords(g) : turnWords(g))}`);
  const now = document.activeElement;
  const lost = !now || now === document.body || !!now.closest("[hidden], dialog:not([open])");
  const hole = $("#board .hole-hit[tabindex='0']");
  if (lost && hole) hole.focus();
}

// `text` ended as a sentence.
function sentence(text) {
  return /[.!?…]$/.test(text) ? text : text + ".";
}

// How game `g` ended, in words.
function endWords(g) {
  return `${resultWords(g, g.end, personSide(g))} ${reasonWords(g, g.end, personSide(g))} ${storesWords(g.end.stores)}.`;
}

// ------------------------------------------------------------ spoken --

// Each move of the game shown is said in words once it is on the board
// (one or two new ones: the person's and the answer), then whose turn or
// how the game ended. Opening a game says nothing: the commands tell.
function speakMoves() {
  const g = session.game;
  if (session.animating) return;
  const was = view.spoken;
  view.spoken = g ? { id: g.id, n: g.plies.length, end: !!g.end, waiting: !!g.waiting } : null;
  if (!g || !was || was.id !== g.id) {
    // Another game (or none): the last game's lines go with it.
    if ((was && was.id) !== (g && g.id)) unsay();
    return;
  }
  const you = personSide(g);
  const parts = [];
  if (g.plies.length > was.n && g.plies.length - was.n <= 2) {
    for (let k = was.n; k < g.plies.length; k++) parts.push(moveWords(g.plies[k], you, hideCounts()));
  } else if (g.plies.length < was.n) {
    parts.push(t("said_undone"));
  } else if (!!g.end === was.end && !!g.waiting === was.waiting) {
    // Nothing new (a friend sitting down online is new).
    return;
  }
  parts.push(g.end ? endWords(g) : sentence(turnWords(g)));
  say(parts.join(" "));
}

// The answer to command `name` (spoken.js) about the game shown.
export function answer(name) {
  const g = session.game;
  if (name === "help") return helpWords();
  if (!g) return t("said_no_game");
  const you = personSide(g);
  switch (name) {
    case "board": {
      const shown = view.shown || { board: g.board, stores: g.stores };
      return boardWords(shown, you, hideCounts());
    }
    case "scores":
      return hideCounts() ? t("said_nocount") : storesWords(g.end ? g.end.stores : g.stores) + ".";
    case "clocks": {
      const left = timeLeft();
      if (!left) return t("said_no_clock");
      return ["S", "N"].map((side) => t("clock_label", sideName(side), fmtClock(left[side === "S" ? 0 : 1]))).join(". ") + ".";
    }
    case "last":
      return g.plies.length ? moveWords(g.plies[g.plies.length - 1], you, hideCounts()) : t("said_no_move");
    case "turn":
      return g.end ? endWords(g) : sentence(turnWords(g));
    case "legal":
      if (g.end) return endWords(g);
      if (!isHumanTurn(g)) return sentence(turnWords(g));
      return t("said_legal", g.legal.join(", "));
    default:
      return "";
  }
}

// What is typed in the command field: a letter a-f plays that hole of the
// mover's row (either case), a command is answered aloud.
function onCommand(e) {
  e.preventDefault();
  const input = $("#command");
  const text = input.value.trim();
  input.value = "";
  if (!text) return;
  const g = session.game;
  if (/^[a-f]$/i.test(text)) {
    if (g && isHumanTurn(g) && session.replayAt === null) playKey(g, text);
    else say(g && g.end ? endWords(g) : g && watching(g) ? t("watching_no_move") : t("said_not_your_turn"));
    return;
  }
  const name = commandOf(text);
  say(name ? answer(name) : t("command_unknown", text));
}

// Plays the hole of the mover's row that key `k` (a-f, either case) names.
function playKey(g, k) {
  const idx = k.toUpperCase().charCodeAt(0) - 65;
  play(holeLetter(g.to_move === "S" ? idx : idx + 6));
}

// A side, with its player's nickname online.
function sideLabel(g, side) {
  const seat = g.mode === "online" && g.seats && g.seats[side === "S" ? 0 : 1];
  const shown = seat && shownName(seat.name);
  return shown ? `${sideName(side)} (${isolate(shown)})` : sideName(side);
}

// --------------------------------------------------------- move list --

// The number of a ply in the list (moves are numbered in pairs from
// South's: `1. C a 2. A`).
export function moveNumber(plies, ply) {
  let n = 1;
  for (let i = 0; i < ply; i++) if (plies[i].side === "N") n++;
  return n;
}

function renderMoves() {
  const g = session.game;
  const list = $("#move-list");
  list.textContent = "";
  if (!g) return;
  const mistakes = view.mistakes && view.mistakes.id === g.id ? view.mistakes.plies : new Set();
  const currentPly = session.replayAt === null ? g.plies.length : session.replayAt;
  let li = null;
  g.plies.forEach((p, i) => {
    const num = moveNumber(g.plies, i);
    if (p.side === "S" || i === 0) {
      li = document.createElement("li");
      const n = textEl("span", "num", num + ".");
      li.append(n);
      if (p.side === "N") li.append(document.createElement("span"));
      list.append(li);
    }
    const m = document.createElement("button");
    m.type = "button";
    m.className = "mv" + (i + 1 === currentPly ? " current" : "") + (mistakes.has(i) ? " mistake" : "");
    m.dataset.ply = i;
    m.textContent = p.move;
    if (p.captured && !hideCounts()) {
      const c = textEl("span", "cap", "+" + p.captured);
      m.append(c);
    }
    m.setAttribute("aria-label", t(p.captured ? "move_label_capture" : "move_label", num, sideName(p.side), p.move, p.captured) +
      (mistakes.has(i) ? ` (${t("mistake")})` : ""));
    // One stop for the Tab key: the current move; arrows go from move to move.
    m.tabIndex = i + 1 === Math.max(currentPly, 1) ? 0 : -1;
    li.append(m);
  });
  const cur = list.querySelector(".mv.current");
  if (cur && session.replayAt !== null) cur.scrollIntoView({ block: "nearest" });
  else if (session.replayAt === null) list.scrollTop = list.scrollHeight;
}

export function setMistakes(id, plies) {
  view.mistakes = { id, plies: new Set(plies) };
  renderMoves();
}

function onMoveListKey(e) {
  const b = e.target.closest(".mv");
  const g = session.game;
  if (!b || !g) return;
  const i = +b.dataset.ply;
  const to = { ArrowLeft: i - 1, ArrowUp: i - 1, ArrowRight: i + 1, ArrowDown: i + 1, Home: 0, End: g.plies.length - 1 }[e.key];
  if (to === undefined) return;
  e.preventDefault();
  e.stopPropagation();
  const j = Math.max(0, Math.min(g.plies.length - 1, to));
  showPly(j + 1);
  const next = $(`#move-list .mv[data-ply="${j}"]`);
  if (next) next.focus();
}

// Replays the game at `ply` (the position after that many plies), with
// its own address (so Back comes back here).
export function showPly(ply) {
  const g = session.game;
  if (!g) return;
  const k = Math.max(0, Math.min(ply, g.plies.length));
  // The review stays open while its positions are looked at.
  const review = nav.parse(location.hash).review;
  nav.go({ view: "play", game: g.id, ply: k, review }, session.replayAt !== null);
}

// Back to the game as it is (the review stays open if it was).
export function leaveReplay() {
  const g = session.game;
  if (g) nav.go({ view: "play", game: g.id, review: nav.parse(location.hash).review });
}

// ---------------------------------------------------------- controls --

// Button `b` can be used (`can`), once the page is `idle`. While a request
// runs it is only marked unavailable (aria-disabled), not disabled: a
// disabled button loses the keyboard's focus to the page's top.
function available(b, can, idle) {
  b.disabled = !can;
  if (can && !idle) b.setAttribute("aria-disabled", "true");
  else b.removeAttribute("aria-disabled");
}

function renderControls() {
  const g = session.game;
  const has = !!g;
  const replay = session.replayAt !== null;
  const idle = !session.busy && !session.animating;
  // Online, moves are taken back by asking the other player (online.js);
  // spectators have nothing to resign.
  const online = has && g.mode === "online";
  $("#btn-undo").hidden = $("#btn-redo").hidden = $("#btn-hint").hidden = online;
  $("#btn-resign").hidden = online && !mySides(g).length;
  available($("#btn-undo"), has && g.can_undo && !replay, idle);
  available($("#btn-redo"), has && g.can_redo && !replay, idle);
  available($("#btn-hint"), canHint(g) && !replay, idle);
  available($("#btn-resign"), has && !g.end && !g.waiting && !replay && mySides(g).length > 0, idle);
  $("#btn-flip").disabled = !has;
  $("#btn-replay").disabled = !has || !g.plies.length;
  $("#btn-review").disabled = !canReview(g);
  // The analysis board, like the review, once the game is over.
  $("#btn-study").disabled = !canReview(g);
  const exp = $("#btn-export");
  // A game kept in the browser exports its record written here, as the
  // server writes an online game's.
  const href = !has ? null : g.offline ? offlineRecordUrl(g) : `/api/games/${g.id}/record`;
  if (href) {
    if (exp.getAttribute("href") !== href) exp.href = href;
    exp.setAttribute("download", g.offline ? `awale-${g.id}.ogn` : "");
    exp.classList.remove("disabled");
    exp.removeAttribute("aria-disabled");
  } else {
    exp.removeAttribute("href");
    exp.classList.add("disabled");
    exp.setAttribute("aria-disabled", "true");
  }
  const fair = $("#fair-play");
  fair.hidden = !has || !!g.end;
  if (has && !g.end) fair.textContent = g.mode === "online" ? t("fair_online") : g.clock ? t("fair_clock") : t("fair_review");
  $("#replay-bar").hidden = !replay;
  if (replay) {
    const k = session.replayAt;
    $("#replay-label").textContent = k === 0 ? t("start_pos") : t("replaying", moveNumber(g.plies, k - 1), g.plies[k - 1].move, k, g.plies.length);
    $("#rp-first").disabled = $("#rp-prev").disabled = k === 0;
    $("#rp-next").disabled = $("#rp-last").disabled = k === g.plies.length;
  }
  const info = $("#game-info");
  info.textContent = "";
  if (has) {
    const head = document.createElement("div");
    head.textContent = (g.offline ? t("offline_game") : t("game_n", g.id)) + (g.clock ? ` · ${clockWords(g.clock)}` : "") + (g.mode === "online" ? ` · ${g.rated ? t("rated_game") : t("casual_game")}` : "");
    // The rules in short (the preset, or what differs from it), every
    // option on demand.
    const rules = document.createElement("details");
    rules.className = "rules-words";
    const summary = document.createElement("summary");
    summary.textContent = t("rules_label", rulesWords(g.rules));
    const all = document.createElement("p");
    all.textContent = rulesWords(g.rules, true);
    rules.append(summary, all);
    info.append(head, rules);
  }
  const th = $("#thinking");
  if (session.thinking && g && g.computer_to_move && !session.animating) {
    th.hidden = false;
    th.textContent = session.thinking.depth ? t("thinking_depth", session.thinking.depth) : t("thinking");
  } else {
    th.hidden = true;
  }
  const hb = $("#hint-box");
  const h = session.hint;
  if (h && g && h.ply === g.plies.length && !g.end && !replay) {
    hb.hidden = false;
    hb.textContent = "";
    if (h.best) {
      hb.append(t("hint_play"), " ");
      const b = document.createElement("b");
      b.textContent = h.best.mv;
      hb.append(b, hideCounts() ? "." : ` — ${scoreWords(h.best.score, g.to_move)}.`);
    }
    if (h.oracle && !hideCounts()) hb.append(" ", t("hint_oracle", oracleWords(h.oracle, g.to_move, leadOf(g.stores, g.to_move))));
    // Why the move is good, in words (the server says it in both languages);
    // not without counting, where its numbers would count for the player.
    if (h.why && h.why.length && !hideCounts()) {
      const ul = document.createElement("ul");
      ul.className = "hint-why";
      for (const w of h.why.slice(0, 3)) {
        const li = document.createElement("li");
        li.textContent = whyWords(w);
        ul.append(li);
      }
      hb.append(ul);
    }
    // Asked for with the button, it is said too (its reasons as
    // sentences of their own, not run together).
    if (view.hintSaid !== h) {
      view.hintSaid = h;
      const spoken = [...hb.childNodes].map((n) => (n.nodeName === "UL" ? [" ", ...[...n.children].map((li) => li.textContent)].join(" ") : n.textContent));
      say(spoken.join("").replace(/\s+/g, " ").trim());
    }
  } else {
    hb.hidden = true;
  }
}

// -------------------------------------------------------------- all --

export function render() {
  const g = session.game;
  // The control with the focus, if any (see keepFocus).
  const focused = document.activeElement;
  const control = !!(focused && focused.closest && focused.closest("#view-play .controls, #status"));
  // The person's side at the bottom: North's, against the computer or
  // online, is turned (again when a seat comes to this page).
  if (g && view.flippedFor !== `${g.id}:${personSide(g)}`) {
    view.flippedFor = `${g.id}:${personSide(g)}`;
    view.flipped = (g.mode === "computer" && g.human === "N") || (g.mode === "online" && personSide(g) === "N");
  }
  renderWelcome();
  const lost = $("#connection");
  lost.hidden = !session.id || !session.offline;
  // The clocks wait for the server's word: said only of a game with them.
  if (!lost.hidden) lost.textContent = t(g && g.clock ? "connection_lost_clocks" : "connection_lost");
  $("#player-top").hidden = $("#player-bottom").hidden = !session.id;
  renderBoard();
  renderStatus();
  renderMoves();
  renderControls();
  speakMoves();
  if (!session.animating) renderPlayers(view.shown);
  for (const f of renderers) f();
  keepFocus(focused, control);
}

// A control of the play view's that had the focus and can no longer be
// used (Undo with nothing left to take back, Resign once the game is
// over, a result drawn again) would leave the focus on the page's top: it
// goes to the result of a game over, else to the board.
function keepFocus(was, control) {
  if (!control) return;
  const now = document.activeElement;
  const lost = !was.isConnected || was.disabled || !!was.closest("[hidden]");
  if (!lost || (now && now !== document.body && now !== was)) return;
  const to = $("#result") || $("#board .hole-hit[tabindex='0']");
  if (to && !$("#view-play").hidden) to.focus();
}

export function flip() {
  view.flipped = !view.flipped;
  render();
}

// Replay: the position after `k` plies, or null for the game as it is.
export function setReplay(k) {
  const g = session.game;
  const before = session.replayAt;
  const inBar = $("#replay-bar").contains(document.activeElement);
  session.replayAt = k === null || !g ? null : Math.max(0, Math.min(k, g.plies.length));
  render();
  // Back to the game from the replay's buttons: the focus goes to the
  // button that started it, not to the page's top.
  if (inBar && $("#replay-bar").hidden) $("#btn-replay").focus();
  // A position replayed is said, unless the move list has the focus (its
  // buttons say their moves).
  const at = session.replayAt;
  if (at !== null && at !== before && !$("#move-list").contains(document.activeElement)) {
    say(at === 0 ? t("start_pos") : moveWords(g.plies[at - 1], personSide(g), hideCounts()));
  }
  if (session.replayAt === null) computerIfDue();
}

function onKey(e) {
  if (e.target.closest && e.target.closest("input, textarea, select, dialog[open], #move-list")) return;
  if (e.ctrlKey || e.metaKey || e.altKey || $("#view-play").hidden) return;
  const g = session.game;
  if (!g) return;
  const k = e.key;
  if (session.replayAt !== null) {
    if (k === "ArrowLeft") showPly(session.replayAt - 1);
    else if (k === "ArrowRight") showPly(session.replayAt + 1);
    else if (k === "Escape") leaveReplay();
    else return;
    e.preventDefault();
    return;
  }
  const command = k.length === 1 && !/^[a-fA-F]$/.test(k) ? commandOf(k) : null;
  if (command) {
    e.preventDefault();
    say(answer(command));
  } else if (/^[a-fA-F]$/.test(k) && watching(g)) {
    toast(t("watching_no_move"));
  } else if (/^[a-fA-F]$/.test(k) && isHumanTurn(g)) {
    playKey(g, k);
  } else if ((k === "Enter" || k === " ") && e.target.dataset && e.target.dataset.letter) {
    e.preventDefault();
    play(e.target.dataset.letter);
  }
}

export function wire() {
  setHooks({ render, animate, error: showError });
  $("#board").addEventListener("click", onBoardClick);
  $("#move-list").addEventListener("click", (e) => {
    const b = e.target.closest(".mv");
    if (b) showPly(+b.dataset.ply + 1);
  });
  $("#move-list").addEventListener("keydown", onMoveListKey);
  $("#command-form").addEventListener("submit", onCommand);
  document.addEventListener("keydown", onKey);
  $("#btn-undo").onclick = undo;
  $("#btn-redo").onclick = redo;
  $("#btn-hint").onclick = hint;
  $("#btn-flip").onclick = flip;
  $("#btn-replay").onclick = () => showPly(0);
  $("#btn-study").onclick = () => {
    const g = session.game;
    if (g) nav.go({ view: "learn", tab: "analysis", game: g.id, ply: session.replayAt ?? g.plies.length });
  };
  $("#rp-first").onclick = () => showPly(0);
  $("#rp-prev").onclick = () => showPly(session.replayAt - 1);
  $("#rp-next").onclick = () => showPly(session.replayAt + 1);
  $("#rp-last").onclick = () => session.game && showPly(session.game.plies.length);
  $("#rp-exit").onclick = leaveReplay;
  // Redrawn at the new size: text sizes on the board follow its width.
  let width = 0;
  new ResizeObserver(() => {
    const w = $("#board").clientWidth;
    if ((w < 640) !== (width < 640) && !session.animating) render();
    width = w;
  }).observe($("#board"));
}

