// Live events of one game, as the server sends them (server-sent events):
// `state` (the whole game: first, and after any change but a move), `move`
// (one more move and what changed), `thinking` while the computer
// searches, `clock` (the clocks now, after the events missed while away);
// online games add `chat` (and `chat_removed`, a line a moderator
// removed), `reaction` and `presence`. The events of the
// game's history carry a version as their id: when the stream breaks (the
// server restarts, the network changes) the browser comes back with the
// last one and gets what it missed. `connection(up)` says when the stream
// is lost and when it is back. Each listener belongs to one game; closing
// it stops its callbacks at once, even for events already on their way.
// A page left closes the stream; back from the browser's cache, it opens
// it again from the last version received (streams.js).

import { whileShown } from "./streams.js";

const EVENTS = ["state", "move", "thinking", "clock", "chat", "chat_removed", "reaction", "presence"];

// How long before the page itself opens a stream the browser gave up on
// (it answered with an error, as a server starting up may).
const REOPEN_MS = 2000;

export function listen(id, on) {
  let open = true;
  let source = null;
  let last = ""; // the version of the last event of the history received
  let timer = null;
  const connection = (up) => open && on.connection && on.connection(up);
  const start = () => {
    const since = last ? `?since=${encodeURIComponent(last)}` : "";
    source = new EventSource(`/api/games/${id}/events${since}`);
    source.onopen = () => connection(true);
    source.onerror = () => {
      if (!open) return;
      connection(false);
      // CONNECTING: the browser tries again by itself (with Last-Event-ID).
      if (source.readyState === EventSource.CLOSED) {
        clearTimeout(timer);
        timer = setTimeout(() => open && start(), REOPEN_MS);
      }
    };
    for (const name of EVENTS) {
      source.addEventListener(name, (ev) => {
        if (!open) return;
        if (ev.lastEventId) last = ev.lastEventId;
        if (!on[name]) return;
        let data;
        try {
          data = JSON.parse(ev.data);
        } catch (e) {
          return;
        }
        if (data && !data.error) on[name](data);
      });
    }
  };
  start();
  const forget = whileShown(
    () => {
      clearTimeout(timer);
      source.close();
    },
    () => open && start(),
  );
  return {
    close() {
      open = false;
      forget();
      clearTimeout(timer);
      source.close();
    },
  };
}
