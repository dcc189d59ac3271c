// The page's one way to speak: every word a player reads comes from the
// catalogs text-fr.json and text-en.json (the same keys), by key, through
// t(). Plurals follow each language's rules; French gets its non-breaking
// spaces here, once. The lessons say "tu" to the player, the rest "vous".

// Fetched, not imported as JSON modules: import attributes are too new for
// the older phones many players have (Chrome 123, Safari 17.2), top-level
// await is not (Chrome 89, Safari 15). The page preloads both.
async function catalog(name) {
  const answer = await fetch(new URL(name, import.meta.url));
  if (!answer.ok) throw new Error(`${name}: ${answer.status}`);
  return answer.json();
}
const [FR, EN] = await Promise.all([catalog("./text-fr.json"), catalog("./text-en.json")]);

const TABLES = { fr: FR, en: EN };
const changes = [];
let lang = chooseLang();

// The language chosen in the page, else the first of French and English in
// the browser's preferences, else English.
function chooseLang() {
  const saved = localStorage.getItem("awale.lang");
  if (saved && TABLES[saved]) return saved;
  for (const l of navigator.languages || [navigator.language || "en"]) {
    if (/^fr/i.test(l)) return "fr";
    if (/^en/i.test(l)) return "en";
  }
  return "en";
}

export function getLang() {
  return lang;
}

export function setLang(next) {
  lang = TABLES[next] ? next : "en";
  localStorage.setItem("awale.lang", lang);
  translatePage();
  for (const f of changes) f();
}

// Calls `f` after each change of language.
export function onLangChange(f) {
  changes.push(f);
}

// The text of `key` with {0}, {1}… replaced by `args`, and {name} by the
// field `name` of an object among them (the facts of a server's error). An
// entry may be an object of plural forms ({one, other}): the first number
// in `args` chooses (or the object's `count`), so an entry counts one
// thing: a text with two counts is made of an entry for each (words.js
// `reviewCounts`). Numbers are written the language's way (1,5 in
// French).
export function t(key, ...args) {
  let entry = TABLES[lang][key] ?? EN[key];
  if (entry === undefined) return key;
  const named = args.find((a) => a !== null && typeof a === "object") || {};
  if (typeof entry === "object") {
    const n = args.find((a) => typeof a === "number") ?? named.count;
    entry = entry[plural(n ?? 0)] ?? entry.other;
  }
  const text = entry.replace(/\{(\w+)\}/g, (_, i) => arg(/^\d$/.test(i) ? args[+i] : named[i]));
  return typography(text);
}

// The number of a guest's default nickname in either language ("Guest
// 4821", "Invité 4821": a guest who chose none sits down under the words
// of their own page), else null.
export function guestNumber(name) {
  for (const table of [FR, EN]) {
    const [before, after = ""] = typography(table.guest_name).split("{0}");
    if (name.length <= before.length + after.length || !name.startsWith(before) || !name.endsWith(after)) continue;
    const n = name.slice(before.length, name.length - after.length);
    if (/^\d{4}$/.test(n)) return Number(n);
  }
  return null;
}

// Whether `key` has a text.
// A player's text (a nickname) inside a sentence, isolated from it: its
// direction cannot turn the words around it (U+2068 ... U+2069, what
// <bdi> does for an element).
export function isolate(text) {
  return `\u2068${text}\u2069`;
}

export function has(key) {
  return key in TABLES[lang] || key in EN;
}

function plural(n) {
  return new Intl.PluralRules(lang).select(n);
}

function arg(a) {
  if (a === undefined || a === null) return "";
  if (typeof a === "number") return number(a);
  return String(a);
}

// The locale of the page's language, for dates and numbers (never the
// browser's own: a French page writes French times).
export function locale() {
  return lang === "fr" ? "fr-FR" : "en-GB";
}

// A number the language's way: at most `digits` decimals.
export function number(n, digits = 2) {
  return new Intl.NumberFormat(locale(), {
    maximumFractionDigits: digits,
    useGrouping: Math.abs(n) >= 10000,
  }).format(n);
}

// French wants a non-breaking space before : and a narrow one before ; ! ?
// (and inside « »). Also applied to French text from the server.
export function typography(text) {
  if (lang !== "fr") return text;
  return text
    .replace(/ :/g, "\u00a0:")
    .replace(/ ([;!?»])/g, "\u202f$1")
    .replace(/« /g, "«\u202f");
}

// Fills `el` with `text` where *words* are bold and `words` are code,
// without ever reading the text as HTML.
export function rich(el, text) {
  el.textContent = "";
  const parts = text.split(/(\*[^*]+\*|`[^`]+`)/);
  for (const p of parts) {
    if (p.startsWith("*") && p.endsWith("*") && p.length > 2) {
      const b = document.createElement("b");
      b.textContent = p.slice(1, -1);
      el.append(b);
    } else if (p.startsWith("`") && p.endsWith("`") && p.length > 2) {
      const c = document.createElement("code");
      c.textContent = p.slice(1, -1);
      el.append(c);
    } else if (p) {
      el.append(p);
    }
  }
}

// The words of the page's markup: data-i18n (text), data-i18n-rich (text
// with *bold*), data-i18n-title and data-i18n-label (aria-label).
export function translatePage(root = document) {
  document.documentElement.lang = lang;
  for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll("[data-i18n-rich]")) rich(e, t(e.dataset.i18nRich));
  for (const e of root.querySelectorAll("[data-i18n-title]")) e.title = t(e.dataset.i18nTitle);
  for (const e of root.querySelectorAll("[data-i18n-label]")) e.setAttribute("aria-label", t(e.dataset.i18nLabel));
}
