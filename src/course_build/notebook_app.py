"""The built JupyterLite app made ready to ship: trimmed, its pages under a CSP, its worker."""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from .paths import WEB

# Files of the built app (paths under notebook/) that the notebook app never asks for:
# jupyter lite build's leftovers (its bundler's configs, the packages' metadata, the config
# schema). Not jupyter-lite.ipynb: config-utils.js fetches it beside each jupyter-lite.json
# as a second source of settings on every open, so without it each open logs two 404s.
TRIMMED = (
    "rspack.config.js",
    "rspack.config.analyze.js",
    "rspack.config.watch.js",
    "package.json",
    "notebooks/package.json",
    "jupyterlite.schema.v0.json",
    "extensions/*/package.json",
    "extensions/*/install.json",
    "extensions/@*/*/package.json",
    "extensions/@*/*/install.json",
)
# The strictest policy JupyterLite 0.8 works under (tests/e2e/test_notebook.py runs a notebook
# under it and counts violations). Each page's one inline script (it imports config-utils.js)
# is allowed by its hash, added per page. 'unsafe-eval': JupyterLab checks every plugin's
# settings with ajv, which compiles each JSON schema with Function(); without it a dozen
# plugins fail to activate (the Run menu among them). JupyterLab and CodeMirror add <style>
# elements as they run, so styles need 'unsafe-inline'. Images and fonts come as data: URLs;
# the kernel runs in a worker loaded from a file (it has its own policy, none; Pyodide
# compiles its wasm there, so the page needs no 'wasm-unsafe-eval').
POLICY = ("default-src 'self'; script-src 'self' 'unsafe-eval' {hashes}; "
          "style-src 'self' 'unsafe-inline'; "
          "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; "
          "worker-src 'self' blob:; object-src 'none'; base-uri 'self'; form-action 'self'")
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)([^>]*)>(.*?)</script>", re.DOTALL)
# notebook/service-worker.js, JupyterLite's worker, gets the site worker's notebook section
# (web/sw.js from this line to its end) at its top; its own code follows after MARK.
SECTION = "// ---- The notebook (notebook/): its files cached as they are used ----"
MARK = "// ---- JupyterLite's own worker, as jupyter lite build wrote it ----\n"
KEEPER = "keep-site-worker.js"  # beside the app's pages, in notebook/
# JupyterLite 0.8's ServiceWorkerManager, on a page that a worker controls, reads
# localStorage[`${that worker's script URL}-version`] and, unless it holds this app's
# version, unregisters every worker of the origin, ours included, then writes it. On the
# first open the site's worker controls the page (its scope holds notebook/), so that
# happens once; JupyterLite then registers its own worker, whose key is still unwritten,
# so the next open (offline, it may be) would unregister every worker again. KEEPER writes
# that key first, hands JupyterLite's worker, once it controls the page, the list of what
# the page loaded before any worker did, to be cached, and registers the site's worker again
# (KERNEL_IDLE says when). The unregistering is found by its log line, UNREGISTERS; if a new
# JupyterLite lacks it, the build stops.
UNREGISTERS = "New version, unregistering existing service workers."
# The site's worker precaches every lesson's runtime as it installs, Pyodide among it, which
# the kernel is loading at the same time: registered while the kernel started, it made the
# first output a second later on a cold open (bench-notebook); handing over the list did too,
# and both, done as the kernel was first idle, slowed a Run All pressed at once. KEEPER does
# both once the notebook's kernel has been idle for KERNEL_QUIET_MS, as the app's kernel
# status shows with this class (the build stops if the bundle lacks it), or after
# KERNEL_WAIT_MS if it never is.
KERNEL_IDLE = "jp-KernelStatus-success"
KERNEL_QUIET_MS = 2_000
KERNEL_WAIT_MS = 60_000
# A federated extension of our own (web/notebook/start-kernel.js) that starts the notebook's
# kernel as the app's plugins activate: JupyterLite starts it only once the notebook is drawn.
START_KERNEL = WEB / "notebook" / "start-kernel.js"
START_KERNEL_NAME = "attention-lessons-start-kernel"
KEEPER_JS = """// Written by build.py: keeps the site's worker (../sw.js) beside JupyterLite's.
// JupyterLite unregisters every worker of the origin when the worker that controls the page
// has no `${script URL}-version` key holding its version: on a first open (the site's
// worker controls the page then) and, unless this writes the key, on the open after.
(() => {
  "use strict";
  const { serviceWorker } = navigator;
  if (!serviceWorker) return;
  const site = new URL("../sw.js", document.currentScript.src);
  const own = new URL("service-worker.js?enableCache=false", document.currentScript.src);
  try {
    localStorage.setItem(`${own.href}-version`, %(version)s);
  } catch {
    // Storage blocked: JupyterLite will unregister the workers; the lessons register theirs.
  }
  // What this page has loaded, to be cached (web/sw.js): the files it fetched before a worker
  // controlled it, or before a new deploy's worker took over. A cold open has loaded about
  // 140 files once the kernel is quiet; a long session loads more, and the browser keeps only
  // 250 entries unless asked for more.
  performance.setResourceTimingBufferSize(5000);
  const used = () => [location.href,
    ...performance.getEntriesByType("resource").map((e) => e.name)];
  // Settled once the kernel has been idle for a moment (or after a while without): see
  // handOver.
  const kernelQuiet = new Promise((done) => {
    const idle = () => document.querySelector(".%(idle)s") !== null;
    let quiet = null; // running while the kernel is idle: a run stops it
    const observer = new MutationObserver(() => {
      if (!idle()) {
        clearTimeout(quiet);
        quiet = null;
      } else {
        quiet ??= setTimeout(settle, %(quiet)d);
      }
    });
    const timer = setTimeout(() => settle(), %(wait)d);
    const settle = () => {
      observer.disconnect();
      clearTimeout(timer);
      clearTimeout(quiet);
      done();
    };
    observer.observe(document, { subtree: true, childList: true, attributeFilter: ["class"] });
  });
  // On this page's worker, and on each new one (a new deploy's takes over while the page is
  // open, and the old one's cache is deleted), once the kernel is quiet: the list's files are
  // fetched again and written to the cache, and the site's worker precaches every lesson's
  // runtime, which slowed a cold open's kernel and a Run All pressed at once.
  const handOver = () => {
    const worker = serviceWorker.controller;
    if (worker?.scriptURL !== own.href) return;
    kernelQuiet.then(() => {
      worker.postMessage({ notebookUsed: used() });
      return serviceWorker.register(site, { updateViaCache: "none" });
    }).catch(() => {});
  };
  handOver();
  serviceWorker.addEventListener("controllerchange", handOver);
  // A new deploy's worker may wait, installed, for as long as this page is open: it cannot
  // take over while the old one is still answering this page. Hand it the list then too, so
  // the new deploy's cache holds this page's files before the old cache goes.
  const handToWaiting = (worker) => {
    if (!worker) return;
    const give = () => worker.postMessage({ notebookUsed: used() });
    if (worker.state === "installed") give();
    else worker.addEventListener("statechange", () => worker.state === "installed" && give());
  };
  serviceWorker.getRegistration().then((registration) => {
    if (!registration) return;
    handToWaiting(registration.waiting ?? registration.installing);
    registration.addEventListener("updatefound", () => handToWaiting(registration.installing));
  }).catch(() => {});
})();
"""


