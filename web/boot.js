// Start-up status for a PyScript page (a plain script: the CSP forbids inline ones).
//
// It counts seconds in #boot-status ("Python is starting… 3 s") until Python is ready,
// and says in plain words when the runtime cannot start.
//
// Ready contract: the page's main.py, once set up, sets <html data-python="ready">,
// writes "Python is ready." into #boot-status and then dispatches a "lesson:ready"
// event on document. This script stops counting on that event (and, belt and braces,
// on any tick that finds data-python="ready"), and marks "python-ready" in the
// performance timeline.
//
// Failure signals, as PyScript 0.7.31 (polyscript 0.20) surfaces them:
// - a runtime file that does not load (pyodide.asm.wasm, pyodide.asm.mjs, the stdlib zip,
//   a [files] entry) rejects a promise that nobody awaits: window "unhandledrejection";
// - an uncaught script error: window "error";
// - PyScript fires "py:done" (bubbling from the <script type="py">) after main.py ran,
//   even when it raised (PyScript reports the Python error itself), so "py:done" without
//   "lesson:ready" means the lesson's own code failed;
// - a last-resort timeout;
// - main.py finding the page and its Python from two deploys (one made while the page
//   loaded): it reloads the page once ("lesson:reloading") and, where that was done already,
//   gives up ("lesson:mixed").
//
// CSP shim: the page's policy has no 'unsafe-eval'. PyScript 0.7.31 builds its default
// *worker* hook (hooks.worker.onBeforeRunAsync) with `Function(...)` whenever it starts
// an interpreter, even on the main thread (polyscript's Hook constructor reads every
// worker hook), and that eval is refused, so Python never starts. The hook only
// matters inside PyScript workers, which these pages do not use, so it is cleared
// before any interpreter can have loaded.
//
// When to read `hooks`: core.js has a top-level await (it fetches the page's config),
// and WebKit (bug 242740, still in WebKitGTK 2.50) settles `import("./pyscript/core.js")`
// while core.js is suspended there, before its exports are initialised, so reading
// `hooks` then throws a ReferenceError. core.js initialises `hooks` before it defines
// the <py-script> element and starts interpreters only when it defines it, so waiting
// for both the import and that definition is right in every engine, with no polling.
// The clear runs in microtasks of the task that defines the element; the interpreter
// (whose Hook reads the worker hooks) needs files that arrive in later tasks.
//
// No JSPI: where the engine has it (WebAssembly.Suspending, Chromium), Pyodide runs Python on
// a stack of its own. Chromium's GWP-ASan, which it turns on at random in a share of its
// processes, records the stack of each allocation it samples by walking frame pointers, and on
// such a stack the walk reads past the stack's end: the renderer dies (the suite's "Page
// crashed"; a learner's "Aw, Snap!"). These pages never suspend Python (no run_sync), so the
// page hides JSPI before Pyodide looks for it, and Python runs on the page's own stack, whose
// end the walk knows (docs/testing.md, "Renderer crashes").
(() => {
  "use strict";
  delete WebAssembly.Suspending;
  delete WebAssembly.promising;
  const TIMEOUT_SECONDS = 90;
  const status = document.getElementById("boot-status");
  if (!status) return;
  const root = document.documentElement;
  const started = Date.now();
  let finished = false;
  let timer = 0;

  const isReady = () => root.dataset.python === "ready";
  const stop = () => {
    finished = true;
    clearInterval(timer);
    status.removeAttribute("aria-busy");
  };
  const fail = (reason) => {
    if (finished || isReady()) return;
    stop();
    root.dataset.python = "failed";
    status.textContent = `Python could not start: ${reason}. Reload the page to try again.`;
  };
  const tick = () => {
    if (finished) return;
    if (isReady()) {
      stop();
      return;
    }
    const seconds = Math.floor((Date.now() - started) / 1000);
    if (seconds >= TIMEOUT_SECONDS) {
      fail(`it was still loading after ${TIMEOUT_SECONDS} seconds`);
      return;
    }
    status.textContent = `Python is starting… ${seconds} s`;
  };

  // A live region that changes every second would be read out every second: stay busy.
  status.setAttribute("aria-busy", "true");
  timer = setInterval(tick, 1000);
  tick();

  Promise.all([import("./pyscript/core.js"), customElements.whenDefined("py-script")])
    .then(([core]) => core.hooks.worker.onBeforeRunAsync.clear())
    .catch(() => fail("part of the Python runtime did not load"));

  // A mark on the page's own clock, so a benchmark reads the same figure in every engine.
  document.addEventListener("lesson:ready", () => {
    performance.mark("python-ready");
    stop();
  });
  addEventListener("unhandledrejection", ({ reason }) =>
    fail(/fetch|load|import/i.test(String(reason?.message ?? reason))
      ? "part of the Python runtime did not load"
      : "the Python runtime stopped with an error while starting"));
  addEventListener("error", () => fail("a script on this page failed"));
  document.addEventListener("lesson:reloading", () => {
    stop();
    status.textContent = "The site was updated while this page loaded: loading it again…";
  });
  document.addEventListener("lesson:mixed",
    () => fail("the site was updated while this page loaded"));
  document.addEventListener("py:done", () => {
    if (!isReady()) fail("the lesson's Python code stopped with an error");
  });
})();
