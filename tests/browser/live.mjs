// What real Chromium shows of a published page whose table its script makes as it scrolls.
// usage: PUPPETEER_DIR=<...> node live.mjs CHROMIUM LIVE_URL MORE_URL PLAYER QUERY
//   LIVE_URL: the page; MORE_URL: the same page with more rows and sections written as HTML
//   (read with scripts off, as the yardstick of what the script makes); PLAYER: a player's
//   number whose section is opened; QUERY: text typed into "Find a player".
// Prints one JSON object: the errors, every player seen while scrolling the table through
// (by their number, in order), the rows and the section as the script made them and as the
// HTML has them, what the search found, the page without scripts, and the rows before
// printing.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const where = join(process.env.PUPPETEER_DIR, "node_modules", "puppeteer-core", "lib", "esm", "puppeteer", "puppeteer-core.js");
const puppeteer = (await import(pathToFileURL(where).href)).default;
const [browserPath, liveUrl, moreUrl, player, query] = process.argv.slice(2);
const browser = await puppeteer.launch({ executablePath: browserPath, headless: true, args: ["--no-sandbox", "--disable-gpu"] });
const out = { errors: [] };

async function open(url, scripts) {
  const page = await browser.newPage();
  page.on("pageerror", (e) => out.errors.push(String(e)));
  page.on("console", (m) => m.type() === "error" && out.errors.push(m.text()));
  await page.setJavaScriptEnabled(scripts);
  await page.setViewport({ width: 1366, height: 2400 }); // a tall window: fewer steps to scroll through
  await page.goto(url, { waitUntil: "load", timeout: 120000 });
  return page;
}

const live = await open(liveUrl, true);
const scrolled = await live.evaluate(async () => {
  const box = document.querySelector("table.standings").closest(".scroll");
  const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const seen = [];
  const html = {};
  const last = new Set();
  // The IntersectionObserver's callback, which fills the blocks scrolled to, is a task queued
  // after a frame: on a busy machine two frames can pass before it runs. Wait (up to 10 s)
  // until no unfilled block is in view, as a reader sees the rows appear.
  const gapInView = () => {
    const b = box.getBoundingClientRect();
    return [...document.querySelectorAll("table.standings tbody tr.gap")].some((tr) => {
      const r = tr.getBoundingClientRect();
      return r.bottom > b.top && r.top < b.bottom;
    });
  };
  for (let top = 0; ; top += box.clientHeight) {
    box.scrollTop = top;
    await frames();
    for (const started = Date.now(); gapInView() && Date.now() - started < 10000; ) await frames();
    const b = box.getBoundingClientRect();
    for (const tr of document.querySelectorAll("table.standings tbody tr:not(.gap)")) {
      const r = tr.getBoundingClientRect();
      if (r.bottom <= b.top || r.top >= b.bottom) continue; // only the rows in view
      const number = Number(tr.querySelector("th a").getAttribute("href").slice("#player-".length));
      if (!last.has(number)) {
        seen.push(number);
        last.add(number);
        if (number <= 200) html[number] = tr.outerHTML;
      }
    }
    if (top >= box.scrollHeight) break;
  }
  return { seen, html, rendered: document.querySelectorAll("table.standings tbody tr:not(.gap)").length };
});
out.seen = scrolled.seen;
out.rowsMade = scrolled.html;
out.renderedAtTheEnd = scrolled.rendered;
await live.evaluate((player) => { location.hash = `#player-${player}`; }, player);
await new Promise((r) => setTimeout(r, 300));
out.sectionMade = await live.evaluate((player) => document.getElementById(`player-${player}`)?.outerHTML ?? null, player);
out.sectionInView = await live.evaluate((player) => {
  const r = document.getElementById(`player-${player}`)?.getBoundingClientRect();
  return r !== undefined && r.top < innerHeight && r.bottom > 0;
}, player);
await live.type(".find input", query);
await new Promise((r) => setTimeout(r, 600));
out.found = await live.evaluate(() => ({
  said: document.querySelector(".find .note").textContent,
  names: [...document.querySelectorAll("table.standings tbody tr:not(.gap) th a")].map((a) => a.textContent),
}));
await live.evaluate(() => {
  const input = document.querySelector(".find input");
  input.value = "";
  input.dispatchEvent(new Event("input"));
});
await new Promise((r) => setTimeout(r, 600));
await live.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
out.printed = await live.evaluate(() => document.querySelectorAll("table.standings tbody tr:not(.gap)").length);
await live.close();

const more = await open(moreUrl, false);
// The rows of the table by the player's number (from the name's link), as HTML.
out.rowsWritten = await more.evaluate(() =>
  Object.fromEntries(
    [...document.querySelectorAll("table.standings tbody tr")].map((tr) => [
      Number(tr.querySelector("th a").getAttribute("href").slice("#player-".length)),
      tr.outerHTML,
    ]),
  ),
);
out.sectionWritten = await more.evaluate((player) => document.getElementById(`player-${player}`)?.outerHTML ?? null, player);
await more.close();

const plain = await open(liveUrl, false);
out.withoutScripts = await plain.evaluate(() => ({
  rows: document.querySelectorAll("table.standings tbody tr").length,
  note: document.querySelector("noscript")?.textContent ?? "",
  find: document.querySelector(".find") !== null,
}));
await plain.close();
await browser.close();
console.log(JSON.stringify(out));
