// What the player chose for this browser, kept in localStorage: the
// sowing's speed, the sounds and playing without counting (the language
// is i18n.js's).

export const settings = {
  speed: readNumber("awale.speed", 170),
  sound: localStorage.getItem("awale.sound") !== "off",
  // No number on the board during a game, only seeds: estimate, don't
  // count (the result shows them).
  noCount: localStorage.getItem("awale.nocount") === "on",
};

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
