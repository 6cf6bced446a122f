// The site's service worker: after one visit, every page and the whole runtime load offline.
//
// build.py writes dist/sw.js as `const BUILD = {cache, prefix, urls}` followed by this file:
// `urls` lists every page and runtime file (relative to this script, so the site works
// under any sub-path) and `cache` is named by a hash of their bytes. A new deploy therefore
// means a new sw.js, a new cache filled whole, and the old cache deleted: versions never mix.
"use strict";

const PRECACHED = new Set(BUILD.urls.map((url) => new URL(url, self.location).href));

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(BUILD.cache);
    // "no-cache" revalidates each file with the server: a file the browser still holds from
    // the last deploy cannot slip into this one's cache, and an unchanged file costs a 304.
    await cache.addAll(BUILD.urls.map((url) => new Request(url, { cache: "no-cache" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // Only our own caches: another worker or script on this origin may keep caches too.
    for (const name of await caches.keys()) {
      if (name.startsWith(BUILD.prefix) && name !== BUILD.cache) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// Online, the worker stays out of the way: the browser loads the site as if there were no
// worker, from the network or its HTTP cache. That keeps Chromium's compiled-WebAssembly
// cache working (a wasm served from Cache Storage, or passed through by a worker, misses
// it on the next visit and is compiled again: measured) and keeps each path to one deploy.
// Offline, this deploy's cache serves every precached file. A link that claims to be
// online but is not gets no help: the page then says Python could not start.
self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (self.navigator.onLine || request.method !== "GET") return;
  const url = new URL(request.url);
  url.search = "";
  url.hash = "";
  if (!PRECACHED.has(url.href)) return;
  event.respondWith((async () => {
    const cache = await caches.open(BUILD.cache);
    return (await cache.match(url.href)) ?? fetch(request);
  })());
});
