// The Torneio board in SVG, shared by a seat's page (torneio.js) and a watcher's
// (torneio-watch.js): the squares and their coordinates, a layer for the page's marks, the
// keyboard's focus ring, and an ARIA grid of focusable squares over them (one Tab stop: roving
// tabindex; arrow keys, Home and End move; Enter or Space and a click activate the square; any
// other key goes to the page). The board's state lives in the page's own object `app`, which
// build() fills: cells (square -> its focusable rect), squareRects (square -> its coloured
// rect), marks, ring, boardSize, and cursor (the square that holds the Tab stop). sideName names
// a seat's side in the page's language.
"use strict";

window.TorneioBoard = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const FILES = "abcdefghijklmnop";
  const MARGIN = 30;

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }
  function geometry(size) {
    return { size, cell: (600 - 2 * MARGIN) / size };
  }
  function squareXY(size, name) {
    const { cell } = geometry(size);
    const file = FILES.indexOf(name[0]);
    const rank = parseInt(name.slice(1), 10) - 1;
    return { x: MARGIN + file * cell, y: MARGIN + (size - 1 - rank) * cell };
  }
  function squareName(file, rank) { return FILES[file] + (rank + 1); }

  // A seat's side of the board in the page's language ("south" as the protocol names it).
  function sideName(side) {
    const t = window.i18n.t;
    switch (side) {
      case "south": return t("torneio.side.south");
      case "north": return t("torneio.side.north");
      case "west": return t("torneio.side.west");
      case "east": return t("torneio.side.east");
    }
    return side;
  }

  function placeRing(app, name) {
    const { x, y } = squareXY(app.boardSize, name);
    app.ring.setAttribute("transform", `translate(${x} ${y})`);
    app.ring.classList.remove("hidden");
  }
  function updateTabStop(app) {
    for (const [name, cell] of Object.entries(app.cells)) cell.setAttribute("tabindex", name === app.cursor ? "0" : "-1");
  }

  // Draws a board of `size` squares a side into `svg` (emptied first).
  //   label       the grid's accessible name; gridId its id
  //   fill(f, r)  a square's colour, or nothing (the page colours squareRects itself)
  //   activate(name)  a click, or Enter or Space, on a square (app.cursor is already it)
  //   key(e)      any other key on the grid; true when the page took it
  //   ready()     whether the keys may act now (a view is shown)
  function build(app, svg, size, opts) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    app.boardSize = size;
    const { cell } = geometry(size);
    const back = el("g", { "aria-hidden": "true" }, svg);
    el("rect", { x: 0, y: 0, width: 600, height: 600, rx: 8, fill: "#4a3a2a" }, back);
    app.squareRects = {};
    for (let r = 0; r < size; r++)
      for (let f = 0; f < size; f++) {
        const name = squareName(f, r);
        const { x, y } = squareXY(size, name);
        const attrs = { x, y, width: cell, height: cell };
        const colour = opts.fill ? opts.fill(f, r) : null;
        if (colour) attrs.fill = colour;
        app.squareRects[name] = el("rect", attrs, back);
      }
    for (let i = 0; i < size; i++) {
      // 19 units: at least 11 px on a 360 px wide phone.
      const a = el("text", { x: MARGIN + i * cell + cell / 2, y: 594, "text-anchor": "middle", "font-size": 19, fill: "#e9d6b5", class: "coord" }, back);
      a.textContent = FILES[i];
      const b = el("text", { x: 15, y: MARGIN + (size - 1 - i) * cell + cell / 2 + 6, "text-anchor": "middle", "font-size": 19, fill: "#e9d6b5", class: "coord" }, back);
      b.textContent = i + 1;
    }
    app.marks = el("g", { "aria-hidden": "true" }, svg);
    app.ring = el("g", { "aria-hidden": "true", class: "focus-ring hidden" }, svg);
    el("rect", { x: 0, y: 0, width: cell, height: cell, fill: "none", stroke: "#111", "stroke-width": 7 }, app.ring);
    el("rect", { x: 0, y: 0, width: cell, height: cell, fill: "none", stroke: "#fff", "stroke-width": 3 }, app.ring);
    const grid = el("g", { role: "grid", "aria-label": opts.label, id: opts.gridId }, svg);
    app.cells = {};
    for (let r = size - 1; r >= 0; r--) {
      const row = el("g", { role: "row" }, grid);
      for (let f = 0; f < size; f++) {
        const name = squareName(f, r);
        const { x, y } = squareXY(size, name);
        const hit = el("rect", { x, y, width: cell, height: cell, fill: "transparent", class: "tsq", "data-square": name, role: "gridcell", tabindex: "-1" }, row);
        hit.addEventListener("click", () => { app.cursor = name; opts.activate(name); });
        // The ring shows a focus from the keyboard (not a click's): the browser's :focus-visible.
        hit.addEventListener("focus", () => { app.cursor = name; if (hit.matches(":focus-visible")) placeRing(app, name); updateTabStop(app); });
        app.cells[name] = hit;
      }
    }
    grid.addEventListener("keydown", (e) => onKey(app, opts, e));
    grid.addEventListener("focusout", (e) => { if (!grid.contains(e.relatedTarget)) app.ring.classList.add("hidden"); });
  }

  function onKey(app, opts, e) {
    if (!opts.ready() || !app.cursor || e.ctrlKey || e.metaKey || e.altKey) return;
    const size = app.boardSize;
    let f = FILES.indexOf(app.cursor[0]), r = parseInt(app.cursor.slice(1), 10) - 1;
    switch (e.key) {
      case "ArrowUp": r = Math.min(size - 1, r + 1); break;
      case "ArrowDown": r = Math.max(0, r - 1); break;
      case "ArrowLeft": f = Math.max(0, f - 1); break;
      case "ArrowRight": f = Math.min(size - 1, f + 1); break;
      case "Home": f = 0; break;
      case "End": f = size - 1; break;
      case "Enter": case " ":
        e.preventDefault();
        opts.activate(app.cursor);
        return;
      default:
        if (opts.key && opts.key(e)) e.preventDefault();
        return;
    }
    e.preventDefault();
    app.cursor = squareName(f, r);
    updateTabStop(app);
    app.cells[app.cursor].focus();
  }

  return { SVG, FILES, MARGIN, el, geometry, squareXY, squareName, sideName, placeRing, updateTabStop, build };
})();
