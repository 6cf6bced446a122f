"""A copy of the built site on a server a test controls: it can hold the runtime or a page
back, be rebuilt with changed content, or go away altogether, in any browser.

Playwright can hold a request or switch a page offline in Chromium; WebKitWebDriver can do
neither, and Firefox's offline emulation covers only the page, never its service worker. So
the tests that must run in every engine act on the server instead.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import threading
import time
import zipfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from attention_lessons import LESSONS
from course_build.offline import write_service_worker
from course_build.paths import DIST
from course_build.runtime import LESSONS_ZIP
from course_build.server import QuietHandler, QuietServer

RUNTIME = "/pyodide.asm.wasm"  # the file Python cannot start without
# The server, like `python3 -m http.server` and many static hosts, sends Last-Modified and no
# Cache-Control: a deploy a day old is then fresh in browsers' HTTP caches for hours (10% of
# its age, RFC 9111's heuristic), and a page opened again may come from there unasked.
DEPLOYED_AGO = 24 * 3600
HOLD_SECONDS = 300  # a held request is let go after this even if the test never releases it
# The deploy the rebuild tests stage: D8's title, changed.
TITLE = "Two heads of dimension one"
REVISED = "Two heads of dimension one, revised"
# What `Site.redeploy` writes and finds again.
DEPLOY_META = re.compile(r'  <meta name="deploy" content="[^"]*">\n')
DEPLOY_MARK = re.compile(r'^[ ]*root\.setAttribute\("data-deploy", "[^"]*"\)\n', re.MULTILINE)
READY_LINE = re.compile(r'^([ ]*)root\.setAttribute\("data-python", "ready"\)$', re.MULTILINE)

# Async functions run in the page by every engine's driver, outside the page's CSP. They
# await what the browser settles itself, so they poll nothing; a deadline turns a worker
# that never comes into a failure instead of a hang.
CACHES_WHEN_CONTROLLED = """async () => {
  const deadline = new Promise((_, fail) => setTimeout(
    () => fail(new Error("no service worker controls the page after 60 s")), 60000));
  await Promise.race([navigator.serviceWorker.ready, deadline]);
  if (!navigator.serviceWorker.controller) {
    await Promise.race([deadline, new Promise((done) =>
      navigator.serviceWorker.addEventListener("controllerchange", done, { once: true }))]);
  }
  return await caches.keys();
}"""
# The browser's own check for a new sw.js, then the new worker's activation run to its end
# (the old caches are deleted by then).
CACHES_AFTER_UPDATE = """async () => {
  const registration = await navigator.serviceWorker.getRegistration();
  await registration.update();
  const worker = registration.installing ?? registration.waiting ?? registration.active;
  if (worker.state !== "activated") {
    await new Promise((done, fail) => worker.addEventListener("statechange", () => {
      if (worker.state === "activated") done();
      if (worker.state === "redundant") fail(new Error("the new worker's install failed"));
    }));
  }
  return await caches.keys();
}"""


@contextmanager
def serving(server: QuietServer) -> Iterator[int]:
    """Serve from a background thread while the block runs; give the server's port."""
    thread = threading.Thread(target=server.serve_forever, name="site-server", daemon=True)
    thread.start()
    try:
        yield server.server_port
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class Site:
    """dist/ copied to root/prefix (`folder`), served at `url` from a background thread."""

    def __init__(self, root: Path, prefix: str = "course", redirects: bool = True) -> None:
        self.root = root
        self.folder = root / prefix
        self.redirects = redirects  # a folder asked for without its slash: sent to it, or not
        deploy(self.folder)
        self.held = RUNTIME  # the end of the path that `hold` holds
        self.requested = threading.Event()  # the held file has been asked for
        self.released = threading.Event()  # the held file may be sent
        self.released.set()
        self.answered = threading.Event()  # the held file, once asked for, has been answered
        self.sent: list[str] = []  # the path of each file sent whole (200), in the order asked
        self.asked: list[str] = []  # the path of every GET, answered whole or not modified
        handler = partial(HoldingHandler, site=self, directory=str(root))
        self.server = QuietServer(("127.0.0.1", 0), handler)
        self.origin = f"http://127.0.0.1:{self.server.server_port}/"
        self.url = f"{self.origin}{prefix}/"
        self.serving = ExitStack()
        self.serving.enter_context(serving(self.server))

    def hold(self, path: str = RUNTIME) -> None:
        """From now on, a request whose path ends with `path` (the runtime, unless told)
        waits until `release`."""
        self.held = path
        self.requested.clear()
        self.released.clear()
        self.answered.clear()

    def wait_until_held(self, seconds: float = 60) -> None:
        assert self.requested.wait(seconds), f"{self.held} was not asked for within {seconds} s"

    def release(self) -> None:
        """Let the held file go, and wait until it has been answered: what the test changes
        next (a rebuild, say) must not reach an answer that belongs to before it. Firefox
        keeps the answer in its HTTP cache even when no page waits for it any more, and a
        page rewritten twice in the second of its Last-Modified is then "not modified"."""
        self.released.set()
        if self.requested.is_set():
            assert self.answered.wait(HOLD_SECONDS), f"{self.held} was never answered"

    def rebuild(self, page: str, old: str, new: str) -> str:
        """Change text in one built file and write a new sw.js, as a new deploy would; give
        the new cache's name, as the worker names it: the build's, and where it is served."""
        path = self.folder / page
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{old!r} is not in {page}"
        path.write_text(text.replace(old, new), encoding="utf-8")
        return f"{write_service_worker(self.folder)} {urlsplit(self.url).path}"

    def redeploy(self, name: str) -> str:
        """Deploy anew, as `name`: each page says so in <meta name="deploy">, main.py in
        <html data-deploy> once Python is ready, and the lessons' archive has an id of its own;
        give the new cache's name."""
        meta = f'<head>\n  <meta name="deploy" content="{name}">\n'
        for page in [self.folder, *(self.folder / slug for slug in LESSONS)]:
            html = DEPLOY_META.sub("", (page / "index.html").read_text(encoding="utf-8"))
            (page / "index.html").write_text(html.replace("<head>\n", meta, 1), encoding="utf-8")
        main = self.folder / "main.py"
        mark = f'root.setAttribute("data-deploy", "{name}")'
        script = DEPLOY_MARK.sub("", main.read_text(encoding="utf-8"))
        main.write_text(READY_LINE.sub(rf"\1{mark}\n\g<0>", script, count=1), encoding="utf-8")
        archive = self.folder / LESSONS_ZIP
        with zipfile.ZipFile(archive) as held:
            members = [(info, held.read(info)) for info in held.infolist()]
        with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as rewritten:
            for info, data in members:
                if info.filename != f"{archive.name}.id":
                    rewritten.writestr(info, data)
            rewritten.writestr(f"{archive.name}.id", hashlib.sha256(name.encode()).hexdigest()[:16])
        return f"{write_service_worker(self.folder)} {urlsplit(self.url).path}"

    def beside(self, prefix: str, page: str, old: str, new: str) -> str:
        """Deploy another build of the site beside this one, on the same origin, under
        /prefix/, with text in one page changed; give its URL."""
        deploy(self.root / prefix)
        path = self.root / prefix / page
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
        write_service_worker(self.root / prefix)
        return f"{self.origin}{prefix}/"

    def sent_before_worker(self) -> list[str]:
        """The files sent whole before the page registered its service worker (it does once
        Python is ready): what start-up fetched, without the worker's precache."""
        sent = list(self.sent)
        worker = f"{urlsplit(self.url).path}sw.js"
        return sent[:sent.index(worker)] if worker in sent else sent

    def go_away(self) -> None:
        """Stop serving: from now on every request is refused, as on a link that is down."""
        self.release()
        self.serving.close()  # a second call does nothing


