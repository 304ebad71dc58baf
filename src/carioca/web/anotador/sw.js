// The service worker: keeps every file of the anotador on the device, so it opens and works
// with no network after the first visit. Files are served from the cache at once and refreshed
// from the network in the background (the next visit gets the new version). rules.json (the
// rules in words) is kept from the first visit too, though the page reads it only when the
// rules are opened: they must open at a table with no network.

const CACHE = "carioca-anotador-v8";
const ASSETS = [
  "./",
  "index.html",
  "style.css",
  "app.js",
  "presets.json",
  "rules.json",
  "manifest.webmanifest",
  "lib/dom.js",
  "lib/i18n.js",
  "lib/io.js",
  "lib/match.js",
  "lib/score.js",
  "lib/store.js",
  "components/an-chart.js",
  "components/an-history.js",
  "components/an-result.js",
  "components/an-round.js",
  "components/an-rules.js",
  "components/an-setup.js",
  "components/an-sheet.js",
  "components/an-totals.js",
  "icons/apple-touch-icon.png",
  "icons/icon-192.png",
  "icons/icon-512.png",
  "icons/icon-maskable-512.png",
  "icons/icon-maskable.svg",
  "icons/icon.svg",
];

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(ASSETS.map((url) => new Request(url, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("carioca-anotador-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    let cached = await cache.match(request, { ignoreSearch: true });
    if (!cached && request.mode === "navigate") cached = await cache.match("index.html");
    const fresh = fetch(request).then((response) => {
      if (response.ok && response.type === "basic") cache.put(request, response.clone());
      return response;
    }).catch(() => null);
    if (cached) {
      event.waitUntil(fresh);
      return cached;
    }
    return (await fresh) || Response.error();
  })());
});
