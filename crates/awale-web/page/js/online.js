// Online play: the nickname, a game's links (invite, watch, continue on
// another device) with their QR codes and the addresses that open them, who
// is connected, and what the players ask of each other (takeback, draw, abort,
// claim, rematch).

import { api } from "./api.js";
import { button } from "./dom.js";
import { apply, onLive, session } from "./game.js";
import { isolate, t } from "./i18n.js";
import * as nav from "./nav.js";
import { wordedName } from "./people.js";
import { mySides, personSide } from "./play-view.js";
import { showError, toast } from "./toast.js";
import { other, ratingChange, sideName } from "./words.js";

const $ = (sel) => document.querySelector(sel);

// A player gone for less than this may be reconnecting (a reload, a
// network change, the server starting again): they are not said to
// have left before.
const GONE_AFTER_MS = 5_000;

// ------------------------------------------------------------ nickname --

// Who this browser is: {name, guest, account} from the server (GET
// /api/me); `account` when it is logged in.
export const me = { name: null, guest: null, account: null };

// One request at a time: a browser without a cookie yet gets one from the
// first answer, and every later request sends it.
let asking = null;

export function loadMe() {
  asking = asking || api("GET", "/api/me").then((answer) => Object.assign(me, answer), () => {
    // Offline for now: the nickname is asked for again when needed.
  }).then(() => {
    asking = null;
    return me;
  });
  return asking;
}

// The nickname to show and to send: the chosen one, else "Invité 4821".
export function nickname() {
  if (me.name) return me.name;
  return me.guest ? t("guest_name", me.guest) : t("guest_name", "");
}

// Sets the nickname (1 to 24 characters); the server's refusal is thrown.
export async function rename(name) {
  Object.assign(me, await api("POST", "/api/me", { name }));
  for (const f of renamed) f();
}

const renamed = [];

export function onRename(f) {
  renamed.push(f);
}

// --------------------------------------------------------------- links --

// Copies the text of `input` (a read-only field), and says so on `button`.
async function copy(input, button) {
  let done = false;
  try {
    await navigator.clipboard.writeText(input.value);
    done = true;
  } catch (e) {
    // No clipboard API here (a page not served over HTTPS): the old way.
    input.focus();
    input.select();
    try {
      done = document.execCommand("copy");
    } catch (e2) {
      done = false;
    }
  }
  button.textContent = done ? t("copied") : t("copy_by_hand");
  clearTimeout(button.timer);
  button.timer = setTimeout(() => { button.textContent = t("copy"); }, 2500);
}

// Shows `link` in the field `input` and its QR code `qr` (SVG drawn by
// the server, null when the link is too long for one, undefined while it
// is on its way) in `svg`.
function showLink(input, svg, link, qr) {
  if (input.value !== link) input.value = link;
  if (svg.dataset.link === link && (svg.dataset.drawn || !qr)) return;
  svg.dataset.link = link;
  svg.dataset.drawn = "";
  const drawn = qr && new DOMParser().parseFromString(qr, "image/svg+xml").documentElement;
  if (!drawn || drawn.nodeName !== "svg") {
    svg.setAttribute("hidden", ""); // the link alone
    return;
  }
  svg.dataset.drawn = "yes";
  svg.setAttribute("viewBox", drawn.getAttribute("viewBox"));
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.replaceChildren(...[...drawn.children].map((n) => document.importNode(n, true)));
  svg.removeAttribute("hidden");
}

// The dialog of one link: to watch the game, or to continue elsewhere.
function openLinkDialog(title, text, link, qr) {
  $("#dlg-link-title").textContent = title;
  $("#link-text").textContent = text;
  showLink($("#link-value"), $("#link-qr"), link, qr);
  $("#link-copy").textContent = t("copy");
  const dlg = $("#dlg-link");
  if (!dlg.open) dlg.showModal();
}

// ------------------------------------------------- the game's addresses --

