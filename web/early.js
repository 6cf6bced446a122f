// Starts the fetches a page's start-up needs before Pyodide asks for them, and gives each
// response to the first request for that file. A plain script: the pages' CSP forbids inline
// ones. web/_head.html lists the files in its data-fetch attribute, relative to the page.
//
// This does what <link rel="preload" as="fetch"> does in Chromium and Firefox, in every engine:
// Safari's engine (WebKit) downloads such a preload and then fetches the file again when a
// script asks for it. Pyodide and PyScript ask with a plain fetch(url) (Pyodide with an empty
// init), so only such a request is answered here; any other goes to the network as usual.
// The script is deferred and first among the page's scripts: it runs once the page is read,
// before boot.js, whose import() of core.js runs that module as soon as it has loaded, out of
// the page's order (after boot.js, under load, Pyodide had at times asked for the standard
// library and the lock file before this script ran, and both were fetched twice). Measured
// against preload links in Chromium (10 cold visits each, interleaved): first paint and
// Python-ready the same; a blocking script delayed the first paint by 40 ms. The page's config
// is not among the files (see EARLY_FETCHES in build.py).
//
// A page and its Python must be one deploy. A host that sends Last-Modified and no
// Cache-Control (python3 -m http.server, many static hosts) lets the HTTP cache serve a day-old
// deploy's files for hours unasked (RFC 9111's heuristic freshness): a new page then ran the
// old deploy's archives and config. So every plain fetch of this site's own files, these and
// the ones passed on, asks the server first ("no-cache"): an unchanged file costs a 304 and no
// body; offline, the service worker still answers from its cache (tests/e2e/test_deploy.py).
(() => {
  "use strict";
  const FRESH = { cache: "no-cache" };
  const started = new Map();
  for (const url of document.currentScript.dataset.fetch.split(" ")) {
    const response = fetch(url, FRESH);
    response.catch(() => {}); // the request that takes it gets the failure; until then, no one
    started.set(new URL(url, document.baseURI).href, response);
  }
  const network = globalThis.fetch;
  globalThis.fetch = function fetch(input, init) {
    const plain = (typeof input === "string" || input instanceof URL)
      && Object.values(init ?? {}).every((value) => value === undefined);
    const href = plain ? new URL(input, document.baseURI).href : null;
    const response = started.get(href);
    if (response) {
      started.delete(href);
      return response;
    }
    const own = href !== null && new URL(href).origin === location.origin;
    return own ? network(input, FRESH) : network(input, init);
  };
})();
