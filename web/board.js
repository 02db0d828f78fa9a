// Drawing a Lasca position as SVG: a 7x7 wooden board, each column as a side view of stacked
// discs (commander on top, prisoners under it, officers with a gold crown band). Pure drawing:
// the rules (legal moves, notation) come from the server.
"use strict";

const LascaBoard = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const CELL = 80;
  const MARGIN = 20;
  const FILES = "abcdefg";

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }

  // Square name -> {x, y} of the cell's top-left corner, for the given orientation.
  function cellOrigin(name, flipped) {
    const file = FILES.indexOf(name[0]);
    const rank = parseInt(name.slice(1), 10) - 1;
    const col = flipped ? 6 - file : file;
    const row = flipped ? rank : 6 - rank;
    return { x: MARGIN + col * CELL, y: MARGIN + row * CELL };
  }

  function playableSquares() {
    const names = [];
    for (let rank = 0; rank < 7; rank++)
      for (let file = 0; file < 7; file++)
        if ((file + rank) % 2 === 0) names.push(FILES[file] + (rank + 1));
    return names;
  }

  const COLOURS = {
    w: { face: "#fbf7ee", side: "#d9d0bf", edge: "#8f8574" },
    b: { face: "#3a3531", side: "#1f1c1a", edge: "#0d0c0b" },
  };

  // One piece as a short cylinder centred at (cx, cy) (the centre of its top face).
  function drawPiece(g, cx, cy, piece, isTop) {
    const c = COLOURS[piece.toLowerCase()];
    const officer = piece === "W" || piece === "B";
    const rx = 29, ry = 11, h = 9;
    el("path", {
      d: `M ${cx - rx} ${cy} L ${cx - rx} ${cy + h} A ${rx} ${ry} 0 0 0 ${cx + rx} ${cy + h} L ${cx + rx} ${cy} Z`,
      fill: c.side, stroke: c.edge, "stroke-width": 1,
    }, g);
    if (officer)
      el("path", {
        d: `M ${cx - rx} ${cy + 3} A ${rx} ${ry} 0 0 0 ${cx + rx} ${cy + 3} L ${cx + rx} ${cy + 6} A ${rx} ${ry} 0 0 1 ${cx - rx} ${cy + 6} Z`,
        fill: "#d4a640",
      }, g);
    el("ellipse", { cx, cy, rx, ry, fill: c.face, stroke: c.edge, "stroke-width": 1 }, g);
    if (officer && isTop) {
      const crown = el("text", {
        x: cx, y: cy + 5, "text-anchor": "middle", "font-size": 15,
        fill: "#d4a640", "font-family": "serif", class: "crown",
      }, g);
      crown.textContent = "♛";
    }
  }

  // A column (text top first, e.g. "Wbb") on a square.
  function drawColumn(g, name, column, flipped) {
    const o = cellOrigin(name, flipped);
    const n = column.length;
    const step = n > 1 ? Math.min(9, 34 / (n - 1)) : 0;
    const baseY = o.y + CELL / 2 + 12 + ((n - 1) * step) / 2;
    const group = el("g", { class: "column", "data-column": column }, g);
    for (let i = n - 1; i >= 0; i--) drawPiece(group, o.x + CELL / 2, baseY - 4 - (n - 1 - i) * step - 4, column[i], i === 0);
    if (n > 1) {
      const badge = el("g", { class: "height" }, group);
      el("circle", { cx: o.x + CELL - 12, cy: o.y + 12, r: 9, fill: "#2f2a24", opacity: 0.8 }, badge);
      const t = el("text", { x: o.x + CELL - 12, y: o.y + 16, "text-anchor": "middle", "font-size": 11, fill: "#fff" }, badge);
      t.textContent = n;
    }
  }

  // Draws everything. view = {board, lastMove, flipped, highlights: {selected:[], targets:[],
  // origins:[]}, onSquare(name)}.
  function draw(svg, view) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const size = 2 * MARGIN + 7 * CELL;
    svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
    el("rect", { x: 0, y: 0, width: size, height: size, rx: 8, fill: "#5b3a1e" }, svg);
    for (let rank = 0; rank < 7; rank++)
      for (let file = 0; file < 7; file++) {
        const name = FILES[file] + (rank + 1);
        const o = cellOrigin(name, view.flipped);
        const dark = (file + rank) % 2 === 0;
        el("rect", { x: o.x, y: o.y, width: CELL, height: CELL, fill: dark ? "#a9744a" : "#ecd9b6" }, svg);
      }
    // Coordinates on the frame.
    for (let i = 0; i < 7; i++) {
      const f = el("text", { x: MARGIN + i * CELL + CELL / 2, y: size - 5, "text-anchor": "middle", "font-size": 12, fill: "#e9d6b5" }, svg);
      f.textContent = view.flipped ? FILES[6 - i] : FILES[i];
      const r = el("text", { x: 10, y: MARGIN + i * CELL + CELL / 2 + 4, "text-anchor": "middle", "font-size": 12, fill: "#e9d6b5" }, svg);
      r.textContent = view.flipped ? i + 1 : 7 - i;
    }
    const hl = view.highlights || {};
    const mark = (names, fill, opacity) => {
      for (const name of names || []) {
        const o = cellOrigin(name, view.flipped);
        el("rect", { x: o.x, y: o.y, width: CELL, height: CELL, fill, opacity, "pointer-events": "none" }, svg);
      }
    };
    mark(view.lastMove, "#f2d14b", 0.45);
    mark(hl.selected, "#3e7c59", 0.55);
    for (const name of playableSquares()) {
      const column = view.board[name];
      if (column) drawColumn(svg, name, column, view.flipped);
    }
    if (view.lastMove && view.lastMove.length > 1) {
      const pts = view.lastMove.map((n) => {
        const o = cellOrigin(n, view.flipped);
        return `${o.x + CELL / 2},${o.y + CELL / 2}`;
      });
      el("polyline", { points: pts.join(" "), fill: "none", stroke: "#c0392b", "stroke-width": 4, opacity: 0.55, "stroke-linecap": "round", "pointer-events": "none" }, svg);
    }
    for (const name of hl.origins || []) {
      const o = cellOrigin(name, view.flipped);
      el("rect", { x: o.x + 2, y: o.y + 2, width: CELL - 4, height: CELL - 4, fill: "none", stroke: "#3e7c59", "stroke-width": 3, "stroke-dasharray": "6 4", rx: 4, "pointer-events": "none" }, svg);
    }
    for (const name of hl.targets || []) {
      const o = cellOrigin(name, view.flipped);
      el("circle", { cx: o.x + CELL / 2, cy: o.y + CELL / 2, r: 13, fill: "#3e7c59", opacity: 0.8, "pointer-events": "none", class: "target" }, svg);
    }
    // Click areas on top of everything, one per playable square.
    for (const name of playableSquares()) {
      const o = cellOrigin(name, view.flipped);
      const hit = el("rect", { x: o.x, y: o.y, width: CELL, height: CELL, fill: "transparent", class: "sq", "data-square": name }, svg);
      if (view.onSquare) hit.addEventListener("click", () => view.onSquare(name));
    }
  }

  return { draw, cellOrigin, el };
})();
