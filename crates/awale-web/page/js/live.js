// Live events of one game, as the server sends them (server-sent events):
// `state` (the whole game: first, and after any change but a move), `move`
// (one more move and what changed), `thinking` while the computer
// searches; online games add `chat`, `reaction` and `presence`. Each
// listener belongs to one game; closing it stops its callbacks at once,
// even for events already on their way.

const EVENTS = ["state", "move", "thinking", "chat", "reaction", "presence"];

export function listen(id, on) {
  const source = new EventSource(`/api/games/${id}/events`);
  let open = true;
  for (const name of EVENTS) {
    source.addEventListener(name, (ev) => {
      if (!open || !on[name]) return;
      let data;
      try {
        data = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      if (data && !data.error) on[name](data);
    });
  }
  return {
    close() {
      open = false;
      source.close();
    },
  };
}
