// Awalé in the browser: draws the board (SVG), animates the sowing, talks
// to the server's JSON API and listens to its live events. The server holds
// the truth (rules, legality, stored games); this script shows and asks.
"use strict";

// ---------------------------------------------------------------- texts --

const TEXT = {
  fr: {
    new_game: "Nouvelle partie", play_tab: "Partie", games: "Parties", rules: "Règles",
    sound: "Sons", settings: "Réglages", undo: "Annuler", redo: "Rejouer", hint: "Conseil",
    resign: "Abandonner", flip: "Tourner le plateau", replay: "Revoir", review: "Analyser",
    export: "Exporter", moves: "Coups", back_to_game: "Retour à la partie",
    review_title: "Analyse de la partie",
    plot_help: "Au-dessus de zéro, Sud mène ; en dessous, Nord. Les points rouges sont des erreurs.",
    import: "Importer un fichier", paste_record: "Coller une partie", import_go: "Importer",
    opponent: "Adversaire", vs_computer: "L'ordinateur", two_players: "À deux sur cet écran",
    level: "Niveau", your_side: "Vous jouez", south: "Sud", north: "Nord", random: "Au hasard",
    rules_preset: "Règles", preset_awale: "Awalé commun", preset_abapa: "Abapa (tournoi)",
    options: "Options des règles", grand_slam: "Grand chelem", gs_forbidden: "interdit",
    gs_no_capture: "permis, ne prend rien", repetition: "Répétition",
    rep_nobody: "graines restantes à personne", rep_own_row: "chacun prend sa rangée",
    target: "But (graines)", target_off: "aucun", direction: "Sens du semis",
    ccw: "inverse des aiguilles d'une montre", cw: "des aiguilles d'une montre",
    first: "Premier joueur", clock: "Pendule", minutes: "min", seconds: "s par coup",
    cancel: "Annuler", start: "Commencer", animation: "Animation du semis", anim_off: "aucune",
    anim_slow: "lente", anim_normal: "normale", anim_fast: "rapide", close: "Fermer",
    you: "Vous", computer: "Ordinateur", level_n: "niveau {0}",
    your_turn: "À vous de jouer", turn_of: "Au tour de {0}", thinking: "L'ordinateur réfléchit…",
    thinking_depth: "L'ordinateur réfléchit… profondeur {0}",
    won_you: "Vous avez gagné !", lost_you: "Vous avez perdu.", draw: "Partie nulle.",
    won_side: "{0} gagne !", score: "{0} à {1}",
    reason_starvation: "Plus aucun coup possible (une rangée vide qu'on ne peut pas nourrir) : chacun prend les graines de sa rangée.",
    reason_repetition: "La même situation s'est reproduite.",
    reason_target: "Le but est atteint.",
    reason_resignation: "Abandon.",
    reason_empty_board: "Il n'y a plus de graines sur le plateau.",
    reason_time: "Temps écoulé.",
    replaying: "Relecture : coup {0} sur {1}", start_pos: "position de départ",
    hint_best: "Conseil : jouez <b>{0}</b> ({1}).", hint_oracle: "Base de finales : {0}.",
    review_running: "Analyse en cours…", review_done: "{0} coups analysés, {1} erreurs.",
    col_move: "Coup", col_played: "Joué", col_better: "Meilleur", col_loss: "Perte",
    no_mistake: "Aucune erreur trouvée.",
    col_date: "Date", col_players: "Joueurs", col_rules: "Règles", col_moves: "Coups",
    col_result: "Résultat", open: "Ouvrir", continue_game: "Continuer", watch: "Revoir",
    no_games: "Aucune partie enregistrée.", two_people: "À deux",
    vs_level: "Contre l'ordinateur ({0})", in_progress: "en cours",
    imported: "{0} partie(s) importée(s).", import_as: "Continuer les parties importées",
    vs_computer_level: "contre l'ordinateur (au niveau de la dernière partie)", bad_file: "Fichier illisible : {0}",
    confirm_resign: "Abandonner la partie ?", seeds: "graines", krou: "krou",
    err_illegal_move: "Ce coup n'est pas permis : {0}", err_not_your_turn: "Ce n'est pas votre tour.",
    err_game_over: "La partie est terminée.", err_stale: "La partie a changé ; elle est rechargée.",
    err_nothing_to_undo: "Rien à annuler.", err_nothing_to_redo: "Rien à rejouer.",
    err_clock_game: "Pas d'annulation dans une partie à la pendule.",
    err_bad_record: "Fichier de partie incorrect : {0}", err_network: "Le serveur ne répond pas.",
    err_other: "Erreur : {0}",
    win_in: "gagne en {0} coups", loss_in: "perd en {0} coups", proven: "{0} (certain)",
    game_n: "Partie n° {0}", rules_label: "Règles : {0}",
    store_of: "grenier de {0}",
    short_starvation: "famine", short_repetition: "répétition", short_target: "but atteint",
    short_resignation: "abandon", short_empty_board: "plateau vide", short_time: "temps",
  },
  en: {
    new_game: "New game", play_tab: "Game", games: "Games", rules: "Rules",
    sound: "Sounds", settings: "Settings", undo: "Undo", redo: "Redo", hint: "Hint",
    resign: "Resign", flip: "Turn the board", replay: "Replay", review: "Review",
    export: "Export", moves: "Moves", back_to_game: "Back to the game",
    review_title: "Game review",
    plot_help: "Above zero South leads; below, North. Red dots are mistakes.",
    import: "Import a file", paste_record: "Paste a game", import_go: "Import",
    opponent: "Opponent", vs_computer: "The computer", two_players: "Two people, one screen",
    level: "Level", your_side: "You play", south: "South", north: "North", random: "Random",
    rules_preset: "Rules", preset_awale: "Common Awalé", preset_abapa: "Abapa (tournament)",
    options: "Rule options", grand_slam: "Grand slam", gs_forbidden: "forbidden",
    gs_no_capture: "allowed, captures nothing", repetition: "Repetition",
    rep_nobody: "seeds left go to nobody", rep_own_row: "each takes their own row",
    target: "Target (seeds)", target_off: "none", direction: "Sowing direction",
    ccw: "counter-clockwise", cw: "clockwise",
    first: "First player", clock: "Clock", minutes: "min", seconds: "s per move",
    cancel: "Cancel", start: "Start", animation: "Sowing animation", anim_off: "off",
    anim_slow: "slow", anim_normal: "normal", anim_fast: "fast", close: "Close",
    you: "You", computer: "Computer", level_n: "level {0}",
    your_turn: "Your move", turn_of: "{0} to move", thinking: "The computer is thinking…",
    thinking_depth: "The computer is thinking… depth {0}",
    won_you: "You won!", lost_you: "You lost.", draw: "Draw.",
    won_side: "{0} wins!", score: "{0} to {1}",
    reason_starvation: "No move was left (an empty row that could not be fed): each player takes the seeds in their own row.",
    reason_repetition: "The same position came back.",
    reason_target: "The target was reached.",
    reason_resignation: "Resignation.",
    reason_empty_board: "No seeds are left on the board.",
    reason_time: "Time ran out.",
    replaying: "Replay: move {0} of {1}", start_pos: "start position",
    hint_best: "Hint: play <b>{0}</b> ({1}).", hint_oracle: "Endgame database: {0}.",
    review_running: "Reviewing…", review_done: "{0} moves reviewed, {1} mistakes.",
    col_move: "Move", col_played: "Played", col_better: "Better", col_loss: "Loss",
    no_mistake: "No mistake found.",
    col_date: "Date", col_players: "Players", col_rules: "Rules", col_moves: "Moves",
    col_result: "Result", open: "Open", continue_game: "Continue", watch: "Replay",
    no_games: "No stored game.", two_people: "Two people",
    vs_level: "Against the computer ({0})", in_progress: "in progress",
    imported: "{0} game(s) imported.", import_as: "Go on with imported games",
    vs_computer_level: "against the computer (at the last game's level)", bad_file: "Cannot read the file: {0}",
    confirm_resign: "Resign the game?", seeds: "seeds", krou: "krou",
    err_illegal_move: "That move is not allowed: {0}", err_not_your_turn: "It is not your turn.",
    err_game_over: "The game is over.", err_stale: "The game changed; reloaded.",
    err_nothing_to_undo: "Nothing to undo.", err_nothing_to_redo: "Nothing to redo.",
    err_clock_game: "No takebacks in a game with a clock.",
    err_bad_record: "Bad game file: {0}", err_network: "The server does not answer.",
    err_other: "Error: {0}",
    win_in: "wins in {0} moves", loss_in: "loses in {0} moves", proven: "{0} (proven)",
    game_n: "Game #{0}", rules_label: "Rules: {0}",
    store_of: "{0}'s store",
    short_starvation: "starvation", short_repetition: "repetition", short_target: "target",
    short_resignation: "resignation", short_empty_board: "empty board", short_time: "time",
  },
};

