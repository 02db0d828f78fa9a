// The Torneio page: create a table, or play one seat of it through its private link. The
// server sends only this seat's view (built from the seat's protocol lines); the legal choices
// of each decision come from the server too. Everything the page says comes from the catalogue
// (torneio.* keys, web/i18n/<lang>/torneio.json); the events come in the view's log as
// catalogue keys with their values (made by the server from the seat's own protocol lines), and
// the server's refusals as server.* keys, so they read in the page's language.
// Keyboard and screen reader: the board is a grid of squares with one Tab stop (roving
// tabindex; arrow keys move, Enter or Space picks and plays, C calls a combat, Escape lets go),
// each square named by what the seat knows of it; a polite live region (#announce) says every
// event the seat sees and what is asked now; a command box answers pieces, square c4, moves,
// seen, table, help, and takes decisions typed as text (as lichess's blind mode).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const t = window.i18n.t;
  const SEAT_COLOURS = ["#2f6f9f", "#b23a3a", "#3e7c59", "#8a5a9e"];
  const app = {
    ws: null, view: null, lines: [], log: [], hello: null, setup: [], selected: null,
    cursor: null, cells: null, boardSize: 0, said: [],
  };
  window.torneioApp = app;  // for the browser tests

  const el = window.TorneioBoard.el;  // torneio-board.js
  function send(m) { if (app.conn) app.conn.send(m); }
  const showError = window.pageUi.showError;  // ui.js
  // A sentence that starts with a placeholder ("{piece} on c3.") starts with a capital letter.
  const cap = (text) => text.charAt(0).toUpperCase() + text.slice(1);
  function plain(html) {
    const d = document.createElement("div");
    d.innerHTML = html;
    return d.textContent;
  }

  // ---- Words -----------------------------------------------------------------------------------

  const sideName = window.TorneioBoard.sideName;
  function kindName(kind) {
    switch (kind) {
      case "person": return t("torneio.kind.person");
      case "random": return t("torneio.kind.random");
      case "heuristic": return t("torneio.kind.heuristic");
      case "ai": return t("torneio.kind.ai");
    }
    return kind;
  }
  function levelName(name) {
    switch (name) {
      case "easy": return t("torneio.level.easy");
      case "normal": return t("torneio.level.normal");
      case "strong": return t("torneio.level.strong");
    }
    return name;
  }
  function levelAbout(name, fallback) {
    switch (name) {
      case "easy": return t("torneio.level.easyAbout");
      case "normal": return t("torneio.level.normalAbout");
      case "strong": return t("torneio.level.strongAbout");
    }
    return fallback || "";
  }
  // "your king", "warrior 2".
  function pieceName(piece) {
    return piece === 0 ? t("torneio.piece.king") : t("torneio.piece.warrior", { n: piece });
  }

  // ---- The live region ------------------------------------------------------------------------

  // Says text in the polite live region: each message is a paragraph added to it (only the
  // addition is read), the last few kept in view.
  const KEPT_MESSAGES = 3;
  function announce(text) {
    text = text.trim();
    if (!text) return;
    const box = $(joinParams() ? "announce" : "create-announce");  // the region of the page in view
    const p = document.createElement("p");
    p.textContent = text;
    box.appendChild(p);
    while (box.children.length > KEPT_MESSAGES) box.removeChild(box.firstChild);
    app.said.push(text);  // every message, for the browser tests
  }

  // ---- Creating a table ------------------------------------------------------------------------

  function seatRows() {
    const n = parseInt($("seat-count").value, 10);
    const rows = $("seat-rows");
    rows.innerHTML = "";
    const kinds = app.hello ? app.hello.kinds : ["person", "random", "heuristic", "ai"];
    const levels = app.hello ? app.hello.aiLevels : [{ name: "easy" }, { name: "normal" }, { name: "strong" }];
    for (let s = 0; s < n; s++) {
      const li = document.createElement("li");
      li.className = "form-row";
      const label = document.createElement("label");
      label.htmlFor = `kind-${s + 1}`;
      label.textContent = t("torneio.create.seatLabel", { seat: s + 1 });
      li.appendChild(label);
      const kind = document.createElement("select");
      kind.id = `kind-${s + 1}`;
      for (const k of kinds) kind.add(new Option(kindName(k), k));
      kind.value = s === 0 ? "person" : "ai";
      const levelLabel = document.createElement("label");
      levelLabel.htmlFor = `level-${s + 1}`;
      levelLabel.textContent = t("torneio.create.levelLabel");
      const level = document.createElement("select");
      level.id = `level-${s + 1}`;
      levels.forEach((l, i) => {
        const option = new Option(levelName(l.name), String(i));
        option.title = levelAbout(l.name, l.about);
        level.add(option);
      });
      level.title = t("torneio.create.levelTitle");
      level.value = "1";
      const sync = () => { level.disabled = kind.value !== "ai"; };
      kind.addEventListener("change", sync);
      sync();
      li.appendChild(kind);
      li.appendChild(levelLabel);
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
      const strong = document.createElement("strong");
      strong.textContent = t("torneio.create.seatLabel", { seat: seat.seat });
      li.appendChild(strong);
      if (seat.token) {
        const url = `${location.origin}/torneio?table=${encodeURIComponent(m.table)}&token=${encodeURIComponent(seat.token)}`;
        li.appendChild(document.createTextNode(` (${kindName("person")}): `));
        const a = document.createElement("a");
        a.className = "link seat-link";
        a.dataset.seat = seat.seat;
        a.href = url;
        a.textContent = url;
        li.appendChild(a);
      } else {
        const level = seat.kind === "ai" && app.hello && app.hello.aiLevels[seat.level] ? ` (${levelName(app.hello.aiLevels[seat.level].name)})` : "";
        li.appendChild(document.createTextNode(`: ${kindName(seat.kind)}${level}`));
      }
      list.appendChild(li);
    }
    announce(t("torneio.create.made"));
  }

  // ---- A seat's view: the board ------------------------------------------------------------------

  const board = window.TorneioBoard;  // torneio-board.js: the squares, the grid, the keys
  const FILES = board.FILES;
  const geometry = () => board.geometry(app.view.boardSize);
  const squareXY = (name) => board.squareXY(app.view.boardSize, name);
  const squareName = board.squareName;
  function isSquare(name) {
    if (!app.view || !/^[a-p]([1-9]|1[0-6])$/.test(name)) return false;
    const f = FILES.indexOf(name[0]), r = parseInt(name.slice(1), 10) - 1;
    return f < app.view.boardSize && r < app.view.boardSize;
  }

  // The pieces shown as the seat's own: the set-up being chosen, or the pieces in play.
  function ownPieces() {
    const v = app.view;
    if (v.request && v.request.kind === "setup")
      return app.setup.map((sq, i) => ({ piece: i, square: sq, strength: null, alive: true }));
    return v.own.filter((p) => p.alive && p.square);
  }

  // Squares the current decision lets the person pick, with what picking sends.
  function targets() {
    const v = app.view;
    const out = {};
    if (!v || !v.request || app.left) return out;
    const r = v.request;
    if (r.kind === "setup") {
      for (const sq of v.zone) if (!app.setup.includes(sq) && app.setup.length < 4) out[sq] = { setup: sq };
      return out;
    }
    for (const c of r.choices) {
      const w = c.split(" ");
      if (w[0] === "move" && app.selected !== null && parseInt(w[1], 10) === app.selected) out[w[2]] = { action: c };
      if (w[0] === "order" || w[0] === "withdraw") out[w[1]] = { action: c };
    }
    return out;
  }

  // Builds the squares and the grid of focusable cells once per board size; drawBoard then
  // changes only what the view changed, so a focused square keeps the focus.
  function buildBoard() {
    board.build(app, $("tboard"), app.view.boardSize, {
      label: t("torneio.board.label"), gridId: "tgrid", activate: onSquare, key: onBoardKey,
      ready: () => Boolean(app.view),
    });
  }

  const placeRing = (name) => board.placeRing(app, name);
  const updateTabStop = () => board.updateTabStop(app);
  function focusBoard() {
    if (app.cells && app.cursor && app.cells[app.cursor]) app.cells[app.cursor].focus();
  }

  // What the seat knows of a square, in words: its accessible name and the answer to "square c4".
  function squareText(name) {
    const v = app.view;
    const parts = [];
    const own = ownPieces().find((p) => p.square === name);
    if (own) {
      if (own.piece === 0) parts.push(t("torneio.square.ownKing"));
      else if (own.strength === null) parts.push(t("torneio.square.ownWarriorSetup", { n: own.piece }));
      else parts.push(t("torneio.square.ownWarrior", { n: own.piece, strength: own.strength }));
    }
    for (const s of v.sightings.filter((x) => x.square === name)) {
      const ago = t("torneio.square.movesSince", { count: s.movesSince });
      if (s.strength === -1) parts.push(t("torneio.square.seenKing", { seat: s.seat, round: s.round, ago }));
      else if (s.strength >= 0) parts.push(t("torneio.square.seenStrength", { seat: s.seat, round: s.round, strength: s.strength, ago }));
      else parts.push(t("torneio.square.seenHidden", { seat: s.seat, round: s.round, ago }));
    }
    if (!parts.length) parts.push(t("torneio.square.nothing"));
    const states = [];
    if (own && app.selected === own.piece) states.push(t("torneio.square.picked"));
    const target = targets()[name];
    if (target) {
      if (target.setup) states.push(t("torneio.square.setupTarget", { piece: pieceName(app.setup.length) }));
      else {
        const w = target.action.split(" ");
        if (w[0] === "move") states.push(t("torneio.square.moveTarget", { piece: pieceName(parseInt(w[1], 10)) }));
        else if (w[0] === "order") states.push(t("torneio.square.orderTarget"));
        else states.push(t("torneio.square.withdrawTarget"));
      }
    }
    return [name, ...parts, ...states].join(", ");
  }

  function drawBoard() {
    const v = app.view;
    if (!v || !v.started) return;
    if (app.boardSize !== v.boardSize || !app.cells) buildBoard();
    const { size, cell } = geometry();
    const zone = new Set(v.request && v.request.kind === "setup" ? v.zone : []);
    for (let r = 0; r < size; r++)
      for (let f = 0; f < size; f++) {
        const name = squareName(f, r);
        const dark = (f + r) % 2 === 0;
        app.squareRects[name].setAttribute("fill", zone.has(name) ? "#c9b26b" : dark ? "#8f6b4a" : "#e8d8b8");
      }
    const marks = app.marks;
    while (marks.firstChild) marks.removeChild(marks.firstChild);
    // What is known of the others: their last sightings.
    for (const s of v.sightings) {
      const { x, y } = squareXY(s.square);
      // A light disc under a solid ring and a haloed label: readable on dark and light squares.
      const g = el("g", { class: "sighting" }, marks);
      el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.32, fill: "rgba(255,255,255,0.72)", stroke: "#fff", "stroke-width": 5 }, g);
      el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.32, fill: "none", stroke: SEAT_COLOURS[s.seat - 1], "stroke-width": 3, "stroke-dasharray": "6 3" }, g);
      const label = el("text", { x: x + cell / 2, y: y + cell / 2 + 5, "text-anchor": "middle", "font-size": 15, fill: SEAT_COLOURS[s.seat - 1], "font-weight": 700, stroke: "#fff", "stroke-width": 3, "paint-order": "stroke" }, g);
      label.textContent = s.strength === -1 ? "K" : s.strength >= 0 ? s.strength : "?";
    }
    const mine = SEAT_COLOURS[v.seat - 1];
    for (const p of ownPieces()) {
      const { x, y } = squareXY(p.square);
      const g = el("g", { class: "own", "data-piece": p.piece }, marks);
      el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.36, fill: mine, stroke: app.selected === p.piece ? "#f2d14b" : "#1d1d1d", "stroke-width": app.selected === p.piece ? 4 : 1.5 }, g);
      const label = el("text", { x: x + cell / 2, y: y + cell / 2 + 5, "text-anchor": "middle", "font-size": p.piece === 0 ? 18 : 15, fill: "#fff", "font-weight": 700 }, g);
      label.textContent = p.piece === 0 ? "♚" : p.strength === null ? "·" : p.strength;
    }
    const ts = targets();
    for (const sq of Object.keys(ts)) {
      const { x, y } = squareXY(sq);
      el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.14, fill: "#3e7c59", stroke: "#fff", "stroke-width": 2, opacity: 0.9 }, marks);
    }
    if (!app.cursor || !app.cells[app.cursor]) {
      const first = ownPieces()[0];
      app.cursor = first ? first.square : v.zone && v.zone.length ? v.zone[0] : "a1";
    }
    for (const [name, c] of Object.entries(app.cells)) {
      c.setAttribute("aria-label", squareText(name));
      const own = ownPieces().find((p) => p.square === name);
      c.setAttribute("aria-selected", own && app.selected === own.piece ? "true" : "false");
    }
    updateTabStop();
    if (document.activeElement === app.cells[app.cursor] && app.cells[app.cursor].matches(":focus-visible")) placeRing(app.cursor);
  }

  // The seat's keys beside the board's own (torneio-board.js): C calls a combat, Escape lets go.
  function onBoardKey(e) {
    switch (e.key) {
      case "Escape":
        if (app.selected !== null) { app.selected = null; render(); announce(promptPlain()); }
        return false;
      case "c": case "C":
        callCombat(app.cursor);
        return true;
      default: return false;
    }
  }

  function act(action) {
    app.selected = null;
    send({ type: "torneio.act", action });
  }

  function callCombat(square) {
    const r = app.view.request;
    const choice = r && r.kind === "turn" ? r.choices.find((c) => c === `combat ${square}`) : null;
    if (choice) { act(choice); return; }
    announce(t("torneio.say.noCombat", { square }));
  }

  function onSquare(name) {
    const v = app.view;
    if (!v || !v.request || app.left) { announce(squareText(name)); return; }
    const r = v.request;
    const target = targets()[name];
    if (target) {
      if (target.setup) {
        app.setup.push(name);
        render();
        const placed = cap(t("torneio.say.placed", { piece: pieceName(app.setup.length - 1), square: name }));
        announce(`${placed} ${promptPlain()}`);
        return;
      }
      act(target.action);
      return;
    }
    if (r.kind === "turn") {
      const piece = v.own.find((p) => p.alive && p.square === name);
      if (piece && app.selected !== piece.piece) {
        app.selected = piece.piece;
        render();
        announce(promptPlain());
      } else if (piece) {
        app.selected = null;
        render();
        announce(`${cap(t("torneio.say.letGo", { piece: pieceName(piece.piece) }))} ${promptPlain()}`);
      } else if (app.selected !== null) {
        announce(cap(t("torneio.say.notReachable", { piece: pieceName(app.selected), square: name })));
      } else {
        announce(`${squareText(name)}. ${t("torneio.say.pickFirst")}`);
      }
      return;
    }
    if (r.kind === "reward") {
      const piece = v.own.find((p) => p.alive && p.square === name && p.piece > 0);
      if (piece && r.choices.includes(`reward ${piece.piece}`)) { act(`reward ${piece.piece}`); return; }
    }
    if (r.kind === "setup") { announce(`${squareText(name)}. ${promptPlain()}`); return; }
    announce(`${squareText(name)}. ${t("torneio.say.notATarget")}`);
  }

  // ---- The decision --------------------------------------------------------------------------

  function button(text, onClick, cls) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (cls) b.className = cls;
    b.addEventListener("click", onClick);
    return b;
  }

  function choiceText(c, v) {
    const w = c.split(" ");
    if (w[0] === "combat") {
      const piece = v.own.find((p) => p.alive && p.square === w[1]);
      return t("torneio.choice.combat", { square: w[1], piece: piece ? pieceName(piece.piece) : "" });
    }
    if (w[0] === "pass") return t("torneio.choice.pass");
    if (w[0] === "reward") {
      const p = v.own[parseInt(w[1], 10)];
      return t("torneio.choice.reward", { n: w[1], from: p.strength, to: p.strength + 1 });
    }
    if (w[0] === "order") return t("torneio.choice.order", { square: w[1] });
    if (w[0] === "withdraw") return t("torneio.choice.withdraw", { square: w[1] });
    if (w[0] === "move") return cap(t("torneio.choice.move", { piece: pieceName(parseInt(w[1], 10)), square: w[2] }));
    return c;
  }

  // What is asked now, as HTML with the rules' links (the decision area) ...
  function promptHtml() {
    const v = app.view;
    if (!v) return t("torneio.status.connecting");
    if (!v.started) return t("torneio.ask.waitStart");
    if (v.over) {
      const o = v.outcome;
      if (o.draw) return t(o.seats.includes(v.seat) ? "torneio.over.drawYou" : "torneio.over.draw", { seats: o.seats.join(", ") });
      return o.seats[0] === v.seat ? t("torneio.over.winYou") : t("torneio.over.win", { seat: o.seats[0] });
    }
    if (app.left) return t("torneio.seat.left");
    const r = v.request;
    if (!r) {
      const me = v.players[v.seat - 1];
      if (me && me.out) return t("torneio.ask.out");
      if (v.round > 0 && v.turnSeat === v.seat) return "";  // this seat's decision, on its way
      return v.round === 0 ? t("torneio.ask.waitSetup") : t("torneio.ask.wait", { seat: v.turnSeat });
    }
    const w = r.line.split(" ");
    switch (r.kind) {
      case "setup":
        if (app.setup.length < 4) return t("torneio.ask.setupPlace", { piece: pieceName(app.setup.length), squares: v.zone.filter((s) => !app.setup.includes(s)).join(" ") });
        return t("torneio.ask.setupStrengths", { total: v.strengthTotal, min: v.minStrength });
      case "turn":
        if (app.selected !== null) {
          const p = v.own[app.selected];
          const squares = Object.keys(targets());
          return squares.length
            ? cap(t("torneio.ask.picked", { piece: pieceName(app.selected), square: p.square, squares: squares.join(" ") }))
              + (app.selected > 0 ? " " + t("torneio.ask.pickedCombat") : "")
            : cap(t("torneio.ask.pickedBlocked", { piece: pieceName(app.selected), square: p.square }));
        }
        return t("torneio.ask.turn", { round: v.round });
      case "order": {
        const refused = w.indexOf("refused") > 0 ? w.slice(w.indexOf("refused") + 1) : [];
        return t("torneio.ask.order", { seat: w[2], square: w[3], squares: r.choices.map((c) => c.split(" ")[1]).join(" ") })
          + (refused.length ? " " + t("torneio.ask.orderRefused", { squares: refused.join(" ") }) : "");
      }
      case "withdraw":
        return t("torneio.ask.withdraw", { n: w[2], square: w[3], squares: r.choices.map((c) => c.split(" ")[1]).join(" ") });
      case "reward":
        return t("torneio.ask.reward", { count: parseInt(w[2], 10) || 1 });
    }
    return r.line;
  }
  // ... and as plain words (the live region).
  function promptPlain() { return plain(promptHtml()); }

  function drawDecision() {
    const v = app.view;
    const d = $("decision");
    const box = $("choices");
    box.innerHTML = "";
    d.innerHTML = promptHtml();
    if (v && v.over) d.classList.add("game-over"); else d.classList.remove("game-over");
    if (!v || !v.started || v.over || app.left) return;
    const r = v.request;
    if (!r) return;
    if (r.kind === "setup") {
      if (app.setup.length === 4) {
        const base = Math.floor(v.strengthTotal / 3);
        const fields = document.createElement("div");
        fields.className = "strengths";
        for (let i = 1; i <= 3; i++) {
          const label = document.createElement("label");
          label.htmlFor = `strength-${i}`;
          label.textContent = t("torneio.setup.strengthLabel", { n: i, square: app.setup[i] });
          const input = document.createElement("input");
          input.type = "number"; input.min = String(v.minStrength); input.max = String(v.strengthTotal);
          input.id = `strength-${i}`;
          input.value = String(i === 3 ? v.strengthTotal - 2 * base : base);
          label.appendChild(input);
          fields.appendChild(label);
        }
        box.appendChild(fields);
        box.appendChild(button(t("torneio.setup.confirm"), confirmSetup, "primary confirm-setup"));
      }
      box.appendChild(button(t("torneio.setup.again"), () => { app.setup = []; render(); announce(promptPlain()); focusBoard(); }, "setup-again"));
      box.appendChild(button(t("torneio.setup.random"), () => { send({ type: "torneio.act", action: "random" }); focusBoard(); }, "random-setup"));
      return;
    }
    for (const c of r.choices) {
      if (c.startsWith("move") || c.startsWith("order") || c.startsWith("withdraw")) continue;
      const b = button(choiceText(c, v), () => { act(c); focusBoard(); }, "choice");
      b.dataset.action = c;
      box.appendChild(b);
    }
  }

  function confirmSetup() {
    const s = [1, 2, 3].map((i) => $(`strength-${i}`).value.trim());
    send({ type: "torneio.act", action: `setup king ${app.setup[0]} warriors ${app.setup[1]}:${s[0]} ${app.setup[2]}:${s[1]} ${app.setup[3]}:${s[2]}` });
    focusBoard();
  }

  function ownText(p, settingUp) {
    if (!p.alive) return cap(t(settingUp ? "torneio.own.notPlaced" : "torneio.own.out", { piece: pieceName(p.piece) }));
    return p.piece === 0 ? t("torneio.own.king", { square: p.square }) : t("torneio.own.warrior", { n: p.piece, square: p.square, strength: p.strength });
  }
  function playerText(p, v) {
    const params = { seat: p.seat, side: sideName(p.side), moves: t("torneio.player.moves", { count: p.moves }), points: t("torneio.player.points", { count: p.gained }) };
    if (p.seat === v.seat) return t(p.out ? "torneio.player.youOut" : "torneio.player.you", params);
    return t(p.out ? "torneio.player.out" : "torneio.player.playing", params);
  }

  function drawPanels() {
    const v = app.view;
    const title = $("seat-title");
    title.textContent = t("torneio.seat.title", { seat: v.seat, side: sideName(v.players[v.seat - 1].side) });
    title.style.color = SEAT_COLOURS[v.seat - 1];
    const own = $("own");
    own.innerHTML = "";
    const settingUp = v.round === 0;  // before the first turn every seat is still setting up
    for (const p of v.own) {
      const li = document.createElement("li");
      li.textContent = ownText(p, settingUp);
      own.appendChild(li);
    }
    const players = $("players");
    players.innerHTML = "";
    for (const p of v.players) {
      const li = document.createElement("li");
      const dot = document.createElement("span");
      dot.textContent = "● ";
      dot.setAttribute("aria-hidden", "true");
      dot.style.color = SEAT_COLOURS[p.seat - 1];
      li.appendChild(dot);
      li.appendChild(document.createTextNode(playerText(p, v)));
      players.appendChild(li);
    }
    const st = $("tstatus");
    st.textContent = statusText();
    st.dataset.over = v.over ? "true" : "false";
  }
  function statusText() {
    const v = app.view;
    if (v.over) return t("torneio.status.over");
    if (v.round === 0) return t("torneio.status.setup");
    return v.turnSeat === v.seat ? t("torneio.status.yourTurn", { round: v.round, max: v.maxRounds })
      : t("torneio.status.seatTurn", { round: v.round, max: v.maxRounds, seat: v.turnSeat });
  }

  function drawLog() {
    const log = $("log");
    log.innerHTML = "";
    for (const e of app.log) {
      const li = document.createElement("li");
      li.textContent = e.round ? t("torneio.log.round", { round: e.round, text: e.text }) : e.text;
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

  // ---- The command box (text mode) -------------------------------------------------------------

  function answer(text) {
    $("command-out").textContent = text;
    announce(text);
  }

  function listMoves() {
    const v = app.view;
    const r = v && v.request;
    if (!r || app.left) return `${t("torneio.command.nothingAsked")} ${promptPlain()}`;
    if (r.kind === "setup") return `${promptPlain()} ${t("torneio.command.setupForm")}`;
    const lines = [promptPlain()];
    if (r.kind === "turn") {
      const byPiece = {};
      for (const c of r.choices) {
        const w = c.split(" ");
        if (w[0] === "move") (byPiece[w[1]] = byPiece[w[1]] || []).push(w[2]);
      }
      for (const p of v.own.filter((x) => x.alive)) {
        const to = byPiece[String(p.piece)];
        lines.push(cap(t(to ? "torneio.command.movesOf" : "torneio.command.blocked", { piece: pieceName(p.piece), square: p.square, squares: to ? to.join(" ") : "" })));
      }
      const combats = r.choices.filter((c) => c.startsWith("combat")).map((c) => c.split(" ")[1]);
      if (combats.length) lines.push(t("torneio.command.combats", { squares: combats.join(" ") }));
      if (r.choices.includes("pass")) lines.push(t("torneio.choice.pass"));
    } else {
      lines.push(r.choices.map((c) => choiceText(c, v)).join("; "));
    }
    return lines.join("\n");
  }

  function runCommand(text) {
    const v = app.view;
    const w = text.trim().toLowerCase().split(/\s+/).filter(Boolean);
    if (!w.length) return;
    if (!v || !v.started) { answer(promptPlain()); return; }
    const word = w[0];
    if (["help", "ajuda", "?"].includes(word)) { answer(t("torneio.command.help")); return; }
    if (["pieces", "peças", "pecas"].includes(word)) {
      const settingUp = v.round === 0;
      const list = v.request && v.request.kind === "setup"
        ? app.setup.map((sq, i) => cap(t("torneio.say.placed", { piece: pieceName(i), square: sq }))).join(" ") || t("torneio.command.nonePlaced")
        : v.own.map((p) => ownText(p, settingUp)).join("; ");
      answer(list);
      return;
    }
    if (["square", "casa"].includes(word) || (w.length === 1 && isSquare(word))) {
      const sq = w.length === 1 ? word : w[1];
      if (!isSquare(sq)) { answer(t("torneio.command.noSquare", { square: sq || "" })); return; }
      answer(squareText(sq));
      return;
    }
    if (["moves", "lances", "choices", "opções", "opcoes"].includes(word)) { answer(listMoves()); return; }
    if (["seen", "vistos", "others", "outros"].includes(word)) {
      const seen = v.sightings.map((s) => `${s.square}: ${squareText(s.square).split(", ").slice(1).join(", ")}`);
      answer(seen.length ? seen.join("\n") : t("torneio.command.noneSeen"));
      return;
    }
    if (["table", "mesa"].includes(word)) { answer([statusText(), ...v.players.map((p) => playerText(p, v))].join("\n")); return; }
    if (["zone", "zona"].includes(word)) { answer(t("torneio.command.zone", { squares: v.zone.join(" ") })); return; }
    if (["status", "situação", "situacao"].includes(word)) { answer(`${statusText()}. ${promptPlain()}`); return; }
    // A decision typed as text.
    const r = v.request;
    if (!r || app.left) { answer(`${t("torneio.command.nothingAsked")} ${promptPlain()}`); return; }
    let action = null;
    if (word === "random" || word === "aleatório" || word === "aleatorio") action = "random";
    else if (["setup", "move", "combat", "pass", "order", "withdraw", "reward"].includes(word)) action = w.join(" ");
    else if (word === "combate" && w[1]) action = `combat ${w[1]}`;
    else if (word === "passar") action = "pass";
    else if (["mandar", "ordem"].includes(word) && w[1]) action = `order ${w[1]}`;
    else if (word === "retirar" && w[1]) action = `withdraw ${w[1]}`;
    else if (["ponto", "recompensa"].includes(word) && w[1]) action = `reward ${w[1]}`;
    else if (r.kind === "turn" && w.length === 2 && isSquare(w[1])) {
      const piece = ["k", "king", "r", "rei", "0"].includes(word) ? 0 : parseInt(word.replace(/^[wg]/, ""), 10);
      if ([0, 1, 2, 3].includes(piece)) action = `move ${piece} ${w[1]}`;
    } else if ((r.kind === "order" || r.kind === "withdraw") && w.length === 1 && isSquare(word)) action = `${r.kind} ${word}`;
    else if (r.kind === "reward" && /^[123]$/.test(word)) action = `reward ${word}`;
    if (!action) { answer(t("torneio.command.unknown", { text: text.trim() })); return; }
    if (action !== "random" && r.kind !== "setup" && !r.choices.includes(action)) {
      answer(`${t("torneio.command.notLegal", { text: action })} ${listMoves()}`);
      return;
    }
    $("command-out").textContent = "";
    act(action);
  }

  // ---- Messages ------------------------------------------------------------------------------------

  function onView(m) {
    const first = !app.view;
    if (m.linesFrom === 0) { app.lines = []; app.log = []; }
    const hadRequest = app.view && app.view.request && app.view.request.line;
    app.view = m;
    const said = [];
    app.lines.push(...m.lines);
    // The events in words: each entry a torneio.log.* key and its values ({round, key, params,
    // text}), said in the page's language.
    for (const e of m.log) {
      const text = window.i18n.server(e);
      app.log.push({ round: e.round, text });
      said.push(text);
    }
    if (!m.request || m.request.line !== hadRequest) { app.selected = null; if (!m.request || m.request.kind !== "setup") app.setup = []; }
    render();
    drawLog();
    const ask = promptPlain();
    if (first) announce(`${t("torneio.seat.title", { seat: m.seat, side: sideName(m.players[m.seat - 1] ? m.players[m.seat - 1].side : "") })}. ${m.started ? statusText() + ". " : ""}${ask}`);
    else if (said.length || (m.request && m.request.line !== hadRequest) || m.over) announce([...said, ask].join(" "));
    document.dispatchEvent(new CustomEvent("torneio:view", { detail: { view: m, announce } }));  // torneio-guide.js
  }

  function onMessage(event) {
    const m = JSON.parse(event.data);
    switch (m.type) {
      case "hello": app.hello = m; if (!joinParams()) seatRows(); break;
      case "torneio.created": showLinks(m); break;
      case "torneio.joined": document.title = t("torneio.page.seatTitle", { seat: m.seat }); break;
      case "torneio.view": onView(m); break;
      case "torneio.left":
        // The same seat link was opened in another window: that one plays the seat now.
        app.left = m.text;
        render();
        announce(promptPlain());
        break;
      case "error":
        showError(cap(window.i18n.server(m)));
        // A link whose table or token is not known: say so instead of "Connecting…" for ever,
        // alone at the top (the empty board and seat panels hidden).
        if (joinParams() && !app.view) {
          $("tstatus").textContent = t("torneio.status.badLink", { message: window.i18n.server(m) });
          $("seat-view").classList.add("no-seat");
        } else if (app.view) {
          announce(`${t("torneio.say.refused", { message: window.i18n.server(m) })} ${promptPlain()}`);
        }
        break;
    }
  }

  function joinParams() {
    const q = new URLSearchParams(location.search);
    return q.get("table") && q.get("token") ? { table: q.get("table"), token: q.get("token") } : null;
  }

  function main() {
    if (new URLSearchParams(location.search).has("watch")) return;  // a watcher: torneio-watch.js
    const join = joinParams();
    $(join ? "seat-view" : "create-view").classList.remove("hidden");
    $("seat-count").addEventListener("change", seatRows);
    $("create").addEventListener("click", createTable);
    $("command-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const box = $("tcommand");
      runCommand(box.value);
      box.value = "";
    });
    // A seat's page comes back to its seat (a restart, or the table moved to another instance).
    app.conn = window.pageUi.socket("/ws/torneio", {
      message: onMessage,
      open: () => { if (join) send({ type: "torneio.join", table: join.table, token: join.token }); },
      keep: () => !!join && !app.left,
      close: () => {
        const text = t("torneio.status.disconnected");
        $("tstatus").textContent = text;
        // The create page has no status line: the list of links says it.
        if (!join) $("links").innerHTML = `<li class="hint">${text}</li>`;
        $("create").disabled = !join;
      },
    });
    if (!join) seatRows();
  }
  main();
})();
