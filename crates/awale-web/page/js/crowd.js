// The public's noise ("le public peut faire du bruit, chanter"): applause,
// "oh!", a drum, a song, sent by anyone at an online game, seen over the
// board and heard by every viewer, the sounds made here (Web Audio).

import { api } from "./api.js";
import { icon } from "./dom.js";
import { onLive, session } from "./game.js";
import { t } from "./i18n.js";
import { wordedName } from "./people.js";
import { settings } from "./settings.js";
import { showError, toast } from "./toast.js";

const $ = (sel) => document.querySelector(sel);
const KINDS = ["applause", "oh", "drum", "song"];

// Reactions shown at once, at most; older ones go first.
const SHOWN = 5;

// -------------------------------------------------------------- seen --

function who(r) {
  const g = session.game;
  const seat = r.side && g && g.seats && g.seats[r.side === "S" ? 0 : 1];
  return seat ? wordedName(seat.name) : t("the_public");
}

function pop(r) {
  const box = $("#reaction-pops");
  const el = document.createElement("div");
  el.className = `pop pop-${r.kind}`;
  el.dataset.kind = r.kind;
  const svg = icon(r.kind);
  const text = document.createElement("span");
  text.textContent = `${t("react_" + r.kind)} · ${who(r)}`;
  el.append(svg, text);
  el.style.left = `${10 + Math.random() * 60}%`;
  box.append(el);
  while (box.children.length > SHOWN) box.firstChild.remove();
  setTimeout(() => el.remove(), 3200);
}

// ------------------------------------------------------------- heard --

let context = null;

function audio() {
  context = context || new (window.AudioContext || window.webkitAudioContext)();
  // Browsers start it suspended until the person has touched the page.
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

function noise(a, seconds) {
  const buffer = a.createBuffer(1, Math.ceil(a.sampleRate * seconds), a.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  return buffer;
}

// A gain that rises to `peak` in `attack` seconds and dies away by `end`.
function envelope(a, at, peak, attack, end) {
  const g = a.createGain();
  g.gain.setValueAtTime(0.0001, at);
  g.gain.exponentialRampToValueAtTime(peak, at + attack);
  g.gain.exponentialRampToValueAtTime(0.0001, at + end);
  return g;
}

// A filter of `type` (lowpass, bandpass) at `frequency`, with quality `q`
// when given.
function filter(a, type, frequency, q) {
  const f = a.createBiquadFilter();
  f.type = type;
  f.frequency.value = frequency;
  if (q !== undefined) f.Q.value = q;
  return f;
}

// The noise of `buffer` played once at `at`, through `through`, then
// `gain`, into `out`.
function burst(a, out, buffer, at, through, gain) {
  const src = a.createBufferSource();
  src.buffer = buffer;
  src.connect(through).connect(gain).connect(out);
  src.start(at);
}

// Many hands: short bursts of filtered noise, thick then thinning out.
function applause(a, out, t0) {
  const clap = noise(a, 0.06);
  for (let i = 0; i < 45; i++) {
    const at = t0 + Math.pow(Math.random(), 1.4) * 1.8;
    const band = filter(a, "bandpass", 800 + Math.random() * 1800, 1.1);
    burst(a, out, clap, at, band, envelope(a, at, 0.5, 0.003, 0.05));
  }
}

// "Oh!": a few voices sliding down, through the formants of an o.
function oh(a, out, t0) {
  for (const [f0, delay] of [[200, 0], [250, 0.04], [165, 0.07], [300, 0.1]]) {
    const at = t0 + delay;
    const osc = a.createOscillator();
    osc.type = "sawtooth";
    osc.frequency.setValueAtTime(f0 * 1.2, at);
    osc.frequency.exponentialRampToValueAtTime(f0 * 0.8, at + 0.8);
    const g = envelope(a, at, 0.12, 0.08, 0.9);
    for (const [freq, q] of [[450, 5], [800, 7]]) osc.connect(filter(a, "bandpass", freq, q)).connect(g);
    g.connect(out);
    osc.start(at);
    osc.stop(at + 0.95);
  }
}

// A drum: falling low notes with a slap, in a small rhythm.
function drum(a, out, t0) {
  const slap = noise(a, 0.05);
  for (const [delay, pitch] of [[0, 150], [0.2, 150], [0.4, 210], [0.55, 210], [0.7, 120]]) {
    const at = t0 + delay;
    const osc = a.createOscillator();
    osc.type = "sine";
    osc.frequency.setValueAtTime(pitch, at);
    osc.frequency.exponentialRampToValueAtTime(pitch * 0.45, at + 0.18);
    const g = envelope(a, at, 0.8, 0.005, 0.35);
    osc.connect(g).connect(out);
    osc.start(at);
    osc.stop(at + 0.4);
    burst(a, out, slap, at, filter(a, "lowpass", 1800), envelope(a, at, 0.25, 0.002, 0.05));
  }
}

// A song: a short pentatonic tune, sung by a soft voice.
function song(a, out, t0) {
  const tune = [[392, 1], [440, 1], [523, 2], [440, 1], [392, 1], [330, 2], [392, 3]];
  let at = t0;
  for (const [freq, beats] of tune) {
    const length = beats * 0.16;
    const osc = a.createOscillator();
    osc.type = "triangle";
    osc.frequency.setValueAtTime(freq, at);
    const vibrato = a.createOscillator();
    vibrato.frequency.value = 5.5;
    const depth = a.createGain();
    depth.gain.value = freq * 0.012;
    vibrato.connect(depth).connect(osc.frequency);
    const g = envelope(a, at, 0.3, 0.03, length + 0.05);
    osc.connect(g).connect(out);
    for (const node of [osc, vibrato]) {
      node.start(at);
      node.stop(at + length + 0.1);
    }
    at += length;
  }
}

const SOUNDS = { applause, oh, drum, song };

export function hear(kind) {
  if (!settings.sound || !SOUNDS[kind]) return;
  try {
    const a = audio();
    const out = a.createGain();
    out.gain.value = 0.6;
    out.connect(a.destination);
    SOUNDS[kind](a, out, a.currentTime + 0.02);
  } catch (e) {
    // No audio here: the reaction is seen all the same.
  }
}

// ------------------------------------------------------------ sending --

async function send(kind) {
  const g = session.game;
  if (!g) return;
  try {
    await api("POST", `/api/games/${g.id}/react`, { kind });
  } catch (e) {
    if (e.status === 429) toast(() => t("react_wait"));
    else showError(e);
  }
}

function onReaction(r) {
  if (!KINDS.includes(r.kind)) return;
  pop(r);
  hear(r.kind);
}

export function render() {
  const g = session.game;
  $("#reactions").hidden = !g || g.mode !== "online";
}

export function wire() {
  onLive("reaction", onReaction);
  for (const b of document.querySelectorAll("#reactions [data-reaction]")) b.onclick = () => send(b.dataset.reaction);
}
