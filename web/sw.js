// The site's service worker: after one visit, every page and the whole runtime load offline.
//
// build.py writes dist/sw.js as `const BUILD = {cache, prefix, urls}` followed by this file:
// `urls` lists every page and runtime file (relative to this script, so the site works
// under any sub-path) and `cache` is named by a hash of their bytes. A new deploy therefore
// means a new sw.js, a new cache filled whole, and the old cache deleted: versions never mix.
"use strict";

const PRECACHED = new Set(BUILD.urls.map((url) => new URL(url, self.location).href));

// Caches are shared by the whole origin, and one origin may serve several copies of the site
// under different paths (GitHub Pages serves every project of an owner from one origin): the
// cache is named for this deploy and for where it is served, and a worker deletes only the
// older caches of its own path.
const SCOPE = new URL(self.registration.scope).pathname;
const CACHE = `${BUILD.cache} ${SCOPE}`;

async function isOlderOwn(name) {
  if (!name.startsWith(BUILD.prefix) || name === CACHE) return false;
  if (name.endsWith(` ${SCOPE}`)) return true;
  // A cache from before caches were named for their path holds this path's pages or none.
  return !name.includes(" ")
    && Boolean(await (await caches.open(name)).match(new URL("./", self.location).href));
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // "no-cache" revalidates each file with the server: a file the browser still holds from
    // the last deploy cannot slip into this one's cache, and an unchanged file costs a 304.
    await cache.addAll(BUILD.urls.map((url) => new Request(url, { cache: "no-cache" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    // Only our own: other workers and scripts on this origin keep caches too.
    for (const name of await caches.keys()) {
      if (await isOlderOwn(name)) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

// Whether this worker has seen the network fail: a page it then served from the cache gets
// the rest of its files from the same cache, and the next page fetched resets it.
let unreachable = false;

// Online, the worker stays out of the way of everything but pages: the browser loads the
// site as if there were no worker, from the network or its HTTP cache. That keeps
// Chromium's compiled-WebAssembly cache working (a wasm served from Cache Storage, or
// passed through by a worker, misses it on the next visit and is compiled again: measured)
// and keeps each path to one deploy. A page is fetched through the worker, so a network
// that says it is online but does not answer (a server gone, a train between stations)
// is found out there; the page and all it loads then come from this deploy's cache, as
// they do whenever the browser says it is offline.
self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  url.search = "";
  url.hash = "";
  if (!PRECACHED.has(url.href)) {
    if (request.mode === "navigate" && PRECACHED.has(`${url.href}/`)) {
      event.respondWith(toFolder(request));
    }
    return;
  }
  const cached = async () => (await caches.open(CACHE)).match(url.href);
  if (request.mode === "navigate") {
    event.respondWith(page(request, cached));
  } else if (unreachable || !self.navigator.onLine) {
    event.respondWith((async () => (await cached()) ?? fetch(request))());
  }
});

// No navigation preload: in Firefox 153 a preload that fails fails the page with it, cache
// or no cache (measured).
// A page is always asked of the server itself ("no-cache": an unchanged page costs a 304):
// a copy in the browser's HTTP cache is no sign that the server is there. Servers that send
// Last-Modified and no Cache-Control (python3 -m http.server, many static hosts) let the
// browser reuse a page unasked; Chromium then sent the page's wasm, which its HTTP cache
// did not keep, to a server that refused it, though this cache held it (measured).
// A server that is reached but does not answer (a phone between stations) counts as not
// answering after PATIENCE_MS, when the cache holds the page: the learner gets this deploy's
// copy instead of a blank screen. An answer that comes later is dropped, so that the page
// and the files it loads still come from one place.
const PATIENCE_MS = 3000;

async function page(request, cached) {
  if (!self.navigator.onLine) return (await cached()) ?? fetch(request);
  const answer = fetch(new Request(request, { cache: "no-cache" }));
  answer.catch(() => {}); // a failure after the copy was given is no one's to handle
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(resolve, PATIENCE_MS, null); });
  try {
    const response = await Promise.race([answer, late]);
    if (response) {
      unreachable = false;
      return response;
    }
  } catch {
    // The server did not answer at all: the copy, if there is one.
  } finally {
    clearTimeout(timer);
  }
  const copy = await cached();
  if (!copy) return answer; // nothing to fall back on: the server's answer, whenever it comes
  unreachable = true;
  return copy;
}

// A page asked for without its folder's slash ("d8" for "d8/"), which some hosts do not
// redirect: every relative URL on it would miss. Sent to the folder, online or not.
function toFolder(request) {
  const folder = new URL(request.url);
  folder.pathname += "/";
  return Response.redirect(folder.href, 302);
}
