// How a published page's standings table is laid out in real Chromium at each window size:
// whether the page itself scrolls sideways, whether the table's box (with its sideways scroll
// bar) fits the window, whether each column can be scrolled to and is then seen (the point at
// its middle shows that cell, not a sticky column over it or nothing), and whether the Rank
// and Player columns stay in view when the table is scrolled to its far right and down.
// usage: PUPPETEER_DIR=<folder with node_modules/puppeteer-core> node layout.mjs CHROMIUM URL SHOTS WxH...
// Writes SHOTS/WxH-start.png and SHOTS/WxH-right.png; prints {WxH: {...}} as JSON.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const where = join(process.env.PUPPETEER_DIR, "node_modules", "puppeteer-core", "lib", "esm", "puppeteer", "puppeteer-core.js");
const puppeteer = (await import(pathToFileURL(where).href)).default;
const [browserPath, pageUrl, shots, ...sizes] = process.argv.slice(2);
const browser = await puppeteer.launch({ executablePath: browserPath, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
const out = {};
for (const size of sizes) {
  const [width, height] = size.split("x").map(Number);
  const page = await browser.newPage();
  await page.setViewport({ width, height });
  await page.goto(pageUrl, { waitUntil: "load" });
  const start = await page.evaluate(() => {
    const box = document.querySelector("table.standings").closest(".scroll");
    box.scrollIntoView({ block: "start" });
    const r = box.getBoundingClientRect();
    return {
      pageWidth: document.documentElement.scrollWidth,
      windowWidth: innerWidth,
      boxFits: r.left >= 0 && r.right <= innerWidth + 1 && r.top >= -1 && r.bottom <= innerHeight + 1,
      boxScrolls: box.scrollWidth > box.clientWidth,
    };
  });
  await page.screenshot({ path: join(shots, `${size}-start.png`) });
  const columns = await page.evaluate(() => {
    const box = document.querySelector("table.standings").closest(".scroll");
    const heads = [...box.querySelectorAll("thead th")];
    const firstRow = box.querySelector("tbody tr");
    const seen = (cell) => {
      const r = cell.getBoundingClientRect();
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return r.width > 0 && at !== null && cell.contains(at);
    };
    return heads.map((th, index) => {
      // Scrolled so that the column's right edge meets the box's right edge (as far as it goes).
      box.scrollLeft = Math.max(0, th.offsetLeft + th.offsetWidth - box.clientWidth);
      const cell = firstRow.children[index];
      return { text: th.textContent, heading: seen(th), cell: seen(cell) };
    });
  });
  const right = await page.evaluate(() => {
    const box = document.querySelector("table.standings").closest(".scroll");
    box.scrollLeft = box.scrollWidth;
    box.scrollTop = box.scrollHeight / 3;
    const b = box.getBoundingClientRect();
    const seen = (cell) => {
      const r = cell.getBoundingClientRect();
      const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return at !== null && cell.contains(at);
    };
    const inBox = [...box.querySelectorAll("tbody tr")].filter((tr) => {
      const r = tr.getBoundingClientRect();
      return r.top >= b.top + 60 && r.bottom <= b.bottom - 20;
    });
    const head = box.querySelectorAll("thead th");
    return {
      scrolledRight: box.scrollLeft > 0,
      headings: seen(head[0]) && seen(head[1]),
      rows: inBox.length,
      names: inBox.map((tr) => seen(tr.children[0]) && seen(tr.children[1])),
    };
  });
  await page.screenshot({ path: join(shots, `${size}-right.png`) });
  out[size] = { ...start, columns, right };
  await page.close();
}
await browser.close();
console.log(JSON.stringify(out));
