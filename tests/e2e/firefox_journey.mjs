// The D8 journey in Debian's Firefox ESR, driven over WebDriver BiDi by puppeteer-core.
//
// Run by test_firefox.py: node firefox_journey.mjs FIREFOX JOURNEY_JSON, where the JSON
// holds the page's URL and what the learner chooses and types (from learner.py). It finds
// everything by role and accessible name, waits through puppeteer's locators (no sleeps),
// prints each step, and exits 1 with the reason at the first thing that does not hold.
// Firefox's BiDi log reports console errors, uncaught errors and CSP violations: any of
// them fails the journey.
import puppeteer, { Locator } from "puppeteer-core";

const [firefox, journeyJson] = process.argv.slice(2);
const journey = JSON.parse(journeyJson);
const BOOT_TIMEOUT_MS = 120_000; // a cold start takes about 15 s here when the machine is idle
const STEP_TIMEOUT_MS = 30_000;
const READY = "Python is ready.";
const FAILED = "Python could not start";
const errors = [];
const started = Date.now();

const aria = (role, name) => `::-p-aria([name=${JSON.stringify(name)}][role="${role}"])`;
const text = (value) => `::-p-text(${JSON.stringify(value)})`;

// Wait until selector matches a visible element, or fail naming what was expected.
async function see(page, selector, what, timeout = STEP_TIMEOUT_MS) {
  try {
    await page.locator(selector).setTimeout(timeout).wait();
  } catch {
    throw new Error(`not seen within ${timeout} ms: ${what}`);
  }
}

// Read a property (or else an attribute) of the element selector matches, once it is there.
async function read(page, selector, property) {
  const element = await page.locator(selector).setTimeout(STEP_TIMEOUT_MS).waitHandle();
  try {
    return await element.evaluate((el, name) => String(el[name] ?? el.getAttribute(name)),
      property);
  } finally {
    await element.dispose();
  }
}

async function expectProperty(page, selector, property, expected) {
  const actual = await read(page, selector, property);
  if (actual !== String(expected)) {
    throw new Error(`${selector}: ${property} is ${JSON.stringify(actual)}, not ${expected}`);
  }
}

function step(message) {
  console.log(`step: ${message} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

async function waitForPython(page) {
  const settled = [page.locator(text(READY)), page.locator(text(FAILED))];
  await Locator.race(settled).setTimeout(BOOT_TIMEOUT_MS).wait();
  const said = await read(page, "#boot-status", "textContent");
  if (said !== READY) throw new Error(`the page says: ${said}`);
}

async function expectGateMet(page) {
  await see(page, aria("region", `Your check: an outcome you produce met`), "the gate met");
  await see(page, text(journey.gate_status), journey.gate_status);
}

async function expectEverythingBack(page) {
  const prediction = aria("radio", journey.prediction);
  await expectProperty(page, prediction, "checked", true);
  await expectProperty(page, prediction, "disabled", true);
  for (const [label, typed] of Object.entries(journey.answers)) {
    await expectProperty(page, aria("textbox", label), "value", typed);
  }
  await see(page, text("You have run it 1 time."), "one evaluated run");
  await expectProperty(page, aria("radio", journey.reading), "checked", true);
  await expectGateMet(page);
}

async function walk(page) {
  await page.goto(journey.url);
  await waitForPython(page);
  step("Python is ready");

  await page.locator(aria("radio", journey.prediction)).click();
  await page.locator(aria("button", "Lock in my prediction")).click();
  await see(page, aria("heading", "03 · Try it"), "03 · Try it");
  step("prediction locked");

  for (const [head, output] of Object.entries(journey.head_outputs)) {
    await see(page, `${aria("article", head)} ${text("computed in this browser")}`,
      `${head}: computed in this browser`);
    await see(page, `${aria("article", head)} ${text(`The output is ${output}.`)}`,
      `${head}: The output is ${output}.`);
  }
  step("both heads show their numbers");

  for (const [label, typed] of Object.entries(journey.answers)) {
    await page.locator(aria("textbox", label)).fill(typed);
  }
  await page.locator(aria("button", "Check")).click();
  await see(page, text("You have run it 1 time."), "one evaluated run");
  await see(page, text(journey.graded), journey.graded);
  step("six answers checked");

  await page.locator(aria("radio", journey.reading)).click();
  await page.locator(aria("button", "Lock in this reading")).click();
  await expectGateMet(page);
  step("gate met");

  await page.reload();
  await waitForPython(page);
  await expectEverythingBack(page);
  step("a reload brought everything back");
}

const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath: firefox,
  headless: true,
});
let failure = null;
try {
  const page = await browser.newPage();
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`page error: ${error}`));
  // A preload script: Firefox runs it before the page's own, outside the page's CSP.
  await page.evaluateOnNewDocument(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
  console.log(`firefox: ${await browser.version()}`);
  await walk(page);
} catch (error) {
  failure = error;
} finally {
  await browser.close();
}
if (failure) {
  console.error(`journey failed: ${failure.message}`);
}
if (errors.length) {
  console.error(`errors the page logged:\n${errors.join("\n")}`);
}
process.exit(failure || errors.length ? 1 : 0);
