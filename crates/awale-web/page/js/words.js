// The game's things said in words, in the page's language: sides, holes,
// levels, scores (in seeds, and whose view), rules, results, and the
// server's refusals (from their codes and facts).

import { getLang, t, has, typography } from "./i18n.js";
import { wordedName } from "./people.js";

// A rating's change, written one way on every page: "+12", "−12" (a
// true minus, not a hyphen), "+0".
export function ratingChange(n) {
  return n < 0 ? `\u2212${-n}` : `+${n}`;
}

// The speeds of games, fastest first (the server's `Speed`, its words
// `speed_KEY`): the leaderboards' tabs, the filters' choices.
export const SPEEDS = ["ultra_bullet", "bullet", "blitz", "rapid", "classical", "correspondence"];

// Fills the <select> `select` with the speeds to filter by: every speed
// (the value ""), then each. One list for the player page's filter and
// the explorer's; its words follow the language (data-i18n).
export function fillSpeeds(select) {
  select.textContent = "";
  for (const [value, key] of [["", "filter_all_speeds"], ...SPEEDS.map((s) => [s, "speed_" + s])]) {
    const option = document.createElement("option");
    option.value = value;
    option.dataset.i18n = key;
    option.textContent = t(key);
    select.append(option);
  }
}

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

// The levels come from the server as data (number, key, Elo); their
// names and descriptions are the catalogs' (`level_KEY`,
// `level_KEY_about`).
export function levelName(info, n) {
  const l = info && info.levels.find((x) => x.number === n);
  if (!l || !has("level_" + l.key)) return t("level_n", n);
  return t("level_" + l.key);
}

export function levelDescription(l) {
  const text = has(`level_${l.key}_about`) ? t(`level_${l.key}_about`) : "";
  return l.elo ? `${text} (${t("level_elo", l.elo)})` : text;
}

// Why a hint's move is good, from the server's reason (`{kind, seeds,
// holes, moves, margin, move}`).
export function whyWords(why) {
  let key = "hint_why_" + why.kind;
  if (why.kind === "captures" && why.holes > 1) key += "_chain";
  if (why.kind === "database_result") key += why.margin > 0 ? "_win" : why.margin < 0 ? "_loss" : "_draw";
  if (!has(key)) return "";
  const f = { ...why, count: why.seeds ?? why.moves ?? Math.abs(why.margin ?? 0) };
  if (why.margin !== undefined) f.margin = Math.abs(why.margin);
  return t(key, f);
}

// Whether a level plays with the endgame databases (the server says so).
export function levelUsesDatabases(info, n) {
  const l = info && info.levels.find((x) => x.number === n);
  return !!(l && l.uses_databases);
}

// The winner's own moves to the end of a move's forced result: `plies`
// counts both players' turns after the move, which is the mover's first.
// 0 when the move loses at once.
function winnersMoves(forced) {
  return forced.wins ? 1 + Math.floor(forced.plies / 2) : Math.ceil(forced.plies / 2);
}

// A move's engine score (the view of `side`, to move: {cp, decided,
// forced: {wins, plies}}) in words: who leads, by how many seeds; a
// decided score (a forced result, or the endgame databases') is the result
// at the end. Who wins is `forced.wins`: a loss at ply 0 has 0 plies as a
// win has.
export function scoreWords(score, side) {
  if (!score) return "";
  if (score.forced) {
    const winner = score.forced.wins ? side : other(side);
    const moves = winnersMoves(score.forced);
    return moves === 0 ? t("wins_now", sideName(winner)) : t("wins_in", sideName(winner), moves);
  }
  if (score.decided) return marginWords(Math.round(score.cp / 100), side);
  const seeds = Math.round(Math.abs(score.cp) / 10) / 10;
  if (seeds < 0.05) return t("even");
  const leader = score.cp > 0 ? side : other(side);
  return t("leads_by", sideName(leader), seeds);
}

// A review's counts, each number with its own plural: "2 plies reviewed
// (1 move), 0 mistakes."
export function reviewCounts(plies, moves, mistakes) {
  return t("review_counts", t("plies_reviewed", plies), t("moves_n", moves), t("mistakes_n", mistakes));
}

// What a reviewed mistake cost: the result it gave up (`gave_up`), and
// the seeds it lost where they can be counted (`loss`, hundredths; null
// where a forced result's margin is unknown), then whether that is exact
// (`exact`: the databases or a forced result decide both the move and the
// best one) or the engine's estimate: said in the text itself, so a
// screen reader reads it with the cost. A review stored before results
// were told apart has `loss` only, one stored before losses were told
// exact has no `exact`: nothing is said of it then.
export function costWords(row) {
  const parts = [];
  if (row.gave_up) parts.push(t(`gave_up_${row.gave_up}`));
  const seeds = row.loss === null || row.loss === undefined ? null : Math.round(row.loss / 10) / 10;
  if (seeds !== null && (seeds > 0 || !row.gave_up)) parts.push(t("cost_seeds", seeds));
  const cost = parts.join(", ");
  if (!cost || typeof row.exact !== "boolean") return cost;
  return t(row.exact ? "cost_exact" : "cost_estimated", cost);
}

