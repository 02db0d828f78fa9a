// The Torneio page: create a table, or play one seat of it through its private link. The
// server sends only this seat's view (built from the seat's protocol lines); the legal choices
// of each decision come from the server too.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const SEAT_COLOURS = ["#2f6f9f", "#b23a3a", "#3e7c59", "#8a5a9e"];
  const app = { ws: null, view: null, lines: [], log: [], hello: null, setup: [], selected: null };
  window.torneioApp = app;  // for the browser test

  function el(name, attrs, parent) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
    if (parent) parent.appendChild(node);
    return node;
  }
  function send(m) { if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(m)); }
  const showError = window.pageUi.showError;  // ui.js

  // ---- Creating a table ------------------------------------------------------------------------

  function seatRows() {
    const n = parseInt($("seat-count").value, 10);
    const rows = $("seat-rows");
    rows.innerHTML = "";
    for (let s = 0; s < n; s++) {
      const li = document.createElement("li");
      li.className = "form-row";
      const kinds = app.hello ? app.hello.kinds : ["person", "random", "heuristic", "ai"];
      const levels = app.hello ? app.hello.aiLevels : [{ name: "easy" }, { name: "normal" }, { name: "strong" }];
      li.innerHTML = `<label>Seat ${s + 1}</label>`;
      const kind = document.createElement("select");
      kind.id = `kind-${s + 1}`;
      for (const k of kinds) kind.add(new Option(k, k));
      kind.value = s === 0 ? "person" : "ai";
      const level = document.createElement("select");
      level.id = `level-${s + 1}`;
      levels.forEach((l, i) => {
        const option = new Option(l.name, String(i));
        if (l.about) option.title = l.about;
        level.add(option);
      });
      level.title = "how strong the ai plays: hover a choice for what it costs";
      level.value = "1";
      kind.addEventListener("change", () => { level.disabled = kind.value !== "ai"; });
      li.appendChild(kind);
      li.appendChild(level);
      rows.appendChild(li);
    }
  }

  function createTable() {
    const n = parseInt($("seat-count").value, 10);
    const seats = [];
    for (let s = 1; s <= n; s++) seats.push({ kind: $(`kind-${s}`).value, level: parseInt($(`level-${s}`).value, 10) });
    const rounds = parseInt($("rounds").value, 10);
    send({ type: "torneio.create", seats, rounds: Number.isFinite(rounds) ? rounds : 0 });
  }

  function showLinks(m) {
    const list = $("links");
    list.innerHTML = "";
    for (const seat of m.seats) {
      const li = document.createElement("li");
      if (seat.token) {
        const url = `${location.origin}/torneio?table=${m.table}&token=${seat.token}`;
        li.innerHTML = `<strong>Seat ${seat.seat}</strong> (person): <a class="link seat-link" data-seat="${seat.seat}" href="${url}">${url}</a>`;
      } else {
        li.innerHTML = `<strong>Seat ${seat.seat}</strong>: ${seat.kind}`;
      }
      list.appendChild(li);
    }
  }

  // ---- A seat's view ---------------------------------------------------------------------------

  const FILES = "abcdefghijklmnop";
  function squareXY(name, size, cell, margin) {
    const file = FILES.indexOf(name[0]);
    const rank = parseInt(name.slice(1), 10) - 1;
    return { x: margin + file * cell, y: margin + (size - 1 - rank) * cell };
  }

  // Squares the current decision lets the person click, with what a click sends.
  function clickTargets() {
    const v = app.view;
    const targets = {};
    if (!v || !v.request) return targets;
    const r = v.request;
    if (r.kind === "setup") {
      for (const sq of v.zone) if (!app.setup.includes(sq) && app.setup.length < 4) targets[sq] = { setup: sq };
      return targets;
    }
    for (const c of r.choices) {
      const t = c.split(" ");
      if (t[0] === "move" && app.selected !== null && parseInt(t[1], 10) === app.selected) targets[t[2]] = { action: c };
      if ((t[0] === "order" || t[0] === "withdraw")) targets[t[1]] = { action: c };
    }
    return targets;
  }

  function drawBoard() {
    const v = app.view;
    const svg = $("tboard");
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    if (!v || !v.started) return;
    const size = v.boardSize, margin = 30, cell = (600 - 2 * margin) / size;
    el("rect", { x: 0, y: 0, width: 600, height: 600, rx: 8, fill: "#4a3a2a" }, svg);
    const zone = new Set(v.request && v.request.kind === "setup" ? v.zone : []);
    for (let r = 0; r < size; r++)
      for (let f = 0; f < size; f++) {
        const name = FILES[f] + (r + 1);
        const { x, y } = squareXY(name, size, cell, margin);
        const dark = (f + r) % 2 === 0;
        el("rect", { x, y, width: cell, height: cell, fill: zone.has(name) ? "#c9b26b" : dark ? "#8f6b4a" : "#e8d8b8" }, svg);
      }
    for (let i = 0; i < size; i++) {
      // 19 units: at least 11 px on a 360 px wide phone.
      const t = el("text", { x: margin + i * cell + cell / 2, y: 594, "text-anchor": "middle", "font-size": 19, fill: "#e9d6b5", class: "coord" }, svg);
      t.textContent = FILES[i];
      const u = el("text", { x: 15, y: margin + (size - 1 - i) * cell + cell / 2 + 6, "text-anchor": "middle", "font-size": 19, fill: "#e9d6b5", class: "coord" }, svg);
      u.textContent = i + 1;
    }
    // What is known of the others: their last sightings.
    for (const s of v.sightings) {
      const { x, y } = squareXY(s.square, size, cell, margin);
      // A light disc under a solid ring and a haloed label: readable on dark and light squares.
      const g = el("g", { class: "sighting" }, svg);
      el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.32, fill: "rgba(255,255,255,0.72)", stroke: "#fff", "stroke-width": 5 }, g);
      el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.32, fill: "none", stroke: SEAT_COLOURS[s.seat - 1], "stroke-width": 3, "stroke-dasharray": "6 3" }, g);
      const t = el("text", { x: x + cell / 2, y: y + cell / 2 + 5, "text-anchor": "middle", "font-size": 15, fill: SEAT_COLOURS[s.seat - 1], "font-weight": 700, stroke: "#fff", "stroke-width": 3, "paint-order": "stroke" }, g);
      t.textContent = s.strength === -1 ? "K" : s.strength >= 0 ? s.strength : "?";
      const title = el("title", {}, g);
      title.textContent = `Seat ${s.seat} seen here in round ${s.round}, ${s.movesSince === 1 ? "its last move" : s.movesSince + " of its moves"} ago`;
    }
    // Own pieces (or the set-up being chosen).
    const mine = SEAT_COLOURS[v.seat - 1];
    const own = v.request && v.request.kind === "setup"
      ? app.setup.map((sq, i) => ({ piece: i, square: sq, strength: i === 0 ? 0 : "·", alive: true }))
      : v.own;
    for (const p of own) {
      if (!p.alive || !p.square) continue;
      const { x, y } = squareXY(p.square, size, cell, margin);
      const g = el("g", { class: "own", "data-piece": p.piece }, svg);
      el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.36, fill: mine, stroke: app.selected === p.piece ? "#f2d14b" : "#1d1d1d", "stroke-width": app.selected === p.piece ? 4 : 1.5 }, g);
      const t = el("text", { x: x + cell / 2, y: y + cell / 2 + 5, "text-anchor": "middle", "font-size": p.piece === 0 ? 18 : 15, fill: "#fff", "font-weight": 700 }, g);
      t.textContent = p.piece === 0 ? "♚" : p.strength;
    }
    const targets = clickTargets();
    for (const sq of Object.keys(targets)) {
      const { x, y } = squareXY(sq, size, cell, margin);
      el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.14, fill: "#3e7c59", opacity: 0.85, "pointer-events": "none" }, svg);
    }
    for (let r = 0; r < size; r++)
      for (let f = 0; f < size; f++) {
        const name = FILES[f] + (r + 1);
        const { x, y } = squareXY(name, size, cell, margin);
        const hit = el("rect", { x, y, width: cell, height: cell, fill: "transparent", class: "tsq", "data-square": name }, svg);
        hit.addEventListener("click", () => onSquare(name));
      }
  }

  function onSquare(name) {
    const v = app.view;
    if (!v || !v.request) return;
    const targets = clickTargets();
    if (targets[name]) {
      if (targets[name].setup) { app.setup.push(name); render(); return; }
      app.selected = null;
      send({ type: "torneio.act", action: targets[name].action });
      return;
    }
    if (v.request.kind === "turn") {
      const piece = v.own.find((p) => p.alive && p.square === name);
      app.selected = piece && app.selected !== piece.piece ? piece.piece : null;
      render();
    }
  }

  function button(text, onClick, cls) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (cls) b.className = cls;
    b.addEventListener("click", onClick);
    return b;
  }

  function choiceText(c, v) {
    const t = c.split(" ");
    if (t[0] === "combat") return `Combat on ${t[1]}`;
    if (t[0] === "pass") return "Pass";
    if (t[0] === "reward") {
      const w = v.own[parseInt(t[1], 10)];
      return `Point to warrior ${t[1]} (${w.strength} → ${w.strength + 1})`;
    }
    if (t[0] === "move") return `${t[1] === "0" ? "King" : "Warrior " + t[1]} to ${t[2]}`;
    return c;
  }

  function drawDecision() {
    const v = app.view;
    const d = $("decision");
    const box = $("choices");
    box.innerHTML = "";
    if (!v || !v.started) { d.textContent = "Waiting for the game to start…"; return; }
    if (v.over) {
      const o = v.outcome;
      const won = o.seats.includes(v.seat);
      d.innerHTML = `<strong class="game-over">Game over — ${o.draw ? "draw between seats " + o.seats.join(", ") : "seat " + o.seats[0] + " wins"}${won ? (o.draw ? " (you share it)" : " (you!)") : ""}</strong>`;
      return;
    }
    const r = v.request;
    if (!r) { d.textContent = v.turnSeat === v.seat ? "…" : `Waiting for seat ${v.turnSeat}.`; return; }
    if (r.kind === "setup") {
      const names = ["your king", "warrior 1", "warrior 2", "warrior 3"];
      d.innerHTML = app.setup.length < 4
        ? `Set-up: click a highlighted square for <strong>${names[app.setup.length]}</strong>.`
        : `Split ${v.strengthTotal} strength points among your warriors:`;
      if (app.setup.length === 4) {
        const base = Math.floor(v.strengthTotal / 3);
        for (let i = 1; i <= 3; i++) {
          const input = document.createElement("input");
          input.type = "text"; input.size = 3; input.id = `strength-${i}`;
          input.value = String(i === 3 ? v.strengthTotal - 2 * base : base);
          box.appendChild(document.createTextNode(`W${i} `));
          box.appendChild(input);
        }
        box.appendChild(button("Confirm set-up", () => {
          const s = [1, 2, 3].map((i) => $(`strength-${i}`).value.trim());
          send({ type: "torneio.act", action: `setup king ${app.setup[0]} warriors ${app.setup[1]}:${s[0]} ${app.setup[2]}:${s[1]} ${app.setup[3]}:${s[2]}` });
        }, "primary confirm-setup"));
      }
      box.appendChild(button("Start again", () => { app.setup = []; render(); }));
      box.appendChild(button("Random set-up", () => send({ type: "torneio.act", action: "random" }), "random-setup"));
      return;
    }
    const texts = { turn: "Your turn: click one of your pieces, then where it goes; or call a combat.",
      order: "You won: click where the losing piece must go.",
      withdraw: "No winner: click where your warrior withdraws.",
      reward: "You gained a point: choose the warrior that gets it." };
    d.textContent = texts[r.kind] || r.line;
    for (const c of r.choices) {
      if (c.startsWith("move") || c.startsWith("order") || c.startsWith("withdraw")) continue;
      const b = button(choiceText(c, v), () => send({ type: "torneio.act", action: c }), "choice");
      b.dataset.action = c;
      box.appendChild(b);
    }
  }

  function drawPanels() {
    const v = app.view;
    $("seat-title").textContent = `Seat ${v.seat} (${v.players[v.seat - 1].side})`;
    $("seat-title").style.color = SEAT_COLOURS[v.seat - 1];
    const own = $("own");
    own.innerHTML = "";
    const settingUp = v.round === 0;  // before the first turn every seat is still setting up
    for (const p of v.own) {
      const li = document.createElement("li");
      const where = p.alive ? p.square : settingUp ? "not placed yet" : "out of the game";
      li.textContent = `${p.piece === 0 ? "King" : "Warrior " + p.piece}: ${where}${p.piece === 0 ? "" : ", strength " + p.strength}`;
      own.appendChild(li);
    }
    const players = $("players");
    players.innerHTML = "";
    for (const p of v.players) {
      const li = document.createElement("li");
      const dot = document.createElement("span");
      dot.textContent = "● ";
      dot.style.color = SEAT_COLOURS[p.seat - 1];
      li.appendChild(dot);
      li.appendChild(document.createTextNode(`Seat ${p.seat} (${p.side})${p.seat === v.seat ? " — you" : ""}: ${p.out ? "out" : "playing"}, ${p.moves} ${p.moves === 1 ? "move" : "moves"}, ${p.gained} ${p.gained === 1 ? "point" : "points"} gained`));
      players.appendChild(li);
    }
    const st = $("tstatus");
    st.textContent = v.over ? "Game over."
      : settingUp ? "Set-up: every seat places its pieces in secret"
      : `Round ${v.round} of ${v.maxRounds} — ${v.turnSeat === v.seat ? "your turn" : "seat " + v.turnSeat + " to play"}`;
    st.dataset.over = v.over ? "true" : "false";
  }

  function drawLog() {
    const log = $("log");
    log.innerHTML = "";
    for (const e of app.log) {
      const li = document.createElement("li");
      li.textContent = (e.round ? `R${e.round}: ` : "") + e.text;
      log.appendChild(li);
    }
    log.scrollTop = log.scrollHeight;
    const lines = $("lines");
    lines.innerHTML = "";
    for (const l of app.lines) {
      const li = document.createElement("li");
      li.textContent = l;
      lines.appendChild(li);
    }
  }

  function render() {
    if (!app.view || !app.view.started) { drawDecision(); return; }
    drawBoard();
    drawDecision();
    drawPanels();
  }

  function onMessage(event) {
    const m = JSON.parse(event.data);
    switch (m.type) {
      case "hello": app.hello = m; if (!joinParams()) seatRows(); break;
      case "torneio.created": showLinks(m); break;
      case "torneio.joined": document.title = `Torneio — seat ${m.seat}`; break;
      case "torneio.view": {
        if (m.linesFrom === 0) { app.lines = []; app.log = []; }
        app.lines.push(...m.lines);
        if (m.started) { if (m.logFrom === 0) app.log = []; app.log.push(...m.log); }
        const hadRequest = app.view && app.view.request && app.view.request.line;
        app.view = m;
        if (!m.request || m.request.line !== hadRequest) { app.selected = null; if (!m.request || m.request.kind !== "setup") app.setup = []; }
        render();
        drawLog();
        break;
      }
      case "torneio.left":
        // The same seat link was opened in another window: that one plays the seat now.
        app.left = m.text;
        if (app.view) app.view.request = null;
        render();
        $("decision").textContent = `This window no longer holds the seat: ${m.text}. Reload to take it back.`;
        break;
      case "error":
        showError(m.message);
        // A link whose table or token is not known: say so instead of "Connecting…" for ever,
        // alone at the top (the empty board and seat panels hidden).
        if (joinParams() && !app.view) {
          $("tstatus").textContent = `This seat link does not open a seat: ${m.message}`;
          $("seat-view").classList.add("no-seat");
        }
        break;
    }
  }

  function joinParams() {
    const q = new URLSearchParams(location.search);
    return q.get("table") && q.get("token") ? { table: q.get("table"), token: q.get("token") } : null;
  }

  function main() {
    const join = joinParams();
    $(join ? "seat-view" : "create-view").classList.remove("hidden");
    $("seat-count").addEventListener("change", seatRows);
    $("create").addEventListener("click", createTable);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    app.ws = new WebSocket(`${scheme}://${location.host}/ws/torneio`);
    app.ws.addEventListener("message", onMessage);
    app.ws.addEventListener("open", () => { if (join) send({ type: "torneio.join", table: join.table, token: join.token }); });
    app.ws.addEventListener("close", () => {
      const text = "Disconnected from the server: reload the page.";
      $("tstatus").textContent = text;
      // The create page has no status line: the list of links says it.
      if (!join) $("links").innerHTML = `<li class="hint">${text}</li>`;
      $("create").disabled = !join;
    });
    if (!join) seatRows();
  }
  main();
})();
