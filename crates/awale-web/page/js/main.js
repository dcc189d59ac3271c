// Awalé in the browser: starts the page, routes its addresses to views and
// wires the menu. Modules: i18n (words), api/live (the server), game (the
// game shown), board/sowing (drawing), play-view, review, games, rules,
// dialogs, nav (addresses), learn (lessons, puzzles, analysis board);
// online play: online, lobby, chat, crowd, qr, challenges; players (players' pages,
// leaderboards).

import * as account from "./account.js";
import { api } from "./api.js";
import * as challenges from "./challenges.js";
import * as chat from "./chat.js";
import * as crowd from "./crowd.js";
import * as dialogs from "./dialogs.js";
import * as game from "./game.js";
import * as games from "./games.js";
import * as learn from "./learn.js";
import * as local from "./local.js";
import { getLang, onLangChange, setLang, t, translatePage } from "./i18n.js";
import * as lobby from "./lobby.js";
import * as nav from "./nav.js";
import * as online from "./online.js";
import * as play from "./play-view.js";
import * as ladder from "./ladder.js";
import * as players from "./players.js";
import * as review from "./review.js";
import * as rules from "./rules.js";
import * as turns from "./turns.js";
import * as tournaments from "./tournaments.js";
import { applyContrast, loadJson, saveJson, settings, setSound } from "./settings.js";
import { sound } from "./sound.js";
import { showError, toast } from "./toast.js";
import { setPresets } from "./words.js";

const $ = (sel) => document.querySelector(sel);
const VIEWS = ["play", "lobby", "games", "rules", "learn", "players", "tournament", "ladder"];
let firstLoad = true;
// The page started again after a log-in, a sign-up or a log-out
// (account.js): not a first visit.
const restarted = sessionStorage.getItem("awale.restarted");
sessionStorage.removeItem("awale.restarted");

function showView(name) {
  for (const v of VIEWS) $("#view-" + v).hidden = v !== name;
  for (const [v, id] of [["play", "#btn-play"], ["lobby", "#btn-lobby"], ["games", "#btn-games"], ["rules", "#btn-rules"], ["learn", "#btn-learn"]]) {
    const b = $(id);
    if (v === name) b.setAttribute("aria-current", "page");
    else b.removeAttribute("aria-current");
  }
  if (name === "rules") rules.render();
  if (name === "games") games.render();
  if (name === "lobby") {
    lobby.open();
    tournaments.fillList();
  }
  else lobby.stop();
  // Each view's stream is closed when it is left (a tournament's is kept
  // while the viewer plays in it): with the game's and the player's own,
  // a page holds few of the browser's connections to the server.
  if (name !== "tournament") tournaments.leave();
}

// The game going on for this player (the server's view), if any; none
// when the server cannot be asked.
async function currentGame() {
  try {
    return (await api("GET", "/api/games/current")).game;
  } catch (e) {
    return null;
  }
}

// Shows what an address names (see nav.js). Called on every change of
// address, from a click or from Back and Forward.
async function route(r) {
  const at = location.hash;
  showView(r.view);
  if (r.view === "learn") await learn.route(r);
  if (r.view === "players") await players.route(r);
  if (r.view === "tournament") await tournaments.route(r);
  if (r.view === "ladder") await ladder.route(r);
  if (r.view !== "play") return;
  if (!r.game) {
    // No game named: the game going on, else the welcome.
    let g = null;
    try {
      g = (await api("GET", "/api/games/current")).game;
    } catch (e) {
      showError(e);
    }
    if (g) {
      nav.note({ view: "play", game: g.id });
      await game.show(g);
    } else if (firstLoad && (await lobby.busy())) {
      // Arriving with nothing going on here while others play or wait
      // online: the lobby.
      game.select(null);
      nav.go({ view: "lobby" }, true);
    } else {
      // Nothing going on: the welcome, and the new game dialog once.
      game.select(null);
      play.setWelcome(true);
      // Not after a log-in or a sign-up (the page started again), nor
      // over a view gone to while the server was asked.
      if (firstLoad && !restarted && location.hash === at) dialogs.openNewGame();
    }
    firstLoad = false;
    return;
  }
  firstLoad = false;
  if (game.session.id !== r.game || r.refresh) {
    review.hide();
    try {
      if (r.created) await game.show(r.created);
      else if (!(await game.open(r.game))) return;
    } catch (e) {
      game.select(null);
      // No answer at all (no network, or the server down): a game of the
      // server's cannot be reached now, which the welcome says, with what
      // works without it.
      const unreachable = e.code === "network" && !local.isLocal(r.game);
      if (r.fallback) {
        // The game shown last is not on this server (any more); kept when
        // the server could not be asked.
        if (!unreachable) localStorage.removeItem("awale.last");
        return route({ view: "play" });
      }
      play.setWelcome(true, unreachable ? r.game : null);
      if (!unreachable) showError(e);
      return;
    }
    // An old link's number, or a game played offline and sent since, is
    // the game of the server's id now: the address follows.
    const renamed = !!game.session.id && game.session.id !== r.game;
    if (renamed) r = { ...r, game: game.session.id };
    if (r.fallback || renamed) nav.note(r);
  } else if (!game.session.game) {
    await game.session.queue;
  }
  if (game.session.id !== r.game) return;
  play.setReplay(r.ply ?? null);
  // Just started from the new game dialog.
  if (r.created) play.started();
  if (r.review) review.open();
  else review.hide();
}

