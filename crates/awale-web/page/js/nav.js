// Addresses: each view and game has its own, kept in the URL's hash so
// that it can be shared, reloaded, and walked with Back and Forward:
//   #game=12          game 12 on the board
//   #game=12&ply=5    game 12 replayed after 5 plies (0: the start)
//   #game=12&review   game 12 with its review
//   #games, #rules    the list of games, the rules
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
  if (params.has("game")) {
    const id = Number(params.get("game"));
    if (Number.isInteger(id) && id > 0) {
      const route = { view: "play", game: id };
      const ply = params.get("ply");
      if (ply !== null && /^\d+$/.test(ply)) route.ply = Number(ply);
      if (params.has("review")) route.review = true;
      return route;
    }
  }
  if (text === "games" || text === "rules") return { view: text };
  return { view: "play" };
}

export function format(route) {
  if (route.view === "games" || route.view === "rules") return "#" + route.view;
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
