// What the player chose for this browser, kept in localStorage: the
// sowing's speed, the sounds, the high-contrast theme and playing without
// counting (the language is i18n.js's).

// What the system asks for, followed until the player chooses here.
export const prefersReducedMotion = matchMedia("(prefers-reduced-motion: reduce)").matches;
const prefersContrast = matchMedia("(prefers-contrast: more), (forced-colors: active)");

export const settings = {
  // No sowing animation when the system asks for less motion.
  speed: readNumber("awale.speed", prefersReducedMotion ? 0 : 170),
  // The high-contrast theme: chosen here, else as the system asks.
  contrast: localStorage.getItem("awale.contrast") ? localStorage.getItem("awale.contrast") === "on" : prefersContrast.matches,
  sound: localStorage.getItem("awale.sound") !== "off",
  // No number on the board during a game, only seeds: estimate, don't
  // count (the result shows them).
  noCount: localStorage.getItem("awale.nocount") === "on",
};

// Puts the theme chosen on the page; the system's wish is followed while
// the player has chosen nothing.
export function applyContrast() {
  document.documentElement.classList.toggle("contrast", settings.contrast);
}

prefersContrast.addEventListener("change", (e) => {
  if (localStorage.getItem("awale.contrast")) return;
  settings.contrast = e.matches;
  applyContrast();
});

export function setContrast(on) {
  settings.contrast = on;
  localStorage.setItem("awale.contrast", on ? "on" : "off");
  applyContrast();
}

export function setNoCount(on) {
  settings.noCount = on;
  localStorage.setItem("awale.nocount", on ? "on" : "off");
}

function readNumber(key, fallback) {
  const v = Number(localStorage.getItem(key));
  return localStorage.getItem(key) !== null && Number.isFinite(v) && v >= 0 ? v : fallback;
}

export function setSpeed(ms) {
  settings.speed = ms;
  localStorage.setItem("awale.speed", String(ms));
}

export function setSound(on) {
  settings.sound = on;
  localStorage.setItem("awale.sound", on ? "on" : "off");
}

// A JSON value kept in localStorage, or `fallback` when missing or broken.
export function loadJson(key, fallback = null) {
  try {
    const v = JSON.parse(localStorage.getItem(key) || "null");
    return v ?? fallback;
  } catch (e) {
    return fallback;
  }
}

export function saveJson(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (e) {
    // Storage full or refused: the page works without it.
  }
}
