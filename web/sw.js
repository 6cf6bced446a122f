// The site's service worker: after one visit, every page and the whole runtime load offline.
//
// build.py writes dist/sw.js as `const BUILD = {cache, prefix, files}` followed by this file:
// `files` maps every page and runtime file (relative to this script, so the site works under
// any sub-path) to the SHA-256 of its bytes, and `cache` is named by a hash of them all. A new
// deploy therefore means a new sw.js, a new cache filled whole, and the old cache deleted. A
// file the install fetches must have its digest: one from a deploy made while this worker
// installs fails the install, so that versions never mix.
"use strict";

const URLS = Object.keys(BUILD.files);
const PRECACHED = new Set(URLS.map((url) => new URL(url, self.location).href));

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

// The notebook's requests go to their own branch first (the section at the end of this file).
self.addEventListener("fetch", (event) => notebookFetch(event));

// The install fails unless every file is this build's: the worker never activates, and the
// browser tries again at a later visit, where it finds the new deploy's sw.js. Nothing is
// written before every file has been checked, so a failed install leaves no cache behind.
self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const checked = await Promise.all(URLS.map(fetchChecked));
    const cache = await caches.open(CACHE);
    try {
      await Promise.all(checked.map(([request, response]) => cache.put(request, response)));
    } catch (error) {
      await caches.delete(CACHE); // full, say: no cache that holds part of a deploy
      throw error;
    }
    await self.skipWaiting();
  })());
});

// "no-cache" revalidates each file with the server: a file the browser still holds from the
// last deploy cannot slip into this one's cache, and an unchanged file costs a 304.
async function fetchChecked(url) {
  const request = new Request(url, { cache: "no-cache" });
  const response = await fetch(request);
  const bytes = await response.clone().arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
  if (!response.ok || hex !== BUILD.files[url]) {
    throw new Error(`${url}: ${response.ok ? "another deploy's" : response.status}`);
  }
  return [request, response];
}

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

// ---- The notebook (notebook/): its files cached as they are used ----
// build.py puts this section, from the line above to the end, also at the top of
// notebook/service-worker.js, JupyterLite's own worker, with the same cache: the two
// share the site's scope so. JupyterLite registers its worker for notebook/, the longer
// scope, so it controls the notebook's pages once it is active; this worker controls them
// before that (a first visit), and JupyterLite's code after this section answers its own
// requests (its drive, input(), its heartbeat). The lesson precache leaves the notebook
// app out, 24 MB a lesson never asks for: its files go into this deploy's cache as the
// notebook uses them, so a notebook opened once opens offline, and a new deploy's cache
// replaces them with the rest (the `activate` above deletes the old cache).
// In the site's worker a request is the notebook's when its URL is under notebook/; in
// JupyterLite's, every request is (it controls only the notebook's pages and the kernel's
// worker, which also ask for the Pyodide runtime, lesson-precached).
const NOTEBOOK = new URL(BUILD.notebook ?? "notebook/", self.location).href;
const IN_NOTEBOOK_WORKER = BUILD.notebook !== undefined;
// This deploy's cache, named as the site's worker names it, for the deploy and for the path the
// site is served from (JupyterLite's worker sits one folder below it).
const SITE_PATH = new URL(IN_NOTEBOOK_WORKER ? "../" : "./", self.location).pathname;
const NOTEBOOK_CACHE = `${BUILD.cache} ${SITE_PATH}`;
const JUPYTERLITE_API = /\/api\/(drive|stdin\/|service-worker-heartbeat)/;
let notebookUnreachable = false; // the last notebook page did not come from the server
const notebookPuts = new Set(); // responses being written to the cache

// Keep the worker alive for a write to the cache, and count it until it settles, so that a
// "notebook-cached?" asked meanwhile waits for it (see the message listener below).
function holdPut(event, put) {
  notebookPuts.add(put);
  put.catch(() => {}).finally(() => notebookPuts.delete(put));
  event.waitUntil(put.catch(() => {}));
}

