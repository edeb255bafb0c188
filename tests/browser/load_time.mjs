// How long real Chromium takes to open each page: navigation start to the load event, in
// seconds, each page in a fresh tab, ROUNDS times, the pages alternating.
// usage: PUPPETEER_DIR=<folder with node_modules/puppeteer-core> node load_time.mjs CHROMIUM ROUNDS URL...
// Prints {url: [seconds, ...]} as JSON.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const where = join(process.env.PUPPETEER_DIR, "node_modules", "puppeteer-core", "lib", "esm", "puppeteer", "puppeteer-core.js");
const puppeteer = (await import(pathToFileURL(where).href)).default;
const [browserPath, rounds, ...urls] = process.argv.slice(2);
const browser = await puppeteer.launch({ executablePath: browserPath, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
const out = Object.fromEntries(urls.map((url) => [url, []]));
for (let round = 0; round < Number(rounds); round++) {
  for (const url of urls) {
    const page = await browser.newPage();
    await page.setViewport({ width: 390, height: 800 });
    await page.goto(url, { waitUntil: "load", timeout: 120000 });
    const seconds = await page.evaluate(() => {
      const [nav] = performance.getEntriesByType("navigation");
      return (nav.loadEventEnd || performance.now()) / 1000;
    });
    out[url].push(seconds);
    await page.close();
  }
}
await browser.close();
console.log(JSON.stringify(out));