def finish_app(app: Path) -> list[str]:
    """Trim the built app in `app` (notebook/), write KEEPER and put every page under
    POLICY; give the paths removed."""
    removed = sorted({path.relative_to(app).as_posix()
                      for pattern in TRIMMED for path in app.glob(pattern) if path.is_file()})
    for name in removed:
        (app / name).unlink()
    bundle = [p.read_text(encoding="utf-8") for p in app.glob("build/*.js")]
    for needed in (UNREGISTERS, KERNEL_IDLE):
        if not any(needed in text for text in bundle):
            raise SystemExit(f"build: {needed!r} is not in JupyterLite's bundle: check "
                             "notebook_app.KEEPER_JS against this JupyterLite version")
    config = json.loads((app / "jupyter-lite.json").read_text(encoding="utf-8"))
    version = config["jupyter-config-data"]["appVersion"]
    add_start_kernel(app, config)
    keeper = KEEPER_JS % {"version": json.dumps(version), "idle": KERNEL_IDLE,
                          "quiet": KERNEL_QUIET_MS, "wait": KERNEL_WAIT_MS}
    (app / KEEPER).write_text(keeper, encoding="utf-8")
    for page in sorted(app.rglob("*.html")):
        up = "../" * (len(page.relative_to(app).parts) - 1)
        html = page.read_text(encoding="utf-8")
        html = html.replace("</head>", f'  <script src="{up}{KEEPER}" defer></script>\n</head>', 1)
        page.write_text(protected(html), encoding="utf-8")
    return removed


