// The board in SVG: where each hole and store sits (the rules' direction,
// the board turned or not), the seeds, the marks (legal holes, last move,
// captures, krous, a hint) and seeds flying from place to place. Drawing
// only: what to draw comes from the server's view of the game.

import { t } from "./i18n.js";
import { holeLetter, letterHole, sideName } from "./words.js";

export const W = 1000;
export const H = 400;
const COLS = [208, 325, 442, 558, 675, 792];
const ROW_Y = { top: 112, bottom: 288 };
export const HOLE_R = 54;
export const STORE = { left: 86, right: 914, y: 200, rx: 56, ry: 150 };
const SEED_COLORS = ["#9a9482", "#b4ad97", "#7f7a6b", "#c7bfa6", "#8a806b", "#a8a08a"];
const SVGNS = "http://www.w3.org/2000/svg";

// The columns of each side's holes, A..F and a..f, for the usual
// counter-clockwise sowing (the server sends them with the rules).
export const CCW_COLUMNS = { S: [0, 1, 2, 3, 4, 5], N: [11, 10, 9, 8, 7, 6] };

// Text sizes in board units: larger when the board is drawn small (a
// phone), so that letters and counts stay readable.
const SIZES = {
  // `count2`: a count of two digits, a little smaller on a phone so that
  // it keeps its distance from the letter ("D 10"). A chip is narrower
  // than a column (117), so neighbours do not run together.
  wide: { letter: 22, count: 30, count2: 30, store: 28, krou: 14, hand: 22, chip: [100, 36] },
  small: { letter: 32, count: 36, count2: 32, store: 40, krou: 30, hand: 34, chip: [106, 46] },
};

