"""D8 in WebKitGTK, Safari's engine: Debian's WebKitWebDriver and MiniBrowser, via Selenium.

WebKitWebDriver 2.50 reports no console messages (no log endpoint, no WebDriver BiDi), so
this test records uncaught errors, unhandled rejections and CSP violations in the page
itself, from the moment Python is ready. Before that, an uncaught error or rejection makes
the page say that Python could not start, which fails the test; a CSP violation that breaks
nothing is seen only by the Chromium and Firefox tests.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

import pytest
from cross_browser import GATE_STATUS, GRADED, HEAD_OUTPUTS, RIGHT_READING, webkit_session
from learner import MIXED_ANSWERS, RIGHT_PREDICTION
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.remote.webelement import WebElement
from selenium.webdriver.support.ui import WebDriverWait

BOOT_SECONDS = 120  # a cold start takes about 7 s here when the machine is idle; CI may not be
STEP_SECONDS = 30
READY = "Python is ready."
# Candidates for each role, narrowed further by the accessible name and role WebKit computes.
ROLE_CSS = {
    "button": "button",
    "radio": "input[type=radio]",
    "textbox": "input[type=text], textarea",
    "heading": "h2, h3, h4",
    "article": "article",
    "region": "section",
}
# Run by the driver, outside the page's CSP; the page's own handlers stay untouched.
RECORD_ERRORS = """
window.recordedErrors = [];
addEventListener("error", (e) => recordedErrors.push(`error: ${e.message}`));
addEventListener("unhandledrejection", (e) => recordedErrors.push(`rejection: ${e.reason}`));
document.addEventListener("securitypolicyviolation",
  (e) => recordedErrors.push(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
"""


@pytest.fixture
def webkit() -> Iterator[WebDriver]:
    with webkit_session() as driver:
        yield driver


def wait(driver: WebDriver, seconds: float = STEP_SECONDS) -> WebDriverWait[WebDriver]:
    return WebDriverWait(driver, seconds)


def by_role(driver: WebDriver, role: str, name: str) -> WebElement:
    """The visible element with this role and accessible name, as WebKit computes them."""

    def found(driver: WebDriver) -> WebElement | Literal[False]:
        for element in driver.find_elements(By.CSS_SELECTOR, ROLE_CSS[role]):
            if (element.accessible_name == name and element.aria_role == role
                    and element.is_displayed()):
                return element
        return False

    try:
        return wait(driver).until(found)
    except TimeoutException:
        raise AssertionError(f"no visible {role} named {name!r}") from None


def shown(driver: WebDriver, text: str, within: WebElement | None = None) -> None:
    """Wait until an element (inside `within`, if given) shows text."""
    xpath = f'.//*[text()[contains(normalize-space(), "{text}")]]'

    def visible(driver: WebDriver) -> bool:
        scope = within or driver.find_element(By.TAG_NAME, "body")
        return any(e.is_displayed() for e in scope.find_elements(By.XPATH, xpath))

    try:
        wait(driver).until(visible)
    except TimeoutException:
        raise AssertionError(f"{text!r} is not shown") from None


def python_ready(driver: WebDriver) -> None:
    status = driver.find_element(By.ID, "boot-status")
    settled = wait(driver, BOOT_SECONDS).until(
        lambda _: status.text if status.text.startswith(("Python is ready", "Python could not"))
        else False)
    assert settled == READY, f"the page says: {settled}"


def expect_gate_met(driver: WebDriver) -> None:
    by_role(driver, "region", "Your check: an outcome you produce met")
    shown(driver, GATE_STATUS)


def test_the_d8_journey_passes_in_webkit(webkit: WebDriver, d8_url: str) -> None:
    driver = webkit
    driver.get(d8_url)
    python_ready(driver)
    driver.execute_script(RECORD_ERRORS)

    by_role(driver, "radio", RIGHT_PREDICTION).click()
    by_role(driver, "button", "Lock in my prediction").click()
    by_role(driver, "heading", "03 · Try it")
    for head, output in HEAD_OUTPUTS.items():
        panel = by_role(driver, "article", head)
        shown(driver, "computed in this browser", within=panel)
        shown(driver, f"The output is {output}.", within=panel)

    for label, typed in MIXED_ANSWERS.items():
        by_role(driver, "textbox", label).send_keys(typed)
    by_role(driver, "button", "Check").click()
    shown(driver, "You have run it 1 time.")
    shown(driver, GRADED)

    by_role(driver, "radio", RIGHT_READING).click()
    by_role(driver, "button", "Lock in this reading").click()
    expect_gate_met(driver)
    assert driver.execute_script("return recordedErrors") == []

    driver.refresh()
    python_ready(driver)
    prediction = by_role(driver, "radio", RIGHT_PREDICTION)
    assert prediction.is_selected()
    assert not prediction.is_enabled()
    for label, typed in MIXED_ANSWERS.items():
        assert by_role(driver, "textbox", label).get_property("value") == typed
    shown(driver, "You have run it 1 time.")
    assert by_role(driver, "radio", RIGHT_READING).is_selected()
    expect_gate_met(driver)
