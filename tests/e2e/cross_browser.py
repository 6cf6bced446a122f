"""One learner's hands in three engines: Chromium (Playwright), Firefox (puppeteer-core over
WebDriver BiDi, in Node) and WebKitGTK, Safari's engine (WebKitWebDriver, via Selenium).

A test written against `Learner` runs unchanged in each: it finds things by role and
accessible name (matched exactly), and every wait is the driver's own wait for a condition,
never a sleep.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import signal
import subprocess
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, Protocol

import pytest
from playwright.sync_api import Locator, Page, expect
from selenium import webdriver
from selenium.common.exceptions import (
    NoSuchElementException,
    NoSuchFrameException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.client_config import ClientConfig
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.webkitgtk.options import Options
from selenium.webdriver.webkitgtk.service import Service

from conftest import FAILED_PREFIX, READY_TEXT, python_ready, watch_errors
from course_build.machine import FIREFOX, WEBKIT_DRIVER, XVFB_RUN
from course_build.paths import NODE_MODULES, ROOT

BOOT_SECONDS = 120  # a cold start takes 2 to 7 s here when the machine is idle; CI may not be
STEP_SECONDS = 30
# Back, once the script that asks for it has answered (a navigation cuts a script's answer).
HISTORY_BACK = "async () => { setTimeout(() => history.back()); }"
COMMAND_SECONDS = 150  # longer than any one command takes: a script may run 90 s
FIREFOX_DRIVER = ROOT / "tests" / "e2e" / "firefox_driver.mjs"
Within = tuple[str, str] | None  # (role, name) of the element to look inside, or anywhere


class Learner(Protocol):
    """What a test asks of a browser: one page, driven by role and name."""

    def goto(self, url: str) -> None: ...
    def reload(self) -> None: ...
    def back(self) -> None:
        """The browser's Back; the page comes back from the back-forward cache when the
        browser kept it. (Playwright's go_back and Puppeteer's goBack wait for a load event,
        which a page shown from that cache never fires: both timed out here.)"""
    def python_ready(self) -> None:
        """Wait for the boot status to settle; fail unless it says Python is ready."""
    def click(self, role: str, name: str) -> None: ...
    def fill(self, role: str, name: str, text: str) -> None: ...
    def press(self, role: str, name: str, key: str) -> None:
        """Press a key (a name as Playwright spells it: "ArrowRight") with the element focused."""
    def key(self, key: str) -> None:
        """Press a key (named as for `press`) on whatever has the focus."""
    def see(self, role: str, name: str) -> None:
        """Wait until an element with this role and name is visible."""
    def see_text(self, text: str, within: Within = None, seconds: float = STEP_SECONDS) -> None:
        """Wait (up to `seconds`) until an element (inside `within`, if given) shows text."""
    def no_text(self, text: str) -> None:
        """Wait until no element shows text."""
    def visible(self, role: str, name: str) -> bool:
        """Whether such an element is visible now (no waiting)."""
    def read(self, role: str, name: str, prop: str) -> Any:
        """A DOM property (value, checked, disabled) of the element, once it is there."""
    def run(self, source: str) -> Any:
        """The result of an async function's source, run in the page outside its CSP."""
    def errors(self) -> list[str]:
        """Errors, uncaught exceptions and CSP violations the page has reported."""


def require(program: str, package: str) -> str:
    """The path of program, or a failure (never a skip) saying how to install it."""
    found = program if Path(program).is_absolute() else shutil.which(program)
    if found is None or not Path(found).exists():
        pytest.fail(f"{program} is missing, so this engine cannot be tested on this machine: "
                    f"run `python3 build.py setup` (it installs Debian's {package})")
    return found