// What an address's query asks (the links the server gives): join a game
// (`?join=ID`, with `&k=KEY` for a private game's invitation), watch one
// (`?game=ID`), or take a seat from another device (`?continue=TOKEN`).
// Returns the route to show, or null; the query is then removed from the
// address, so that a reload does not ask again.
export async function fromAddress() {
  const params = new URLSearchParams(location.search);
  const id = params.get("join") || params.get("game");
  const key = params.get("k");
  const token = params.get("continue");
  if (!params.has("join") && !params.has("game") && !token) return null;
  history.replaceState(null, "", location.pathname + location.hash);
  if (token) {
    await loadMe(); // the player's cookie, on a device that has none yet
    try {
      const view = await api("POST", "/api/handoff", { token });
      toast(() => t("continued_here"));
      return { view: "play", game: view.id, created: view };
    } catch (e) {
      showError(e);
      return null;
    }
  }
  if (!nav.isGameId(id)) return null;
  if (params.has("join")) {
    await loadMe();
    try {
      const body = key ? { name: nickname(), key } : { name: nickname() };
      const view = await api("POST", `/api/games/${id}/join`, body);
      return { view: "play", game: view.id, created: view };
    } catch (e) {
      // Taken, over, or already ours: the game is shown all the same
      // (to watch, or to play on); only a missing game is an error.
      if (e.status === 404) {
        showError(e);
        return null;
      }
      if (e.code === "seat_taken") toast(() => t("seat_taken_watch"));
      // A private game's seat without the whole invitation: said, and
      // the game is watched.
      if (e.code === "invite_key") showError(e);
    }
  }
  return { view: "play", game: id };
}

// ------------------------------------------------- the game on the page --

const notes = {
  id: null, // the game these notes are about
  presence: null, // {connected: [S, N], spectators}
  goneAt: [null, null], // when each player was seen leaving (page's clock)
  actions: null, // the server's last word on what each player may do
  actionsAt: 0, // and when it came (page's clock)
  links: null, // {invite, watch}, and invite_qr, watch_qr once asked
  asking: false, // the links are on their way
  handoff: false, // this page gave a link to continue elsewhere
  openRematch: false, // a view of this game without a rematch was shown
};
// Games whose rematch this page already followed.
const followed = new Set();

function reset(id) {
  Object.assign(notes, {
    id, presence: null, goneAt: [null, null], actions: null, actionsAt: 0, links: null, asking: false,
    handoff: false, openRematch: false,
  });
}

// The side this page plays in an online game, or null (a spectator).
function mySide(g) {
  return g && g.mode === "online" ? personSide(g) : null;
}

// A seat's nickname, isolated from the sentence around it (a name in
// another script, or one that ends with a bidi mark, leaves the sentence
// as it is); the side's name for a free seat.
function seatName(g, side) {
  const seat = g.seats && g.seats[side === "S" ? 0 : 1];
  return seat ? isolate(wordedName(seat.name)) : sideName(side);
}

function goingOn(g) {
  return !g.end && !g.waiting;
}

function onPresence(p) {
  const now = Date.now();
  const before = notes.presence;
  for (const i of [0, 1]) {
    // The server says for how long a seat has had no connection.
    const away = p.away_ms ? p.away_ms[i] : 0;
    if (!p.connected[i] && (!before || before.connected[i] || notes.goneAt[i] === null)) notes.goneAt[i] = now - away;
    if (p.connected[i]) notes.goneAt[i] = null;
  }
  notes.presence = p;
  render();
  // A player who came or went changes when a claim may come: the
  // server's view says it anew.
  const g = session.game;
  const moved = before && [0, 1].some((i) => before.connected[i] !== p.connected[i]);
  if (moved && g && g.mode === "online" && goingOn(g) && mySide(g)) refresh(g.id);
}

// The game asked again, shown when it is still the one on the page.
async function refresh(id) {
  try {
    await apply(await api("GET", `/api/games/${id}`), false);
  } catch (e) {
    // The next event tries again.
  }
}