const RULES_PAGE = {
  fr: `
<h2>Les règles de l'awalé</h2>
<p>Deux joueurs, <b>Sud</b> (en bas) et <b>Nord</b> (en haut). Chacun a une rangée de six trous et un grenier.
Au départ, 48 graines : 4 dans chaque trou. Les trous de Sud s'appellent A à F, ceux de Nord a à f.</p>
<figure id="fig-start"></figure>
<h3>Semer</h3>
<p>À son tour, un joueur prend <b>toutes</b> les graines d'un trou de sa rangée et les sème une par une dans les trous suivants,
dans le sens inverse des aiguilles d'une montre. Un trou de 12 graines ou plus, le <b>krou</b>, fait le tour du plateau :
on saute alors le trou de départ.</p>
<figure id="fig-sow"></figure>
<figure id="fig-krou"></figure>
<h3>Prendre</h3>
<p>Si la dernière graine tombe <b>chez l'adversaire</b> dans un trou qui compte alors <b>2 ou 3</b> graines, on les prend.
On prend aussi celles du trou d'avant s'il en compte 2 ou 3, et ainsi de suite, tant qu'on reste chez l'adversaire.</p>
<figure id="fig-capture"></figure>
<h3>Nourrir</h3>
<p>Il est interdit d'affamer l'adversaire : si sa rangée est vide, il faut jouer un coup qui lui donne des graines.
Si c'est impossible, la partie s'arrête et le joueur prend les graines qui restent.
Prendre d'un coup toutes les graines de l'adversaire (le <b>grand chelem</b>) est interdit ; dans les règles Abapa, il est permis mais ne prend rien.</p>
<h3>Fin de la partie</h3>
<p>La partie s'arrête quand un joueur ne peut plus jouer, quand la même situation se reproduit, quand un joueur abandonne,
ou, si un but est fixé (25 en Abapa), quand un grenier l'atteint. Celui qui a le plus de graines gagne.</p>
<h3>Jouer ici</h3>
<p>Cliquez ou touchez un trou en surbrillance, ou tapez sa lettre (A à F). Les cercles pointillés rouges marquent les krous,
le cercle bleu le dernier coup, les croix rouges ses prises.</p>`,
  en: `
<h2>The rules of Awalé</h2>
<p>Two players, <b>South</b> (bottom) and <b>North</b> (top). Each has a row of six holes and a store.
At the start, 48 seeds: 4 in each hole. South's holes are named A to F, North's a to f.</p>
<figure id="fig-start"></figure>
<h3>Sowing</h3>
<p>On their turn, a player takes <b>all</b> the seeds of one hole of their row and sows them one by one into the following holes,
counter-clockwise. A hole of 12 seeds or more, a <b>krou</b>, goes all the way round: the hole it came from is skipped.</p>
<figure id="fig-sow"></figure>
<figure id="fig-krou"></figure>
<h3>Capturing</h3>
<p>If the last seed lands <b>in the opponent's row</b> in a hole that now holds <b>2 or 3</b> seeds, they are captured.
So are those of the hole before it if it holds 2 or 3, and so on, as long as it stays in the opponent's row.</p>
<figure id="fig-capture"></figure>
<h3>Feeding</h3>
<p>Starving the opponent is not allowed: if their row is empty, you must play a move that gives them seeds.
If you cannot, the game ends and you take the seeds left.
Capturing all the opponent's seeds in one move (a <b>grand slam</b>) is forbidden; under the Abapa rules it is allowed but captures nothing.</p>
<h3>End of the game</h3>
<p>The game ends when a player cannot move, when a position repeats, when a player resigns,
or, with a target (25 in Abapa), when a store reaches it. The player with more seeds wins.</p>
<h3>Playing here</h3>
<p>Click or tap a highlighted hole, or type its letter (A to F). Red dashed circles mark krous,
the blue ring the last move, red crosses its captures.</p>`,
};

const RULES_FIGS = {
  "fig-start": { fr: "La position de départ.", en: "The start position." },
  "fig-sow": { fr: "Sud a semé les 4 graines de D : une dans E, F, a et b (cercle bleu : le trou joué).", en: "South sowed the 4 seeds of D: one each into E, F, a and b (blue ring: the hole played)." },
  "fig-krou": { fr: "Un krou : 14 graines en B (cercle pointillé rouge). Semées, elles font le tour du plateau ; B est sauté, C, D et E en reçoivent deux.", en: "A krou: 14 seeds in B (red dashed circle). Sown, they go all the way round; B is skipped, and C, D and E get two each." },
  "fig-capture": { fr: "Sud a joué les 4 graines de E. La dernière tombe en c, qui en compte alors 2 ; b en compte 3 et a 2 : Sud prend les 7 graines (croix rouges).", en: "South played the 4 seeds of E. The last lands in c, which then holds 2; b holds 3 and a 2: South captures all 7 (red crosses)." },
};

// The language chosen in the page, or the first of French and English in
// the browser's preferences, or English.
function preferredLang() {
  for (const l of navigator.languages || [navigator.language || "en"]) {
    if (/^fr/i.test(l)) return "fr";
    if (/^en/i.test(l)) return "en";
  }
  return "en";
}
let lang = localStorage.getItem("awale.lang") || preferredLang();

function t(key, ...args) {
  const s = (TEXT[lang] && TEXT[lang][key]) || TEXT.en[key] || key;
  return s.replace(/\{(\d)\}/g, (_, i) => (args[+i] !== undefined ? args[+i] : ""));
}

// A score from the engine ({cp, decided, plies_to_end}) in words.
function fmtScore(sc) {
  if (!sc) return "";
  if (sc.plies_to_end !== null && sc.plies_to_end !== undefined) {
    const n = Math.abs(sc.plies_to_end);
    return sc.plies_to_end >= 0 ? t("win_in", n) : t("loss_in", n);
  }
  const v = (sc.cp >= 0 ? "+" : "−") + (Math.abs(sc.cp) / 100).toFixed(2);
  return sc.decided ? t("proven", v) : v;
}

function sideName(s) { return s === "S" ? t("south") : t("north"); }

// ---------------------------------------------------------------- state --

const $ = (sel) => document.querySelector(sel);
const SVGNS = "http://www.w3.org/2000/svg";

const state = {
  info: null,          // /api/info
  game: null,          // the server's view of the current game
  shown: null,         // what the board shows now: {board, stores, ...}
  flipped: false,      // North at the bottom
  replayAt: null,      // ply shown in replay mode, or null
  busy: false,         // a request or animation is under way
  events: null,        // EventSource
  clock: null,         // {left_ms, running, at}
  review: null,        // last review
  hint: null,
  thinking: null,
  animQueue: Promise.resolve(),
};

