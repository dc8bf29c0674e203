// podlab's service worker: after one visit the lab works without a network.
// scripts/postbuild.mjs writes dist/sw.js from this file with the build's own file list and a
// version derived from the files' contents; never edit a list here.
const VERSION = 'dev';
const PRECACHE = [];
const CACHE = `podlab-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('podlab-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !request.url.startsWith(self.registration.scope) || PRECACHE.length === 0) return;
  if (request.mode === 'navigate') {
    // Pages: the network first (a new build shows at once), the cached page when offline.
    // The query (?embed&...) and the fragment are read by the app, so any of them is the page.
    event.respondWith(
      fetch(request).catch(() =>
        caches
          .open(CACHE)
          .then((cache) =>
            cache.match(request, { ignoreSearch: true }).then((hit) => hit || cache.match(new URL('./', self.registration.scope).href)),
          ),
      ),
    );
    return;
  }
  // Build files have content-hashed names: the cache first.
  event.respondWith(
    caches.open(CACHE).then((cache) => cache.match(request, { ignoreSearch: true }).then((hit) => hit || fetch(request))),
  );
});
