// What a screen reader is told of the game shown: each move in words as
// it is played ("North plays d: 4 seeds sown, takes 2 from your B and 3
// from your C; 12 to 9."), in a live region, and the answers to commands
// in the manner of lichess's blind mode: the board, the scores, the
// clocks, the last move, whose turn, the holes that can be played. They
// are typed in the command field under the board (a letter a-f plays
// that hole) or pressed as keys on the play view.

import { getLang, t } from "./i18n.js";
import { holeLetter, letterHole, sideName } from "./words.js";

const $ = (sel) => document.querySelector(sel);

// Says `text`: a new line of the log under the board (a live region,
// whose additions screen readers read; `where`: another board's), the
// last one shown, the last twenty kept to be read again.
export function say(text, where = "#said") {
  const log = $(where);
  const line = document.createElement("p");
  line.textContent = text;
  // Said in the page's language: lines kept from before a change of
  // language are read in theirs.
  line.lang = getLang();
  log.append(line);
  while (log.children.length > 20) log.firstElementChild.remove();
}

// Empties the log `where`: another game is shown, of which nothing was
// said yet.
export function unsay(where = "#said") {
  $(where).textContent = "";
}

// "2 from your B and 3 from your C", the language's way.
function list(items) {
  return new Intl.ListFormat(getLang() === "fr" ? "fr" : "en", { type: "conjunction" }).format(items);
}

// A hole as the person hears it in a move: "your B", "North's d" (`tu`:
// "" or "_tu", the learning views' familiar French).
function holeRef(hole, you, tu = "") {
  const owner = hole < 6 ? "S" : "N";
  return owner === you ? t("said_your_hole" + tu, holeLetter(hole)) : t("said_side_hole", sideName(owner), holeLetter(hole));
}

// Ply `p` of a game (`move`, `side`, `before`, `stores_before`, `sown`,
// `captures`) in words, seen by `you` (the side the person plays, or
// null), with the stores after it, the mover's first. `familiar`: said
// to a learner (lessons, puzzles, mistakes), "tu" in French as those
// views say it ("Tu joues E", "tu prends 2"); the game view says "vous".
export function moveWords(p, you, noCount = false, familiar = false) {
  const tu = familiar ? "_tu" : "";
  const board = p.before.slice();
  board[letterHole(p.move)] = 0;
  for (const h of p.sown) board[h]++;
  const head = p.side === you ? t("said_you_play" + tu, p.move) : t("said_side_plays", sideName(p.side), p.move);
  if (noCount) return t("said_move_nocount", head);
  let body = t("said_sown", p.sown.length);
  if (p.captures.length) {
    const takes = list(p.captures.map((h) => t("said_from", board[h], holeRef(h, you, tu))));
    body += ", " + t(p.side === you ? "said_take_you" + tu : "said_takes", takes);
  }
  const i = p.side === "S" ? 0 : 1;
  const stores = p.stores_before.slice();
  stores[i] += p.captures.reduce((sum, h) => sum + board[h], 0);
  return t("said_move", head, body, t("said_score", stores[i], stores[1 - i]));
}

// The position in words, the person's row first: "Your row: A 4, B 4,
// …; your store: 0. North's row: a 4, …; store: 0."
export function boardWords(shown, you, noCount = false) {
  const first = you === "N" ? "N" : "S";
  const out = [];
  for (const side of [first, first === "S" ? "N" : "S"]) {
    const base = side === "S" ? 0 : 6;
    const holes = [];
    for (let h = base; h < base + 6; h++) holes.push(noCount ? holeLetter(h) : `${holeLetter(h)} ${shown.board[h]}`);
    const store = shown.stores[side === "S" ? 0 : 1];
    const row = holes.join(", ");
    if (side === you) out.push(noCount ? t("said_row_yours_nocount", row) : t("said_row_yours", row, store));
    else out.push(noCount ? t("said_row_of_nocount", sideName(side), row) : t("said_row_of", sideName(side), row, store));
  }
  return out.join(" ");
}

// The commands: each name (first the key) in both languages, to the
// words it asks for (`words` gives them, by name).
const COMMANDS = [
  ["board", ["p", "board", "plateau", "position"]],
  ["scores", ["s", "score", "scores"]],
  ["clocks", ["t", "clock", "clocks", "time", "pendule", "pendules", "temps"]],
  ["last", ["l", "last", "dernier"]],
  ["turn", ["w", "q", "turn", "whose", "trait", "tour"]],
  ["legal", ["m", "moves", "legal", "coups"]],
  ["help", ["h", "?", "help", "aide"]],
];

// The command named by `text` (a key or a word, either language), or null.
export function commandOf(text) {
  const word = String(text).trim().toLowerCase();
  for (const [name, words] of COMMANDS) if (words.includes(word)) return name;
  return null;
}

// The list of commands, said by "help".
export function helpWords() {
  return t("said_help");
}