def deploy(folder: Path) -> None:
    """Copy dist/ to folder, its files dated a while back, as a deploy made earlier is."""
    shutil.copytree(DIST, folder)
    deployed = time.time() - DEPLOYED_AGO
    for path in folder.rglob("*"):
        os.utime(path, (deployed, deployed))


class HoldingHandler(QuietHandler):
    """The site's static files; the file its site holds waits until released."""

    def __init__(self, *args: Any, site: Site, **kwargs: Any) -> None:
        self.site = site
        super().__init__(*args, **kwargs)

    def send_head(self) -> Any:
        # Without the redirect, "d8" is answered with d8/index.html, as some hosts do.
        path = self.path.split("?")[0]
        if not self.site.redirects and not path.endswith("/") and \
                os.path.isdir(self.translate_path(path)):
            self.path = path + "/"
        return super().send_head()

    def do_GET(self) -> None:
        self.site.asked.append(self.path.split("?")[0])
        if not self.path.split("?")[0].endswith(self.site.held):
            super().do_GET()
            return
        self.site.requested.set()
        self.site.released.wait(HOLD_SECONDS)
        try:
            super().do_GET()
        finally:
            self.site.answered.set()

    def copyfile(self, source: Any, outputfile: Any) -> None:
        self.site.sent.append(self.path.split("?")[0])
        super().copyfile(source, outputfile)
