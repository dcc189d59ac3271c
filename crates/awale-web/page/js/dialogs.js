// The page's dialogs: a new game (opponent: the computer, two on this
// screen or a friend online; level, side, rules and their options, clock),
// the settings, and resigning.

import { api, serverReached } from "./api.js";
import * as engine from "./engine.js";
import { session, resign } from "./game.js";
import { t } from "./i18n.js";
import * as nav from "./nav.js";
import { loadMe, me, nickname } from "./online.js";
import { mySides } from "./play-view.js";
import {
  settings, setSpeed, setSound, setNoCount, setContrast, loadJson, saveJson, prefersReducedMotion,
} from "./settings.js";
import { errorWords as errorText, levelDescription, levelName, levelUsesDatabases, PRESETS, sideName } from "./words.js";

const $ = (sel) => document.querySelector(sel);
let info = null;

export function setInfo(i) {
  info = i;
  fillLevels();
  fillClockPresets();
}

// The server's usual clocks (minutes, seconds added), one tap each.
function fillClockPresets() {
  const box = $("#clock-presets");
  box.textContent = "";
  for (const [minutes, seconds] of (info && info.clock_presets) || []) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = `${minutes} + ${seconds}`;
    // The name is what it shows (WCAG's label in name); the words say it
    // in full.
    b.title = t("clock_words", minutes, seconds);
    b.onclick = () => {
      const f = form();
      f.clock.checked = true;
      f.minutes.value = String(minutes);
      f.increment.value = String(seconds);
      updateForm();
    };
    box.append(b);
  }
}

// ----------------------------------------------------------- new game --

const FORM_FIELDS = ["mode", "level", "human", "preset", "grand_slam", "repetition", "target", "direction", "first", "minutes", "increment", "days", "listed"];

function form() {
  return $("#form-new");
}

export function fillLevels() {
  const sel = $("#sel-level");
  const keep = sel.value || String(info ? info.default_level : 3);
  sel.textContent = "";
  for (const l of info ? info.levels : []) {
    const o = document.createElement("option");
    o.value = l.number;
    o.textContent = `${l.number}. ${levelName(info, l.number)}`;
    sel.append(o);
  }
  sel.value = keep;
  fillTargets();
  fillClockPresets();
  describeLevel();
  markOfflineLevels();
}

// Without a network the page's engine plays: a level it cannot play (the
// strongest, from the server's endgame databases: it answers
// `needs_server`) is shown but not offered, rather than refused after
// Start.
let marking = 0;
async function markOfflineLevels() {
  const ticket = ++marking;
  const sel = $("#sel-level");
  // Offline: the browser says so, or the server did not answer.
  const offline = navigator.onLine === false || !serverReached();
  for (const o of sel.options) {
    if (!offline) continue;
    let needsServer = false;
    try {
      await engine.ask({ op: "level", level: Number(o.value) });
    } catch (e) {
      needsServer = e.code === "needs_server";
    }
    if (ticket !== marking) return;
    if (!needsServer) continue;
    o.disabled = true;
    o.textContent = `${o.textContent} ${t("level_needs_network")}`;
    if (o.selected) {
      const playable = [...sel.options].filter((x) => !x.disabled && x !== o);
      // The strongest level it can play instead.
      if (playable.length) sel.value = playable[playable.length - 1].value;
      describeLevel();
    }
  }
}

function fillTargets() {
  const sel = $("#sel-target");
  const keep = sel.value || "off";
  sel.textContent = "";
  const off = document.createElement("option");
  off.value = "off";
  off.textContent = t("target_off");
  sel.append(off);
  for (let n = 1; n <= 48; n++) {
    const o = document.createElement("option");
    o.value = String(n);
    o.textContent = t("seeds_n", n);
    sel.append(o);
  }
  sel.value = keep;
}