function notebookFetch(event) {
  const { request } = event;
  const url = new URL(request.url);
  const file = url.href.startsWith(NOTEBOOK);
  if (request.method !== "GET" || url.origin !== self.location.origin
      || JUPYTERLITE_API.test(url.pathname) || !(file || IN_NOTEBOOK_WORKER)) return;
  event.stopImmediatePropagation(); // neither the lessons' branch nor JupyterLite's fetches it
  const offline = notebookUnreachable || !self.navigator.onLine;
  if (file) {
    event.respondWith(notebookFile(event, url, offline));
  } else if (offline) {
    event.respondWith((async () => (await notebookCopy(url)) ?? fetch(request))());
  }
  // Otherwise the runtime goes to the network as if there were no worker, which keeps
  // Chromium's compiled-WebAssembly cache (a wasm passed through a worker misses it).
}

// This deploy's copy: a static host sends the same file whatever the query says. Looked up
// by name, which never makes the cache again once a newer deploy has deleted it.
async function notebookCopy(url) {
  const key = new URL(url);
  key.search = "";
  return caches.match(key.href, { cacheName: NOTEBOOK_CACHE });
}

// This deploy's cache for writing, held once opened: a write after a newer deploy deleted it
// goes to that orphaned cache and nowhere else, instead of making it again. Only an install
// makes it: this one, in JupyterLite's worker, or the site worker's precache.
if (IN_NOTEBOOK_WORKER) {
  self.addEventListener("install", (event) => event.waitUntil(caches.open(NOTEBOOK_CACHE)));
}
let notebookCacheHeld = null;
function notebookCache() {
  notebookCacheHeld ??= caches.has(NOTEBOOK_CACHE)
    .then((has) => has && caches.open(NOTEBOOK_CACHE));
  return notebookCacheHeld;
}

// A page comes from the server while it answers, so a new deploy is seen (and with it a new
// worker and cache); any other file from this deploy's cache once it holds it: the app and the
// kernel are 36 MB, which a warm visit would otherwise fetch again and write again.
async function notebookFile(event, url, offline) {
  const { request } = event;
  const page = request.mode === "navigate";
  if (!page) {
    const copy = await notebookCopy(url);
    if (copy || offline) return copy ?? fetch(request);
  }
  let response;
  try {
    // Asked of the server itself ("no-cache"; an unchanged file costs a 304): a copy in the
    // browser's HTTP cache must not make a server that is gone look reachable, nor slip a file
    // of the last deploy into this one's cache.
    response = await fetch(new Request(request, { cache: "no-cache" }));
  } catch (error) {
    if (page) notebookUnreachable = true;
    const copy = await notebookCopy(url);
    if (copy) return copy;
    throw error;
  }
  if (page) notebookUnreachable = false;
  if (response.ok && response.type === "basic") {
    const copy = response.clone(); // now, before the page reads the body
    const key = new URL(url);
    key.search = "";
    holdPut(event, notebookCache().then((cache) => cache && cache.put(key.href, copy)));
  }
  return response;
}

// A notebook page lists what it loaded before a worker controlled it (notebook/
// keep-site-worker.js sends {notebookUsed: [urls]}): those are cached now, from the browser's
// HTTP cache mostly. A page asks, with a MessagePort ("notebook-cached?"), to hear once every
// file fetched so far is in the cache.
self.addEventListener("message", (event) => {
  if (Array.isArray(event.data?.notebookUsed)) {
    // One put until the last file is written: a "notebook-cached?" that comes while the list
    // is still being read must wait for the files not yet asked for too.
    holdPut(event, cacheUsed(event.data.notebookUsed));
  } else if (event.data === "notebook-cached?" && event.ports[0]) {
    event.waitUntil(Promise.allSettled([...notebookPuts]).then(() => {
      event.ports[0].postMessage("notebook-cached");
    }));
  }
});

async function cacheUsed(urls) {
  const cache = await notebookCache();
  if (!cache) return;
  const puts = [];
  for (const used of urls) {
    const url = new URL(used, self.location);
    url.search = "";
    url.hash = "";
    if (!url.href.startsWith(NOTEBOOK) || JUPYTERLITE_API.test(url.pathname)
        || await cache.match(url.href)) continue;
    // "no-cache", as the precache does: what the browser still holds from the last deploy must
    // not slip into this one's cache (a host that sends Last-Modified and no Cache-Control
    // leaves its files fresh in the HTTP cache for hours).
    puts.push(fetch(url.href, { cache: "no-cache" })
      .then((response) => response.ok && cache.put(url.href, response)));
  }
  await Promise.allSettled(puts);
}
