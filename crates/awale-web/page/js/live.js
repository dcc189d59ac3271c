// Live events of one game, as the server sends them (server-sent events):
// `state` when the game changed, `thinking` while the computer searches,
// `clock` every second while a clock runs. Each listener belongs to one
// game; closing it stops its callbacks at once, even for events already
// on their way.

export function listen(id, on) {
  const source = new EventSource(`/api/games/${id}/events`);
  let open = true;
  for (const name of ["state", "thinking", "clock"]) {
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
