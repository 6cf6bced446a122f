// Registers the site's service worker (sw.js, beside this script) so that a page visited
// once works offline. A plain script: the pages' CSP forbids inline ones.
//
// It registers only once Python is ready ("lesson:ready", see boot.js), so the worker's
// precache never competes with start-up for the network or the two CPU cores.
(() => {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  const worker = new URL("sw.js", document.currentScript.src);
  // The script is always fetched from the server: a new deploy is seen on the next visit.
  const register = () =>
    navigator.serviceWorker.register(worker, { updateViaCache: "none" }).catch(() => {
      // No worker (a private window, say): the page still works, just not offline.
    });
  if (document.documentElement.dataset.python === "ready") register();
  else document.addEventListener("lesson:ready", register, { once: true });
})();
