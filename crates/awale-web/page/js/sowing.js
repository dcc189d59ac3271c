// The sowing of one move, seed by seed, then its captures going to the
// store, drawn from what the server says the move did: `sown` (the holes
// that got a seed, in order) and `captures` (the holes emptied). The page
// never works out the rules itself.

import { fly, layout, STORE } from "./board.js";
import { settings } from "./settings.js";
import { sound } from "./sound.js";
import { letterHole } from "./words.js";

function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

// The holes a ply sowed into and captured, from the server's view.
export function plyHoles(p) {
  return { origin: letterHole(p.move), sown: p.sown, captures: p.captures };
}

// Animates ply `p` of a game played under `columns`. `draw(shown, marks)`
// redraws the board; `alive()` turns false when the page shows another
// game, which stops the animation at once.
export async function animatePly(svg, p, columns, flipped, draw, alive) {
  const { origin, sown, captures } = plyHoles(p);
  const delay = settings.speed;
  const board = p.before.slice();
  const stores = p.stores_before.slice();
  const mover = p.side === "S" ? 0 : 1;
  const show = (marks) => draw({ board: board.slice(), stores: stores.slice(), to_move: p.side }, { last: origin, ...marks });
  if (delay <= 0) {
    if (captures.length) sound("capture");
    return;
  }
  let hand = board[origin];
  board[origin] = 0;
  show({ hand: { hole: origin, n: hand } });
  await sleep(delay);
  const L = layout(columns, flipped);
  let from = origin;
  for (const hole of sown) {
    if (!alive()) return;
    if (delay >= 60) await fly(svg, L.pos[from], L.pos[hole], 1, delay * 0.8, 18);
    if (!alive()) return;
    from = hole;
    board[hole]++;
    hand--;
    show({ hand: { hole, n: hand } });
    sound("seed");
    if (delay < 60) await sleep(delay);
  }
  await sleep(delay);
  const done = new Set();
  for (const hole of captures) {
    if (!alive()) return;
    const n = board[hole];
    board[hole] = 0;
    done.add(hole);
    show({ captured: new Set(done) });
    sound("capture");
    await fly(svg, L.pos[hole], { x: L.stores[p.side], y: STORE.y }, n, delay * 3);
    stores[mover] += n;
    if (alive()) show({ captured: new Set(done) });
  }
}
