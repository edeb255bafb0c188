// The standings table of a big league's published page, rendered as it scrolls
// (xlrally/formats/page.py writes the page and this script into it; its CSP allows this
// script by its hash and nothing else).
//
// The page holds every row as data (a JSON script element: parsed, never run, far cheaper to
// load than the same rows as table cells). The table's body is cut into blocks of BLOCK rows;
// only the blocks near the table's visible part are rows, the others are empty rows of the
// same height, so that the scroll bar and jumps stay true. A player's section (every event,
// its working) is made when their name or Working is followed. "Find a player" narrows the
// table to the names that contain what is typed. Before printing, every row is made.
// Text from the workbook reaches the page only through esc() or textContent.
"use strict";
(() => {
  const BLOCK = 50;
  const MARGIN = "1200px 0px";
  const data = JSON.parse(document.getElementById("standings-data").textContent);
  const table = document.querySelector("table.standings");
  const box = table.closest(".scroll");
  const columns = table.tHead.rows[0].cells.length;
  const players = document.getElementById("players-title").parentElement;
  const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
  const esc = (text) => String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]);
  // A row of data: [rank, name, needs, country, total, events, cells, tie, workings, afters];
  // cells: one per event, "" (not played), "c<score>" (counted) or "d<score>" (dropped).
  const rowHtml = (index) => {
    const [rank, name, needs, country, total, events, cells] = data.rows[index];
    const anchor = `#player-${index + 1}`;
    let html = `<tr><td>${esc(rank)}</td><th scope="row" class="player"><a href="${anchor}">${esc(name)}</a>`;
    if (needs) html += ` <span class="needs">${esc(needs)}</span>`;
    html += "</th>";
    if (data.countries) html += `<td class="name">${esc(country)}</td>`;
    html += `<td><strong>${esc(total)}</strong></td><td>${events}</td>`;
    for (const cell of cells) {
      if (!cell) html += '<td aria-label="did not play"></td>';
      else if (cell[0] === "c") html += `<td class="c">${esc(cell.slice(1))}</td>`;
      else html += `<td class="d">(${esc(cell.slice(1))})<span class="sr"> dropped</span></td>`;
    }
    return `${html}<td class="working"><a href="${anchor}">Working</a></td></tr>`;
  };

  let shown = data.rows.map((_, index) => index); // the rows in the table (all, or the found)
  let rowHeight = 0;
  let printing = false;
  const blocks = [];
  const observer = new IntersectionObserver(
    (entries) => {
      // The heights of the blocks that leave are read first, all at once: reading one after
      // another block was changed would lay the table out again each time.
      const leaving = printing ? [] : entries.filter((entry) => !entry.isIntersecting);
      const heights = leaving.map((entry) => entry.target.getBoundingClientRect().height);
      leaving.forEach((entry, index) => empty(blocks[entry.target.dataset.block], heights[index]));
      for (const entry of entries) if (entry.isIntersecting) fill(blocks[entry.target.dataset.block]);
    },
    { root: box, rootMargin: MARGIN },
  );

  function fill(block) {
    if (block.filled) return;
    block.filled = true;
    block.body.innerHTML = block.rows.map(rowHtml).join("");
    if (!rowHeight) rowHeight = block.body.getBoundingClientRect().height / block.rows.length;
  }
  function gap(block, height) {
    block.filled = false;
    block.body.innerHTML = `<tr class="gap"><td colspan="${columns}" style="height:${height}px"></td></tr>`;
  }
  function empty(block, height) {
    if (block.filled) gap(block, height);
  }
  function layout() {
    observer.disconnect();
    for (const block of blocks) block.body.remove();
    blocks.length = 0;
    for (let start = 0; start < shown.length; start += BLOCK) {
      const block = { body: document.createElement("tbody"), rows: shown.slice(start, start + BLOCK), filled: false };
      block.body.dataset.block = blocks.length;
      blocks.push(block);
      table.appendChild(block.body);
      if (start === 0) fill(block);
      else gap(block, (rowHeight || 37) * block.rows.length);
      observer.observe(block.body);
    }
  }

  // The static rows (the first ones, for readers without scripts) make way for the blocks.
  for (const body of [...table.tBodies]) body.remove();
  layout();

  // Find a player: the table narrowed to the names holding the text typed (any case).
  const find = document.createElement("p");
  find.className = "find";
  find.innerHTML = '<label>Find a player <input type="search" autocomplete="off"></label> <span class="note" aria-live="polite"></span>';
  box.before(find);
  const [input, said] = [find.querySelector("input"), find.querySelector("span")];
  const names = data.rows.map((row) => row[1].toLocaleLowerCase());
  let typing = 0;
  input.addEventListener("input", () => {
    clearTimeout(typing);
    typing = setTimeout(() => {
      const wanted = input.value.trim().toLocaleLowerCase();
      shown = data.rows.map((_, index) => index).filter((index) => !wanted || names[index].includes(wanted));
      said.textContent = wanted ? `${shown.length.toLocaleString("en")} found` : "";
      box.scrollTop = 0;
      layout();
    }, 120);
  });

  // A player's section, made when it is first asked for (the first ones are in the page).
  const dateOf = (index) => data.dates[index] || "";
  function section(number) {
    const found = document.getElementById(`player-${number}`);
    if (found || !data.rows[number - 1]) return found;
    const [rank, name, , , total, , cells, tie, workings, afters] = data.rows[number - 1];
    let lines = tie ? `<tr><td class="name" colspan="6">Tie with the row above broken by ${esc(tie)}</td></tr>` : "";
    let played = 0;
    cells.forEach((cell, event) => {
      if (!cell) return;
      const after = data.rating ? `<td>${esc(afters[played])}</td>` : "";
      lines += `<tr><td>${esc(data.events[event])}</td><td>${esc(dateOf(event))}</td><td>${esc(cell.slice(1))}</td><td>${cell[0] === "c" ? "yes" : "no"}</td>${after}<td>${esc(workings[played])}</td></tr>`;
      played += 1;
    });
    const head = data.rating
      ? '<th scope="col">Event</th><th scope="col">Date</th><th scope="col">Percentile</th><th scope="col">Moved the rating</th><th scope="col">Rating after</th>'
      : '<th scope="col">Event</th><th scope="col">Date</th><th scope="col">Score</th><th scope="col">Counts</th>';
    const made = document.createElement("section");
    made.id = `player-${number}`;
    made.className = "player-page";
    made.innerHTML = `<h3>${esc(rank)} ${esc(name)} – ${esc(data.total_label)} ${esc(total)}</h3><div class="scroll"><table><thead><tr>${head}<th scope="col" class="name">Working</th></tr></thead><tbody>${lines}</tbody></table></div><p><a href="#standings-title">Back to the standings</a></p>`;
    players.appendChild(made);
    return made;
  }
  function follow() {
    const match = /^#player-(\d+)$/.exec(location.hash);
    const target = match && section(Number(match[1]));
    if (target) target.scrollIntoView();
  }
  window.addEventListener("hashchange", follow);
  follow();

  // Printing: every row of the table is made first (and stays until printing ends).
  window.addEventListener("beforeprint", () => {
    printing = true;
    for (const block of blocks) fill(block);
  });
  window.addEventListener("afterprint", () => {
    printing = false;
  });
})();