function describeLevel() {
  const n = +$("#sel-level").value;
  const l = info && info.levels.find((x) => x.number === n);
  $("#level-desc").textContent = l ? levelDescription(l) : "";
  // The strongest level plays with the endgame databases: say when they
  // are not there, and how to build them.
  const note = $("#level-oracle");
  const missing = !!info && info.oracle === false && levelUsesDatabases(info, n);
  note.hidden = !missing;
  if (missing) {
    note.textContent = "";
    note.append(t("oracle_missing"), " ");
    const code = document.createElement("code");
    code.textContent = "awale db build --max-seeds 20";
    note.append(code, " ", t("oracle_missing_then"));
  }
}

function applyPreset() {
  const f = form();
  const p = PRESETS[f.preset.value] || PRESETS.awale;
  if (!p) return; // before the server said what the presets are
  f.grand_slam.value = p.grand_slam;
  f.repetition.value = p.repetition;
  f.target.value = p.target ? String(p.target) : "off";
}

function updateForm() {
  const f = form();
  // A refusal of the form as it was (online play without a network) is
  // not left under another choice.
  $("#new-error").hidden = true;
  $("#new-error").textContent = "";
  document.querySelector(".computer-only").hidden = f.mode.value !== "computer";
  document.querySelector(".online-only").hidden = f.mode.value !== "online";
  document.querySelector(".side-choice").hidden = f.mode.value === "humans";
  $("#clock-note").hidden = f.mode.value === "online";
  $("#clock-fields").disabled = !f.clock.checked;
  // Days per move: games over days are played online.
  const online = f.mode.value === "online";
  document.querySelector(".days-choice").hidden = !online;
  const days = online && f.days.value !== "";
  f.minutes.disabled = days;
  f.increment.disabled = days;
}

// The level last chosen in the new-game form, as its number now. It is
// kept by its key, so that a ladder renumbered by a new version of the
// server keeps the same opponent; a form saved before keys were kept gives
// its number. Null when none was saved or the level is gone.
export function savedLevel() {
  const saved = loadJson("awale.newgame");
  if (!saved || !info) return null;
  const l = saved.level_key
    ? info.levels.find((x) => x.key === saved.level_key)
    : info.levels.find((x) => x.number === +saved.level);
  return l ? l.number : null;
}

function restoreForm() {
  const saved = loadJson("awale.newgame");
  if (!saved) return;
  const f = form();
  for (const k of FORM_FIELDS) if (saved[k] !== undefined && f[k]) f[k].value = saved[k];
  const level = savedLevel();
  f.level.value = String(level || (info ? info.default_level : 3));
  f.clock.checked = !!saved.clock;
}

function saveForm() {
  const f = form();
  const saved = { clock: f.clock.checked };
  for (const k of FORM_FIELDS) saved[k] = f[k].value;
  const level = info && info.levels.find((x) => x.number === +f.level.value);
  if (level) saved.level_key = level.key;
  saveJson("awale.newgame", saved);
}

export function openNewGame(mode = null) {
  $("#new-error").hidden = true;
  $("#chk-nocount-new").checked = settings.noCount;
  fillLevels();
  restoreForm();
  if (typeof mode === "string") form().mode.value = mode;
  fillNickname();
  loadMe().then(fillNickname);
  describeLevel();
  updateForm();
  const dlg = $("#dlg-new");
  if (!dlg.open) dlg.showModal();
}

// The nickname field of a game with a friend: the one chosen (unless
// something is typed there already), the default as a placeholder.
function fillNickname() {
  const input = $("#new-nickname");
  // An account plays under its username: no nickname to choose.
  input.closest(".field").hidden = !!me.account;
  if (!input.value && document.activeElement !== input) input.value = me.name || "";
  input.placeholder = nickname();
  // Rated is for accounts (the server says so too): a guest plays casual.
  const rated = form().querySelector("input[name=rated][value=rated]");
  rated.disabled = !me.account;
  if (!me.account) form().querySelector("input[name=rated][value=casual]").checked = true;
  // A guest has no rating to set a range around.
  $("#new-range").disabled = !me.account;
  if (!me.account) $("#new-range").value = "";
}

