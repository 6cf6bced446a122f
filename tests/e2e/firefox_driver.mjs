// One page at a time in Debian's Firefox ESR, driven over WebDriver BiDi by puppeteer-core,
// for the Python tests (FirefoxLearner in cross_browser.py).
//
// node firefox_driver.mjs FIREFOX reads one JSON command per line on stdin, {"op", ...},
// and answers each on stdout with {"value"} or {"error"}. Elements are found by role and
// accessible name, matched exactly, as Firefox's accessibility tree has them; every wait
// is for a condition, never a fixed time.
// Firefox's BiDi log reports console errors, uncaught errors and CSP violations; the
// "errors" command hands them over.
import readline from "node:readline";
import puppeteer from "puppeteer-core";

const [firefox] = process.argv.slice(2);
const STEP_TIMEOUT_MS = 30_000;
const errors = [];

const POLL_MS = 100; // between two looks for something not there yet

// The visible element with this role and accessible name, as Firefox computes them, among
// the elements `css` selects, or null.
// Firefox's accessibility locator walks the whole page, about a second a query on a lesson
// page; started from the few elements that can have the role, it takes milliseconds. Both
// lookups are one BiDi command each (puppeteer's own browsing context), and only a match
// becomes a handle: puppeteer's `$$` fetched the candidates one at a time, 150-250 ms a
// look on a lesson page, most of what a step took.
async function look({ css, role, name }) {
  const frame = page.mainFrame();
  const candidates = await frame.browsingContext.locateNodes({ type: "css", value: css });
  if (!candidates.length) return null;
  const locator = { type: "accessibility", value: { role, name } };
  const nodes = await frame.browsingContext.locateNodes(locator, candidates);
  const named = new Set(nodes.map((node) => node.sharedId));
  for (const candidate of candidates) {
    if (!named.has(candidate.sharedId)) continue;
    const element = frame.mainRealm().createHandle(candidate);
    if (await element.isVisible()) return element;
    await element.dispose();
  }
  return null;
}

// A look that a navigation cut short: the page it looked at is gone.
const GONE = /no such node|no such handle|no such frame|not known|context was destroyed/i;

// A look sent as the page navigates away can go unanswered: after a click on a link from a
// lesson page whose Python was running, a look for the next page's heading was never
// answered (2 runs in 10 of the offline test's Firefox journey). Each look is bounded; one
// that goes unanswered counts as finding nothing, and the next asks the page there now. A
// page that never comes still fails the step, with its own message.
const LOOK_MS = 10_000;

async function boundedLook(args) {
  let timer;
  const unanswered = new Promise((resolve) => {
    timer = setTimeout(() => {
      console.error(`firefox_driver: a look for ${args.role} ${JSON.stringify(args.name)} `
                    + `went unanswered for ${LOOK_MS} ms; looking again`);
      resolve(null);
    }, LOOK_MS);
  });
  try {
    return await Promise.race([look(args), unanswered]);
  } finally {
    clearTimeout(timer);
  }
}

// `look`, again until it finds the element or `timeout` ms pass (0: looks once).
async function find(args, timeout = STEP_TIMEOUT_MS) {
  const deadline = Date.now() + timeout;
  for (;;) {
    let found = null;
    try {
      found = await boundedLook(args);
    } catch (error) {
      if (!GONE.test(error.message)) throw error;
    }
    if (found || Date.now() >= deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function mustFind(args) {
  const found = await find(args);
  if (!found) throw new Error(`no visible ${args.role} named ${JSON.stringify(args.name)}`);
  return found;
}

// Do something with the element found, then let it go.
async function withFound(args, action) {
  const found = await mustFind(args);
  try {
    return await action(found);
  } finally {
    await found.dispose();
  }
}

const text = (value) => `::-p-text(${JSON.stringify(value)})`;

const browser = await puppeteer.launch({
  browser: "firefox",
  executablePath: firefox,
  headless: true,
});
let userContext = null;
let page = null;

// A page in a new private browser context: no storage, caches, service workers or HTTP
// cache of the context before it, which is closed with all it kept. One Firefox serves
// many tests this way; starting one takes about 5 s.
async function freshPage() {
  if (userContext) await userContext.close();
  errors.length = 0;
  userContext = await browser.createBrowserContext();
  page = await userContext.newPage();
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
}
await freshPage();

const commands = {
  version: () => browser.version(),
  fresh: () => freshPage(),
  goto: async ({ url }) => { await page.goto(url); },
  reload: async () => { await page.reload(); },
  // The boot status once it says either ready or failed, watched as the page changes.
  settled: async ({ ready, failed, timeout }) => {
    const said = await page.waitForFunction((ready, failed) => {
      const status = document.getElementById("boot-status")?.textContent ?? "";
      return (status === ready || status.startsWith(failed)) && status;
    }, { polling: "mutation", timeout }, ready, failed);
    try {
      return await said.jsonValue();
    } finally {
      await said.dispose();
    }
  },
  click: (args) => withFound(args, (found) => found.asLocator().click()),
  fill: (args) => withFound(args, (found) => found.asLocator().fill(args.value)),
  press: (args) => withFound(args, (found) => found.press(args.key)),
  key: ({ key }) => page.keyboard.press(key),
  see: (args) => withFound(args, () => {}),
  // Text shown anywhere, or inside the element `within` finds.
  seeText: async ({ text: value, within, timeout = STEP_TIMEOUT_MS }) => {
    const scope = within ? await mustFind(within) : page;
    try {
      await scope.waitForSelector(text(value), { visible: true, timeout });
    } catch {
      throw new Error(`not shown within ${timeout} ms: ${JSON.stringify(value)}`);
    } finally {
      if (within) await scope.dispose();
    }
  },
  noText: async ({ text: value }) => {
    try {
      await page.waitForSelector(text(value), { hidden: true, timeout: STEP_TIMEOUT_MS });
    } catch {
      throw new Error(`still shown after ${STEP_TIMEOUT_MS} ms: ${JSON.stringify(value)}`);
    }
  },
  visible: async (args) => {
    const found = await find(args, 0);
    await found?.dispose();
    return found !== null;
  },
  read: (args) => withFound(args, (found) => found.evaluate((el, name) => el[name], args.prop)),
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