class ChromiumLearner:
    """Playwright's page: locators and `expect`."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.reported = watch_errors(page)

    def _find(self, role: str, name: str, within: Within = None) -> Locator:
        """The first visible element with this role and name, as the other engines find it."""
        scope = self.page if within is None else self._find(*within)
        found = scope.get_by_role(role, name=name, exact=True)  # type: ignore[arg-type]
        return found.filter(visible=True).first

    def goto(self, url: str) -> None:
        self.page.goto(url)

    def reload(self) -> None:
        self.page.reload()

    def back(self) -> None:
        self.run(HISTORY_BACK)

    def python_ready(self) -> None:
        python_ready(self.page)

    def click(self, role: str, name: str) -> None:
        self._find(role, name).click()

    def fill(self, role: str, name: str, text: str) -> None:
        self._find(role, name).fill(text)

    def press(self, role: str, name: str, key: str) -> None:
        self._find(role, name).press(key)

    def key(self, key: str) -> None:
        self.page.keyboard.press(key)

    def see(self, role: str, name: str) -> None:
        expect(self._find(role, name)).to_be_visible()

    def see_text(self, text: str, within: Within = None, seconds: float = STEP_SECONDS) -> None:
        scope = self.page if within is None else self._find(*within)
        expect(scope.get_by_text(text).first).to_be_visible(timeout=seconds * 1000)

    def no_text(self, text: str) -> None:
        expect(self.page.get_by_text(text).filter(visible=True)).to_have_count(0)

    def visible(self, role: str, name: str) -> bool:
        return self._find(role, name).is_visible()

    def read(self, role: str, name: str, prop: str) -> Any:
        return self._find(role, name).evaluate("(el, prop) => el[prop]", prop)

    def run(self, source: str) -> Any:
        return self.page.evaluate(source)

    def errors(self) -> list[str]:
        return list(self.reported)


# Candidates for each role, narrowed further by the accessible name and role that Firefox and
# WebKit compute (each engine's own accessibility code, not ours).
SELENIUM_KEYS = {"ArrowRight": "ARROW_RIGHT", "ArrowLeft": "ARROW_LEFT", "ArrowUp": "ARROW_UP",
                 "ArrowDown": "ARROW_DOWN", "Home": "HOME", "End": "END", "Enter": "ENTER"}
ROLE_CSS = {
    "button": "button",
    "radio": "input[type=radio]",
    "textbox": "input[type=text], textarea",
    "spinbutton": "input[type=number]",
    "heading": "h1, h2, h3, h4",
    "article": "article",
    "region": "section",
    "link": "a[href]",
    "menuitem": "[role=menuitem]",  # JupyterLite's menus (Lumino)
    "slider": "input[type=range]",
    "table": "table",
}

class FirefoxLearner:
    """A page in Debian's Firefox ESR, driven by firefox_driver.mjs: one JSON line per command."""

    def __init__(self, node: str, firefox: str) -> None:
        # Its log goes to this process's stderr, which pytest shows when a test fails.
        self.process = subprocess.Popen(
            [node, str(FIREFOX_DRIVER), firefox], cwd=ROOT, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
        self.replies: queue.Queue[str] = queue.Queue()
        # Set once a command went unanswered: its answer may still come, in reply to the
        # next command, so this driver serves no later test.
        self.broken = False
        self.listener = threading.Thread(target=self._listen, daemon=True)
        self.listener.start()
        self.version = self._call("version", seconds=BOOT_SECONDS)

    def _listen(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.replies.put(line)
        self.replies.put("")  # the driver has gone

    def _call(self, op: str, seconds: float = STEP_SECONDS + 10, **args: Any) -> Any:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"op": op, **args}) + "\n")
        self.process.stdin.flush()
        try:
            line = self.replies.get(timeout=seconds)
        except queue.Empty:
            self.broken = True
            raise AssertionError(f"Firefox's driver did not answer {op} in {seconds} s") from None
        if not line:
            self.broken = True
            raise AssertionError(f"Firefox's driver ended during {op}; see its log above")
        reply = json.loads(line)
        if "error" in reply:
            raise AssertionError(f"{op} {args}: {reply['error']}")
        return reply["value"]

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._call("close", seconds=30)
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.listener.join()
        if self.process.stdout is not None:
            self.process.stdout.close()

    def fresh(self) -> None:
        """Close the page and its private browser context, and open a page in a new one."""
        self._call("fresh", seconds=BOOT_SECONDS)

    def goto(self, url: str) -> None:
        self._call("goto", url=url)

    def reload(self) -> None:
        self._call("reload")

    def back(self) -> None:
        self.run(HISTORY_BACK)

    def python_ready(self) -> None:
        said = self._call("settled", seconds=BOOT_SECONDS + 10, ready=READY_TEXT,
                          failed=FAILED_PREFIX, timeout=BOOT_SECONDS * 1000)
        assert said == READY_TEXT, f"the page says: {said}"

    def _on(self, op: str, role: str, name: str, **args: Any) -> Any:
        return self._call(op, css=ROLE_CSS[role], role=role, name=name, **args)

    def click(self, role: str, name: str) -> None:
        self._on("click", role, name)

    def fill(self, role: str, name: str, text: str) -> None:
        self._on("fill", role, name, value=text)

    def press(self, role: str, name: str, key: str) -> None:
        self._on("press", role, name, key=key)

    def key(self, key: str) -> None:
        self._call("key", key=key)

    def see(self, role: str, name: str) -> None:
        self._on("see", role, name)

    def see_text(self, text: str, within: Within = None, seconds: float = STEP_SECONDS) -> None:
        scope = None if within is None else {"css": ROLE_CSS[within[0]], "role": within[0],
                                             "name": within[1]}
        self._call("seeText", seconds=seconds + 10, text=text, within=scope,
                   timeout=seconds * 1000)

    def no_text(self, text: str) -> None:
        self._call("noText", text=text)

    def visible(self, role: str, name: str) -> bool:
        return bool(self._on("visible", role, name))

    def read(self, role: str, name: str, prop: str) -> Any:
        return self._on("read", role, name, prop=prop)

    def run(self, source: str) -> Any:
        return self._call("run", source=source, seconds=90)

    def errors(self) -> list[str]:
        return list(self._call("errors"))