async function startNewGame() {
  const f = form();
  if (!f.reportValidity()) return;
  let rules = f.preset.value;
  for (const k of ["grand_slam", "repetition", "target", "direction", "first"]) rules += `,${k}=${f[k].value}`;
  const body = { mode: f.mode.value, rules };
  if (f.mode.value === "computer") {
    body.level = +f.level.value;
    body.human = f.human.value;
  } else if (f.mode.value === "online") {
    body.human = f.human.value;
    body.public = f.listed.value === "lobby";
    body.name = f.nickname.value.trim() || nickname();
    if (f.rated.value === "rated") body.rated = true;
    // A rating range is for a seek in the lobby, by an account.
    if (body.public && me.account && f.range.value) body.rating_range = +f.range.value;
  }
  if (f.clock.checked && f.mode.value === "online" && f.days.value !== "") body.clock = { days: +f.days.value };
  else if (f.clock.checked) body.clock = { minutes: +f.minutes.value, increment_seconds: +f.increment.value };
  const err = $("#new-error");
  try {
    const g = await api("POST", "/api/games", body);
    if (body.name) me.name = body.name;
    saveForm();
    $("#dlg-new").close();
    nav.go({ view: "play", game: g.id, created: g });
  } catch (e) {
    err.textContent = errorText(e);
    err.hidden = false;
  }
}

// ----------------------------------------------------------- settings --

function openSettings() {
  $("#sel-speed").value = String(settings.speed);
  $("#chk-sound").checked = settings.sound;
  $("#chk-nocount").checked = settings.noCount;
  $("#chk-contrast").checked = settings.contrast;
  $("#motion-note").hidden = !prefersReducedMotion || localStorage.getItem("awale.speed") !== null;
  $("#dlg-settings").showModal();
}

// ------------------------------------------------------------- resign --

// Against the computer (or online) the person resigns for their side;
// between two people on one screen, either may: the dialog asks who.
function openResign() {
  const g = session.game;
  const sides = mySides(g);
  // Marked unavailable while a request runs (the focus stays on it).
  if (!g || g.end || !sides.length || $("#btn-resign").getAttribute("aria-disabled") === "true") return;
  const two = sides.length === 2;
  $("#resign-text").textContent = two ? t("resign_who") : g.mode === "computer" ? t("confirm_resign") : t("confirm_resign_online");
  for (const side of ["S", "N"]) {
    const b = $(`#resign-${side}`);
    b.hidden = !sides.includes(side);
    b.textContent = two ? t("side_resigns", sideName(side)) : t("resign");
  }
  $("#dlg-resign").returnValue = "";
  $("#dlg-resign").showModal();
}

// ---------------------------------------------------------------- all --

export function wire(onSoundChange, onNoCountChange) {
  const f = form();
  f.preset.onchange = applyPreset;
  for (const r of f.querySelectorAll("input[name=mode], input[name=clock]")) r.onchange = updateForm;
  f.days.onchange = updateForm;
  $("#sel-level").onchange = describeLevel;
  // The network lost or back while the dialog shows: its levels follow.
  for (const ev of ["online", "offline"]) {
    window.addEventListener(ev, () => {
      if ($("#dlg-new").open) fillLevels();
    });
  }
  $("#btn-start").onclick = (e) => {
    e.preventDefault();
    startNewGame();
  };
  $("#btn-settings").onclick = openSettings;
  $("#sel-speed").onchange = (e) => setSpeed(+e.target.value);
  $("#chk-sound").onchange = (e) => {
    setSound(e.target.checked);
    onSoundChange();
  };
  $("#chk-contrast").onchange = (e) => setContrast(e.target.checked);
  $("#btn-resign").onclick = openResign;
  for (const box of [$("#chk-nocount"), $("#chk-nocount-new")]) {
    box.onchange = (e) => {
      setNoCount(e.target.checked);
      onNoCountChange();
    };
  }
  $("#dlg-resign").addEventListener("close", () => {
    const v = $("#dlg-resign").returnValue;
    if (v === "S" || v === "N") resign(v);
  });
}
