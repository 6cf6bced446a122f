// Seconds to Python-ready of one page in Firefox ESR over WebDriver BiDi: a fresh profile,
// loaded (cold), then reloaded (warm). Run by bench_browsers.py as
// `node firefox_ready.mjs FIREFOX URL`; prints {"cold": s, "warm": s}. The figure is the
// page's own "python-ready" performance mark, which boot.js sets.
import puppeteer from "puppeteer-core";

const [firefox, url] = process.argv.slice(2);
const TIMEOUT_MS = 120_000;

const browser = await puppeteer.launch({ browser: "firefox", executablePath: firefox, headless: true });
try {
  const page = await browser.newPage();
  const readySeconds = async () => {
    await page.locator('::-p-text("Python is ready.")').setTimeout(TIMEOUT_MS).wait();
    return page.evaluate(() => performance.getEntriesByName("python-ready")[0].startTime / 1000);
  };
  await page.goto(url);
  const cold = await readySeconds();
  await page.reload();
  const warm = await readySeconds();
  console.log(JSON.stringify({ cold, warm }));
} finally {
  await browser.close();
}
