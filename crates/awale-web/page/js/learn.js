// The Learn view (Apprendre): four tabs, the lessons, the puzzles from
// the endgame databases, the analysis board and the player's mistakes, each with its addresses
// (see nav.js): #learn, #lesson=ID&step=N, #puzzles[&seed=S&difficulty=D],
// #analysis[&position=P&rules=R&moves=M | &game=ID&ply=N],
// #mistakes[&id=N | &game=ID] (learn from your mistakes), #explorer[&play=MOVES]
// (the opening explorer).

import * as analysis from "./analysis.js";
import * as databases from "./databases.js";
import * as explorer from "./explorer.js";
import * as lessons from "./lessons.js";
import * as mistakes from "./mistakes.js";
import * as nav from "./nav.js";
import * as puzzles from "./puzzles.js";

const $ = (sel) => document.querySelector(sel);
const TABS = ["lessons", "puzzles", "analysis", "mistakes", "explorer"];

// Shows the tab and what `route` names in it.
export async function route(r) {
  const tab = TABS.includes(r.tab) ? r.tab : "lessons";
  for (const name of TABS) {
    $(`#learn-${name}`).hidden = name !== tab;
    const b = $(`#tab-${name}`);
    if (name === tab) b.setAttribute("aria-current", "page");
    else b.removeAttribute("aria-current");
  }
  // How far the server's databases are; the puzzles asked again once
  // they come (a first start builds them).
  databases.follow(() => puzzles.retry());
  if (tab === "lessons") await lessons.show(r);
  else if (tab === "puzzles") await puzzles.show(r);
  else if (tab === "mistakes") await mistakes.show(r);
  else if (tab === "explorer") await explorer.show(r);
  else await analysis.show(r);
}

// Again in the page's language.
export function render() {
  databases.render();
  lessons.render();
  puzzles.redraw();
  analysis.redraw();
  mistakes.redraw();
  explorer.redraw();
}

export function wire() {
  lessons.wire();
  puzzles.wire();
  analysis.wire();
  mistakes.wire();
  explorer.wire();
  $("#tab-lessons").onclick = () => nav.go({ view: "learn", tab: "lessons" });
  $("#tab-puzzles").onclick = () => nav.go({ view: "learn", tab: "puzzles" });
  $("#tab-analysis").onclick = () => nav.go({ view: "learn", tab: "analysis" });
  $("#tab-mistakes").onclick = () => nav.go({ view: "learn", tab: "mistakes" });
  $("#tab-explorer").onclick = () => nav.go({ view: "learn", tab: "explorer" });
}
