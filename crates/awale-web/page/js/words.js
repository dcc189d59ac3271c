// The game's things said in words, in the page's language: sides, holes,
// levels, scores (in seeds, and whose view), rules, results, and the
// server's refusals.

import { getLang, t, has, typography } from "./i18n.js";

export function sideName(side) {
  return side === "S" ? t("south") : t("north");
}

export function other(side) {
  return side === "S" ? "N" : "S";
}

// The letter of hole 0..11: A..F for South, a..f for North.
export function holeLetter(hole) {
  return String.fromCharCode(hole < 6 ? 65 + hole : 97 + hole - 6);
}

export function letterHole(letter) {
  const c = letter.charCodeAt(0);
  return c >= 97 ? c - 97 + 6 : c - 65;
}

// The levels' names and descriptions come from the server in both
// languages.
export function levelName(info, n) {
  const l = info && info.levels.find((x) => x.number === n);
  if (!l) return t("level_n", n);
  return getLang() === "fr" ? l.name_fr : l.name_en;
}

export function levelDescription(l) {
  const text = getLang() === "fr" ? l.description_fr : l.description_en;
  return typography(l.elo ? `${text} (${t("level_elo", l.elo)})` : text);
}

// Whether a level plays with the endgame databases (the server says so;
// older servers: the strongest level).
export function levelUsesDatabases(info, n) {
  const l = info && info.levels.find((x) => x.number === n);
  if (!l) return false;
  if (typeof l.oracle === "boolean") return l.oracle;
  return n === Math.max(...info.levels.map((x) => x.number));
}

// A player's moves to the end of a forced result: `plies` counts both
// players' turns, the mover's own moves are every other one.
function ownMoves(plies) {
  return Math.max(1, Math.ceil(Math.abs(plies) / 2));
}

// An engine score (side to move's view of `side`: {cp, decided,
// plies_to_end}) in words: who leads, by how many seeds.
export function scoreWords(score, side) {
  if (!score) return "";
  if (score.plies_to_end !== null && score.plies_to_end !== undefined) {
    const winner = score.plies_to_end >= 0 ? side : other(side);
    return t("wins_in", sideName(winner), ownMoves(score.plies_to_end));
  }
  const seeds = Math.round(Math.abs(score.cp) / 10) / 10;
  if (seeds < 0.05) return score.decided ? t("even_proven") : t("even");
  const leader = score.cp > 0 ? side : other(side);
  return t(score.decided ? "leads_by_proven" : "leads_by", sideName(leader), seeds);
}

// What the endgame databases say (side to move's view of `side`: seeds
// it will still capture minus the opponent's).
export function oracleWords(o, side) {
  if (o.lower === o.upper) {
    if (o.lower === 0) return t("oracle_even");
    const leader = o.lower > 0 ? side : other(side);
    return t("oracle_exact", sideName(leader), Math.abs(o.lower));
  }
  return t("oracle_range", sideName(side), o.lower, o.upper);
}

// The presets' options, as the server says them (/api/info's
// `preset_rules`, in the game view's `rules` shape): the rules live in the
// server only.
export const PRESETS = {};

export function setPresets(presets) {
  Object.assign(PRESETS, presets || {});
}

// The preset these rules are, if they are one exactly.
export function presetOf(rules) {
  for (const [name, p] of Object.entries(PRESETS)) {
    if (Object.keys(p).every((k) => p[k] === rules[k])) return name;
  }
  return null;
}

// The rules in words: the preset's name when they are one, otherwise the
// closest preset and what differs. `full` lists every option.
// Before /api/info has said what the presets are (a first visit, a slow
// network), the rules' name alone: the page says them again when it comes.
export function rulesWords(rules, full = false) {
  const exact = presetOf(rules);
  const base = exact || String(rules.name || "awale").split(",")[0];
  const baseOptions = PRESETS[base] || PRESETS.awale;
  const out = [];
  for (const k of ["grand_slam", "repetition", "target", "direction", "first"]) {
    if (full || (baseOptions && rules[k] !== baseOptions[k])) out.push(optionWords(k, rules[k]));
  }
  const known = PRESETS[base] || (!baseOptions && has("preset_" + base));
  const title = t("preset_" + (known ? base : "awale"));
  if (!out.length) return title;
  return t(exact ? "rules_full" : "rules_changed", title, out.join(" · "));
}

export function optionWords(key, value) {
  switch (key) {
    case "grand_slam":
      return t(value === "no_capture" ? "w_gs_no_capture" : "w_gs_forbidden");
    case "repetition":
      return t(value === "own_row" ? "w_rep_own_row" : "w_rep_nobody");
    case "target":
      return value ? t("w_target", value) : t("w_no_target");
    case "direction":
      return t(value === "clockwise" ? "w_cw" : "w_ccw");
    case "first":
      return value === "random" ? t("w_first_random") : t("w_first", sideName(value === "north" ? "N" : "S"));
    default:
      return "";
  }
}