// The stream lost: who is here is not known until it is back (the
// server, not the opponent, may be the one gone).
function onConnection(up) {
  if (!up) notes.presence = null;
  render();
}

// A fresh stream (the first state of a connection): who is here is sent
// again right after; the links and `you` may have changed meanwhile.
function onStream() {
  notes.presence = null;
}

// After this page gave its seat away, every change may be the other
// device taking it: the game is asked again, with the sides it plays now.
async function onState(view) {
  if (!notes.handoff || view.id !== session.id || !mySides(session.latest).length) return;
  await refresh(view.id);
}

// Runs an online request about the game shown; its answer is shown.
async function request(path, body = {}) {
  const g = session.game;
  if (!g) return null;
  try {
    const view = await api("POST", `/api/games/${g.id}/${path}`, body);
    if (view && view.id === session.id) await apply(view, false);
    return view;
  } catch (e) {
    showError(e);
    return null;
  }
}

// ------------------------------------------------------------ drawing --

export function render() {
  const g = session.game;
  const online = !!g && g.mode === "online";
  $("#online").hidden = !online;
  for (const box of document.querySelectorAll(".player .presence")) box.hidden = !online;
  if (!online) return;
  if (notes.id !== g.id) reset(g.id);
  if (!g.offers.rematch_id) notes.openRematch = true;
  // The server says what each player may do, counted from its view.
  if (notes.actions !== g.actions) {
    notes.actions = g.actions;
    notes.actionsAt = Date.now();
  }
  const side = mySide(g);
  renderInvite(g, side);
  renderPresence(g, side);
  renderOffer(g, side);
  renderActions(g, side);
  renderRatingChange(g);
  followRematch(g, side);
}

// A rated game's end tells both players what it did to their ratings
// (`+12`, `−12`; "?" while a rating is provisional).
function renderRatingChange(g) {
  const line = $("#rating-change");
  const c = g.end && g.rating_changes;
  line.hidden = !c;
  if (!c) return;
  const shown = (r) => r.after + (r.provisional ? "?" : "");
  line.textContent = t(
    "rating_change",
    seatName(g, "S") || sideName("S"), c[0].before, shown(c[0]), ratingChange(c[0].change),
    seatName(g, "N") || sideName("N"), c[1].before, shown(c[1]), ratingChange(c[1].change),
  );
}

function renderInvite(g, side) {
  const waiting = g.waiting && !g.end;
  $("#invite").hidden = !waiting || !side;
  if (!waiting || !side) return;
  $("#invite-text").textContent = t("invite_text");
  const links = notes.links;
  if (links && links.invite) {
    showLink($("#invite-link"), $("#invite-qr"), links.invite, links.invite_qr);
    // The code comes apart: the invitation to pass on does not wait for
    // the server to draw it (asked again at a later view if that failed).
    if (!("invite_qr" in links) && !(links.asked && links.asked.invite)) {
      linkCode(g.id, links, "invite").then(() => notes.links === links && render(), () => {});
    }
  } else if (!notes.asking) {
    notes.asking = true;
    const id = g.id;
    api("GET", `/api/games/${id}/links`).then((links) => {
      if (notes.id !== id) return;
      notes.links = links;
      render();
    }, (e) => {
      notes.asking = false;
      showError(e);
    });
  }
}

// Adds to `links` (game `id`'s) the QR code of its link `name` ("invite"
// or "watch"), drawn by the server, once: as `invite_qr` or `watch_qr`.
async function linkCode(id, links, name) {
  const key = `${name}_qr`;
  if (!(key in links)) {
    const asked = (links.asked ||= {});
    asked[name] ||= api("GET", `/api/games/${id}/links/qr?link=${name}`).finally(() => { asked[name] = null; });
    links[key] = (await asked[name]).qr;
  }
  return links;
}

