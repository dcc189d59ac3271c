// The Rules page: its words are in the text tables (keys rules_*), its
// pictures are boards drawn here, with the marks the game uses.

import { drawBoard, CCW_COLUMNS, W, H } from "./board.js";

const FIGURES = {
  start: { board: new Array(12).fill(4), stores: [0, 0], to_move: "S", marks: {} },
  sow: { board: [4, 4, 4, 0, 5, 5, 5, 5, 4, 4, 4, 4], stores: [0, 0], to_move: "N", marks: { last: 3 } },
  krou: { board: [1, 14, 2, 3, 0, 2, 1, 3, 2, 0, 4, 1], stores: [7, 8], to_move: "S", marks: {} },
  capture: { board: [2, 1, 3, 0, 0, 5, 0, 0, 0, 4, 6, 1], stores: [16, 10], to_move: "N", marks: { last: 4, captured: new Set([6, 7, 8]) } },
};

// Draws the pictures (again: their words follow the language).
export function render() {
  for (const fig of document.querySelectorAll("#rules-text figure[data-fig]")) {
    const f = FIGURES[fig.dataset.fig];
    if (!f) continue;
    let svg = fig.querySelector("svg");
    if (!svg) {
      svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
      svg.setAttribute("role", "group");
      fig.prepend(svg);
    }
    svg.setAttribute("aria-label", fig.querySelector("figcaption").textContent);
    drawBoard(svg, f, CCW_COLUMNS, false, { krou: true, ...f.marks });
  }
}
