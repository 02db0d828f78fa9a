// The Torneio page for a watcher (/torneio?watch=<table>): a public table's game as everyone may
// know it (D8). The server sends the table's public view alone (torneio.watchView, protocol.md):
// the public events and what they say (whose turn, who is out, points gained, the pieces seen
// with their revealed strengths, the outcome); never a seat's own pieces or its decisions, so
// this page has nothing hidden to show and no decision to take.
// Keyboard and screen reader: the board is a grid of squares with one Tab stop (roving
// tabindex, arrow keys move, Enter or Space says the square), each square named by what was seen
// on it; a polite live region (#watch-announce) says every public event as it comes; the events
// are listed in words (torneio.event.* keys, as a seat's page says another seat's events).
"use strict";

(() => {
  const watchId = new URLSearchParams(location.search).get("watch");
  if (!watchId) return;
  const $ = (id) => document.getElementById(id);
  const t = window.i18n.t;
  const SEAT_COLOURS = ["#2f6f9f", "#b23a3a", "#3e7c59", "#8a5a9e"];
  const board = window.TorneioBoard;  // torneio-board.js: the squares, the grid, the keys
  const app = { ws: null, view: null, seats: [], log: [], round: 0, cells: null, cursor: null, boardSize: 0, said: [] };
  window.torneioWatch = app;  // for the browser tests

  const el = board.el;

  function plain(html) {
    const d = document.createElement("div");
    d.innerHTML = html;
    return d.textContent;
  }

  // ---- Words -----------------------------------------------------------------------------------

  const sideName = window.TorneioBoard.sideName;
  function levelName(level) {
    switch (level) {
      case 0: return t("torneio.level.easy");
      case 1: return t("torneio.level.normal");
      case 2: return t("torneio.level.strong");
    }
    return String(level);
  }
  // Who plays a seat: the person's account name, a guest, or the kind of program.
  function whoText(seat) {
    if (!seat) return "";
    if (seat.kind === "person") return seat.player ? seat.player : t("torneio.watch.guest");
    switch (seat.kind) {
      case "ai": return t("torneio.watch.aiSeat", { level: levelName(seat.level) });
      case "random": return t("torneio.kind.random");
      case "heuristic": return t("torneio.kind.heuristic");
    }
    return seat.kind;
  }
  function seatInfo(n) { return app.seats.find((s) => s.seat === n); }

  // One public event line in words (every seat's event told as another's), or null for a line
  // that says nothing new (a turn: the status says it). Tracks the round.
  function describeLine(line) {
    const w = line.trim().split(/\s+/);
    if (w[0] !== "event") return null;
    const seat = parseInt(w[2], 10);
    switch (w[1]) {
      case "turn": app.round = parseInt(w[3], 10) || app.round; return null;
      case "moved": return t("torneio.event.moved", { seat });
      case "pass": return t("torneio.event.pass", { seat });
      case "combat": return t("torneio.event.combat", { seat, square: w[3] });
      case "unopposed": return t("torneio.event.unopposed", { square: w[3] });
      case "reveal":
        return w[3] === "king" ? t("torneio.event.revealKing", { seat }) : t("torneio.event.reveal", { seat, strength: w[3] });
      case "result": return w[2] === "none" ? t("torneio.event.noWinner") : t("torneio.event.winner", { seat });
      case "eliminated": return t("torneio.event.eliminated", { seat });
      case "refused": return t("torneio.event.refused", { seat, square: w[3] });
      case "retreat": return t("torneio.event.retreat", { seat, square: w[3] });
      case "removed": return t("torneio.event.removed", { seat, square: w[3] });
      case "withdrew": return t("torneio.event.withdrew", { seat });
      case "gained": return t("torneio.event.gained", { seat, count: parseInt(w[3], 10) });
      case "forfeit": return t("torneio.event.forfeit", { seat, count: parseInt(w[3], 10) });
      case "disqualified": return t("torneio.event.disqualified", { seat, fault: w[3] || "" });
      case "end":
        if (w[2] === "win") return t("torneio.event.endWin", { seat: parseInt(w[3], 10) });
        return t("torneio.event.endDraw", { seats: w.slice(3).join(", ") });
    }
    return null;
  }

  function statusText() {
    const v = app.view;
    if (v.over) return t("torneio.status.over");
    if (!v.round) return t("torneio.status.setup");
    return t("torneio.status.seatTurn", { round: v.round, max: v.maxRounds, seat: v.turnSeat });
  }
  function outcomeHtml() {
    const o = app.view.outcome;
    if (!o) return "";
    if (o.draw) return t("torneio.over.draw", { seats: o.seats.join(", ") });
    return t("torneio.over.win", { seat: o.seats[0] });
  }
  function playerText(p) {
    const params = {
      seat: p.seat, side: sideName(p.side), who: whoText(seatInfo(p.seat)),
      moves: t("torneio.player.moves", { count: p.moves }), points: t("torneio.player.points", { count: p.gained }),
    };
    return t(p.out ? "torneio.watch.playerOut" : "torneio.watch.playerPlaying", params);
  }

  // What was seen on a square, in words: its accessible name and what Enter says.
  function squareText(name) {
    const parts = [];
    for (const s of app.view.sightings.filter((x) => x.square === name)) {
      const ago = t("torneio.square.movesSince", { count: s.movesSince });
      if (s.strength === -1) parts.push(t("torneio.square.seenKing", { seat: s.seat, round: s.round, ago }));
      else if (s.strength >= 0) parts.push(t("torneio.square.seenStrength", { seat: s.seat, round: s.round, strength: s.strength, ago }));
      else parts.push(t("torneio.square.seenHidden", { seat: s.seat, round: s.round, ago }));
      if (s.withdrew) parts.push(t("torneio.watch.withdrewFrom"));
    }
    if (app.view.combat === name) parts.push(t("torneio.watch.combatHere"));
    if (!parts.length) parts.push(t("torneio.watch.nothingSeen"));
    return [name, ...parts].join(", ");
  }

  // ---- The live region ------------------------------------------------------------------------

  const KEPT_MESSAGES = 3;
  function announce(text) {
    text = text.trim();
    if (!text) return;
    const box = $("watch-announce");
    const p = document.createElement("p");
    p.textContent = text;
    box.appendChild(p);
    while (box.children.length > KEPT_MESSAGES) box.removeChild(box.firstChild);
    app.said.push(text);
  }

  // ---- The board -------------------------------------------------------------------------------

  const geometry = () => board.geometry(app.view.boardSize);
  const squareXY = (name) => board.squareXY(app.view.boardSize, name);
  const updateTabStop = () => board.updateTabStop(app);

  function buildBoard() {
    board.build(app, $("wboard"), app.view.boardSize, {
      label: t("torneio.board.label"), gridId: "wgrid",
      fill: (f, r) => ((f + r) % 2 === 0 ? "#8f6b4a" : "#e8d8b8"),
      activate: (name) => { updateTabStop(); announce(squareText(name)); },
      ready: () => Boolean(app.view),
    });
    app.cursor = "a1";
  }

  function drawBoard() {
    const v = app.view;
    if (app.boardSize !== v.boardSize || !app.cells) buildBoard();
    const { cell } = geometry();
    const marks = app.marks;
    while (marks.firstChild) marks.removeChild(marks.firstChild);
    if (v.combat) {
      const { x, y } = squareXY(v.combat);
      el("rect", { x: x + 2, y: y + 2, width: cell - 4, height: cell - 4, fill: "none", stroke: "#f2d14b", "stroke-width": 4 }, marks);
    }
    for (const s of v.sightings) {
      const { x, y } = squareXY(s.square);
      const g = el("g", { class: "sighting", "data-seat": s.seat }, marks);
      el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.32, fill: "rgba(255,255,255,0.72)", stroke: "#fff", "stroke-width": 5 }, g);
      el("circle", { cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.32, fill: "none", stroke: SEAT_COLOURS[s.seat - 1], "stroke-width": 3, "stroke-dasharray": s.withdrew ? "2 4" : "6 3" }, g);
      const label = el("text", { x: x + cell / 2, y: y + cell / 2 + 5, "text-anchor": "middle", "font-size": 15, fill: SEAT_COLOURS[s.seat - 1], "font-weight": 700, stroke: "#fff", "stroke-width": 3, "paint-order": "stroke" }, g);
      label.textContent = s.strength === -1 ? "K" : s.strength >= 0 ? s.strength : "?";
    }
    for (const [name, c] of Object.entries(app.cells)) c.setAttribute("aria-label", squareText(name));
    updateTabStop();
  }

  // ---- The panels ------------------------------------------------------------------------------

  function drawPanels() {
    const v = app.view;
    const st = $("wstatus");
    st.textContent = statusText();
    st.dataset.over = v.over ? "true" : "false";
    $("watch-outcome").innerHTML = outcomeHtml();
    const players = $("watch-players");
    players.replaceChildren();
    for (const p of v.players) {
      const li = document.createElement("li");
      const dot = document.createElement("span");
      dot.textContent = "● ";
      dot.setAttribute("aria-hidden", "true");
      dot.style.color = SEAT_COLOURS[p.seat - 1];
      li.append(dot, document.createTextNode(playerText(p)));
      players.appendChild(li);
    }
  }
  function drawLog() {
    const log = $("watch-log");
    log.replaceChildren();
    for (const e of app.log) {
      const li = document.createElement("li");
      li.textContent = e.round ? t("torneio.log.round", { round: e.round, text: e.text }) : e.text;
      log.appendChild(li);
    }
    log.scrollTop = log.scrollHeight;
  }

  // ---- Messages --------------------------------------------------------------------------------

  function onView(m) {
    const first = !app.view;
    if (m.eventsFrom === 0) { app.log = []; app.round = 0; }
    app.view = m;
    app.seats = m.seats || app.seats;
    const said = [];
    for (const line of m.events) {
      const text = describeLine(line);
      if (text) { app.log.push({ round: app.round, text }); said.push(text); }
    }
    drawBoard();
    drawPanels();
    drawLog();
    if (first) announce(t("torneio.watch.start", { table: m.table, status: statusText() }));
    else if (said.length) announce(said.join(" "));
    if (m.over && said.length) announce(plain(outcomeHtml()));
  }

  function onMessage(event) {
    const m = JSON.parse(event.data);
    switch (m.type) {
      case "hello": send({ type: "torneio.watch", table: watchId }); break;
      case "torneio.watching":
        app.seats = m.seats;
        document.title = t("torneio.watch.pageTitle", { table: m.table });
        $("watch-kind").textContent = m.rated ? t("torneio.watch.rated") : t("torneio.watch.casual");
        break;
      case "torneio.watchView": onView(m); break;
      case "error": {
        // Refused (a private table, a game over, an unknown id): said in the page's own words.
        if (!app.view) {
          $("wstatus").textContent = t("torneio.watch.badLink");
          $("wboard").classList.add("hidden");
          $("watch-panel").classList.add("hidden");
        } else {
          window.pageUi.showError(window.i18n.server(m));
        }
        break;
      }
    }
  }
  function send(m) { if (app.conn) app.conn.send(m); }

  function main() {
    $("watch-view").classList.remove("hidden");
    // Watching comes back (a restart, or the table moved to another instance) once it began.
    app.conn = window.pageUi.socket("/ws/torneio", {
      message: onMessage,
      keep: () => !!app.view,
      close: () => { $("wstatus").textContent = t("torneio.status.disconnected"); },
    });
  }
  main();
})();