// The review plot's name: the game's real final lead for South (its
// stores at the end, `end` as the server gives it), not the engine's last
// score.
export function plotLabel(end) {
  if (!end || !end.stores) return t("plot_help");
  return t("plot_label", end.stores[0] - end.stores[1]);
}

// A final margin (side `side`'s store minus the other's at the end) in
// words: who wins by how many seeds, or a draw.
function marginWords(margin, side) {
  if (margin === 0) return t("draw_proven");
  return t("wins_by", sideName(margin > 0 ? side : other(side)), Math.abs(margin));
}

// The same in short, for a table: "South +2", "draw".
function marginShort(margin, side) {
  if (margin === 0) return t("result_draw_short");
  return t("result_short", sideName(margin > 0 ? side : other(side)), Math.abs(margin));
}

// Bounds on a final margin in words: the result, or the range of them.
function marginRange(lower, upper, side) {
  return lower === upper ? marginWords(lower, side) : t("result_range", marginShort(lower, side), marginShort(upper, side));
}

// What the endgame databases say, in the game (`o`: bounds on the seeds
// side `side`, to move, will still capture minus the other's; `fresh`: the
// bounds from a fresh start, when a repetition of an earlier position
// widens them), as the result at the end: `lead` is `side`'s store minus
// the other's now (for a move, before it).
export function oracleWords(o, side, lead = 0) {
  const here = marginRange(lead + o.lower, lead + o.upper, side);
  if (!o.fresh) return t("oracle_result", here);
  const fresh = marginRange(lead + o.fresh[0], lead + o.fresh[1], side);
  return t("oracle_repetition", fresh, marginShort(lead + o.lower, side), marginShort(lead + o.upper, side));
}

// The database's value in short, for a table: the result, or the range of
// results a repetition leaves open.
export function oracleShort(o, side, lead = 0) {
  const lower = lead + o.lower;
  const upper = lead + o.upper;
  if (lower === upper) return marginShort(lower, side);
  return t("result_range", marginShort(lower, side), marginShort(upper, side));
}

// `side`'s store minus the other's in a position (`stores`: South's, North's).
export function leadOf(stores, side) {
  return side === "S" ? stores[0] - stores[1] : stores[1] - stores[0];
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
  return seat && seat.name ? wordedName(seat.name) : null;
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
  // An online game in one's own list: from one's own side (the server
  // says which, `you`).
  else if (summary.mode === "online" && summary.you) head = winner === summary.you ? t("short_won_you") : t("short_lost_you");
  else head = t("short_won_side", sideName(winner));
  // A called-off game's head says it all: "called off", not "called off
  // (called off)".
  const said = summary.reason === "aborted";
  const why = !said && summary.reason && has("short_" + summary.reason) ? ` (${t("short_" + summary.reason)})` : "";
  return head + why;
}

// The rule a refused move breaks (the server's and the study's `reason`).
const MOVE_RULES = {
  grand_slam: "why_grand_slam",
  does_not_feed: "why_does_not_feed",
  empty_hole: "why_empty",
  not_your_hole: "why_not_yours",
  game_over: "err_game_over",
};

export function moveRuleWords(rule) {
  return t(MOVE_RULES[rule] || "err_illegal_move");
}

// A server's refusal or error in words, from its code, reason and facts
// (never its English message): `err_CODE_REASON`, else `err_CODE`.
export function errorWords(e) {
  const fields = e.fields || {};
  if (e.code === "illegal_move") return moveRuleWords(e.reason);
  if (e.code === "bad_record") return t("err_bad_record", recordWords(e.reason, fields));
  if (e.reason && has(`err_${e.code}_${e.reason}`)) return t(`err_${e.code}_${e.reason}`, fields);
  if (has("err_" + e.code)) return t("err_" + e.code, fields);
  return t("err_other", e.code);
}

// What is wrong in a record file, from the server's reason and facts
// (`record_REASON`).
function recordWords(reason, f) {
  const game = f.game ? t("record_game", f.game) : "";
  switch (reason) {
    case "syntax":
      return game + t("record_syntax", f.line, f.column, t("syntax_" + f.syntax, f));
    case "illegal":
      return game + t("record_illegal", f.ply, f.move, moveRuleWords(f.rule));
    case "wrong_capture":
      return game + t("record_wrong_capture", f.ply, f.move, f.written, f.actual);
    case "wrong_result":
      return game + t(f.played === "*" ? "record_wrong_result_unfinished" : "record_wrong_result", f);
    default:
      return game + t(has("record_" + reason) ? "record_" + reason : "record_other", f);
  }
}
