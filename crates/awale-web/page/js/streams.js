// The page's event streams and the back-forward cache. A page left for
// another may be kept whole by the browser, to come back at once with
// Back, and its open streams with it: each holds one of the six
// connections a browser opens to a server over HTTP/1.1, so after a few
// pages left that way the next page's requests wait for a free one (it
// stayed blank for 30 s). Each stream is closed when the page is left and
// opened again if the page comes back.

const kept = new Set();

// Calls `hide` when the page is left and `show` when it comes back from
// the cache; the function returned forgets them.
export function whileShown(hide, show) {
  const entry = { hide, show };
  kept.add(entry);
  return () => kept.delete(entry);
}

window.addEventListener("pagehide", () => {
  for (const entry of kept) entry.hide();
});

window.addEventListener("pageshow", (ev) => {
  if (!ev.persisted) return;
  for (const entry of kept) entry.show();
});
