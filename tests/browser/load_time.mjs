// How long real Chromium takes to open each page, and to answer once open: each page in a
// fresh tab, ROUNDS times, the pages alternating.
// usage: PUPPETEER_DIR=<folder with node_modules/puppeteer-core> node load_time.mjs CHROMIUM ROUNDS URL...
// Prints {url: [{load, interactive, bottom, section}, ...]} as JSON, in seconds:
//   load: navigation start to the load event;
//   interactive: navigation start to the first frame drawn after the load event once the
//     main thread is free again (a task queued behind everything the page started);
//   bottom: from scrolling the standings table to its end to its last row being drawn;
//   section: from following the last row's name to that player's section being drawn.
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
    await page.setViewport({ width: 1366, height: 768 });
    await page.goto(url, { waitUntil: "load", timeout: 300000 });
    const times = await page.evaluate(async () => {
      const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      const [nav] = performance.getEntriesByType("navigation");
      await frame();
      const interactive = performance.now();
      const box = document.querySelector("#standings-title ~ .scroll");
      const rows = () => box.querySelectorAll("tbody tr:not(.gap)");
      let start = performance.now();
      box.scrollTop = box.scrollHeight;
      const last = box.querySelector("tbody:last-of-type");
      while (!last.querySelector("tr:not(.gap)")) await frame();
      await frame();
      const bottom = performance.now() - start;
      const link = [...rows()].at(-1).querySelector("a");
      start = performance.now();
      link.click();
      await frame();
      const section = document.querySelector(link.getAttribute("href"));
      const shown = section !== null && section.getBoundingClientRect().top < innerHeight;
      return {
        load: (nav.loadEventEnd || performance.now()) / 1000,
        interactive: interactive / 1000,
        bottom: bottom / 1000,
        section: shown ? (performance.now() - start) / 1000 : null,
      };
    });
    out[url].push(times);
    await page.close();
  }
}
await browser.close();
console.log(JSON.stringify(out));
