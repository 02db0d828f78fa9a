// The rules pages' diagrams. A Lasca diagram is an <svg class="lasca-diagram"> holding its
// position as data-lfen (and optionally data-arrows: moves as squares joined by "-", separated
// by spaces), drawn by LascaBoard.draw as a picture: its squares are not buttons (the figure's
// caption says in words what it shows). A Torneio diagram (<svg class="torneio-diagram"
// data-kind="setup|combat|king">) is drawn here: an 8x8 board, dark squares as in D1, pieces as
// discs with a strength or the king's letter.
"use strict";

window.lascaRules = (() => {
  const FILES = "abcdefg";

  // LFEN (protocol.md, "Notation") -> {board: {square: column top first}, side: "w"|"b"}.
  function parseLfen(lfen) {
    const [ranks, side] = lfen.trim().split(/\s+/);
    const board = {};
    ranks.split("/").forEach((row, i) => {
      const rank = 7 - i;
      const files = [...FILES].filter((f, x) => (x + rank - 1) % 2 === 0);
      row.split(",").forEach((cell, j) => {
        if (cell && cell !== "-") board[files[j] + rank] = cell;
      });
    });
    return { board, side: side || "w" };
  }

  function drawLasca(svg) {
    const { board } = parseLfen(svg.dataset.lfen);
    const arrows = (svg.dataset.arrows || "").split(" ").filter(Boolean)
      .map((m) => ({ path: m.split("-"), colour: "#0057e7", cls: "diagram-arrow" }));
    LascaBoard.draw(svg, { board, arrows });
    // A picture, not a control: no square is focusable or a button.
    for (const sq of svg.querySelectorAll("rect.sq")) sq.remove();
    for (const node of svg.querySelectorAll("text")) node.setAttribute("aria-hidden", "true");
  }

  const SVG = "http://www.w3.org/2000/svg";
  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    parent.appendChild(node);
    return node;
  }

  // What each Torneio diagram shows: pieces {square, text, owner: "s"|"n"}, a shaded zone
  // (ranks), a marked square (the combat's).
  const TORNEIO = {
    setup: { zone: [1, 2], pieces: [["c1", "K", "s"], ["b2", "3", "s"], ["d2", "5", "s"], ["g1", "2", "s"]] },
    combat: { mark: "e4", pieces: [["e4", "5", "s"], ["e4", "3", "n"]] },
    king: { mark: "d5", pieces: [["d5", "5", "s"], ["d5", "K", "n"]] },
  };

  function drawTorneio(svg) {
    const spec = TORNEIO[svg.dataset.kind];
    const CELL = 40, M = 22, size = 2 * M + 8 * CELL;
    svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
    el("rect", { x: 0, y: 0, width: size, height: size, rx: 6, fill: "#2f4f3a" }, svg);
    const origin = (sq) => ({ x: M + "abcdefgh".indexOf(sq[0]) * CELL, y: M + (8 - parseInt(sq.slice(1), 10)) * CELL });
    for (let r = 1; r <= 8; r++)
      for (let f = 0; f < 8; f++) {
        const o = origin("abcdefgh"[f] + r);
        const dark = (f + r - 1) % 2 === 0;  // D1: a1 is dark
        const zone = spec.zone && r >= spec.zone[0] && r <= spec.zone[1];
        el("rect", { x: o.x, y: o.y, width: CELL, height: CELL, fill: dark ? (zone ? "#6b8f4e" : "#8a8a8a") : (zone ? "#e8f0c8" : "#f2f2f2") }, svg);
      }
    for (let i = 0; i < 8; i++) {
      const f = el("text", { x: M + i * CELL + CELL / 2, y: size - 6, "text-anchor": "middle", "font-size": 13, fill: "#fff", "aria-hidden": "true" }, svg);
      f.textContent = "abcdefgh"[i];
      const r = el("text", { x: 11, y: M + i * CELL + CELL / 2 + 5, "text-anchor": "middle", "font-size": 13, fill: "#fff", "aria-hidden": "true" }, svg);
      r.textContent = 8 - i;
    }
    if (spec.mark) {
      const o = origin(spec.mark);
      el("rect", { x: o.x + 2, y: o.y + 2, width: CELL - 4, height: CELL - 4, fill: "none", stroke: "#ffb000", "stroke-width": 4 }, svg);
    }
    const shared = {};
    for (const [sq, text, owner] of spec.pieces) {
      const o = origin(sq);
      const n = shared[sq] = (shared[sq] || 0) + 1;
      const together = spec.pieces.filter((p) => p[0] === sq).length > 1;
      const cx = o.x + CELL / 2 + (together ? (n === 1 ? -9 : 9) : 0), cy = o.y + CELL / 2;
      el("circle", { cx, cy, r: together ? 10 : 14, fill: owner === "s" ? "#0057e7" : "#ffffff", stroke: "#000", "stroke-width": 1.5 }, svg);
      const label = el("text", { x: cx, y: cy + 5, "text-anchor": "middle", "font-size": together ? 12 : 15, "font-weight": 700,
        fill: owner === "s" ? "#ffffff" : "#000000", "aria-hidden": "true" }, svg);
      label.textContent = text === "K" ? i18n.t("rules.torneio.fig.kingLetter") : text;
    }
  }

  function drawAll() {
    for (const svg of document.querySelectorAll("svg.lasca-diagram")) drawLasca(svg);
    for (const svg of document.querySelectorAll("svg.torneio-diagram")) drawTorneio(svg);
    // The address's rule (#R9) is scrolled to once the page has its words and pictures.
    if (location.hash) {
      const target = document.getElementById(location.hash.slice(1));
      if (target) target.scrollIntoView();
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", drawAll);
  else drawAll();
  return { parseLfen };
})();