function renderPresence(g, side) {
  const p = notes.presence;
  for (const box of document.querySelectorAll(".player")) {
    const dot = box.querySelector(".presence");
    const s = box.dataset.side;
    const seated = !!(g.seats && g.seats[s === "S" ? 0 : 1]);
    const here = !!p && p.connected[s === "S" ? 0 : 1];
    dot.hidden = !seated || !p;
    dot.className = "presence " + (here ? "here" : "gone");
    const label = t(here ? "presence_here" : "presence_gone", seatName(g, s));
    dot.title = label;
    dot.setAttribute("aria-label", label);
    dot.setAttribute("role", "img");
    // A person playing from another client through the board API shows
    // as such (the server's presence says which seats: `api`).
    let via = box.querySelector(".via-api");
    if (!via) {
      via = document.createElement("span");
      via.className = "via-api";
      via.style.marginInlineStart = "0.4em";
      dot.after(via);
    }
    const api = seated && !!(p && p.api && p.api[s === "S" ? 0 : 1]);
    via.hidden = !api;
    if (api) {
      via.textContent = t("via_api");
      via.title = t("via_api_label", seatName(g, s));
    }
  }
  const line = $("#presence");
  const parts = [];
  if (!side) parts.push(t("you_watch"));
  else if (!g.waiting && p) {
    const them = other(side);
    const i = them === "S" ? 0 : 1;
    const gone = notes.goneAt[i] !== null && Date.now() - notes.goneAt[i] >= GONE_AFTER_MS;
    const key = p.connected[i] ? "opponent_here" : gone ? "opponent_gone" : "opponent_reconnecting";
    parts.push(t(key, seatName(g, them)));
  }
  if (p) parts.push(t("spectators_n", p.spectators));
  line.textContent = parts.join(" · ");
}

function renderOffer(g, side) {
  const box = $("#offer");
  box.textContent = "";
  const o = g.offers;
  const text = document.createElement("p");
  const actions = document.createElement("div");
  actions.className = "actions";
  // An offer (`takeback`, `draw`, `rematch`) made by seat `by`, in words
  // to a watcher and to its maker (`waiting`, the other seat's name in
  // them); the one it asks accepts (the request's body: `accept`) or
  // declines.
  const offered = (kind, by, [byKey, waiting, toYou], accept) => {
    if (!side) text.textContent = t(byKey, seatName(g, by));
    else if (by === side) text.textContent = t(waiting, seatName(g, other(side)));
    else {
      text.textContent = t(toYou, seatName(g, by));
      actions.append(
        button(t("accept"), "primary", () => request(kind, accept)),
        button(t("decline"), "", () => request(kind, { accept: false })),
      );
    }
  };
  if (o.takeback_declined && o.takeback_declined === side && goingOn(g)) {
    text.textContent = t("takeback_declined", seatName(g, other(side)));
  } else if (o.takeback && goingOn(g)) {
    offered("takeback", o.takeback, ["takeback_asked_by", "takeback_waiting", "takeback_asked_you"], { accept: true });
  } else if (o.draw && goingOn(g)) {
    offered("draw", o.draw, ["draw_offered_by", "draw_waiting", "draw_offered_you"], { accept: true });
  } else if (o.draw_declined && o.draw_declined === side && goingOn(g)) {
    text.textContent = t("draw_declined", seatName(g, other(side)));
  } else if (o.rematch && !o.rematch_id && g.end) {
    offered("rematch", o.rematch, ["rematch_offered_by", "rematch_waiting", "rematch_offered_you"], {});
  } else if (o.rematch_declined && o.rematch_declined === side && g.end && !o.rematch_id) {
    text.textContent = t("rematch_declined", seatName(g, other(side)));
  }
  box.hidden = !text.textContent;
  if (!box.hidden) box.append(text, actions);
}