def add_start_kernel(app: Path, config: dict[str, Any]) -> None:
    """Write START_KERNEL into `app` as a federated extension, named by its content so that no
    cache keeps an old one, and list it in `config` (app/jupyter-lite.json, written here)."""
    source = START_KERNEL.read_bytes()
    if f'"{START_KERNEL_NAME}"'.encode() not in source:  # the container's key in the page
        raise SystemExit(f"build: {START_KERNEL} does not register {START_KERNEL_NAME!r}")
    load = f"static/remoteEntry.{hashlib.sha256(source).hexdigest()[:16]}.js"
    entry = app / "extensions" / START_KERNEL_NAME / load
    entry.parent.mkdir(parents=True)
    entry.write_bytes(source)
    config["jupyter-config-data"]["federated_extensions"].append(
        {"extension": "./extension", "load": load, "name": START_KERNEL_NAME})
    (app / "jupyter-lite.json").write_text(json.dumps(config, indent=2, sort_keys=True) + "\n",
                                           encoding="utf-8")


def protected(html: str) -> str:
    """The page with POLICY in a <meta> first thing in its <head>, each inline script that
    runs allowed by its hash (a JSON data block is never run, so it needs none)."""
    hashes = [f"'sha256-{base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()}'"
              for attributes, body in INLINE_SCRIPT.findall(html)
              if "application/json" not in attributes]
    meta = (f'<meta http-equiv="Content-Security-Policy" '
            f'content="{POLICY.format(hashes=" ".join(hashes))}">')
    head = re.search(r"<head[^>]*>", html)
    assert head, "a notebook page without <head>"
    return f"{html[:head.end()]}\n    {meta}{html[head.end():]}"


def app_files(site: Path) -> list[str]:
    """The notebook app's files, from the top of site/, that its worker caches as they are
    used: they name the deploy's cache too. Not the worker itself, which is written with it."""
    app = site / "notebook"
    return sorted(p.relative_to(site).as_posix() for p in app.rglob("*")
                  if p.is_file() and p != app / "service-worker.js")


def write_worker(site: Path, build_info: dict[str, Any], template: str) -> None:
    """notebook/service-worker.js: the site worker's notebook section (from `template`,
    web/sw.js) with this deploy's cache, then JupyterLite's own worker."""
    worker = site / "notebook" / "service-worker.js"
    jupyterlite = worker.read_text(encoding="utf-8").partition(MARK)
    own = jupyterlite[2] if jupyterlite[1] else jupyterlite[0]  # once written, after MARK
    assert SECTION in template, f"web/sw.js has no line {SECTION!r}"
    info = {"cache": build_info["cache"], "prefix": build_info["prefix"], "notebook": "./"}
    header = ("// Generated by build.py: the site's caching of the notebook's files, then\n"
              "// JupyterLite's worker.\n"
              f"const BUILD = {json.dumps(info)};\n"
              'self.addEventListener("fetch", (event) => notebookFetch(event));\n\n')
    section = template[template.index(SECTION):]
    worker.write_text(f"{header}{section}\n{MARK}{own}", encoding="utf-8")
