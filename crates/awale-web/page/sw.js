// The service worker: keeps this version's files so that a repeat visit
// starts at once, without waiting for the network. The browser checks this
// file on each visit; a new server version brings a new one, which fetches
// its files and takes over for the next visit. The API is never kept.
const VERSION = "{{VERSION}}";
const FILES = {{FILES}};
const CACHE = "awale-" + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("awale-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || !FILES.includes(url.pathname)) return;
  event.respondWith(
    caches.open(CACHE)
      .then((cache) => cache.match(url.pathname))
      .then((hit) => hit || fetch(event.request)),
  );
});
