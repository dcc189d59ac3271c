// Sounds made in the page (Web Audio): a seed dropped, a capture.

import { settings } from "./settings.js";

let audio = null;

export function sound(kind) {
  if (!settings.sound) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const now = audio.currentTime;
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    if (kind === "seed") {
      osc.type = "triangle";
      osc.frequency.setValueAtTime(520 + Math.random() * 180, now);
      osc.frequency.exponentialRampToValueAtTime(240, now + 0.07);
      gain.gain.setValueAtTime(0.18, now);
      gain.gain.exponentialRampToValueAtTime(0.001, now + 0.09);
    } else {
      osc.type = "sine";
      osc.frequency.setValueAtTime(330, now);
      osc.frequency.exponentialRampToValueAtTime(660, now + 0.12);
      gain.gain.setValueAtTime(0.22, now);
      gain.gain.exponentialRampToValueAtTime(0.001, now + 0.25);
    }
    osc.connect(gain).connect(audio.destination);
    osc.start(now);
    osc.stop(now + 0.3);
  } catch (e) {
    // No audio here: play on silently.
  }
}
