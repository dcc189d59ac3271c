// Addresses: each view and game has its own, kept in the URL's hash so
// that it can be shared, reloaded, and walked with Back and Forward:
//   #game=ID          a game on the board (its public id, `aB3dE9xQ2k`)
//   #game=ID&ply=5    the game replayed after 5 plies (0: the start)
//   #game=ID&review   the game with its review
//   #games, #rules    the list of games, the rules
//   #lobby            online play: challenges and games to watch
//   #player=NAME      a player's page (players.js; `/@/NAME` leads here)
//   #tournament=ID    an arena's page (tournaments.js)
//   #leaderboard=SPEED the best players of a speed (`blitz`...)
//   #ladder=LADDER    the engine ladder's bots (`bullet`, `blitz`; ladder.js)
//   #learn, #lesson=sow&step=2, #puzzles&seed=7&difficulty=3,
//   #analysis&position=DIAGRAM&rules=awale&moves=FfA, #analysis&game=ID&ply=5,
//   #mistakes, #mistakes&id=N, #mistakes&game=ID, #explorer&play=FfA
//                     the Learn view's tabs (learn.js)
// The router (main.js) turns an address into what the page shows.

let router = () => {};

export function onRoute(f) {
  router = f;
  window.addEventListener("popstate", () => router(parse(location.hash)));
  window.addEventListener("hashchange", () => router(parse(location.hash)));
}

export function parse(hash) {
  const text = String(hash || "").replace(/^#/, "");
  const params = new URLSearchParams(text);
  const learn = parseLearn(text, params);
  if (learn) return learn;
  if (params.has("game")) {
    // The server's games have public ids of letters and digits (an old
    // link's number opens the game for its players); those played offline
    // are kept in the browser as `offline-...` (local.js).
    const id = params.get("game");
    if (isGameId(id)) {
      const route = { view: "play", game: id };
      const ply = params.get("ply");
      if (ply !== null && /^\d+$/.test(ply)) route.ply = Number(ply);
      if (params.has("review")) route.review = true;
      return route;
    }
  }
  if (params.has("player")) {
    const name = params.get("player");
    if (/^[A-Za-z0-9_-]{1,20}$/.test(name)) return { view: "players", player: name };
  }
  if (params.has("tournament")) {
    const id = params.get("tournament");
    if (/^[1-9][0-9]{0,15}$/.test(id)) return { view: "tournament", tournament: Number(id) };
  }
  if (params.has("leaderboard")) {
    const speed = params.get("leaderboard");
    return { view: "players", board: /^[a-z_]{1,20}$/.test(speed) ? speed : "blitz" };
  }
  if (params.has("ladder")) {
    const name = params.get("ladder");
    return { view: "ladder", ladder: /^[a-z]{1,20}$/.test(name) ? name : "bullet" };
  }
  if (text === "games" || text === "rules" || text === "lobby") return { view: text };
  return { view: "play" };
}

// Whether `text` names a game: a server's public id (or an old link's
// number), or a game kept in the browser.
export function isGameId(text) {
  return typeof text === "string" && (/^[A-Za-z0-9]{1,32}$/.test(text) || /^offline-[a-z0-9]{1,16}$/.test(text));
}

// The Learn view's addresses (see the top of this file).
function parseLearn(text, params) {
  const number = (key) => {
    const v = params.get(key);
    return v !== null && /^\d{1,10}$/.test(v) ? Number(v) : undefined;
  };
  if (text === "learn") return { view: "learn", tab: "lessons" };
  if (params.has("lesson")) {
    return { view: "learn", tab: "lessons", lesson: params.get("lesson"), step: number("step") };
  }
  if (params.has("puzzles")) {
    const theme = params.get("theme");
    const r = { view: "learn", tab: "puzzles", seed: number("seed"), difficulty: number("difficulty") };
    if (theme && /^[a-z_]{1,20}$/.test(theme)) r.theme = theme;
    if (params.get("streak") === "1") r.streak = true;
    return r;
  }
  if (params.has("mistakes")) {
    const r = { view: "learn", tab: "mistakes", id: number("id") };
    if (isGameId(params.get("game"))) r.game = params.get("game");
    return r;
  }
  if (params.has("explorer")) {
    const play = params.get("play");
    return { view: "learn", tab: "explorer", play: play && /^[A-Fa-f]{1,400}$/.test(play) ? play : "" };
  }
  if (params.has("analysis")) {
    const r = { view: "learn", tab: "analysis" };
    for (const key of ["position", "rules", "moves"]) if (params.get(key)) r[key] = params.get(key);
    if (isGameId(params.get("game"))) {
      r.game = params.get("game");
      r.ply = number("ply");
    }
    return r;
  }
  return null;
}

function formatLearn(route) {
  const q = new URLSearchParams();
  if (route.tab === "puzzles") {
    if (route.seed !== undefined) q.set("seed", route.seed);
    if (route.difficulty) q.set("difficulty", route.difficulty);
    if (route.theme) q.set("theme", route.theme);
    if (route.streak) q.set("streak", "1");
    return "#puzzles" + (q.size ? "&" + q : "");
  }
  if (route.tab === "mistakes") {
    if (route.id !== undefined) q.set("id", route.id);
    else if (route.game) q.set("game", route.game);
    return "#mistakes" + (q.size ? "&" + q : "");
  }
  if (route.tab === "explorer") {
    return "#explorer" + (route.play ? "&play=" + route.play : "");
  }
  if (route.tab === "analysis") {
    if (route.game) {
      q.set("game", route.game);
      if (route.ply !== undefined) q.set("ply", route.ply);
    } else {
      for (const key of ["position", "rules", "moves"]) if (route[key]) q.set(key, route[key]);
    }
    return "#analysis" + (q.size ? "&" + q : "");
  }
  if (route.lesson) {
    q.set("lesson", route.lesson);
    if (route.step) q.set("step", route.step);
    return "#" + q;
  }
  return "#learn";
}

export function format(route) {
  if (route.view === "games" || route.view === "rules" || route.view === "lobby") return "#" + route.view;
  if (route.view === "players") {
    return route.player ? "#player=" + encodeURIComponent(route.player) : "#leaderboard=" + (route.board || "blitz");
  }
  if (route.view === "learn") return formatLearn(route);
  if (route.view === "tournament") return "#tournament=" + route.tournament;
  if (route.view === "ladder") return "#ladder=" + (route.ladder || "bullet");
  if (!route.game) return "#";
  let h = `#game=${route.game}`;
  if (route.ply !== undefined && route.ply !== null) h += `&ply=${route.ply}`;
  if (route.review) h += "&review";
  return h;
}

// Goes to `route`: a new history entry, or in place of this one.
export function go(route, replace = false) {
  const url = format(route);
  if (url !== location.hash && !(url === "#" && !location.hash)) {
    const target = url === "#" ? location.pathname + location.search : url;
    if (replace) history.replaceState(null, "", target);
    else history.pushState(null, "", target);
  }
  router(route);
}

// Writes `route` as the address without a new entry or routing (the page
// already shows it).
export function note(route) {
  const url = format(route);
  if (url !== location.hash) history.replaceState(null, "", url === "#" ? location.pathname + location.search : url);
}