// Stores with their unit: "South 25 seeds – North 23 seeds".
export function storesWords(stores) {
  return t("stores_pair", t("side_seeds", sideName("S"), stores[0]), t("side_seeds", sideName("N"), stores[1]));
}

// Who won, seen by the person (against the computer) or by side.
// `end`: {winner, reason}; `game`: {mode, human}.
export function resultWords(game, end, you = null) {
  const w = end.winner;
  if (end.reason === "aborted") return t("aborted");
  if (!w) return t("draw");
  if (you) return w === you ? t("won_you") : t("lost_you");
  const name = seatName(game, w);
  return name ? t("won_player", sideName(w), name) : t("won_side", sideName(w));
}

// The nickname of `side`'s player in an online game, else null.
export function seatName(game, side) {
  const seat = game && game.mode === "online" && game.seats && game.seats[side === "S" ? 0 : 1];
  return seat ? seat.name : null;
}

// Why the game ended, in a sentence naming who when it matters.
export function reasonWords(game, end, me = null) {
  const loser = end.loser_by || (end.winner ? other(end.winner) : null);
  const you = !!me && loser === me;
  const computer = game.mode === "computer" && loser && loser !== game.human;
  for (const reason of ["time", "resignation", "abandoned"]) {
    if (end.reason !== reason || !loser) continue;
    if (you) return t(`reason_${reason}_you`);
    if (computer) return t(`reason_${reason}_computer`);
    const name = seatName(game, loser);
    if (name) return t(`reason_${reason}_player`, sideName(loser), name);
    return t(`reason_${reason}_side`, sideName(loser));
  }
  return has("reason_" + end.reason) ? t("reason_" + end.reason) : end.reason;
}

// A stored game's result, short, in words: "You won (time ran out)".
export function shortResult(summary) {
  if (summary.result === "*" && summary.reason !== "aborted") return t("in_progress");
  const winner = summary.result === "1-0" ? "S" : summary.result === "0-1" ? "N" : null;
  let head;
  if (summary.reason === "aborted") head = t("short_aborted");
  else if (!winner) head = t("short_draw");
  else if (summary.mode === "computer") head = winner === summary.human ? t("short_won_you") : t("short_lost_you");
  else head = t("short_won_side", sideName(winner));
  const why = summary.reason && has("short_" + summary.reason) ? ` (${t("short_" + summary.reason)})` : "";
  return head + why;
}

// The server's reasons for refusing a move or a file are in English: said
// again in the page's language where they are known.
const REFUSALS = [
  [/would capture all the opponent's seeds/, () => t("why_grand_slam")],
  [/does not feed them/, () => t("why_does_not_feed")],
  [/the hole is empty/, () => t("why_empty")],
  [/that hole belongs to/, () => t("why_not_yours")],
  [/^the game is over$/, () => t("err_game_over")],
];

export function explainRefusal(message) {
  for (const [re, f] of REFUSALS) if (re.test(message)) return f();
  return message;
}

// A bad game record's error (`line 3, column 5: ...`, `ply 7 (F): ...`,
// `ply 4: the record says F+2, but F captures 3`) in the page's language.
export function explainRecordError(message) {
  let m = /^(?:game (\d+): )?(.*)$/s.exec(message);
  const game = m[1] ? t("record_game", Number(m[1])) : "";
  let rest = m[2];
  if ((m = /^line (\d+), column (\d+): (.*)$/s.exec(rest))) {
    rest = t("record_at", Number(m[1]), Number(m[2]), syntaxWords(m[3]));
  } else if ((m = /^ply (\d+) \((\w)\): (.*)$/s.exec(rest))) {
    rest = t("record_ply", Number(m[1]), m[2], explainRefusal(m[3]));
  } else if ((m = /^ply (\d+): the record says (\w)\+(\d+), but \w captures (\d+)$/.exec(rest))) {
    rest = t("record_capture", Number(m[1]), m[2], Number(m[3]), Number(m[4]));
  } else if (/holds no game record/.test(rest)) {
    rest = t("record_empty");
  } else if ((m = /^FEN tag: (.*)$/s.exec(rest))) {
    rest = t("record_fen", m[1]);
  }
  return game + rest;
}

// The commonest mistakes of syntax in a record; others stay as the server
// wrote them.
const SYNTAX = [
  [/^unexpected `(.+)` \(moves are A-F for South, a-f for North\)$/s, "syntax_unexpected"],
  [/^`(.+)` is neither a move number nor a result$/s, "syntax_not_number"],
  [/^`(.+)` after move (\w): moves are separated by spaces$/s, "syntax_spaces"],
  [/^tag (\w+) is not (?:finished|closed by `\]`)$/s, "syntax_tag_open"],
];

function syntaxWords(message) {
  for (const [re, key] of SYNTAX) {
    const m = re.exec(message);
    if (m) return t(key, m[1], m[2]);
  }
  return message;
}
