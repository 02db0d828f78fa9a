// Drawing a Lasca position as SVG: a 7x7 wooden board, each column as a side view of stacked
// discs (commander on top, prisoners under it, officers with a gold crown band); a column of
// more than TALL pieces as its colour blocks with counts ("3" white over "4" black, officers
// counted with a crown), readable at any height. Arrows for the engine's moves. Pure drawing:
// the rules (legal moves, notation) come from the server.
"use strict";

const LascaBoard = (() => {
  const SVG = "http://www.w3.org/2000/svg";
  const CELL = 80;
  const MARGIN = 26;  // room for coordinates readable on a phone (at least 11 px at 360 px wide)
  const FILES = "abcdefg";
  const TALL = 3;  // columns higher than this are drawn as blocks with counts

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

  // Board themes: "wood" (the default), "green", and "contrast": high contrast and safe for
  // colour-blind players (no red/green pairs: blue and orange marks, black and white pieces
  // with strong edges, light and mid-grey squares).
  const THEMES = {
    wood: {
      frame: "#5b3a1e", dark: "#a9744a", light: "#ecd9b6", coords: "#e9d6b5",
      w: { face: "#fbf7ee", side: "#d9d0bf", edge: "#8f8574" },
      b: { face: "#3a3531", side: "#1f1c1a", edge: "#0d0c0b" },
      lastMove: "#f2d14b", moveLine: "#c0392b", select: "#3e7c59", officer: "#d4a640",
    },
    green: {
      frame: "#2f4f3a", dark: "#769656", light: "#eeeed2", coords: "#e4ecd9",
      w: { face: "#ffffff", side: "#dcdcdc", edge: "#7d7d7d" },
      b: { face: "#333333", side: "#1a1a1a", edge: "#000000" },
      lastMove: "#f6f669", moveLine: "#b33939", select: "#2e6fba", officer: "#e0b030",
    },
    contrast: {
      frame: "#000000", dark: "#7a7a7a", light: "#f2f2f2", coords: "#ffffff",
      w: { face: "#ffffff", side: "#e6e6e6", edge: "#000000" },
      b: { face: "#000000", side: "#1a1a1a", edge: "#ffffff" },
      lastMove: "#ffb000", moveLine: "#0057e7", select: "#0057e7", officer: "#ffb000",
    },
  };
  let theme = THEMES.wood;
  function setTheme(name) { theme = THEMES[name] || THEMES.wood; }
  const COLOURS = { get w() { return theme.w; }, get b() { return theme.b; } };

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
        fill: theme.officer,
      }, g);
    el("ellipse", { cx, cy, rx, ry, fill: c.face, stroke: c.edge, "stroke-width": 1 }, g);
    if (officer && isTop) {
      const crown = el("text", {
        x: cx, y: cy + 5, "text-anchor": "middle", "font-size": 15,
        fill: theme.officer, "font-family": "serif", class: "crown",
      }, g);
      crown.textContent = "♛";
    }
  }

  // A column's colour blocks, top first: [{colour: "w"|"b", count, officers}]. A column has at
  // most two (its commander's colour over its prisoners'), but any text is read.
  function blocks(column) {
    const out = [];
    for (const piece of column) {
      const colour = piece.toLowerCase();
      if (!out.length || out[out.length - 1].colour !== colour) out.push({ colour, count: 0, officers: 0 });
      const b = out[out.length - 1];
      b.count++;
      if (piece !== colour) b.officers++;
    }
    return out;
  }

  const t = (key, params) => window.i18n.t(key, params);

  // One piece's name, alone ("White officer") or as a run of equal pieces ("2 white soldiers").
  function pieceName(piece) {
    return { w: t("lasca.piece.w"), W: t("lasca.piece.W"), b: t("lasca.piece.b"), B: t("lasca.piece.B") }[piece];
  }
  function runName(piece, count) {
    if (count === 1)
      return { w: t("lasca.one.w"), W: t("lasca.one.W"), b: t("lasca.one.b"), B: t("lasca.one.B") }[piece];
    return { w: t("lasca.run.w", { count }), W: t("lasca.run.W", { count }), b: t("lasca.run.b", { count }),
             B: t("lasca.run.B", { count }) }[piece];
  }

  // The column top to bottom as runs of equal pieces: "white officer over 2 black soldiers".
  function columnWords(column) {
    const runs = [];
    for (const piece of column) {
      if (runs.length && runs[runs.length - 1].piece === piece) runs[runs.length - 1].count++;
      else runs.push({ piece, count: 1 });
    }
    return runs.map((r) => runName(r.piece, r.count)).join(t("lasca.column.over"));
  }

  // The column in words: a summary ("3 white (1 officer) over 4 black; commanded by White")
  // and each piece top to bottom ("White officer — commander").
  function describeColumn(column) {
    const bs = blocks(column);
    const summary = bs.map((b) => (b.colour === "w" ? t("lasca.column.blockWhite", { count: b.count })
                                                    : t("lasca.column.blockBlack", { count: b.count })) +
      (b.officers ? " " + t("lasca.column.officers", { count: b.officers }) : "")).join(t("lasca.column.over"));
    const commanders = bs[0].count;  // the commander's block: the commander and the pieces under it of its colour
    const pieces = [...column].map((p, i) => {
      const role = i === 0 ? t("lasca.column.commander") : i < commanders ? t("lasca.column.withCommander") : t("lasca.column.prisoner");
      return t("lasca.column.piece", { piece: pieceName(p), role });
    });
    const side = column[0].toLowerCase() === "w" ? t("lasca.side.white") : t("lasca.side.black");
    return {
      summary: t("lasca.column.summary", { pieces: t("lasca.column.pieces", { count: column.length }), blocks: summary, side }),
      pieces,
    };
  }

  // A column (text top first, e.g. "Wbb") on a square.
  function drawColumn(g, name, column, flipped) {
    const o = cellOrigin(name, flipped);
    const n = column.length;
    const group = el("g", { class: "column", "data-column": column, "data-square": name }, g);
    if (n > TALL) { drawBlocks(group, o, column); return; }
    const step = n > 1 ? Math.min(9, 34 / (n - 1)) : 0;
    const baseY = o.y + CELL / 2 + 12 + ((n - 1) * step) / 2;
    for (let i = n - 1; i >= 0; i--) drawPiece(group, o.x + CELL / 2, baseY - 4 - (n - 1 - i) * step - 4, column[i], i === 0);
    if (n > 1) {
      const badge = el("g", { class: "height" }, group);
      el("circle", { cx: o.x + CELL - 12, cy: o.y + 12, r: 9, fill: "#2f2a24", opacity: 0.8 }, badge);
      const t = el("text", { x: o.x + CELL - 12, y: o.y + 16, "text-anchor": "middle", "font-size": 11, fill: "#fff" }, badge);
      t.textContent = n;
    }
  }

  // A tall column: each colour block as one drum with its count written on it (and the number
  // of officers in it beside a crown), the commander's block on top.
  function drawBlocks(g, o, column) {
    const bs = blocks(column);
    const rx = 30, ry = 10, h = bs.length > 1 ? 20 : 30;
    const cx = o.x + CELL / 2;
    let top = o.y + CELL / 2 - (bs.length * h) / 2 + 2;
    const drums = [];
    for (let i = 0; i < bs.length; i++) { drums.push(top); top += h; }
    for (let i = bs.length - 1; i >= 0; i--) {  // bottom first: the upper drum covers its top
      const b = bs[i], c = COLOURS[b.colour], y = drums[i];
      const block = el("g", { class: "block", "data-colour": b.colour, "data-count": b.count, "data-officers": b.officers }, g);
      el("path", {
        d: `M ${cx - rx} ${y} L ${cx - rx} ${y + h} A ${rx} ${ry} 0 0 0 ${cx + rx} ${y + h} L ${cx + rx} ${y} Z`,
        fill: c.side, stroke: c.edge, "stroke-width": 1,
      }, block);
      if (b.officers)
        el("rect", { x: cx - rx, y: y + h - 5, width: 2 * rx, height: 3, fill: theme.officer }, block);
      el("ellipse", { cx, cy: y, rx, ry, fill: c.face, stroke: c.edge, "stroke-width": 1 }, block);
      const ink = b.colour === "w" ? "#2d2a26" : "#fbf7ee";
      const label = el("text", { x: cx, y: y + 5, "text-anchor": "middle", "font-size": 15, "font-weight": 700, fill: ink, class: "count" }, block);
      label.textContent = b.officers ? `${b.count} ♛${b.officers}` : String(b.count);
      if (i > 0) {  // the side of a lower drum shows its count too (its face is hidden)
        const side = el("text", { x: cx, y: y + h - 1, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: ink }, block);
        side.textContent = label.textContent;
        label.remove();
      }
    }
    const badge = el("g", { class: "height" }, g);
    el("circle", { cx: o.x + CELL - 12, cy: o.y + 12, r: 9, fill: "#2f2a24", opacity: 0.8 }, badge);
    const t = el("text", { x: o.x + CELL - 12, y: o.y + 16, "text-anchor": "middle", "font-size": 11, fill: "#fff" }, badge);
    t.textContent = column.length;
  }

  // An arrow along a move's squares (its path), on top of the pieces.
  function drawArrow(svg, path, flipped, colour, cls) {
    if (!path || path.length < 2) return;
    const pts = path.map((n) => {
      const o = cellOrigin(n, flipped);
      return [o.x + CELL / 2, o.y + CELL / 2];
    });
    const [x1, y1] = pts[pts.length - 2], [x2, y2] = pts[pts.length - 1];
    const len = Math.hypot(x2 - x1, y2 - y1) || 1;
    const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
    const tip = [x2 - ux * 10, y2 - uy * 10];
    const g = el("g", { class: cls, "pointer-events": "none", opacity: 0.8 }, svg);
    el("polyline", {
      points: pts.slice(0, -1).concat([[tip[0] - ux * 14, tip[1] - uy * 14]]).map((p) => p.join(",")).join(" "),
      fill: "none", stroke: colour, "stroke-width": 9, "stroke-linecap": "round", "stroke-linejoin": "round",
    }, g);
    el("polygon", {
      points: [tip, [tip[0] - ux * 22 - uy * 14, tip[1] - uy * 22 + ux * 14], [tip[0] - ux * 22 + uy * 14, tip[1] - uy * 22 - ux * 14]]
        .map((p) => p.join(",")).join(" "),
      fill: colour,
    }, g);
  }

  // Draws everything. view = {board, lastMove, flipped, highlights: {selected:[], targets:[],
  // origins:[]}, arrows: [{path, colour, cls}], onSquare(name), onInspect(name or null)}.
  function draw(svg, view) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const size = 2 * MARGIN + 7 * CELL;
    svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
    el("rect", { x: 0, y: 0, width: size, height: size, rx: 8, fill: theme.frame }, svg);
    for (let rank = 0; rank < 7; rank++)
      for (let file = 0; file < 7; file++) {
        const name = FILES[file] + (rank + 1);
        const o = cellOrigin(name, view.flipped);
        const dark = (file + rank) % 2 === 0;
        el("rect", { x: o.x, y: o.y, width: CELL, height: CELL, fill: dark ? theme.dark : theme.light }, svg);
      }
    // Coordinates on the frame.
    for (let i = 0; i < 7; i++) {
      const f = el("text", { x: MARGIN + i * CELL + CELL / 2, y: size - 6, "text-anchor": "middle", "font-size": 19, fill: theme.coords, class: "coord" }, svg);
      f.textContent = view.flipped ? FILES[6 - i] : FILES[i];
      const r = el("text", { x: 13, y: MARGIN + i * CELL + CELL / 2 + 6, "text-anchor": "middle", "font-size": 19, fill: theme.coords, class: "coord" }, svg);
      r.textContent = view.flipped ? i + 1 : 7 - i;
    }
    const hl = view.highlights || {};
    const mark = (names, fill, opacity) => {
      for (const name of names || []) {
        const o = cellOrigin(name, view.flipped);
        el("rect", { x: o.x, y: o.y, width: CELL, height: CELL, fill, opacity, "pointer-events": "none" }, svg);
      }
    };
    mark(view.lastMove, theme.lastMove, 0.45);
    mark(hl.selected, theme.select, 0.55);
    for (const name of playableSquares()) {
      const column = view.board[name];
      if (column) drawColumn(svg, name, column, view.flipped);
    }
    if (view.lastMove && view.lastMove.length > 1) {
      const pts = view.lastMove.map((n) => {
        const o = cellOrigin(n, view.flipped);
        return `${o.x + CELL / 2},${o.y + CELL / 2}`;
      });
      el("polyline", { points: pts.join(" "), fill: "none", stroke: theme.moveLine, "stroke-width": 4, opacity: 0.55, "stroke-linecap": "round", "pointer-events": "none" }, svg);
    }
    for (const name of hl.origins || []) {
      const o = cellOrigin(name, view.flipped);
      el("rect", { x: o.x + 2, y: o.y + 2, width: CELL - 4, height: CELL - 4, fill: "none", stroke: theme.select, "stroke-width": 3, "stroke-dasharray": "6 4", rx: 4, "pointer-events": "none" }, svg);
    }
    for (const name of hl.targets || []) {
      const o = cellOrigin(name, view.flipped);
      el("circle", { cx: o.x + CELL / 2, cy: o.y + CELL / 2, r: 13, fill: theme.select, opacity: 0.8, "pointer-events": "none", class: "target" }, svg);
    }
    for (const a of view.arrows || []) drawArrow(svg, a.path, view.flipped, a.colour, a.cls);
    // Click areas on top of everything, one per playable square, for the pointer; keyboards
    // and screen readers use the grid over the board (drawGrid).
    for (const name of playableSquares()) {
      const o = cellOrigin(name, view.flipped);
      const hit = el("rect", { x: o.x, y: o.y, width: CELL, height: CELL, fill: "transparent", class: "sq", "data-square": name }, svg);
      if (view.onSquare) hit.addEventListener("click", () => view.onSquare(name));
      if (view.onInspect) {
        hit.addEventListener("mouseenter", () => view.onInspect(name));
        hit.addEventListener("mouseleave", () => view.onInspect(null));
      }
    }
    if (view.grid) drawGrid(view.grid, view);
  }

  // The board for keyboards and screen readers: an ARIA grid of 7 rows of 7 cells laid over the
  // drawing (which is hidden from assistive technology), rows and cells in the order they are
  // seen (a flipped board's first row is rank 1). Each cell is named by its square and what
  // stands on it ("d4, white officer over black soldier, selected"). One cell is in the Tab
  // order (a roving tabindex, view.focus); the arrow keys move between cells (gridKeys).
  // The cells take no pointer events: a click lands on the drawing's square under them.
  function drawGrid(grid, view) {
    if (!grid.firstChild) {
      for (let r = 0; r < 7; r++) {
        const row = document.createElement("div");
        row.setAttribute("role", "row");
        row.className = "grid-row";
        for (let c = 0; c < 7; c++) {
          const cell = document.createElement("div");
          cell.setAttribute("role", "gridcell");
          cell.className = "grid-cell";
          row.appendChild(cell);
        }
        grid.appendChild(row);
      }
    }
    const hl = view.highlights || {};
    const has = (list, name) => (list || []).includes(name);
    [...grid.children].forEach((row, r) => {
      [...row.children].forEach((cell, c) => {
        const file = view.flipped ? 6 - c : c, rank = view.flipped ? r : 6 - r;
        const name = FILES[file] + (rank + 1);
        const column = view.board[name];
        let label;
        if ((file + rank) % 2 !== 0) label = t("lasca.square.light", { square: name });
        else if (column) label = t("lasca.square.column", { square: name, column: columnWords(column) });
        else label = t("lasca.square.empty", { square: name });
        if (has(hl.selected, name)) label += t("lasca.square.selected");
        if (has(hl.targets, name)) label += t("lasca.square.target");
        else if (has(hl.origins, name)) label += t("lasca.square.movable");
        if (cell.getAttribute("aria-label") !== label) cell.setAttribute("aria-label", label);
        cell.dataset.square = name;
        cell.setAttribute("aria-selected", has(hl.selected, name) ? "true" : "false");
        cell.tabIndex = name === view.focus ? 0 : -1;
      });
    });
  }

  // An arrow key's square from `name` on the grid (up is up as the board is seen), or null.
  function gridStep(grid, name, key) {
    const cells = [...grid.querySelectorAll(".grid-cell")];
    const i = cells.findIndex((c) => c.dataset.square === name);
    if (i < 0) return null;
    let r = Math.floor(i / 7), c = i % 7;
    if (key === "ArrowUp") r--; else if (key === "ArrowDown") r++;
    else if (key === "ArrowLeft") c--; else if (key === "ArrowRight") c++;
    else if (key === "Home") c = 0; else if (key === "End") c = 6;
    else return null;
    if (r < 0 || r > 6 || c < 0 || c > 6) return null;
    return cells[r * 7 + c].dataset.square;
  }

  return { draw, cellOrigin, el, blocks, describeColumn, columnWords, gridStep, setTheme, THEMES };
})();