function renderActions(g, side) {
  const o = g.offers;
  const player = !!side;
  const now = Date.now();
  // What the server allows this player (abort, claim: in so many ms from
  // its view), never derived here.
  const mine = (player && g.actions && g.actions[side]) || {};
  const left = (ms) => (ms === null || ms === undefined ? null : Math.max(0, ms - (now - notes.actionsAt)));
  const show = {
    "#btn-takeback": !!mine.takeback,
    "#btn-draw": !!mine.draw,
    "#btn-abort": player && !g.waiting && left(mine.abort_in_ms) === 0,
    "#btn-withdraw": player && g.waiting && !g.end,
    "#btn-rematch": !!mine.rematch,
    "#btn-follow": !player && !!o.rematch_id,
    "#btn-handoff": player && !g.end,
    "#btn-share": !g.waiting || !player,
  };
  for (const [sel, on] of Object.entries(show)) $(sel).hidden = !on;
  // The server says from when the win may be claimed (the opponent, to
  // move, gone long enough), as the presence it last saw: a change of
  // presence asks it again (see onPresence).
  const note = $("#claim-note");
  const claim = $("#btn-claim");
  const claimIn = player ? left(mine.claim_in_ms) : null;
  claim.hidden = claimIn === null;
  note.hidden = claimIn === null;
  if (claimIn !== null) {
    const wait = Math.ceil(claimIn / 1000);
    claim.disabled = wait > 0;
    note.textContent = wait > 0 ? t("claim_in", wait) : t("claim_now");
  }
}

// Both players go to the rematch once it is made; spectators get a button.
function followRematch(g, side) {
  const next = g.offers.rematch_id;
  if (!next || !side || !notes.openRematch || followed.has(g.id)) return;
  followed.add(g.id);
  nav.go({ view: "play", game: next });
}

// The countdowns (abort, claim) and who has left move with time, not
// only with events.
setInterval(() => {
  const g = session.game;
  if (g && g.mode === "online" && goingOn(g) && mySide(g)) {
    renderPresence(g, mySide(g));
    renderActions(g, mySide(g));
  }
}, 1000);

// ------------------------------------------------------------- wiring --

async function handoff() {
  const g = session.game;
  if (!g) return;
  try {
    const { link, qr } = await api("POST", `/api/games/${g.id}/handoff`);
    notes.handoff = true;
    openLinkDialog(t("handoff_title"), t("handoff_text"), link, qr);
  } catch (e) {
    showError(e);
  }
}

async function share() {
  const g = session.game;
  if (!g) return;
  try {
    const links = notes.links && notes.id === g.id ? notes.links : await api("GET", `/api/games/${g.id}/links`);
    if (notes.id === g.id) notes.links = links;
    // While a seat is free the invite takes it; afterwards both watch.
    // (Only the players are given the invitation.)
    const invite = g.waiting && links.invite;
    const name = invite ? "invite" : "watch";
    const [link, key] = [links[name], `${name}_qr`];
    openLinkDialog(t("share_title"), t(invite ? "invite_text" : "share_text"), link, links[key]);
    if (key in links) return;
    // The link at once, its code drawn when it comes (else the link alone).
    await linkCode(g.id, links, name).catch(() => {});
    if ($("#dlg-link").open && $("#link-value").value === link) {
      showLink($("#link-value"), $("#link-qr"), link, links[key]);
    }
  } catch (e) {
    showError(e);
  }
}

export function wire() {
  onLive("presence", onPresence);
  onLive("connection", onConnection);
  onLive("stream", onStream);
  onLive("state", onState);
  $("#invite-copy").onclick = () => copy($("#invite-link"), $("#invite-copy"));
  $("#link-copy").onclick = () => copy($("#link-value"), $("#link-copy"));
  for (const input of [$("#invite-link"), $("#link-value")]) input.onfocus = () => input.select();
  $("#btn-withdraw").onclick = () => request("abort");
  $("#btn-abort").onclick = () => request("abort");
  $("#btn-claim").onclick = () => request("claim");
  $("#btn-takeback").onclick = () => request("takeback");
  $("#btn-draw").onclick = () => request("draw");
  $("#btn-rematch").onclick = () => request("rematch");
  $("#btn-follow").onclick = () => session.game && session.game.offers.rematch_id &&
    nav.go({ view: "play", game: session.game.offers.rematch_id });
  $("#btn-handoff").onclick = handoff;
  $("#btn-share").onclick = share;
}