# WebKitWebDriver 2.50 reports no console messages (no log endpoint, no WebDriver BiDi), so
# the page records its own uncaught errors, rejections and CSP violations from the moment
# this runs. Before that, an uncaught error or rejection makes the page say that Python
# could not start, which fails `python_ready`.
RECORD_ERRORS = """
window.recordedErrors ??= [];
addEventListener("error", (e) => recordedErrors.push(`error: ${e.message}`));
addEventListener("unhandledrejection", (e) => recordedErrors.push(`rejection: ${e.reason}`));
document.addEventListener("securitypolicyviolation",
  (e) => recordedErrors.push(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
"""
RUN_ASYNC = """const done = arguments[arguments.length - 1];
(%s)().then((value) => done({value}), (error) => done({error: String(error)}));"""


def text_xpath(text: str) -> str:
    """An XPath step to every element whose own text contains `text`, below its context."""
    return f'//*[text()[contains(normalize-space(), "{text}")]]'


class WebKitLearner:
    """A WebKitGTK MiniBrowser session (fresh profile), through Selenium."""

    def __init__(self, driver: WebDriver) -> None:
        self.driver = driver
        self.reported: list[str] = []
        driver.set_script_timeout(90)

    def _wait(self, seconds: float = STEP_SECONDS) -> WebDriverWait[WebDriver]:
        """A wait that looks again when the page changes under it: a re-render, or a navigation
        (WebKit's driver answers a command that the old page's unload cuts short with
        NoSuchFrameException, "Callback was not called before the unload event")."""
        return WebDriverWait(self.driver, seconds, ignored_exceptions=(
            NoSuchElementException, NoSuchFrameException, StaleElementReferenceException))

    def _find_now(self, role: str, name: str) -> WebElement | None:
        for element in self.driver.find_elements(By.CSS_SELECTOR, ROLE_CSS[role]):
            if (element.accessible_name == name and element.aria_role == role
                    and element.is_displayed()):
                return element
        return None

    def _find(self, role: str, name: str) -> WebElement:
        try:
            return self._wait().until(lambda _: self._find_now(role, name) or False)
        except TimeoutException:
            raise AssertionError(f"no visible {role} named {name!r}") from None

    def _keep_errors(self) -> None:
        """Carry the errors recorded so far over a navigation, and record on the new page."""
        with contextlib.suppress(Exception):
            self.reported += self.driver.execute_script("return window.recordedErrors ?? []")

    def goto(self, url: str) -> None:
        self._keep_errors()
        self.driver.get(url)

    def reload(self) -> None:
        self._keep_errors()
        self.driver.refresh()

    def back(self) -> None:
        # The driver's own Back, which returns once the page is shown. After HISTORY_BACK,
        # WebKitWebDriver 2.50 now and then never answered the next command (seen: 1 run in 5,
        # find_elements stuck 10 min with the page already back on screen from its cache).
        self._keep_errors()
        self.driver.back()

    def python_ready(self) -> None:
        def status(driver: WebDriver) -> str | Literal[False]:
            said: str = driver.find_element(By.ID, "boot-status").text
            return said if said.startswith((READY_TEXT, FAILED_PREFIX)) else False

        settled = self._wait(BOOT_SECONDS).until(status)
        assert settled == READY_TEXT, f"the page says: {settled}"
        self.driver.execute_script(RECORD_ERRORS)

    def click(self, role: str, name: str) -> None:
        element = self._find(role, name)
        leaving = self.driver.current_url
        to = element.get_dom_attribute("href") if role == "link" else None
        element.click()
        if to and not to.startswith("#"):
            # WebKit's driver can answer the click before the browser leaves the page, and the
            # page being left (the track, say) may say "Python is ready." too: wait until
            # the browser is on the link's page, so what follows reads the right one.
            self._wait(BOOT_SECONDS).until(lambda driver: driver.current_url != leaving)

    def fill(self, role: str, name: str, text: str) -> None:
        field = self._find(role, name)
        field.clear()
        field.send_keys(text)

    def press(self, role: str, name: str, key: str) -> None:
        self._find(role, name).send_keys(getattr(Keys, SELENIUM_KEYS[key]))

    def key(self, key: str) -> None:
        ActionChains(self.driver).send_keys(getattr(Keys, SELENIUM_KEYS[key])).perform()

    def see(self, role: str, name: str) -> None:
        self._find(role, name)

    def see_text(self, text: str, within: Within = None, seconds: float = STEP_SECONDS) -> None:
        xpath = f".{text_xpath(text)}"

        def shown(driver: WebDriver) -> bool:
            scope = self._find(*within) if within else driver.find_element(By.TAG_NAME, "body")
            return any(e.is_displayed() for e in scope.find_elements(By.XPATH, xpath))

        try:
            self._wait(seconds).until(shown)
        except TimeoutException:
            raise AssertionError(f"{text!r} is not shown") from None

    def no_text(self, text: str) -> None:
        xpath = f"//body{text_xpath(text)}"
        try:
            self._wait().until(lambda driver: not any(
                e.is_displayed() for e in driver.find_elements(By.XPATH, xpath)))
        except TimeoutException:
            raise AssertionError(f"{text!r} is still shown") from None

    def visible(self, role: str, name: str) -> bool:
        return self._find_now(role, name) is not None

    def read(self, role: str, name: str, prop: str) -> Any:
        return self._find(role, name).get_property(prop)

    def run(self, source: str) -> Any:
        reply = self.driver.execute_async_script(RUN_ASYNC % source)
        assert "error" not in reply, reply["error"]
        return reply["value"]

    def errors(self) -> list[str]:
        self._keep_errors()
        self.driver.execute_script("window.recordedErrors = []")
        return self.reported


