// Which column headings of a published page's standings table a reader can reach at each
// window width (in view, or by scrolling the table's own box), in real Chromium.
// usage: PUPPETEER_DIR=<folder with node_modules/puppeteer-core> node reach.mjs CHROMIUM URL WIDTH...
// Prints {width: [{text, visible}]} as JSON.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const where = join(process.env.PUPPETEER_DIR, "node_modules", "puppeteer-core", "lib", "esm", "puppeteer", "puppeteer-core.js");
const puppeteer = (await import(pathToFileURL(where).href)).default;
const [browserPath, page_url, ...widths] = process.argv.slice(2);
const browser = await puppeteer.launch({ executablePath: browserPath, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
const out = {};
for (const width of widths) {
  const page = await browser.newPage();
  await page.setViewport({ width: Number(width), height: 800 });
  await page.goto(page_url);
  out[width] = await page.evaluate(() => {
    // A heading is reachable if it is inside the table's box, or the box lets the reader
    // scroll to it (overflow auto or scroll; a hidden overflow would clip it), and the box
    // itself fits the window.
    const box = document.querySelector("#standings-title ~ .scroll");
    const scrollable = ["auto", "scroll"].includes(getComputedStyle(box).overflowX);
    const shown = box.getBoundingClientRect();
    const boxFits = shown.left >= 0 && shown.right <= window.innerWidth + 1;
    return [...box.querySelectorAll("thead th")].map((th) => {
      const r = th.getBoundingClientRect();
      const inside = r.left >= shown.left - 1 && r.right <= shown.right + 1;
      const withinContent = r.right - (shown.left + box.clientLeft) <= box.scrollWidth + 1;
      return {
        text: th.textContent,
        visible: boxFits && r.width > 0 && (inside || (scrollable && withinContent)),
      };
    });
  });
  await page.close();
}
await browser.close();
console.log(JSON.stringify(out));