const settings = {
  speed: +(localStorage.getItem("awale.speed") ?? 170),
  sound: localStorage.getItem("awale.sound") !== "off",
};

// ------------------------------------------------------------------ api --

async function api(method, path, body) {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: body !== undefined ? { "Content-Type": "application/json" } : {},
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch (e) {
    throw { code: "network", message: String(e) };
  }
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    throw { status: res.status, code: (data && data.error) || "other", message: (data && data.message) || res.statusText };
  }
  return data;
}

function showError(e) {
  const key = "err_" + e.code;
  const text = TEXT[lang][key] ? t(key, e.message) : t("err_other", e.message || e.code);
  const toast = $("#toast");
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { toast.hidden = true; }, 4500);
}

// ---------------------------------------------------------------- sound --

const SPEAKER = '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M4 9h4l5-4v14l-5-4H4z" fill="currentColor"/>';
const WAVES = '<path d="M16 9a4 4 0 0 1 0 6M18.5 6.5a8 8 0 0 1 0 11"/></svg>';
const MUTED = '<path d="M17 9l5 6M22 9l-5 6"/></svg>';

let audio = null;
function sound(kind) {
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
  } catch (e) { /* no audio here: play on silently */ }
}

// ---------------------------------------------------------------- board --

const W = 1000, H = 400;
const COLS = [208, 325, 442, 558, 675, 792];
const ROW_Y = { top: 112, bottom: 288 };
const HOLE_R = 54;
const STORE = { left: 86, right: 914, y: 200, rx: 56, ry: 150 };
const SEED_COLORS = ["#9a9482", "#b4ad97", "#7f7a6b", "#c7bfa6", "#8a806b", "#a8a08a"];

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function hash(a, b) {
  let h = (a * 374761393 + b * 668265263) >>> 0;
  h = ((h ^ (h >>> 13)) * 1274126177) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

// Where each hole (0..11) and each store is drawn, given the rules'
// direction (columns from the server) and whether the board is turned.
function layout(columns, flipped) {
  const pos = new Array(12);
  const bottomSide = flipped ? "N" : "S";
  const topSide = flipped ? "S" : "N";
  let bottomCols = columns[bottomSide === "S" ? "S" : "N"];
  let topCols = columns[topSide === "S" ? "S" : "N"];
  if (flipped) {
    // Turned half a turn: the top row, read backwards, comes to the bottom.
    bottomCols = columns.N.slice().reverse();
    topCols = columns.S.slice().reverse();
  }
  bottomCols.forEach((hole, c) => { pos[hole] = { x: COLS[c], y: ROW_Y.bottom, row: "bottom" }; });
  topCols.forEach((hole, c) => { pos[hole] = { x: COLS[c], y: ROW_Y.top, row: "top" }; });
  // Each store sits at the end of its owner's sowing: after F for South.
  const southEnd = pos[5].x > pos[0].x ? "right" : "left";
  const stores = {
    S: southEnd === "right" ? STORE.right : STORE.left,
    N: southEnd === "right" ? STORE.left : STORE.right,
  };
  return { pos, stores, bottomSide };
}

function drawSeeds(g, cx, cy, n, salt, rx, ry) {
  if (n <= 0) return;
  const spread = Math.min(11.5, (Math.min(rx, ry) - 13) / Math.sqrt(n));
  const size = n > 20 ? 0.8 : n > 14 ? 0.9 : 1;
  const sx = rx / Math.min(rx, ry), sy = ry / Math.min(rx, ry);
  for (let i = 0; i < n; i++) {
    const r = spread * Math.sqrt(i + 0.5) * (n === 1 ? 0 : 1);
    const a = i * 2.39996 + (salt % 7);
    const h = hash(salt, i);
    const x = cx + r * Math.cos(a) * sx;
    const y = cy + r * Math.sin(a) * sy;
    const rot = h % 180;
    const s = el("g", { transform: `translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${rot}) scale(${size})` }, g);
    el("ellipse", { rx: 12, ry: 8.5, fill: SEED_COLORS[h % SEED_COLORS.length], stroke: "#3a2f22", "stroke-width": 1.2 }, s);
    el("ellipse", { rx: 12, ry: 8.5, fill: "url(#g-seed)" }, s);
  }
}

// Draws `shown` ({board, stores, to_move}) into `svg` with `marks`
// ({legal: Set of holes, last: hole, captured: Set, krou: true}).
function drawBoard(svg, shown, columns, flipped, marks) {
  svg.textContent = "";
  const L = layout(columns, flipped);
  el("rect", { x: 8, y: 12, width: W - 16, height: H - 20, rx: 70, fill: "#000", opacity: 0.35, transform: "translate(0 6)" }, svg);
  el("rect", { x: 8, y: 8, width: W - 16, height: H - 16, rx: 70, fill: "url(#g-wood)", stroke: "#5a3514", "stroke-width": 3 }, svg);
  el("rect", { x: 8, y: 8, width: W - 16, height: H - 16, rx: 70, fill: "url(#p-grain)" }, svg);
  // The row of the side to move is lit.
  if (shown.to_move && !marks.over) {
    const moverRow = shown.to_move === L.bottomSide ? "bottom" : "top";
    el("rect", { x: 145, y: ROW_Y[moverRow] - 70, width: 710, height: 140, rx: 60, fill: "#fff3d6", opacity: 0.09 }, svg);
  }
  for (const side of ["S", "N"]) {
    const x = L.stores[side];
    el("ellipse", { cx: x, cy: STORE.y, rx: STORE.rx, ry: STORE.ry, fill: "url(#g-hole)", stroke: "#2a1708", "stroke-width": 2 }, svg);
    const g = el("g", { class: "store-seeds" }, svg);
    drawSeeds(g, x, STORE.y, shown.stores[side === "S" ? 0 : 1], side === "S" ? 101 : 202, STORE.rx - 4, STORE.ry - 42);
    const cy = (side === L.bottomSide) ? STORE.y + STORE.ry - 6 : STORE.y - STORE.ry + 26;
    el("rect", { x: x - 30, y: cy - 30, width: 60, height: 40, rx: 20, fill: "#2a1708", opacity: 0.85 }, svg);
    const label = el("text", { x, y: cy, "text-anchor": "middle", class: "store-count", "data-store": side }, svg);
    label.textContent = shown.stores[side === "S" ? 0 : 1];
    const title = el("title", {}, svg);
    title.textContent = t("store_of", sideName(side));
  }
  for (let hole = 0; hole < 12; hole++) {
    const p = L.pos[hole];
    const n = shown.board[hole];
    const g = el("g", { class: "hole", "data-hole": hole }, svg);
    el("circle", { cx: p.x, cy: p.y, r: HOLE_R, fill: "url(#g-hole)", stroke: "#2a1708", "stroke-width": 2 }, g);
    drawSeeds(g, p.x, p.y, n, hole + 1, HOLE_R - 3, HOLE_R - 3);
    if (marks.captured && marks.captured.has(hole)) {
      el("path", { d: `M${p.x - 18} ${p.y - 18} L${p.x + 18} ${p.y + 18} M${p.x + 18} ${p.y - 18} L${p.x - 18} ${p.y + 18}`, stroke: "#ff6a4d", "stroke-width": 6, "stroke-linecap": "round", opacity: 0.85 }, g);
      el("circle", { cx: p.x, cy: p.y, r: HOLE_R + 5, fill: "none", stroke: "#ff6a4d", "stroke-width": 4, opacity: 0.9 }, g);
    }
    if (marks.hint === hole) {
      el("circle", { cx: p.x, cy: p.y, r: HOLE_R + 11, fill: "none", stroke: "#7fe08a", "stroke-width": 5, "stroke-dasharray": "14 8", class: "hint-ring" }, g);
    }
    if (marks.last === hole) {
      el("circle", { cx: p.x, cy: p.y, r: HOLE_R + 5, fill: "none", stroke: "#5fb4ff", "stroke-width": 5 }, g);
    }
    if (marks.krou && n >= 12) {
      el("circle", { cx: p.x, cy: p.y, r: HOLE_R - 1, fill: "none", stroke: "#ff7a5c", "stroke-width": 3, "stroke-dasharray": "8 6" }, g);
    }
    const outer = p.row === "bottom" ? p.y + HOLE_R + 30 : p.y - HOLE_R - 14;
    const letter = String.fromCharCode(hole < 6 ? 65 + hole : 97 + hole - 6);
    const lt = el("text", { x: p.x - 28, y: outer, "text-anchor": "middle", class: "letter" }, svg);
    lt.textContent = letter;
    const ct = el("text", { x: p.x + 10, y: outer, "text-anchor": "middle", class: "count", "data-count": letter }, svg);
    ct.textContent = n;
    if (marks.krou && n >= 12) {
      // Between the rows, so it never hides a count.
      const ky = p.row === "bottom" ? p.y - HOLE_R - 8 : p.y + HOLE_R + 18;
      const kt = el("text", { x: p.x, y: ky, "text-anchor": "middle", class: "krou-tag" }, svg);
      kt.textContent = t("krou");
    }
    if (marks.hand && marks.hand.hole === hole && marks.hand.n > 0) {
      el("circle", { cx: p.x, cy: p.y, r: 20, fill: "#f0b64a", stroke: "#2a1a08", "stroke-width": 2 }, svg);
      const ht = el("text", { x: p.x, y: p.y + 8, "text-anchor": "middle", class: "hand" }, svg);
      ht.textContent = marks.hand.n;
    }
    const legal = marks.legal && marks.legal.has(hole);
    const hit = el("circle", { cx: p.x, cy: p.y, r: HOLE_R + 8, fill: "transparent", class: "hole-hit" + (legal ? " legal" : ""), "data-letter": letter }, svg);
    if (legal) {
      hit.setAttribute("tabindex", "0");
      hit.setAttribute("role", "button");
      hit.setAttribute("aria-label", letter);
      el("circle", { cx: p.x, cy: p.y, r: HOLE_R + 3, fill: "none", stroke: "#f0b64a", "stroke-width": 4, class: "hole-ring", "pointer-events": "none" }, svg);
    }
  }
  return L;
}

// The sowing of `hole` from `board`: the holes that receive a seed in
// order, and the board after sowing, before any capture.
function sow(board, hole) {
  const b = board.slice();
  let n = b[hole];
  b[hole] = 0;
  const path = [];
  let i = hole;
  while (n > 0) {
    i = (i + 1) % 12;
    if (i === hole) continue;
    b[i]++;
    n--;
    path.push(i);
  }
  return { path, after: b };
}

// The holes a move captured, knowing from the server how much it captured.
function capturedHoles(board, hole, captured) {
  const out = [];
  if (!captured) return out;
  const { path, after } = sow(board, hole);
  const mover = hole < 6 ? 0 : 1;
  let i = path[path.length - 1];
  while (Math.floor(i / 6) !== mover && (after[i] === 2 || after[i] === 3)) {
    out.push(i);
    i = (i + 11) % 12;
  }
  return out;
}

function letterHole(letter) {
  const c = letter.charCodeAt(0);
  return c >= 97 ? c - 97 + 6 : c - 65;
}

function sleep(ms) { return new Promise((r) => setTimeout(r, ms)); }

// -------------------------------------------------------------- drawing --

function columns() {
  return state.game ? state.game.rules.columns : { S: [0, 1, 2, 3, 4, 5], N: [11, 10, 9, 8, 7, 6] };
}

function isHumanTurn(g) {
  if (!g || g.end) return false;
  return g.mode === "humans" || g.to_move === g.human;
}

function render(marksExtra) {
  const g = state.game;
  const svg = $("#board");
  if (!g) {
    drawBoard(svg, { board: new Array(12).fill(4), stores: [0, 0], to_move: null }, columns(), state.flipped, { krou: true });
    return;
  }
  let shown = state.shown || { board: g.board, stores: g.stores, to_move: g.to_move };
  if (!state.shown && g.end && (g.end.stores[0] !== g.stores[0] || g.end.stores[1] !== g.stores[1])) {
    // The seeds left were given out at the end (starvation, resignation,
    // repetition under own_row): show them in the stores.
    shown = { board: new Array(12).fill(0), stores: g.end.stores, to_move: g.to_move };
  }
  let marks = { krou: true, over: !!g.end };
  if (state.replayAt !== null) {
    const k = state.replayAt;
    if (k < g.plies.length) {
      const p = g.plies[k];
      shown = { board: p.before, stores: p.stores_before, to_move: p.side };
    } else {
      shown = { board: g.board, stores: g.stores, to_move: g.to_move };
    }
    if (k > 0) {
      const prev = g.plies[k - 1];
      const hole = letterHole(prev.move);
      marks.last = hole;
      marks.captured = new Set(capturedHoles(prev.before, hole, prev.captured));
    }
    marks.over = k >= g.plies.length && !!g.end;
  } else if (!marksExtra) {
    if (g.plies.length) {
      const prev = g.plies[g.plies.length - 1];
      const hole = letterHole(prev.move);
      marks.last = hole;
      marks.captured = new Set(capturedHoles(prev.before, hole, prev.captured));
    }
    if (isHumanTurn(g) && !state.busy) marks.legal = new Set(g.legal.map(letterHole));
    if (state.hint && state.hint.ply === g.plies.length && state.hint.best && !g.end) {
      marks.hint = letterHole(state.hint.best.mv);
    }
  }
  Object.assign(marks, marksExtra || {});
  drawBoard(svg, shown, g.rules.columns, state.flipped, marks);
  renderPlayers(shown);
}

function playerLabel(g, side) {
  if (g.mode === "computer") {
    if (side === g.human) return `${sideName(side)} · ${t("you")}`;
    const lv = levelName(g.level);
    return `${sideName(side)} · ${t("computer")} (${lv})`;
  }
  return sideName(side);
}

function levelName(n) {
  const l = state.info && state.info.levels.find((x) => x.number === n);
  if (!l) return t("level_n", n);
  return lang === "fr" ? l.name_fr : l.name_en;
}

function renderPlayers(shown) {
  const g = state.game;
  const bottom = state.flipped ? "N" : "S";
  const top = state.flipped ? "S" : "N";
  for (const [id, side] of [["#player-top", top], ["#player-bottom", bottom]]) {
    const box = $(id);
    box.querySelector(".who").textContent = g ? playerLabel(g, side) : sideName(side);
    box.dataset.side = side;
    box.classList.toggle("active", !!(g && !g.end && state.replayAt === null && shown && shown.to_move === side));
  }
  renderClock();
}

function fmtClock(ms) {
  ms = Math.max(0, ms);
  const s = Math.ceil(ms / 1000);
  const m = Math.floor(s / 60);
  if (ms < 10000) return `${m}:${String(Math.floor(ms / 1000) % 60).padStart(2, "0")}.${Math.floor((ms % 1000) / 100)}`;
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

function renderClock() {
  const g = state.game;
  for (const id of ["#player-top", "#player-bottom"]) {
    const box = $(id);
    const c = box.querySelector(".clock");
    if (!g || !g.clock || !state.clock) { c.textContent = ""; c.classList.remove("low"); continue; }
    const side = box.dataset.side;
    const idx = side === "S" ? 0 : 1;
    let left = state.clock.left_ms[idx];
    if (state.clock.running === side) left -= Date.now() - state.clock.at;
    c.textContent = fmtClock(left);
    c.classList.toggle("low", left < 20000 && state.clock.running === side);
  }
}
setInterval(renderClock, 200);

function setClockFrom(g) {
  if (g && g.clock) state.clock = { left_ms: g.clock.left_ms, running: g.clock.running, at: Date.now() };
  else state.clock = null;
}

function renderStatus() {
  const g = state.game;
  const box = $("#status");
  box.textContent = "";
  if (!g) return;
  if (g.end) {
    const res = document.createElement("div");
    res.className = "result";
    const w = g.end.winner;
    if (!w) res.textContent = t("draw");
    else if (g.mode === "computer") res.textContent = w === g.human ? t("won_you") : t("lost_you");
    else res.textContent = t("won_side", sideName(w));
    const sc = document.createElement("span");
    sc.className = "reason";
    sc.textContent = `${sideName("S")} ${g.end.stores[0]} – ${g.end.stores[1]} ${sideName("N")}. ${t("reason_" + g.end.reason)}`;
    res.id = "result";
    box.append(res, sc);
    const actions = document.createElement("div");
    actions.className = "actions";
    const b1 = document.createElement("button");
    b1.textContent = t("review");
    b1.onclick = runReview;
    const b2 = document.createElement("button");
    b2.className = "primary";
    b2.textContent = t("new_game");
    b2.onclick = openNewGame;
    actions.append(b1, b2);
    box.append(actions);
    return;
  }
  if (state.thinking || (g.computer_to_move)) {
    box.textContent = t("thinking");
  } else if (g.mode === "computer") {
    box.textContent = g.to_move === g.human ? t("your_turn") : t("thinking");
  } else {
    box.textContent = t("turn_of", sideName(g.to_move));
  }
}

function renderMoves() {
  const g = state.game;
  const list = $("#move-list");
  list.textContent = "";
  if (!g) return;
  const mistakes = new Set();
  if (state.review && state.review.id === g.id) {
    state.review.plies.forEach((p) => { if (p.mistake) mistakes.add(p.ply); });
  }
  const current = state.replayAt === null ? g.plies.length : state.replayAt;
  let num = 1;
  let li = null;
  g.plies.forEach((p, i) => {
    if (p.side === "S" || i === 0) {
      li = document.createElement("li");
      const n = document.createElement("span");
      n.className = "num";
      n.textContent = num + ".";
      li.append(n);
      if (p.side === "N") li.append(document.createElement("span"));
      list.append(li);
    }
    const m = document.createElement("span");
    m.className = "mv" + (i + 1 === current ? " current" : "") + (mistakes.has(i) ? " mistake" : "");
    m.dataset.ply = i;
    m.textContent = p.move;
    if (p.captured) {
      const c = document.createElement("span");
      c.className = "cap";
      c.textContent = "+" + p.captured;
      m.append(c);
    }
    m.onclick = () => enterReplay(i + 1);
    li.append(m);
    if (p.side === "N") num++;
  });
  list.scrollTop = list.scrollHeight;
}

function renderControls() {
  const g = state.game;
  const has = !!g;
  const replay = state.replayAt !== null;
  $("#btn-undo").disabled = !has || !g.can_undo || state.busy || replay;
  $("#btn-redo").disabled = !has || !g.can_redo || state.busy || replay;
  $("#btn-hint").disabled = !has || !!g.end || !isHumanTurn(g) || state.busy || replay;
  $("#btn-resign").disabled = !has || !!g.end || state.busy || replay;
  $("#btn-replay").disabled = !has || !g.plies.length;
  $("#btn-review").disabled = !has || !g.plies.length;
  const exp = $("#btn-export");
  if (has) { exp.href = `/api/games/${g.id}/record`; exp.classList.remove("disabled"); }
  else { exp.removeAttribute("href"); exp.classList.add("disabled"); }
  $("#replay-bar").hidden = !replay;
  if (replay) {
    $("#replay-label").textContent = state.replayAt === 0 ? t("start_pos") : t("replaying", state.replayAt, g.plies.length);
  }
  const info = $("#game-info");
  if (has) info.textContent = `${t("game_n", g.id)} · ${t("rules_label", g.rules.name)}`;
  else info.textContent = "";
  const th = $("#thinking");
  if (state.thinking && g && g.computer_to_move) {
    th.hidden = false;
    const x = state.thinking;
    th.textContent = t("thinking_depth", x.depth);
  } else th.hidden = true;
  const hb = $("#hint-box");
  if (state.hint && g && state.hint.ply === g.plies.length && !g.end) {
    hb.hidden = false;
    const b = state.hint.best;
    hb.innerHTML = b ? t("hint_best", b.mv, escapeHtml(fmtScore(b.score))) : "";
    if (state.hint.oracle) {
      const o = state.hint.oracle;
      hb.innerHTML += " " + t("hint_oracle", o.lower === o.upper ? String(o.lower) : `${o.lower}…${o.upper}`);
    }
  } else hb.hidden = true;
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

function renderAll() {
  render();
  renderStatus();
  renderMoves();
  renderControls();
}

// ------------------------------------------------------------ animation --

async function animatePly(g, ply) {
  const p = g.plies[ply];
  const hole = letterHole(p.move);
  const delay = settings.speed;
  let board = p.before.slice();
  let stores = p.stores_before.slice();
  const mover = p.side === "S" ? 0 : 1;
  if (delay > 0) {
    let hand = board[hole];
    board[hole] = 0;
    state.shown = { board: board.slice(), stores: stores.slice(), to_move: p.side };
    render({ last: hole, hand: { hole, n: hand }, legal: new Set() });
    await sleep(delay);
    const L = layout(g.rules.columns, state.flipped);
    let i = hole;
    let from = hole;
    while (hand > 0) {
      i = (i + 1) % 12;
      if (i === hole) continue;
      if (delay >= 60) {
        // One seed travels from the hand to the next hole.
        await fly($("#board"), L.pos[from], L.pos[i], 1, delay * 0.8, 18);
      }
      from = i;
      board[i]++;
      hand--;
      state.shown = { board: board.slice(), stores: stores.slice(), to_move: p.side };
      render({ last: hole, hand: { hole: i, n: hand }, legal: new Set() });
      sound("seed");
      if (delay < 60) await sleep(delay);
    }
    await sleep(delay);
    const caps = capturedHoles(p.before, hole, p.captured);
    const done = new Set();
    for (const c of caps) {
      const n = board[c];
      board[c] = 0;
      done.add(c);
      state.shown = { board: board.slice(), stores: stores.slice(), to_move: p.side };
      render({ last: hole, captured: new Set(done), legal: new Set() });
      sound("capture");
      await fly($("#board"), L.pos[c], { x: L.stores[p.side], y: STORE.y }, n, delay * 3);
      stores[mover] += n;
      state.shown = { board: board.slice(), stores: stores.slice(), to_move: p.side };
      render({ last: hole, captured: new Set(done), legal: new Set() });
    }
  } else if (p.captured) {
    sound("capture");
  }
  state.shown = null;
}

// Seeds flying in an arc from one place of the board to another (a
// capture going to the store). Resolves when they land, even if the page
// is hidden and animation frames stop.
function fly(svg, from, to, n, ms, arc = 70) {
  const g = el("g", { "pointer-events": "none" }, svg);
  drawSeeds(g, 0, 0, n, 7, HOLE_R - 3, HOLE_R - 3);
  const start = performance.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = () => { if (!done) { done = true; g.remove(); resolve(); } };
    const step = (now) => {
      if (done) return;
      const k = Math.min(1, (now - start) / ms);
      const e = k < 0.5 ? 2 * k * k : 1 - Math.pow(-2 * k + 2, 2) / 2;
      const x = from.x + (to.x - from.x) * e;
      const y = from.y + (to.y - from.y) * e - Math.sin(Math.PI * k) * arc;
      const scale = n === 1 ? 1.15 : 1 - 0.3 * k;
      g.setAttribute("transform", `translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${scale})`);
      if (k < 1) requestAnimationFrame(step); else finish();
    };
    requestAnimationFrame(step);
    setTimeout(finish, ms + 100);
  });
}

// Shows the game `g` from the server, animating the moves that are new
// since the one shown.
function showGame(g, animate) {
  state.animQueue = state.animQueue.then(async () => {
    const old = state.game;
    const sameGame = old && old.id === g.id;
    if (sameGame && g.plies.length < old.plies.length) state.hint = null;
    if (!sameGame) {
      state.replayAt = null;
      state.hint = null;
      state.review = null;
      $("#review").hidden = true;
      state.flipped = g.mode === "computer" && g.human === "N";
      connectEvents(g.id);
      if (location.hash !== "#rules") history.replaceState(null, "", `#game=${g.id}`);
    }
    const from = sameGame ? old.plies.length : g.plies.length;
    const fresh = animate && sameGame && g.plies.length > from && g.plies.length - from <= 2 && g.start === old.start;
    state.game = g;
    setClockFrom(g);
    if (fresh && state.replayAt === null) {
      for (let k = from; k < g.plies.length; k++) {
        // The result is told once the last seeds have landed.
        if (!g.end) renderStatus();
        renderControls();
        await animatePly(g, k);
      }
    }
    state.shown = null;
    renderAll();
  });
  return state.animQueue;
}

// ------------------------------------------------------------- actions --

async function act(fn) {
  if (state.busy) return;
  state.busy = true;
  renderControls();
  try {
    await fn();
  } catch (e) {
    if (e.code === "stale" && state.game) {
      try { await showGame(await api("GET", `/api/games/${state.game.id}`), false); } catch (e2) { /* shown below */ }
    }
    showError(e);
  } finally {
    state.busy = false;
    await state.animQueue;
    renderAll();
  }
  await computerIfDue();
}

async function computerIfDue() {
  const g = state.game;
  if (!g || !g.computer_to_move || state.busy || state.replayAt !== null) return;
  state.busy = true;
  renderAll();
  try {
    const next = await api("POST", `/api/games/${g.id}/computer`, { ply: g.plies.length });
    state.thinking = null;
    await showGame(next, true);
  } catch (e) {
    // Another page or an earlier request is already searching: its move
    // arrives as a live event.
    if (e.code !== "computer_thinking") showError(e);
  } finally {
    state.busy = false;
    state.thinking = null;
    await state.animQueue;
    renderAll();
  }
}

function playLetter(letter) {
  const g = state.game;
  if (!g || !isHumanTurn(g) || state.busy || state.replayAt !== null) return;
  if (!g.legal.includes(letter)) return;
  act(async () => {
    state.hint = null;
    const next = await api("POST", `/api/games/${g.id}/moves`, { move: letter, ply: g.plies.length });
    await showGame(next, true);
  });
}

function onKey(e) {
  if (e.target.closest && e.target.closest("input, textarea, select, dialog[open]")) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const k = e.key;
  if (state.replayAt !== null) {
    if (k === "ArrowLeft") { stepReplay(-1); e.preventDefault(); }
    else if (k === "ArrowRight") { stepReplay(1); e.preventDefault(); }
    else if (k === "Escape") exitReplay();
    return;
  }
  if (/^[a-fA-F]$/.test(k) && state.game) {
    const idx = k.toUpperCase().charCodeAt(0) - 65;
    const letter = state.game.to_move === "S" ? String.fromCharCode(65 + idx) : String.fromCharCode(97 + idx);
    playLetter(letter);
  } else if (k === "Enter" && e.target.dataset && e.target.dataset.letter) {
    playLetter(e.target.dataset.letter);
  }
}

function enterReplay(k) {
  const g = state.game;
  if (!g) return;
  state.replayAt = Math.max(0, Math.min(k, g.plies.length));
  renderAll();
}
function stepReplay(d) { if (state.replayAt !== null) enterReplay(state.replayAt + d); }
function exitReplay() { state.replayAt = null; renderAll(); computerIfDue(); }

// ------------------------------------------------------------ live events --

function connectEvents(id) {
  if (state.events) state.events.close();
  const es = new EventSource(`/api/games/${id}/events`);
  state.events = es;
  es.addEventListener("state", (ev) => {
    let g;
    try { g = JSON.parse(ev.data); } catch (e) { return; }
    if (!g || g.error || !state.game || g.id !== state.game.id) return;
    // Our own requests show their answers; this catches the rest (another
    // tab, a search that finished after a reload, a fall of the flag).
    if (state.busy && !state.game.computer_to_move) return;
    const changed = g.plies.length !== state.game.plies.length || !!g.end !== !!state.game.end ||
      g.position !== state.game.position;
    if (changed) {
      state.thinking = null;
      showGame(g, true).then(() => computerIfDue());
    } else {
      setClockFrom(g);
    }
  });
  // One more move: the whole game is fetched again (the page applies
  // the full state the same way).
  es.addEventListener("move", (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch (e) { return; }
    if (!m || !state.game || m.id !== state.game.id) return;
    if (state.busy && !state.game.computer_to_move) return;
    if (m.index < state.game.plies.length) return;
    api("GET", `/api/games/${m.id}`).then((g) => {
      if (!state.game || g.id !== state.game.id) return;
      state.thinking = null;
      showGame(g, true).then(() => computerIfDue());
    }).catch(() => {});
  });
  es.addEventListener("thinking", (ev) => {
    try { state.thinking = JSON.parse(ev.data); } catch (e) { return; }
    renderControls();
  });
  es.addEventListener("clock", (ev) => {
    try {
      const c = JSON.parse(ev.data);
      state.clock = { left_ms: c.left_ms, running: c.running, at: Date.now() };
    } catch (e) { /* ignore */ }
  });
}

// ------------------------------------------------------------- new game --

function fillLevels() {
  const sel = $("#sel-level");
  const keep = sel.value || String(state.info ? state.info.default_level : 3);
  sel.textContent = "";
  for (const l of (state.info ? state.info.levels : [])) {
    const o = document.createElement("option");
    o.value = l.number;
    o.textContent = `${l.number}. ${lang === "fr" ? l.name_fr : l.name_en}`;
    sel.append(o);
  }
  sel.value = keep;
  describeLevel();
}

function describeLevel() {
  const n = +$("#sel-level").value;
  const l = state.info && state.info.levels.find((x) => x.number === n);
  $("#level-desc").textContent = l ? (lang === "fr" ? l.description_fr : l.description_en) : "";
}

function applyPreset() {
  const f = $("#form-new");
  const abapa = f.preset.value === "abapa";
  f.grand_slam.value = abapa ? "no_capture" : "forbidden";
  f.repetition.value = abapa ? "own_row" : "nobody";
  f.target.value = abapa ? "25" : "off";
}

function updateNewForm() {
  const f = $("#form-new");
  document.querySelector(".computer-only").hidden = f.mode.value !== "computer";
  f.minutes.disabled = !f.clock.checked;
  f.increment.disabled = !f.clock.checked;
}

const FORM_FIELDS = ["mode", "level", "human", "preset", "grand_slam", "repetition", "target", "direction", "first", "minutes", "increment"];

// The dialog opens with the choices of the last game started.
function restoreNewGameForm() {
  let saved = null;
  try { saved = JSON.parse(localStorage.getItem("awale.newgame") || "null"); } catch (e) { saved = null; }
  if (!saved) return;
  const f = $("#form-new");
  for (const k of FORM_FIELDS) if (saved[k] !== undefined && f[k]) f[k].value = saved[k];
  f.clock.checked = !!saved.clock;
}

function saveNewGameForm() {
  const f = $("#form-new");
  const saved = { clock: f.clock.checked };
  for (const k of FORM_FIELDS) saved[k] = f[k].value;
  localStorage.setItem("awale.newgame", JSON.stringify(saved));
}

function openNewGame() {
  $("#new-error").hidden = true;
  fillLevels();
  restoreNewGameForm();
  describeLevel();
  updateNewForm();
  const dlg = $("#dlg-new");
  if (!dlg.open) dlg.showModal();
}

async function startNewGame() {
  const f = $("#form-new");
  let rules = f.preset.value;
  rules += `,grand_slam=${f.grand_slam.value},repetition=${f.repetition.value},target=${f.target.value}`;
  rules += `,direction=${f.direction.value},first=${f.first.value}`;
  const body = { mode: f.mode.value, rules };
  if (f.mode.value === "computer") {
    body.level = +f.level.value;
    body.human = f.human.value;
  }
  if (f.clock.checked) body.clock = { minutes: +f.minutes.value, increment_seconds: +f.increment.value };
  try {
    const g = await api("POST", "/api/games", body);
    saveNewGameForm();
    $("#dlg-new").close();
    showView("play");
    await showGame(g, false);
    await computerIfDue();
  } catch (e) {
    const err = $("#new-error");
    err.textContent = e.message || e.code;
    err.hidden = false;
  }
}

// ---------------------------------------------------------------- review --

async function runReview() {
  const g = state.game;
  if (!g) return;
  showView("play");
  const box = $("#review");
  box.hidden = false;
  $("#review-status").textContent = t("review_running");
  $("#plot").textContent = "";
  $("#mistakes").textContent = "";
  box.scrollIntoView({ behavior: "smooth", block: "start" });
  try {
    const r = await api("POST", `/api/games/${g.id}/review`);
    state.review = r;
    drawReview();
    renderMoves();
  } catch (e) {
    $("#review-status").textContent = "";
    showError(e);
  }
}

function drawReview() {
  const r = state.review;
  if (!r) return;
  const mistakes = r.plies.filter((p) => p.mistake);
  $("#review-status").textContent = t("review_done", r.plies.length, mistakes.length);
  const svg = $("#plot");
  svg.textContent = "";
  const PW = 800, PH = 220, pad = 28;
  const n = Math.max(r.plies.length, 1);
  const clamp = (v) => Math.max(-12, Math.min(12, v / 100));
  const x = (i) => pad + (i * (PW - 2 * pad)) / n;
  const y = (v) => PH / 2 - (clamp(v) * (PH / 2 - 16)) / 12;
  for (const v of [-1000, -500, 0, 500, 1000]) {
    el("line", { x1: pad, x2: PW - pad, y1: y(v), y2: y(v), stroke: v === 0 ? "#8a7660" : "#3a2f24", "stroke-width": v === 0 ? 1.5 : 1 }, svg);
    const lb = el("text", { x: 4, y: y(v) + 4, fill: "#8a7660", "font-size": 11 }, svg);
    lb.textContent = (v > 0 ? "+" : "") + v / 100;
  }
  // The evaluation before the first move, then after each move (South's
  // view): a mistake shows as a drop for the side that made it.
  const south = (sc, side) => (sc ? (side === "S" ? sc.cp : -sc.cp) : 0);
  const pts = [[x(0), y(r.plies.length ? r.plies[0].eval_south ?? 0 : 0)]];
  r.plies.forEach((p, i) => pts.push([x(i + 1), y(south(p.played, p.side))]));
  if (pts.length) {
    const area = `M${pts[0][0]} ${PH / 2} ` + pts.map((p) => `L${p[0]} ${p[1]}`).join(" ") + ` L${pts[pts.length - 1][0]} ${PH / 2} Z`;
    el("path", { d: area, fill: "#f0b64a", opacity: 0.18 }, svg);
    el("polyline", { points: pts.map((p) => p.join(",")).join(" "), fill: "none", stroke: "#f0b64a", "stroke-width": 2.5, "stroke-linejoin": "round" }, svg);
  }
  r.plies.forEach((p, i) => {
    const [px, py] = pts[i + 1];
    const dot = el("circle", { cx: px, cy: py, r: p.mistake ? 6 : 3, fill: p.mistake ? "#e0553f" : "#f0b64a", class: "plot-dot", style: "cursor:pointer" }, svg);
    const tt = el("title", {}, dot);
    tt.textContent = `${i + 1}. ${p.move} ${fmtScore(p.played)}`;
    dot.addEventListener("click", () => { enterReplay(i + 1); window.scrollTo({ top: 0, behavior: "smooth" }); });
  });
  const table = $("#mistakes");
  table.textContent = "";
  if (!mistakes.length) {
    const tr = table.insertRow();
    tr.insertCell().textContent = t("no_mistake");
    return;
  }
  const head = table.createTHead().insertRow();
  for (const k of ["col_move", "col_played", "col_better", "col_loss"]) {
    const th = document.createElement("th");
    th.textContent = t(k);
    head.append(th);
  }
  const body = table.createTBody();
  for (const p of mistakes) {
    const tr = body.insertRow();
    tr.className = "clickable";
    tr.insertCell().textContent = `${moveNumber(r.plies, p.ply)}. ${sideName(p.side)}`;
    tr.insertCell().textContent = `${p.move}  ${fmtScore(p.played)}`;
    tr.insertCell().textContent = p.best ? `${p.best.move}  ${fmtScore(p.best.score)}` : "";
    tr.insertCell().textContent = (p.loss / 100).toFixed(1);
    tr.onclick = () => { enterReplay(p.ply + 1); window.scrollTo({ top: 0, behavior: "smooth" }); };
  }
}

// The number of ply `ply` in the notation, as the move list shows it: it
// goes up with each South move after the first ply (`1. C a 2. A`).
function moveNumber(plies, ply) {
  let n = 1;
  for (const p of plies) if (p.ply < ply && p.side === "N") n++;
  return n;
}

// ----------------------------------------------------------------- games --

async function showGames() {
  showView("games");
  const table = $("#games-table");
  table.textContent = "";
  let data;
  try { data = await api("GET", "/api/games"); } catch (e) { showError(e); return; }
  if (!data.games.length) {
    table.insertRow().insertCell().textContent = t("no_games");
    return;
  }
  const head = table.createTHead().insertRow();
  for (const k of ["", "col_date", "col_players", "col_rules", "col_moves", "col_result", ""]) {
    const th = document.createElement("th");
    th.textContent = k ? t(k) : "";
    head.append(th);
  }
  const body = table.createTBody();
  for (const s of data.games) {
    const tr = body.insertRow();
    tr.dataset.id = s.id;
    tr.insertCell().textContent = "#" + s.id;
    tr.insertCell().textContent = new Date(s.created_ms).toLocaleString(lang === "fr" ? "fr-FR" : "en-GB", { dateStyle: "short", timeStyle: "short" });
    tr.insertCell().textContent = s.mode === "computer" ? t("vs_level", levelName(s.level)) : t("two_people");
    tr.insertCell().textContent = s.rules;
    tr.insertCell().textContent = s.plies;
    tr.insertCell().textContent = s.result === "*" ? t("in_progress") : `${s.result}${s.reason ? " · " + t("short_" + s.reason) : ""}`;
    const actions = document.createElement("div");
    actions.className = "actions";
    tr.insertCell().append(actions);
    const open = document.createElement("button");
    open.textContent = s.result === "*" ? t("continue_game") : t("open");
    open.className = "open";
    open.onclick = () => openGame(s.id, false);
    const watch = document.createElement("button");
    watch.textContent = t("watch");
    watch.className = "watch";
    watch.onclick = () => openGame(s.id, true);
    const exp = document.createElement("a");
    exp.className = "button";
    exp.textContent = t("export");
    exp.href = `/api/games/${s.id}/record`;
    exp.setAttribute("download", `awale-${s.id}.ogn`);
    actions.append(open, watch, exp);
  }
}

async function openGame(id, replay) {
  try {
    const g = await api("GET", `/api/games/${id}`);
    showView("play");
    await showGame(g, false);
    if (replay) enterReplay(0);
    else await computerIfDue();
  } catch (e) { showError(e); }
}

async function importText(text) {
  const err = $("#import-error");
  err.hidden = true;
  try {
    const body = { record: text, mode: $("#import-mode").value };
    if (body.mode === "computer") {
      let saved = null;
      try { saved = JSON.parse(localStorage.getItem("awale.newgame") || "null"); } catch (e) { saved = null; }
      body.level = +((saved && saved.level) || (state.info ? state.info.default_level : 3));
    }
    const r = await api("POST", "/api/import", body);
    showView("play");
    await showGame(r.game, false);
  } catch (e) {
    err.textContent = e.code === "bad_record" ? t("err_bad_record", e.message) : t("bad_file", e.message || e.code);
    err.hidden = false;
  }
}

// ----------------------------------------------------------------- rules --

function renderRules() {
  const box = $("#rules-text");
  box.innerHTML = RULES_PAGE[lang];
  const cols = { S: [0, 1, 2, 3, 4, 5], N: [11, 10, 9, 8, 7, 6] };
  const figs = {
    "fig-start": { board: new Array(12).fill(4), stores: [0, 0], to_move: "S", marks: {} },
    "fig-sow": { board: [4, 4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4], stores: [0, 0], to_move: "N", marks: { last: 3 } },
    "fig-krou": { board: [1, 14, 2, 3, 0, 2, 1, 3, 2, 0, 4, 1], stores: [7, 8], to_move: "S", marks: {} },
    "fig-capture": { board: [2, 1, 3, 0, 0, 5, 0, 0, 0, 4, 6, 1], stores: [16, 10], to_move: "N", marks: { last: 4, captured: new Set([6, 7, 8]) } },
  };
  for (const [id, f] of Object.entries(figs)) {
    const fig = box.querySelector("#" + id);
    if (!fig) continue;
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    fig.append(svg);
    drawBoard(svg, f, cols, false, Object.assign({ krou: true }, f.marks));
    const cap = document.createElement("figcaption");
    cap.textContent = RULES_FIGS[id][lang];
    fig.append(cap);
  }
}

// ------------------------------------------------------------------ views --

function showView(name) {
  for (const v of ["play", "games", "rules"]) $("#view-" + v).hidden = v !== name;
  if (name === "rules") renderRules();
}

function applyLanguage() {
  document.documentElement.lang = lang;
  for (const e of document.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of document.querySelectorAll("[data-i18n-title]")) e.title = t(e.dataset.i18nTitle);
  $("#btn-lang").textContent = lang === "fr" ? "EN" : "FR";
  $("#btn-lang").title = lang === "fr" ? "English" : "Français";
  $("#btn-sound").innerHTML = SPEAKER + (settings.sound ? WAVES : MUTED);
  fillLevels();
  if (!$("#view-rules").hidden) renderRules();
  if (state.review) drawReview();
  renderAll();
}

// ------------------------------------------------------------------ start --

function wire() {
  $("#board").addEventListener("click", (e) => {
    const hit = e.target.closest(".hole-hit.legal");
    if (hit) playLetter(hit.dataset.letter);
  });
  document.addEventListener("keydown", onKey);
  $("#btn-new").onclick = openNewGame;
  $("#btn-play").onclick = () => showView("play");
  $("#btn-games").onclick = showGames;
  $("#btn-rules").onclick = () => showView("rules");
  $("#btn-lang").onclick = () => {
    lang = lang === "fr" ? "en" : "fr";
    localStorage.setItem("awale.lang", lang);
    applyLanguage();
  };
  $("#btn-sound").onclick = () => {
    settings.sound = !settings.sound;
    localStorage.setItem("awale.sound", settings.sound ? "on" : "off");
    if (settings.sound) sound("seed");
    applyLanguage();
  };
  $("#btn-settings").onclick = () => {
    $("#sel-speed").value = String(settings.speed);
    $("#chk-sound").checked = settings.sound;
    $("#dlg-settings").showModal();
  };
  $("#sel-speed").onchange = (e) => { settings.speed = +e.target.value; localStorage.setItem("awale.speed", settings.speed); };
  $("#chk-sound").onchange = (e) => {
    settings.sound = e.target.checked;
    localStorage.setItem("awale.sound", settings.sound ? "on" : "off");
    applyLanguage();
  };
  $("#btn-undo").onclick = () => act(async () => {
    await showGame(await api("POST", `/api/games/${state.game.id}/undo`, { ply: state.game.plies.length }), false);
  });
  $("#btn-redo").onclick = () => act(async () => {
    await showGame(await api("POST", `/api/games/${state.game.id}/redo`, { ply: state.game.plies.length }), true);
  });
  $("#btn-hint").onclick = () => act(async () => {
    state.hint = await api("POST", `/api/games/${state.game.id}/hint`);
  });
  $("#btn-resign").onclick = () => {
    if (!confirm(t("confirm_resign"))) return;
    act(async () => { await showGame(await api("POST", `/api/games/${state.game.id}/resign`, {}), false); });
  };
  $("#btn-flip").onclick = () => { state.flipped = !state.flipped; renderAll(); };
  $("#btn-replay").onclick = () => enterReplay(0);
  $("#btn-review").onclick = runReview;
  $("#rp-first").onclick = () => enterReplay(0);
  $("#rp-prev").onclick = () => stepReplay(-1);
  $("#rp-next").onclick = () => stepReplay(1);
  $("#rp-last").onclick = () => enterReplay(state.game ? state.game.plies.length : 0);
  $("#rp-exit").onclick = exitReplay;
  const f = $("#form-new");
  f.preset.onchange = applyPreset;
  for (const r of f.querySelectorAll("input[name=mode], input[name=clock]")) r.onchange = updateNewForm;
  $("#sel-level").onchange = describeLevel;
  $("#btn-start").onclick = (e) => { e.preventDefault(); startNewGame(); };
  $("#import-file").onchange = async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    if (file.size > 1024 * 1024) {
      const err = $("#import-error");
      err.textContent = t("bad_file", `${file.name}: > 1 MiB`);
      err.hidden = false;
      return;
    }
    importText(await file.text());
    e.target.value = "";
  };
  $("#import-go").onclick = () => importText($("#import-text").value);
}

async function main() {
  wire();
  applyLanguage();
  try { state.info = await api("GET", "/api/info"); } catch (e) { showError(e); }
  applyLanguage();
  if (location.hash === "#rules") showView("rules");
  const m = /#game=(\d+)/.exec(location.hash);
  try {
    let g = null;
    if (m) {
      try { g = await api("GET", `/api/games/${m[1]}`); } catch (e) { g = null; }
    }
    if (!g) g = (await api("GET", "/api/games/current")).game;
    if (g) {
      await showGame(g, false);
      await computerIfDue();
    } else {
      renderAll();
      openNewGame();
    }
  } catch (e) {
    renderAll();
    showError(e);
  }
}

main();