function applySound() {
  const b = $("#btn-sound");
  b.querySelector("use").setAttribute("href", settings.sound ? "#i-sound" : "#i-muted");
  b.setAttribute("aria-pressed", String(settings.sound));
}

function applyLanguage() {
  const other = getLang() === "fr" ? "en" : "fr";
  const b = $("#btn-lang");
  b.textContent = other.toUpperCase();
  b.lang = other;
  // Its name holds what it shows (WCAG's label in name), in its language.
  b.setAttribute("aria-label", other === "en" ? "EN, English" : "FR, français");
  b.title = other === "en" ? "English" : "Français";
  account.render();
  dialogs.fillLevels();
  play.render();
  review.redraw();
  if (!$("#view-lobby").hidden) lobby.render();
  if (!$("#view-rules").hidden) rules.render();
  if (!$("#view-games").hidden) games.render();
  if (!$("#view-players").hidden) players.render();
  if (!$("#view-ladder").hidden) ladder.render();
  tournaments.render();
  learn.render();
}

function setInfo(info) {
  setPresets(info && info.preset_rules);
  play.setInfo(info);
  games.setInfo(info);
  dialogs.setInfo(info);
}

function wire() {
  play.wire();
  games.wire();
  online.wire();
  players.wire();
  account.wire();
  challenges.wire();
  chat.wire();
  crowd.wire();
  lobby.wire(() => dialogs.openNewGame("online"));
  tournaments.setup();
  play.onRender(online.render);
  play.onRender(chat.render);
  play.onRender(crowd.render);
  learn.wire();
  dialogs.wire(applySound, () => play.render());
  play.setActions({
    review: () => game.session.game && nav.go({ view: "play", game: game.session.game.id, review: true }),
    newGame: dialogs.openNewGame,
  });
  $("#btn-new").onclick = dialogs.openNewGame;
  $("#welcome-new").onclick = dialogs.openNewGame;
  $("#welcome-rules").onclick = () => nav.go({ view: "rules" });
  $("#welcome-online").onclick = () => nav.go({ view: "lobby" });
  $("#btn-lobby").onclick = () => nav.go({ view: "lobby" });
  $("#btn-play").onclick = () => nav.go(game.session.id ? { view: "play", game: game.session.id } : { view: "play" });
  $("#btn-games").onclick = () => nav.go({ view: "games" });
  $("#btn-rules").onclick = () => nav.go({ view: "rules" });
  $("#btn-learn").onclick = () => nav.go({ view: "learn", tab: "lessons" });
  $("#btn-review").onclick = () => game.session.game && nav.go({ view: "play", game: game.session.game.id, review: true });
  $("#btn-lang").onclick = () => setLang(getLang() === "fr" ? "en" : "fr");
  $("#btn-sound").onclick = () => {
    setSound(!settings.sound);
    if (settings.sound) sound("seed");
    applySound();
  };
  onLangChange(applyLanguage);
  // Kid mode turned on or off: names and chat are drawn again.
  document.addEventListener("awale-kid", () => play.render());
  nav.onRoute(route);
}

async function main() {
  applyContrast();
  translatePage();
  wire();
  applySound();
  applyLanguage();
  // What the server said last time, so a repeat visit draws at once; the
  // fresh answers replace it as they come.
  const cachedInfo = loadJson("awale.info");
  if (cachedInfo) setInfo(cachedInfo);
  // Who this browser is online (its nickname, its account), for later.
  online.loadMe().then(() => {
    account.render();
    play.render();
    // The player's own stream: challenges seen at once, wherever they are.
    challenges.start();
  });
  // An invite, watch or "continue here" link first (online.js), then
  // written as the game's address.
  const linked = await online.fromAddress();
  if (linked) nav.note(linked);
  // With no game in the address, the game shown last; drawn at once from
  // what the page kept of it, then brought up to date.
  const start = linked || nav.parse(location.hash);
  const last = loadJson("awale.last");
  let r = start;
  if (start.view === "play" && !start.game && last && last.id) r = { view: "play", game: last.id, fallback: true };
  // The game kept here is over: a game going on (begun on another device,
  // or in another tab) comes first.
  if (r.fallback && last.end && (await currentGame())) r = { view: "play" };
  if (r.view === "play" && r.game && last && last.id === r.game) {
    showView("play");
    game.select(last.id);
    await game.apply(last, false);
    r.refresh = true;
  }
  performance.mark("awale-usable");
  const infoRequest = api("GET", "/api/info").then((info) => {
    saveJson("awale.info", info);
    setInfo(info);
    applyLanguage();
  }, showError);
  await route(r);
  await infoRequest;
  // What the account's change that started the page again says (a
  // password reset by a recovery code: done, logged in).
  if (restarted && restarted !== "1") {
    const said = restarted;
    toast(() => t(said));
  }
  // The games played here without a network go to the server once it
  // answers again.
  local.sync();
  // The games where it is this player's move (games over days).
  turns.start();
  window.addEventListener("online", () => local.sync());
  setInterval(() => local.sync(), 30000);
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js").catch(() => {
      // Without it the page works as well; repeat visits are slower.
    });
  }
}

main();
