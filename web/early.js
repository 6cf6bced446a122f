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
(() => {
  "use strict";
  const started = new Map();
  for (const url of document.currentScript.dataset.fetch.split(" ")) {
    const response = fetch(url);
    response.catch(() => {}); // the request that takes it gets the failure; until then, no one
    started.set(new URL(url, document.baseURI).href, response);
  }
  const network = globalThis.fetch;
  globalThis.fetch = function fetch(input, init) {
    const plain = (typeof input === "string" || input instanceof URL)
      && Object.values(init ?? {}).every((value) => value === undefined);
    const href = plain ? new URL(input, document.baseURI).href : null;
    const response = started.get(href);
    if (!response) return network(input, init);
    started.delete(href);
    if (started.size === 0) globalThis.fetch = network; // every file taken: out of the way
    return response;
  };
})();
