// The Lasca lessons (/learn): each lesson is a position (LFEN) and a task. The page holds no
// rules: it loads the lesson's position on the server's analysis board (engine "none") through
// the /ws WebSocket, takes the position's `legal` moves from the server's state, and plays an
// answer there to see the position it makes; a wrong answer is explained from those two
// (not legal at all, a capture was compulsory, a jump stopped too early, or legal but not the
// lesson's goal).
// The answer is given by clicks, by the keyboard on the board (arrow keys move between the
// playable squares, Enter or Space picks a square) or typed in the move box (c3-d4, c3xe5xg7).
// Every step and verdict is said in the polite live region #learn-live.
// Progress: the ids of the lessons done, on the account (GET/POST /api/account/progress) when
// it answers 200, else in this browser's localStorage.
// "Your first Torneio game" makes a two-seat Torneio table against the easy AI over
// /ws/torneio (torneio.create, as the Torneio page does) and opens the person's seat with
// &guide=1: web/torneio-guide.js explains the game there and marks the lesson TORNEIO done
// (the same progress) when the game ends.
"use strict";

window.learnApp = (() => {
  const t = (key, params) => i18n.t(key, params);
  const START = "b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 0 1";
  const FILES = "abcdefg";
  const STORE = "lasca.learn.done";
  const TORNEIO = "torneio-first";  // the guided Torneio game's lesson id (torneio-guide.js)

  // Each lesson: its position, its goal (a test of the answer: see goalReason) and its words.
  const LESSONS = [
    { id: "first", lfen: START, goal: "any",
      title: () => t("learn.first.title"), task: () => t("learn.first.task"), done: () => t("learn.first.done") },
    { id: "capture", lfen: "b,-,-,-/-,-,-/-,-,-,-/-,b,-/-,w,-,w/-,-,-/-,-,-,- w 0 1", goal: "capture",
      title: () => t("learn.capture.title"), task: () => t("learn.capture.task"), done: () => t("learn.capture.done") },
    { id: "multi", lfen: "b,-,-,-/-,-,b/-,-,-,-/-,b,-/-,w,-,w/-,-,-/-,-,-,- w 0 1", goal: "multi",
      title: () => t("learn.multi.title"), task: () => t("learn.multi.task"), done: () => t("learn.multi.done") },
    { id: "top", lfen: "b,-,-,-/-,-,-/-,-,-,-/-,bb,b/-,w,-,w/-,-,-/-,-,-,- w 0 1", goal: "top",
      title: () => t("learn.top.title"), task: () => t("learn.top.task"), done: () => t("learn.top.done") },
    { id: "free", lfen: "b,-,-,-/-,-,-/-,-,-,-/b,bw,-/w,-,w,-/-,-,-/-,-,-,- w 0 1", goal: "free",
      title: () => t("learn.free.title"), task: () => t("learn.free.task"), done: () => t("learn.free.done") },
    { id: "promote", lfen: "-,-,-,b/-,w,-/-,-,-,-/-,-,-/w,-,-,-/-,-,-/-,-,-,- w 0 1", goal: "promote",
      title: () => t("learn.promote.title"), task: () => t("learn.promote.task"), done: () => t("learn.promote.done") },
    { id: "back", lfen: "b,-,-,-/-,-,-/-,-,-,-/-,W,-/w,-,-,-/-,-,-/-,-,-,- w 0 1", goal: "back",
      title: () => t("learn.back.title"), task: () => t("learn.back.task"), done: () => t("learn.back.done") },
    { id: "win", lfen: "-,-,-,-/-,-,-/-,-,-,-/-,-,-/b,-,-,w/-,-,-/w,w,-,- w 0 1", goal: "win",
      title: () => t("learn.win.title"), task: () => t("learn.win.task"), done: () => t("learn.win.done") },
  ];

  const app = {
    ws: null,
    lesson: 0,          // index into LESSONS
    base: null,         // the server's state of the lesson's position (ply 0)
    shown: null,        // the state drawn (the base, or the position after a right answer)
    latest: null,       // the last state received
    selected: [],       // squares picked so far of a move being entered on the board
    cursor: "a1",       // the board's focusable square (roving tabindex)
    busy: false,        // an answer is being checked
    solved: false,      // the lesson shown was answered right
    done: new Set(),    // lessons done
    account: false,     // progress is kept on the account
    barriers: [],       // callbacks run in order when the server answers a pdn.export probe
    LESSONS,
  };
  const $ = (id) => document.getElementById(id);

  // ---- Words -------------------------------------------------------------------------------
  const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

  // Says `html` (a catalogue message, which may hold a rule's link) in the live region.
  function say(html, kind) {
    const live = $("learn-live");
    live.innerHTML = html;
    live.className = "feedback" + (kind ? " " + kind : "");
  }

  function pieceName(p) {
    return { w: t("learn.piece.w"), W: t("learn.piece.W"), b: t("learn.piece.b"), B: t("learn.piece.B") }[p];
  }

  function squareLabel(name, board) {
    const column = board[name];
    if (!column) return t("learn.square.empty", { square: name });
    if (column.length === 1) return t("learn.square.piece", { square: name, piece: pieceName(column) });
    return t("learn.square.column", {
      square: name, count: column.length, top: pieceName(column[0]),
      rest: [...column.slice(1)].map(pieceName).join(", "),
    });
  }

  // ---- The board -----------------------------------------------------------------------------
  const startsWith = (path, prefix) => prefix.every((sq, i) => path[i] === sq);
  const candidates = () => app.base.legal.filter((m) => startsWith(m.path, app.selected));
  const jumped = (path) => path.slice(1).map((to, i) => {
    const from = path[i];
    const f = (FILES.indexOf(from[0]) + FILES.indexOf(to[0])) / 2, r = (+from.slice(1) + +to.slice(1)) / 2;
    return Number.isInteger(f) && Math.abs(FILES.indexOf(from[0]) - FILES.indexOf(to[0])) === 2 ? FILES[f] + r : null;
  }).filter(Boolean);
  const moveText = (path) => path.join(jumped(path).length ? "x" : "-");

  function render() {
    const svg = $("learn-board");
    const hadFocus = svg.contains(document.activeElement);
    const s = app.shown;
    if (!s) return;
    const interactive = !app.solved && !app.busy && s === app.base;
    const targets = interactive && app.selected.length ? candidates().map((m) => m.path[app.selected.length]).filter(Boolean) : [];
    const origins = interactive && !app.selected.length ? [...new Set(app.base.legal.map((m) => m.path[0]))] : [];
    LascaBoard.draw(svg, {
      board: s.board, lastMove: s.lastMove, flipped: false,
      highlights: { selected: app.selected, targets, origins }, onSquare,
    });
    for (const sq of svg.querySelectorAll("rect.sq")) {
      const name = sq.dataset.square;
      let label = squareLabel(name, s.board);
      if (app.selected.includes(name)) label = t("learn.square.selected", { label });
      else if (targets.includes(name)) label = t("learn.square.target", { label });
      sq.setAttribute("role", "button");
      sq.setAttribute("aria-label", label);
      sq.setAttribute("tabindex", name === app.cursor ? "0" : "-1");
      sq.addEventListener("focus", () => { app.cursor = name; });
    }
    if (hadFocus) focusCursor();
  }

  function focusCursor() {
    const sq = $("learn-board").querySelector(`rect.sq[data-square="${app.cursor}"]`);
    if (sq) sq.focus();
  }

  // Arrow keys: left and right go two files along the rank (the next playable square), up and
  // down go to the next rank, one file to the right (up) or left (down) where the board allows.
  function onKey(e) {
    const f = FILES.indexOf(app.cursor[0]), r = parseInt(app.cursor.slice(1), 10);
    const ok = (ff, rr) => ff >= 0 && ff < 7 && rr >= 1 && rr <= 7;
    let next = null;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onSquare(app.cursor);
      return;
    }
    if (e.key === "ArrowRight" && ok(f + 2, r)) next = [f + 2, r];
    else if (e.key === "ArrowLeft" && ok(f - 2, r)) next = [f - 2, r];
    else if (e.key === "ArrowUp") next = ok(f + 1, r + 1) ? [f + 1, r + 1] : ok(f - 1, r + 1) ? [f - 1, r + 1] : null;
    else if (e.key === "ArrowDown") next = ok(f - 1, r - 1) ? [f - 1, r - 1] : ok(f + 1, r - 1) ? [f + 1, r - 1] : null;
    else if (e.key === "Escape" && app.selected.length) {
      app.selected = [];
      say(escapeHtml(t("learn.select.cleared")));
      render();
      e.preventDefault();
      return;
    } else return;
    e.preventDefault();
    if (!next) return;
    const old = $("learn-board").querySelector(`rect.sq[data-square="${app.cursor}"]`);
    if (old) old.setAttribute("tabindex", "-1");
    app.cursor = FILES[next[0]] + next[1];
    const sq = $("learn-board").querySelector(`rect.sq[data-square="${app.cursor}"]`);
    sq.setAttribute("tabindex", "0");
    sq.focus();
  }

  function onSquare(name) {
    app.cursor = name;
    if (!app.base || app.busy || app.solved || app.shown !== app.base) return;
    const legal = app.base.legal;
    if (app.selected.length) {
      const next = candidates().filter((m) => m.path[app.selected.length] === name);
      if (next.length) {
        app.selected.push(name);
        const complete = next.filter((m) => m.path.length === app.selected.length);
        if (complete.length === 1 && next.length === 1) { submit(complete[0]); return; }
        say(escapeHtml(t("learn.select.continue", { path: moveText(app.selected) })));
        render();
        return;
      }
      if (app.selected.length === 1 && app.selected[0] === name) {
        app.selected = [];
        say(escapeHtml(t("learn.select.cleared")));
        render();
        return;
      }
      if (!legal.some((m) => m.path[0] === name)) {
        const attempt = [...app.selected, name];
        app.selected = [];
        explain(attempt, moveText(attempt));
        render();
        return;
      }
    }
    if (legal.some((m) => m.path[0] === name)) {
      app.selected = [name];
      say(escapeHtml(t("learn.select.picked", { square: name, piece: squareLabel(name, app.base.board) })));
    } else {
      app.selected = [];
      const own = app.base.board[name] && app.base.board[name][0].toLowerCase() === app.base.sideToMove[0];
      const captures = legal.filter((m) => m.move.includes("x"));
      if (own && captures.length) say(t("learn.select.mustCapture", { square: name }), "bad");
      else say(escapeHtml(t("learn.select.noMove", { square: name })), "bad");
    }
    render();
  }

  // ---- Answers -------------------------------------------------------------------------------
  // Why an answer that is not among the legal moves is wrong.
  function explain(path, text) {
    const legal = app.base.legal;
    const move = escapeHtml(text);
    if (legal.some((m) => m.path.length > path.length && startsWith(m.path, path)))
      say(t("learn.verdict.keepJumping", { move }), "bad");
    else if (legal.some((m) => m.move.includes("x")))
      say(t("learn.verdict.mustCapture", { move }), "bad");
    else
      say(t("learn.verdict.illegal", { move }), "bad");
  }

  function typed(e) {
    e.preventDefault();
    const box = $("learn-move");
    const text = box.value.trim();
    if (!app.base || app.busy || app.solved) return;
    if (!/^[a-g][1-7]([-x]?[a-g][1-7])+\*?$/i.test(text)) {
      say(t("learn.verdict.badText", { text: escapeHtml(text) }), "bad");
      return;
    }
    const path = text.toLowerCase().match(/[a-g][1-7]/g);
    app.selected = [];
    const move = app.base.legal.find((m) => m.path.length === path.length && startsWith(m.path, path));
    if (move) { box.value = ""; submit(move); } else { explain(path, text); render(); }
  }

  // Plays a legal move on the server's board and judges the position it makes.
  function submit(move) {
    app.busy = true;
    app.selected = [];
    say(escapeHtml(t("learn.verdict.checking", { move: move.move })));
    render();
    send({ type: "move", ply: 0, move: move.move });
    barrier(() => {
      app.busy = false;
      const after = app.latest;
      const lesson = LESSONS[app.lesson];
      const reason = goalReason(lesson.goal, app.base, after, move);
      if (reason === null) {
        app.solved = true;
        app.shown = after;
        markDone(lesson.id);
        say(t("learn.verdict.correct", { move: escapeHtml(move.move), why: lesson.done() }) +
          (app.lesson + 1 < LESSONS.length ? " " + escapeHtml(t("learn.verdict.next")) : " " + escapeHtml(t("learn.verdict.last"))), "good");
        $("learn-next").disabled = app.lesson + 1 >= LESSONS.length;
        render();
      } else {
        say(t("learn.verdict.notGoal", { move: escapeHtml(move.move), why: reason }), "bad");
        app.busy = true;
        send({ type: "view", ply: 0 });  // back to the lesson's position for another try
        barrier(() => { app.busy = false; app.shown = app.base; render(); });
      }
    });
  }

  // null when the move reached the lesson's goal, else why not (a catalogue message).
  function goalReason(goal, before, after, move) {
    const side = before.sideToMove[0];  // "w" or "b"
    const path = move.path, last = path[path.length - 1];
    const taken = jumped(path);
    switch (goal) {
      case "any": return null;
      case "capture": return taken.length ? null : t("learn.capture.wrong");
      case "multi": return taken.length >= 2 ? null : t("learn.multi.wrong");
      case "top": return taken.some((sq) => after.board[sq]) ? null : t("learn.top.wrong");
      case "free": return taken.some((sq) => after.board[sq] && after.board[sq][0].toLowerCase() === side) ? null : t("learn.free.wrong");
      case "promote": {
        const was = before.board[path[0]][0], now = after.board[last] && after.board[last][0];
        return was === was.toLowerCase() && now === now.toUpperCase() ? null : t("learn.promote.wrong");
      }
      case "back": {
        const officer = before.board[path[0]][0] === before.board[path[0]][0].toUpperCase();
        const back = side === "w" ? +last.slice(1) < +path[0].slice(1) : +last.slice(1) > +path[0].slice(1);
        return officer && back ? null : t("learn.back.wrong");
      }
      case "win": {
        const st = after.viewStatus || after.status;
        const won = st.over && st.result === (side === "w" ? "2-0" : "0-2");
        return won ? null : t("learn.win.wrong");
      }
      default: return null;
    }
  }

  // ---- The server ------------------------------------------------------------------------------
  function send(message) {
    if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(message));
  }

  // Runs `then` once the server has answered everything sent before: one socket keeps the
  // order, so the answer to a pdn.export sent now comes after those answers.
  function barrier(then) {
    app.barriers.push(then);
    send({ type: "pdn.export" });
  }

  function onMessage(e) {
    const m = JSON.parse(e.data);
    if (m.type === "state") app.latest = m;
    else if (m.type === "pdn") { const then = app.barriers.shift(); if (then) then(); }
    else if (m.type === "error") console.warn("lasca-web:", m.message);
  }

  function loadLesson(index, announce) {
    app.lesson = index;
    app.base = app.shown = null;
    app.selected = [];
    app.solved = false;
    app.busy = true;
    const lesson = LESSONS[index];
    $("lesson-title").textContent = t("learn.lesson.heading", { n: index + 1, total: LESSONS.length, title: lesson.title() });
    $("lesson-task").textContent = lesson.task();
    $("learn-next").disabled = index + 1 >= LESSONS.length;
    renderList();
    send({ type: "lfen", lfen: lesson.lfen });
    barrier(() => {
      app.busy = false;
      app.base = app.shown = app.latest;
      render();
      if (announce) say(escapeHtml(t("learn.lesson.intro", { n: index + 1, total: LESSONS.length, title: lesson.title(), task: lesson.task() })));
    });
  }

  // ---- Progress --------------------------------------------------------------------------------
  function readLocal() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (e) { return []; }
  }

  async function loadProgress() {
    const ids = new Set(readLocal());
    try {
      const r = await fetch("/api/account/progress", { credentials: "same-origin" });
      if (r.status === 200) {
        const data = await r.json();
        if (Array.isArray(data.learn)) {
          app.account = true;
          const known = new Set(data.learn);
          for (const id of known) ids.add(id);
          app.done = ids;
          if (ids.size !== known.size) saveProgress();  // lessons done as a guest join the account's
        }
      }
    } catch (e) { /* no account service: the browser keeps it */ }
    app.done = ids;
    $("learn-kept").textContent = app.account ? t("learn.kept.account") : t("learn.kept.browser");
  }

  function saveProgress() {
    const ids = [...app.done];
    if (!app.account) {
      try { localStorage.setItem(STORE, JSON.stringify(ids)); } catch (e) { /* private mode */ }
      return;
    }
    fetch("/api/account/progress", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify({ learn: ids }),
    }).catch(() => {});
  }

  function markDone(id) {
    app.done.add(id);
    saveProgress();
    renderList();
  }

  function renderList() {
    const list = $("lesson-list");
    list.innerHTML = "";
    LESSONS.forEach((lesson, i) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.lesson = lesson.id;
      const done = app.done.has(lesson.id);
      b.textContent = `${i + 1}. ${lesson.title()}`;
      if (done) {
        const mark = document.createElement("span");
        mark.className = "done-mark";
        mark.textContent = " ✓ " + t("learn.list.done");
        b.appendChild(mark);
      }
      if (i === app.lesson) b.setAttribute("aria-current", "step");
      b.addEventListener("click", () => loadLesson(i, true));
      li.appendChild(b);
      list.appendChild(li);
    });
    const count = LESSONS.filter((l) => app.done.has(l.id)).length;
    $("learn-progress").textContent = t("learn.progress", { count, total: LESSONS.length });
    renderTorneio();
  }

  // ---- The guided Torneio game ------------------------------------------------------------------
  function renderTorneio() {
    const b = $("torneio-start");
    b.textContent = t("learn.torneio.title");
    if (app.done.has(TORNEIO)) {
      const mark = document.createElement("span");
      mark.className = "done-mark";
      mark.textContent = " ✓ " + t("learn.list.done");
      b.appendChild(mark);
    }
  }

  // Makes the table (seat 1 a person, seat 2 the easy AI) and goes to the person's seat.
  function startTorneio() {
    const live = $("torneio-live");
    const button = $("torneio-start");
    button.disabled = true;
    live.textContent = t("learn.torneio.starting");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/torneio`);
    let done = false;
    const fail = (text) => {
      if (done) return;
      done = true;
      live.textContent = t("learn.torneio.failed", { message: text });
      button.disabled = false;
      ws.close();
    };
    ws.addEventListener("message", (e) => {
      const m = JSON.parse(e.data);
      if (m.type === "hello") {
        const easy = (m.aiLevels || []).findIndex((l) => l.name === "easy");
        ws.send(JSON.stringify({ type: "torneio.create", seats: [{ kind: "person" }, { kind: "ai", level: Math.max(0, easy) }], rounds: 200 }));
      } else if (m.type === "torneio.created") {
        const seat = m.seats.find((s) => s.token);
        if (!seat) { fail(""); return; }
        done = true;
        ws.close();
        location.assign(`/torneio?table=${encodeURIComponent(m.table)}&token=${encodeURIComponent(seat.token)}&guide=1`);
      } else if (m.type === "error") {
        fail(i18n.server(m));
      }
    });
    ws.addEventListener("close", () => fail(t("learn.disconnected")));
  }

  async function start() {
    renderTorneio();  // its name at once; its mark once the progress is read
    await loadProgress();
    const first = LESSONS.findIndex((l) => !app.done.has(l.id));
    app.lesson = first < 0 ? 0 : first;
    renderList();
    $("learn-board").addEventListener("keydown", onKey);
    $("learn-form").addEventListener("submit", typed);
    $("learn-again").addEventListener("click", () => loadLesson(app.lesson, true));
    $("learn-next").addEventListener("click", () => loadLesson(Math.min(app.lesson + 1, LESSONS.length - 1), true));
    $("torneio-start").addEventListener("click", startTorneio);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    app.ws = new WebSocket(`${scheme}://${location.host}/ws`);
    app.ws.addEventListener("message", onMessage);
    app.ws.addEventListener("open", () => {
      send({ type: "keep", keep: false });  // lessons are practice: no game of them is kept
      send({ type: "settings", engine: "none" });
      loadLesson(app.lesson, true);
    });
    app.ws.addEventListener("close", () => say(escapeHtml(t("learn.disconnected")), "bad"));
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
  return app;
})();