class XvfbService(Service):
    """WebKitWebDriver started through xvfb-run, so MiniBrowser gets a virtual display."""

    def command_line_args(self) -> list[str]:
        return ["-a", WEBKIT_DRIVER, f"--port={self.port}"]


@contextlib.contextmanager
def webkit_session() -> Iterator[WebDriver]:
    """A WebKitGTK MiniBrowser session (fresh profile) on a fresh virtual display."""
    xvfb_run = require(XVFB_RUN, "xvfb")
    require(WEBKIT_DRIVER, "webkit2gtk-driver")
    # Its own session, so xvfb-run, Xvfb, the driver and MiniBrowser end together.
    service = XvfbService(executable_path=xvfb_run, popen_kw={"start_new_session": True})
    service.start()
    try:
        with warnings.catch_warnings():
            # Selenium 4.51 itself passes this deprecated argument whenever it connects.
            warnings.filterwarnings("ignore", "setting remote_server_addr", DeprecationWarning)
            # A bound on every command's answer: without one, Selenium waits for ever on a
            # driver that has stopped answering, and the whole suite with it.
            config = ClientConfig(service.service_url, timeout=COMMAND_SECONDS)
            driver = webdriver.Remote(command_executor=service.service_url, options=Options(),
                                      client_config=config)
        try:
            yield driver
        finally:
            driver.quit()
    finally:
        group = service.process.pid
        service.stop()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(group, signal.SIGTERM)


class SharedFirefox:
    """One Firefox for the tests that ask for it, each given a page in a new private browser
    context (firefox_driver.mjs `fresh`): nothing a site kept carries from one test to the
    next, and no test waits the 5 s a Firefox takes to start. A driver that has stopped
    answering, or has ended, is replaced by a new Firefox."""

    def __init__(self) -> None:
        self.learner: FirefoxLearner | None = None

    def fresh(self) -> FirefoxLearner:
        if self.learner is not None and not self.learner.broken:
            with contextlib.suppress(AssertionError):
                self.learner.fresh()
                return self.learner
        self.close()
        firefox = require(FIREFOX, "firefox-esr")
        node = require("node", "nodejs")
        assert (NODE_MODULES / "puppeteer-core").is_dir(), (
            "puppeteer-core is missing: run `python3 build.py setup` (npm ci)")
        self.learner = FirefoxLearner(node, firefox)
        return self.learner

    def close(self) -> None:
        if self.learner is not None:
            self.learner.close()
            self.learner = None
