// The service worker: keeps this version's files (the page, its scripts,
// the engine in WebAssembly, the manifest and icons of the installed app)
// so that a repeat visit starts at once, and starts without a network at
// all: the page then plays with its own engine (js/local.js). The browser
// checks this file on each visit; a new server version brings a new one,
// which fetches its files and takes over for the next visit. The API is
// never kept.
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