export function el(name, attrs, parent) {
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

// Where each hole (0..11) and each store is drawn, given the columns of
// the rules' direction and whether the board is turned (North below).
export function layout(columns, flipped) {
  const pos = new Array(12);
  const bottomCols = flipped ? columns.N.slice().reverse() : columns.S;
  const topCols = flipped ? columns.S.slice().reverse() : columns.N;
  bottomCols.forEach((hole, c) => { pos[hole] = { x: COLS[c], y: ROW_Y.bottom, row: "bottom" }; });
  topCols.forEach((hole, c) => { pos[hole] = { x: COLS[c], y: ROW_Y.top, row: "top" }; });
  // Each store sits at the end of its owner's sowing: after F for South.
  const southRight = pos[5].x > pos[0].x;
  const stores = { S: southRight ? STORE.right : STORE.left, N: southRight ? STORE.left : STORE.right };
  return { pos, stores, bottomSide: flipped ? "N" : "S" };
}

export function drawSeeds(g, cx, cy, n, salt, rx, ry) {
  if (n <= 0) return;
  const spread = Math.min(11.5, (Math.min(rx, ry) - 13) / Math.sqrt(n));
  const size = n > 20 ? 0.8 : n > 14 ? 0.9 : 1;
  const sx = rx / Math.min(rx, ry);
  const sy = ry / Math.min(rx, ry);
  for (let i = 0; i < n; i++) {
    const r = spread * Math.sqrt(i + 0.5) * (n === 1 ? 0 : 1);
    const a = i * 2.39996 + (salt % 7);
    const h = hash(salt, i);
    const x = cx + r * Math.cos(a) * sx;
    const y = cy + r * Math.sin(a) * sy;
    const s = el("g", { transform: `translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${h % 180}) scale(${size})` }, g);
    el("ellipse", { rx: 12, ry: 8.5, fill: SEED_COLORS[h % SEED_COLORS.length], stroke: "#3a2f22", "stroke-width": 1.2 }, s);
    el("ellipse", { rx: 12, ry: 8.5, fill: "url(#g-seed)" }, s);
  }
}

// Draws `shown` ({board, stores, to_move}) into `svg`. `marks`: legal (Set
// of holes that can be played), mine (Set of holes of the side to move,
// which can be tapped to learn why they cannot be played), last (hole),
// captured (Set), hint (hole), hand ({hole, n}: seeds still to sow),
// krou (mark holes of 12+), over (the game is over), noCount (seeds
// only: no number anywhere), you (the side the person plays, to name its
// holes "your hole C"; none: every hole by its side), familiar (the
// learning views: French says "ton trou C", as their lessons say "tu").
//
// For the keyboard and screen readers every hole is a button named with
// its owner, letter and seeds, unavailable unless it can be played; the
// board is one stop of the Tab key (the hole last visited), the arrows go
// from hole to hole as they are drawn. The focus stays on the hole that
// had it, whatever is redrawn.
export function drawBoard(svg, shown, columns, flipped, marks) {
  wireKeys(svg);
  const focused = svg.contains(document.activeElement) ? document.activeElement.dataset.letter : null;
  const size = svg.clientWidth && svg.clientWidth < 640 ? SIZES.small : SIZES.wide;
  svg.textContent = "";
  const L = layout(columns, flipped);
  el("rect", { x: 8, y: 12, width: W - 16, height: H - 20, rx: 70, fill: "#000", opacity: 0.35, transform: "translate(0 6)" }, svg);
  el("rect", { x: 8, y: 8, width: W - 16, height: H - 16, rx: 70, fill: "url(#g-wood)", stroke: "#5a3514", "stroke-width": 3, class: "wood" }, svg);
  el("rect", { x: 8, y: 8, width: W - 16, height: H - 16, rx: 70, fill: "url(#p-grain)", class: "grain" }, svg);
  if (shown.to_move && !marks.over) {
    // The row of the side to move is lit.
    const row = shown.to_move === L.bottomSide ? "bottom" : "top";
    el("rect", { x: 145, y: ROW_Y[row] - 70, width: 710, height: 140, rx: 60, fill: "#fff3d6", opacity: 0.09, class: "to-move" }, svg);
  }
  for (const side of ["S", "N"]) drawStore(svg, L, side, shown.stores[side === "S" ? 0 : 1], size, !!marks.noCount, marks.you, !!marks.familiar);
  for (let hole = 0; hole < 12; hole++) drawHole(svg, L, hole, shown.board[hole], marks, size);
  // The one hole the Tab key stops at: the one visited last, else the
  // first that can be played, else the first of the bottom row.
  const hits = [...svg.querySelectorAll(".hole-hit")];
  const stop = hits.find((h) => h.dataset.letter === svg.dataset.at) ||
    hits.find((h) => h.classList.contains("legal")) ||
    hits.find((h) => L.pos[letterHole(h.dataset.letter)].row === "bottom");
  if (stop) stop.setAttribute("tabindex", "0");
  if (focused) {
    const again = svg.querySelector(`.hole-hit[data-letter="${focused}"]`);
    if (again) again.focus();
  }
  return L;
}

// The owner, letter and seeds of a hole, as a screen reader says it:
// "your hole C, 5 seeds", "North's hole d, 4 seeds"; `familiar`: to the
// learner of a learning view, "tu" in French ("ton trou C").
export function holeName(hole, n, you, noCount, familiar = false) {
  const owner = hole < 6 ? "S" : "N";
  const letter = holeLetter(hole);
  const tu = familiar ? "_tu" : "";
  if (owner === you) return noCount ? t("hole_yours_nocount" + tu, letter) : t("hole_yours" + tu, letter, n);
  return noCount ? t("hole_of_nocount", sideName(owner), letter) : t("hole_of", sideName(owner), letter, n);
}

// The arrows, Home and End on a board: from hole to hole as drawn (left
// and right along a row, up and down to the other row). Wired once.
function wireKeys(svg) {
  if (svg.dataset.keys) return;
  svg.dataset.keys = "on";
  // Heard on the document, not on the svg: Chromium makes an svg with a
  // focus listener a stop of the Tab key of its own.
  document.addEventListener("focusin", (e) => {
    const letter = svg.contains(e.target) && e.target.dataset && e.target.dataset.letter;
    if (!letter) return;
    svg.dataset.at = letter;
    for (const h of svg.querySelectorAll(".hole-hit")) h.setAttribute("tabindex", h === e.target ? "0" : "-1");
  });
  svg.addEventListener("keydown", (e) => {
    const from = e.target.closest && e.target.closest(".hole-hit");
    if (!from || e.ctrlKey || e.metaKey || e.altKey) return;
    const hits = [...svg.querySelectorAll(".hole-hit")];
    const x = (h) => +h.getAttribute("cx");
    const y = (h) => +h.getAttribute("cy");
    const row = hits.filter((h) => y(h) === y(from)).sort((a, b) => x(a) - x(b));
    const other = hits.filter((h) => y(h) !== y(from));
    const i = row.indexOf(from);
    const column = (list) => list.reduce((best, h) => (Math.abs(x(h) - x(from)) < Math.abs(x(best) - x(from)) ? h : best));
    const to = {
      ArrowLeft: row[Math.max(0, i - 1)],
      ArrowRight: row[Math.min(row.length - 1, i + 1)],
      ArrowUp: other.length && y(other[0]) < y(from) ? column(other) : from,
      ArrowDown: other.length && y(other[0]) > y(from) ? column(other) : from,
      Home: row[0],
      End: row[row.length - 1],
    }[e.key];
    if (!to) return;
    e.preventDefault();
    e.stopPropagation();
    to.focus();
  });
}

function drawStore(svg, L, side, n, size, noCount, you, familiar) {
  const x = L.stores[side];
  const tu = familiar ? "_tu" : "";
  const name = side === you
    ? (noCount ? t("store_yours_nocount" + tu) : t("store_yours" + tu, n))
    : (noCount ? t("store_label_nocount", sideName(side)) : t("store_label", sideName(side), n));
  const g = el("g", { role: "img", "aria-label": name }, svg);
  el("ellipse", { cx: x, cy: STORE.y, rx: STORE.rx, ry: STORE.ry, fill: "url(#g-hole)", stroke: "#2a1708", "stroke-width": 2, class: "pit" }, g);
  drawSeeds(el("g", { class: "store-seeds" }, g), x, STORE.y, n, side === "S" ? 101 : 202, STORE.rx - 4, STORE.ry - 42);
  const [w, h] = [size.store * 2.2, size.store * 1.45];
  const cy = side === L.bottomSide ? STORE.y + STORE.ry - h / 2 + 4 : STORE.y - STORE.ry + h / 2 - 4;
  if (noCount) return;
  el("rect", { x: x - w / 2, y: cy - h / 2, width: w, height: h, rx: h / 2, fill: "#1e1005", opacity: 0.9, class: "chip" }, g);
  const label = el("text", { x, y: cy + size.store * 0.36, "text-anchor": "middle", class: "store-count", "font-size": size.store, "data-store": side, "aria-hidden": "true" }, g);
  label.textContent = n;
}

function drawHole(svg, L, hole, n, marks, size) {
  const p = L.pos[hole];
  const letter = holeLetter(hole);
  const g = el("g", { class: "hole", "data-hole": hole }, svg);
  el("circle", { cx: p.x, cy: p.y, r: HOLE_R, fill: "url(#g-hole)", stroke: "#2a1708", "stroke-width": 2, class: "pit" }, g);
  drawSeeds(g, p.x, p.y, n, hole + 1, HOLE_R - 3, HOLE_R - 3);
  if (marks.captured && marks.captured.has(hole)) {
    const d = `M${p.x - 18} ${p.y - 18} L${p.x + 18} ${p.y + 18} M${p.x + 18} ${p.y - 18} L${p.x - 18} ${p.y + 18}`;
    el("path", { d, stroke: "#ff6a4d", "stroke-width": 6, "stroke-linecap": "round", opacity: 0.85 }, g);
    el("circle", { cx: p.x, cy: p.y, r: HOLE_R + 5, fill: "none", stroke: "#ff6a4d", "stroke-width": 4, opacity: 0.9 }, g);
  }
  if (marks.hint === hole) {
    el("circle", { cx: p.x, cy: p.y, r: HOLE_R + 11, fill: "none", stroke: "#7fe08a", "stroke-width": 5, "stroke-dasharray": "14 8", class: "hint-ring" }, g);
  }
  if (marks.last === hole) {
    el("circle", { cx: p.x, cy: p.y, r: HOLE_R + 5, fill: "none", stroke: "#5fb4ff", "stroke-width": 5, class: "last-ring" }, g);
  }
  const krou = marks.krou && n >= 12;
  if (krou) {
    el("circle", { cx: p.x, cy: p.y, r: HOLE_R - 1, fill: "none", stroke: "#ff7a5c", "stroke-width": 3, "stroke-dasharray": "8 6" }, g);
    // Between the rows, so it never hides a count.
    const ky = p.row === "bottom" ? p.y - HOLE_R - 8 : p.y + HOLE_R + size.krou * 0.9;
    const kw = size.krou * 2.6;
    const kh = size.krou * 1.15;
    el("rect", { x: p.x - kw / 2, y: ky - size.krou * 0.88, width: kw, height: kh, rx: kh / 2, fill: "#1e1005", opacity: 0.82, "aria-hidden": "true", class: "chip" }, svg);
    const kt = el("text", { x: p.x, y: ky, "text-anchor": "middle", class: "krou-tag", "font-size": size.krou, "aria-hidden": "true" }, svg);
    kt.textContent = t("krou");
  }
  // The hole's letter and count on a dark chip, outside the rows.
  const [cw, ch] = size.chip;
  const cy = p.row === "bottom" ? p.y + HOLE_R + 6 + ch / 2 : p.y - HOLE_R - 6 - ch / 2;
  el("rect", { x: p.x - cw / 2, y: cy - ch / 2, width: cw, height: ch, rx: ch / 2, fill: "#1e1005", opacity: 0.82, "aria-hidden": "true", class: "chip" }, svg);
  const pad = ch * 0.26;
  const lt = el("text", { x: p.x - cw / 2 + pad, y: cy + size.letter * 0.36, "text-anchor": "start", class: "letter", "font-size": size.letter, "aria-hidden": "true" }, svg);
  lt.textContent = letter;
  const countSize = n >= 10 && !marks.noCount ? size.count2 : size.count;
  const ct = el("text", { x: p.x + cw / 2 - pad, y: cy + countSize * 0.36, "text-anchor": "end", class: "count", "font-size": countSize, "data-count": letter, "aria-hidden": "true" }, svg);
  ct.textContent = marks.noCount ? "" : n;
  if (marks.hand && marks.hand.hole === hole && marks.hand.n > 0 && !marks.noCount) {
    const r = size.hand * 0.95;
    el("circle", { cx: p.x, cy: p.y, r, fill: "#f0b64a", stroke: "#2a1a08", "stroke-width": 2 }, svg);
    const ht = el("text", { x: p.x, y: p.y + size.hand * 0.36, "text-anchor": "middle", class: "hand", "font-size": size.hand, "aria-hidden": "true" }, svg);
    ht.textContent = marks.hand.n;
  }
  const legal = !!(marks.legal && marks.legal.has(hole));
  const tappable = legal || !!(marks.mine && marks.mine.has(hole));
  const hit = el("circle", {
    cx: p.x, cy: p.y, r: HOLE_R + 8, fill: "transparent",
    class: "hole-hit" + (legal ? " legal" : "") + (tappable ? " tappable" : ""),
    "data-letter": letter,
    role: "button",
    tabindex: "-1",
    "aria-label": holeName(hole, n, marks.you, !!marks.noCount, !!marks.familiar) + (krou ? ` (${t("krou")})` : ""),
  }, svg);
  if (!legal) hit.setAttribute("aria-disabled", "true");
  if (legal) {
    el("circle", { cx: p.x, cy: p.y, r: HOLE_R + 3, fill: "none", stroke: "#f0b64a", "stroke-width": 4, class: "hole-ring", "pointer-events": "none" }, svg);
  }
}

// Seeds flying in an arc from one place of the board to another. Resolves
// when they land, even if the page is hidden and animation frames stop.
export function fly(svg, from, to, n, ms, arc = 70) {
  const g = el("g", { "pointer-events": "none" }, svg);
  drawSeeds(g, 0, 0, n, 7, HOLE_R - 3, HOLE_R - 3);
  const start = performance.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (!done) {
        done = true;
        g.remove();
        resolve();
      }
    };
    const step = (now) => {
      if (done) return;
      const k = Math.min(1, (now - start) / ms);
      const e = k < 0.5 ? 2 * k * k : 1 - Math.pow(-2 * k + 2, 2) / 2;
      const x = from.x + (to.x - from.x) * e;
      const y = from.y + (to.y - from.y) * e - Math.sin(Math.PI * k) * arc;
      const scale = n === 1 ? 1.15 : 1 - 0.3 * k;
      g.setAttribute("transform", `translate(${x.toFixed(1)} ${y.toFixed(1)}) scale(${scale})`);
      if (k < 1) requestAnimationFrame(step);
      else finish();
    };
    requestAnimationFrame(step);
    setTimeout(finish, ms + 100);
  });
}
