// One page in Debian's Firefox ESR, driven over WebDriver BiDi by puppeteer-core, for the
// Python tests (FirefoxLearner in cross_browser.py).
//
// node firefox_driver.mjs FIREFOX reads one JSON command per line on stdin, {"op", ...},
// and answers each on stdout with {"value"} or {"error"}. Elements are found by role and
// accessible name, matched exactly; every wait is a puppeteer locator's (no sleeps).
// Firefox's BiDi log reports console errors, uncaught errors and CSP violations; the
// "errors" command hands them over.
import readline from "node:readline";
import puppeteer, { Locator } from "puppeteer-core";

const [firefox] = process.argv.slice(2);
const STEP_TIMEOUT_MS = 30_000;
const errors = [];

const aria = (role, name) => `::-p-aria([name=${JSON.stringify(name)}][role="${role}"])`;
const text = (value) => `::-p-text(${JSON.stringify(value)})`;

// The selector for {role, name} or {text}, inside {within: [role, name]} if given.
function selector({ role, name, text: value, within }) {
  const parts = within ? [aria(...within)] : [];
  parts.push(value === undefined ? aria(role, name) : text(value));
  return parts.join(" ");
}

function what(args) {
  return args.text === undefined ? `${args.role} ${JSON.stringify(args.name)}`
    : JSON.stringify(args.text);
}

async function waitFor(page, args, timeout = STEP_TIMEOUT_MS) {
  try {
    return await page.locator(selector(args)).setTimeout(timeout).waitHandle();
  } catch {
    throw new Error(`not seen within ${timeout} ms: ${what(args)}`);
  }
}

const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath: firefox,
  headless: true,
});
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

const commands = {
  version: () => browser.version(),
  goto: async ({ url }) => { await page.goto(url); },
  reload: async () => { await page.reload(); },
  // The boot status once it says either ready or failed (other text may say "ready" too).
  settled: async ({ ready, failed, timeout }) => {
    const status = (said) => page.locator(text(said)).filter((el) => el.id === "boot-status");
    await Locator.race([status(ready), status(failed)]).setTimeout(timeout).wait();
    return page.$eval("#boot-status", (element) => element.textContent);
  },
  click: async (args) => { await page.locator(selector(args)).setTimeout(STEP_TIMEOUT_MS).click(); },
  fill: async (args) => {
    await page.locator(selector(args)).setTimeout(STEP_TIMEOUT_MS).fill(args.value);
  },
  see: async (args) => { await (await waitFor(page, args)).dispose(); },
  visible: async (args) => {
    const found = await page.$(selector(args));
    if (!found) return false;
    try {
      return await found.isVisible();
    } finally {
      await found.dispose();
    }
  },
  read: async (args) => {
    const found = await waitFor(page, args);
    try {
      return await found.evaluate((element, name) => element[name], args.prop);
    } finally {
      await found.dispose();
    }
  },
  run: ({ source }) => page.evaluate(`(${source})()`),
  errors: () => errors,
  close: () => browser.close(),
};

for await (const line of readline.createInterface({ input: process.stdin })) {
  const { op, ...args } = JSON.parse(line);
  let reply;
  try {
    reply = { value: (await commands[op](args)) ?? null };
  } catch (error) {
    reply = { error: error.message };
  }
  process.stdout.write(`${JSON.stringify(reply)}\n`);
  if (op === "close") break;
}
if (browser.connected) await browser.close();
