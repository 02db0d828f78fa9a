// The Lasca page: one WebSocket to lasca-web, every rule question answered by the server
// (legal moves, move texts, LFEN, PDN); this file only draws and sends clicks.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const MAX_PV_SHOWN = 10;  // moves of each analysis line shown
  const MARK_COLOURS = { "?!": "#d4ac0d", "?": "#e67e22", "??": "#c0392b" };
  const app = {
    ws: null,
    state: null,      // the last "state" message
    levels: [],
    selected: [],     // squares clicked so far of the move being entered
    flipped: false,
    preview: null,    // a "preview" message shown instead of the state, or null
    analysis: null,   // the last "analysis" message for the shown ply
    inspected: null,  // the square whose column the inspector shows (hover, focus or tap)
    hoverLine: null,  // the analysis line (multipv) under the pointer: its first move as an arrow
    seated: false,    // a table's seat link was joined (a state with a seat came)
    closed: null,     // why this page shows no game any more: a wrong table link, a seat taken
  };
  window.lascaApp = app;  // for the browser test

  // ---- Settings kept in the browser (localStorage): theme, move animation, move sound ---------
  const SETTINGS_KEY = "lasca.settings";
  const settings = Object.assign({ theme: "wood", animate: true, sound: false }, (() => {
    try { return JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}"); } catch (e) { return {}; }
  })());
  app.settings = settings;
  function saveSettings() {
    try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings)); } catch (e) { /* private mode */ }
  }
  LascaBoard.setTheme(settings.theme);

  // A short click for each new move (Web Audio, made on the spot: no sound file). The audio
  // context runs only while a click sounds: it is suspended after each one (no audio thread
  // kept busy between moves) and closed when the page goes away, so a reload never waits on it.
  let audio = null, audioIdle = null;
  function playMoveSound() {
    if (!settings.sound) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
      clearTimeout(audioIdle);
      audioIdle = setTimeout(() => { if (audio && audio.state === "running") audio.suspend(); }, 400);
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = 520;
      gain.gain.setValueAtTime(0.25, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.12);
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.12);
      app.soundsPlayed = (app.soundsPlayed || 0) + 1;
    } catch (e) { /* no audio */ }
  }

  window.addEventListener("pagehide", () => {
    clearTimeout(audioIdle);
    if (audio) { audio.close().catch(() => {}); audio = null; }
  });

  // The moved column slides from its first square to its last (a CSS transform transition).
  function animateLastMove(path) {
    if (!settings.animate || !path || path.length < 2) return;
    const to = path[path.length - 1];
    const group = [...document.querySelectorAll("#board g.column")].find((g) => g.dataset.square === to);
    if (!group) return;
    const a = LascaBoard.cellOrigin(path[0], app.flipped), b = LascaBoard.cellOrigin(to, app.flipped);
    group.style.transition = "none";
    group.style.transform = `translate(${a.x - b.x}px, ${a.y - b.y}px)`;
    group.getBoundingClientRect();  // the start position takes effect before the transition
    group.style.transition = "transform 0.2s ease-out";
    group.style.transform = "translate(0px, 0px)";
    app.animations = (app.animations || 0) + 1;
  }

  function send(message) {
    if (app.ws && app.ws.readyState === WebSocket.OPEN) app.ws.send(JSON.stringify(message));
  }

  const showError = window.pageUi.showError;  // ui.js

  // ---- Entering a move by clicks -------------------------------------------------------------

  function candidates() {
    const legal = app.state ? app.state.legal : [];
    return legal.filter((m) => app.selected.every((sq, i) => m.path[i] === sq));
  }

  function personToMove() {
    const s = app.state;
    if (s && s.seat) return !s.status.over && s.seat === s.sideToMove && s.ply === s.moves.length && !app.preview;
    return s && !s.viewStatus.over && s.engine !== s.sideToMove && !app.preview;
  }

  function onSquare(name) {
    inspect(name);
    if (app.editor) { editorClick(name); return; }
    if (app.preview) { closePreview(); return; }
    if (app.closed || !personToMove()) return;
    const legal = app.state.legal;
    if (app.selected.length > 0) {
      const next = candidates().filter((m) => m.path[app.selected.length] === name);
      if (next.length > 0) {
        app.selected.push(name);
        const rest = candidates();
        const complete = rest.filter((m) => m.path.length === app.selected.length);
        if (complete.length === 1 && rest.length === 1) {
          app.selected = [];
          if (replacesLaterMoves(complete[0].move))
            send({ type: "move", ply: app.state.ply, move: complete[0].move });
        }
        render();
        return;
      }
    }
    app.selected = legal.some((m) => m.path[0] === name) ? [name] : [];
    render();
  }

  // Against the engine or another person a move at an earlier position drops the rest of the
  // game: the page asks first.
  // On the analysis board it starts a variation instead: nothing is lost, nothing asked.
  function replacesLaterMoves(move) {
    const later = app.state.moves.length - app.state.ply;
    if (later <= 0 || analysisBoard()) return true;
    return window.confirm(`Playing ${move} here replaces the ${later} later move${later === 1 ? "" : "s"} ` +
      "of the game. Play it?");
  }

  // ---- The position editor -------------------------------------------------------------------
  // While it is open the board shows the position being set up: a click with a piece tool puts
  // that piece under the column on the square (the first one commands it), "top" takes the top
  // piece off, "clear" empties the square; a piece that would make a third colour block is refused
  // at once (a column is its commander's block over its prisoners'). "Play from here" sends the LFEN; the server's rules
  // core checks it (an error is shown and the editor stays open).

  const EDIT_SQUARES = (() => {
    const names = [];
    for (let rank = 7; rank >= 1; rank--)
      for (const file of "abcdefg")
        if (("abcdefg".indexOf(file) + rank - 1) % 2 === 0) names.push(file + rank);
    return names;
  })();

  function openEditor() {
    const s = app.state;
    const shown = app.preview || s;
    app.editor = { board: { ...(shown ? shown.board : {}) }, side: shown ? shown.sideToMove[0] : "w", tool: "w" };
    closePreview();
    $("editor-side").value = app.editor.side;
    $("editor").classList.remove("hidden");
    editorTool("w");
    render();
  }

  function closeEditor() {
    app.editor = null;
    $("editor").classList.add("hidden");
    render();
  }

  function editorTool(tool) {
    app.editor.tool = tool;
    for (const b of document.querySelectorAll("#editor .tool")) b.classList.toggle("active", b.dataset.tool === tool);
  }

  function editorClick(name) {
    const e = app.editor;
    const column = e.board[name] || "";
    if (e.tool === "clear") delete e.board[name];
    else if (e.tool === "top") { if (column.length > 1) e.board[name] = column.slice(1); else delete e.board[name]; }
    else if (LascaBoard.blocks(column + e.tool).length > 2) {
      showError(`${name}: a column is at most two colour blocks, its commander's pieces over the prisoners below them`);
      return;
    } else e.board[name] = column + e.tool;
    render();
  }

  function editorLfen() {
    const e = app.editor;
    const ranks = [];
    for (let rank = 7; rank >= 1; rank--)
      ranks.push(EDIT_SQUARES.filter((n) => n.slice(1) === String(rank)).map((n) => e.board[n] || "-").join(","));
    return `${ranks.join("/")} ${$("editor-side").value} 0 1`;
  }

  function highlights() {
    if (!personToMove()) return {};
    if (app.selected.length === 0)
      return { origins: [...new Set(app.state.legal.map((m) => m.path[0]))] };
    const targets = candidates()
      .filter((m) => m.path.length > app.selected.length)
      .map((m) => m.path[app.selected.length]);
    return { selected: app.selected, targets: [...new Set(targets)] };
  }

  // ---- Drawing ---------------------------------------------------------------------------------

  function drawBoard() {
    if (app.editor) {
      LascaBoard.draw($("board"), { board: app.editor.board, lastMove: [], flipped: app.flipped, onSquare, onInspect: inspect });
      renderInspector();
      $("board").dataset.lfen = editorLfen();
      $("editor-lfen").textContent = editorLfen();
      return;
    }
    const shown = app.preview || app.state;
    LascaBoard.draw($("board"), {
      board: shown.board, lastMove: shown.lastMove, flipped: app.flipped,
      highlights: app.preview ? {} : highlights(), arrows: app.preview ? [] : arrows(), onSquare,
      onInspect: inspect,
    });
    renderInspector();
    $("board").dataset.lfen = shown.lfen;
  }

  function render() {
    const s = app.state;
    if (!s) return;
    drawBoard();
    renderStatus();
    renderMoves();
    renderAnalysis();
    renderGraph();
    renderEvalBar();
    $("lfen-current").textContent = s.lfen;
    $("takeback").disabled = s.moves.length === 0;
    $("analyse").textContent = s.analysing ? "Stop analysis" : "Start analysis";
    $("annotate").textContent = s.annotating ? "Cancel annotation" : "Annotate the game";
    $("annotate").disabled = !s.annotating && s.moves.length === 0;
    $("annotate-progress").textContent = s.annotating
      ? `Annotating: ${s.annotating.done} of ${s.annotating.total} positions…`
      : (s.annotated ? `Annotated: ${s.marks.filter((m) => m).length} moves marked ?! ? or ??` : "");
    $("analyse").classList.toggle("active", s.analysing);
    $("colour").value = s.engine;
    $("level").value = String(s.level);
  }

  // ---- A table for two people: seat, clocks, resign and draw ---------------------------------

  let clockTimer = null;
  let clockAt = 0;  // when the last state came (the clocks tick from it)
  function clockText(ms) {
    const t = Math.max(0, Math.ceil(ms / 1000));
    return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, "0")}`;
  }
  function renderClocks() {
    const s = app.state;
    if (!s || !s.clock) return;
    for (const side of ["white", "black"]) {
      const running = s.clock.running === side;
      const ms = s.clock[side] - (running ? performance.now() - clockAt : 0);
      const el = $(`clock-${side}`);
      const name = s.players && s.players[side];
      el.textContent = `${side === "white" ? "White" : "Black"}${name ? ` (${name})` : ""} ${clockText(ms)}`;
      el.classList.toggle("running", running);
      el.classList.toggle("low", ms < 10000);
    }
  }
  function renderDuel() {
    const s = app.state;
    $("duel-bar").classList.toggle("hidden", !s.seat);
    if (!s.seat) return;
    clockAt = performance.now();
    const who = s.players && (s.players.white || s.players.black) ? ` White: ${s.players.white || "—"}, Black: ${s.players.black || "—"}.` : "";
    $("duel-seat").textContent = (s.seat === "watch" ? "You are watching." : `You play ${s.seat === "white" ? "White" : "Black"}.`) +
      (s.rated ? " Rated." : "") + who;
    const playing = s.seat !== "watch" && !s.status.over;
    $("duel-resign").disabled = !playing;
    $("duel-draw").disabled = !playing;
    $("duel-draw").textContent = s.drawOffer && s.drawOffer !== s.seat ? "Accept the draw" : s.drawOffer === s.seat ? "Draw offered" : "Offer a draw";
    $("clock-white").classList.toggle("hidden", !s.clock);
    $("clock-black").classList.toggle("hidden", !s.clock);
    renderClocks();
    if (!clockTimer && s.clock) clockTimer = setInterval(renderClocks, 200);
  }

  // ---- The column inspector and the arrows --------------------------------------------------

  function inspect(name) {
    if (app.inspected === name) return;
    app.inspected = name;
    renderInspector();
  }

  // The inspected column top to bottom, in words (board.js describeColumn); hidden for an empty
  // square or none.
  function renderInspector() {
    const box = $("inspector");
    const shown = app.preview || app.state;
    const board = app.editor ? app.editor.board : shown && shown.board;
    const column = app.inspected && board ? board[app.inspected] : null;
    box.classList.toggle("hidden", !column);
    if (!column) return;
    const d = LascaBoard.describeColumn(column);
    box.innerHTML = "";
    const head = document.createElement("div");
    head.className = "inspector-head";
    head.textContent = `${app.inspected}: ${d.summary}`;
    box.appendChild(head);
    const list = document.createElement("ol");
    for (const line of d.pieces) {
      const li = document.createElement("li");
      li.textContent = line.replace(/^\d+\. /, "");
      list.appendChild(li);
    }
    box.appendChild(list);
    box.dataset.square = app.inspected;
    // Over the half of the board away from the column, so that it never hides it.
    box.classList.toggle("at-top", LascaBoard.cellOrigin(app.inspected, app.flipped).y > 300);
  }

  // The squares of a move text ("c3-d4", "d2xb4xd6").
  const movePath = (text) => text.split(/[-x]/);

  // The analysis' best move (first line), and the hovered line's first move.
  function arrows() {
    const s = app.state;
    const a = app.analysis && s && s.analysing && app.analysis.ply === s.ply ? app.analysis : null;
    if (!a || !a.lines.length) return [];
    const out = [];
    const best = a.lines[0];
    if (best.pv.length) out.push({ path: movePath(best.pv[0]), colour: "#2e6fba", cls: "arrow best" });
    const hovered = a.lines.find((l) => l.multipv === app.hoverLine);
    if (hovered && hovered !== best && hovered.pv.length)
      out.push({ path: movePath(hovered.pv[0]), colour: "#9b59b6", cls: "arrow hovered" });
    return out;
  }

  function renderStatus() {
    const s = app.state;
    const st = $("status");
    if (app.closed) return;  // closePage wrote why
    st.classList.toggle("over", s.status.over);
    if (app.editor) { st.textContent = "Editing a position: click the squares to set it up"; return; }
    if (s.status.over && s.ply === s.moves.length) {
      st.textContent = `Game over — ${s.status.text} (${s.status.result})`;
    } else if (s.ply !== s.moves.length) {
      st.textContent = `Viewing move ${s.ply} of ${s.moves.length}` + (s.viewStatus.over ? ` — ${s.viewStatus.text}` : "");
    } else if (s.thinking) {
      st.textContent = "The engine is thinking…";
    } else if (s.seat) {
      const side = s.sideToMove === "white" ? "White" : "Black";
      st.textContent = s.seat === s.sideToMove ? `Your move (${side})` : `${side} to move`;
    } else {
      const side = s.sideToMove === "white" ? "White" : "Black";
      if (s.engine === "none") st.textContent = `${side} to move`;
      else if (s.engine !== s.sideToMove) st.textContent = `Your move (${side})`;
      else if (s.engineUnavailable)
        st.textContent = `The engine is unavailable, so it cannot play ${side}'s move: retry it, ` +
          (s.moves.length ? "take back your move, " : "") + "or choose \"Both sides\" to play on yourself.";
      else st.textContent = `${side} to move (the engine)`;
    }
    $("engine-down").classList.toggle("hidden", !s.engineUnavailable);
    window.pageUi.placeToast();
    st.dataset.over = s.status.over ? "true" : "false";
    st.dataset.result = s.status.result;
    st.dataset.rule = s.status.rule;
  }

  function startsWithBlack() {
    return app.state.startLfen.split(" ")[1] === "b";
  }

  // The game's tree from the state's "tree" (a line: moves, comments, variations at a move's
  // index, each a line of the same shape) as nodes: {move, comment, children}, children[0] the
  // main continuation.
  function treeNodes(line, parent) {
    const root = parent || { move: null, children: [] };
    const chain = [root];
    let node = root;
    line.moves.forEach((move, i) => {
      let next = node.children.find((c) => c.move === move);
      if (!next) { next = { move, comment: (line.comments || [])[i] || "", children: [] }; node.children.push(next); }
      node = next;
      chain.push(node);
    });
    for (const v of line.variations || []) treeNodes(v.line, chain[v.at]);
    return root;
  }

  // Analysis board: people play both sides (no engine, not a two-person table).
  function analysisBoard() {
    return app.state && !app.state.seat && app.state.engine === "none";
  }

  // A variation's moves as clickable items: the alternative and its main continuation. `line`
  // is the shown line's moves before it; ply the index of the alternative's move.
  function variationItem(line, alt, ply, startMove, offset) {
    const li = document.createElement("li");
    li.className = "var";
    li.append("(");
    let node = alt, path = line.concat([alt.move]), slot = ply + offset;
    let first = true;
    while (node) {
      const span = document.createElement("span");
      span.className = "vmv";
      const number = slot % 2 === 0 ? `${startMove + slot / 2}. ` : (first ? `${startMove + (slot - 1) / 2}… ` : "");
      span.textContent = number + node.move;
      const target = path.slice();
      span.dataset.line = JSON.stringify(target);
      span.addEventListener("click", () => send({ type: "line", moves: target }));
      li.append(span);
      if (node.comment) { const c = document.createElement("em"); c.textContent = ` ${node.comment}`; li.append(c); }
      if (node.children.length > 1) li.append(" …");
      node = node.children[0];
      if (node) path = path.concat([node.move]);
      slot += 1;
      first = false;
    }
    li.append(")");
    return li;
  }

  function renderMoves() {
    const s = app.state;
    const list = $("moves");
    list.innerHTML = "";
    const startMove = parseInt(s.startLfen.split(" ")[3] || "1", 10) || 1;
    let offset = startsWithBlack() ? 1 : 0;
    const root = s.tree ? treeNodes(s.tree) : null;
    let node = root;
    const cells = [];
    if (offset === 1) cells.push({ num: `${startMove}.` }, { text: "…" });
    s.moves.forEach((m, i) => {
      const slot = i + offset;
      if (slot % 2 === 0) cells.push({ num: `${startMove + slot / 2}.` });
      const alternatives = node ? node.children.filter((c) => c.move !== m) : [];
      node = node ? node.children.find((c) => c.move === m) : null;
      cells.push({ text: m, ply: i + 1, mark: (s.marks || [])[i] || "", eval: s.evals[i + 1],
                   comment: node ? node.comment : "" });
      if (alternatives.length === 0) return;
      for (const alt of alternatives) cells.push({ variation: variationItem(s.moves.slice(0, i), alt, i, startMove, offset) });
      if (slot % 2 === 0 && i + 1 < s.moves.length) cells.push({ num: `${startMove + slot / 2}.` }, { text: "…" });
    });
    for (const c of cells) {
      if (c.variation) { list.appendChild(c.variation); continue; }
      const li = document.createElement("li");
      if (c.num) { li.className = "num"; li.textContent = c.num; }
      else {
        li.textContent = c.text + (c.mark || "");
        if (c.mark) li.style.color = MARK_COLOURS[c.mark];
        if (c.ply && s.annotated && c.eval !== null && c.eval !== undefined) {
          const ev = document.createElement("small");
          ev.className = "ev";
          ev.textContent = " " + evalText(c.eval);
          li.appendChild(ev);
        }
        if (c.comment) li.title = c.comment;
        if (c.ply) {
          li.className = "mv" + (c.ply === s.ply ? " current" : "");
          li.dataset.ply = c.ply;
          li.addEventListener("click", () => view(c.ply));
        }
      }
      list.appendChild(li);
    }
    const current = list.querySelector(".current");
    if (current) scrollWithin(list, current);
    // Promote and delete act on the move shown (the analysis board keeps variations).
    const shownLine = s.moves.slice(0, s.ply);
    let parent = root;
    for (const m of shownLine.slice(0, -1)) parent = parent && parent.children.find((c) => c.move === m);
    const isVariation = parent && s.ply > 0 && parent.children[0].move !== shownLine[shownLine.length - 1];
    $("var-tools").hidden = !analysisBoard() || !root || root.children.length === 0;
    $("var-promote").disabled = !isVariation;
    $("var-delete").disabled = s.ply === 0;
  }

  // Scrolls the list's own box so that the item is in it; the page itself stays where it is
  // (scrollIntoView would scroll the page too, and on a phone take the board off the screen).
  function scrollWithin(list, item) {
    const box = list.getBoundingClientRect(), r = item.getBoundingClientRect();
    if (r.top < box.top) list.scrollTop -= box.top - r.top;
    else if (r.bottom > box.bottom) list.scrollTop += r.bottom - box.bottom;
  }

  // White's score in soldiers ("+0.35"), or a mate's sign.
  function evalText(cp) {
    if (Math.abs(cp) >= 10000) return cp > 0 ? "+#" : "-#";
    return (cp > 0 ? "+" : "") + (cp / 100).toFixed(2);
  }

  function scoreText(line) {
    if (line.score.mate !== undefined) return `#${line.score.mate}`;
    const white = line.white / 100;
    return (white > 0 ? "+" : "") + white.toFixed(2);
  }

  // The lines are not redrawn while the pointer is over them (a click on a move must not lose
  // its element to the next engine report) nor more often than every 250 ms.
  let linesFrozen = false;
  let linesTimer = null;
  let linesDrawnAt = 0;
  function renderAnalysis() {
    if (linesFrozen) return;
    const wait = 250 - (performance.now() - linesDrawnAt);
    if (wait > 0) {
      if (!linesTimer) linesTimer = setTimeout(() => { linesTimer = null; renderAnalysis(); }, wait);
      return;
    }
    linesDrawnAt = performance.now();
    drawAnalysis();
  }

  function drawAnalysis() {
    const s = app.state;
    const a = app.analysis && app.analysis.ply === s.ply ? app.analysis : null;
    const info = $("analysis-info");
    const lines = $("lines");
    lines.innerHTML = "";
    if (!s.analysing) { info.textContent = "Engine idle."; return; }
    if (s.engineUnavailable) { info.textContent = "No analysis: the engine is unavailable until you retry it."; return; }
    if (!a) { info.textContent = s.thinking ? "Waiting for the engine's move…" : "Analysing…"; return; }
    const nps = a.nps >= 1e6 ? (a.nps / 1e6).toFixed(2) + " M" : Math.round(a.nps / 1e3) + " k";
    info.textContent = `Depth ${a.depth} · ${nps} nodes/s · ${a.nodes.toLocaleString("en")} nodes` +
      (a.table ? ` · ${a.table}: the table` : "");
    for (const line of a.lines) {
      const li = document.createElement("li");
      li.dataset.multipv = line.multipv;
      li.addEventListener("mouseenter", () => { app.hoverLine = line.multipv; drawBoard(); });
      li.addEventListener("mouseleave", () => { app.hoverLine = null; drawBoard(); });
      const score = document.createElement("span");
      score.className = "score";
      score.textContent = scoreText(line);
      li.appendChild(score);
      // The first moves of the line only: a full principal variation (often 30 moves and
      // more) would push the rest of the panel off the screen.
      const shown = line.pv.slice(0, MAX_PV_SHOWN);
      shown.forEach((mv, i) => {
        const span = document.createElement("span");
        span.className = "pvmove";
        span.textContent = mv;
        span.title = "Show the position after this move";
        span.dataset.ply = s.ply;
        span.dataset.pv = line.pv.slice(0, i + 1).join(" ");
        li.appendChild(span);
        li.appendChild(document.createTextNode(" "));
      });
      if (line.pv.length > shown.length) {
        const more = document.createElement("span");
        more.className = "pvmore";
        more.textContent = "…";
        more.title = `${line.pv.length} moves in all`;
        li.appendChild(more);
      }
      lines.appendChild(li);
    }
  }

  function barFraction(cp) {
    return 1 / (1 + Math.exp(-cp / 250));
  }

  function renderEvalBar() {
    const s = app.state;
    let cp = s.evals[s.ply];
    const a = app.analysis && app.analysis.ply === s.ply && s.analysing ? app.analysis : null;
    if (a && a.lines.length) cp = a.lines[0].white;
    const known = cp !== null && cp !== undefined;
    const white = known ? barFraction(cp) : 0.5;
    $("evalbar-black").style.height = `${((1 - white) * 100).toFixed(1)}%`;
    $("evalbar-text").textContent = known ? (Math.abs(cp) >= 10000 ? (cp > 0 ? "+M" : "-M") : (cp / 100).toFixed(2)) : "–";
  }

  function renderGraph() {
    const s = app.state;
    const svg = $("graph");
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const W = 360, H = 120, n = Math.max(s.evals.length - 1, 1);
    const x = (i) => (i / n) * W;
    const y = (cp) => H * (1 - barFraction(cp));
    LascaBoard.el("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: "#c9bba3", "stroke-dasharray": "4 3" }, svg);
    const pts = [];
    s.evals.forEach((cp, i) => { if (cp !== null) pts.push(`${x(i).toFixed(1)},${y(cp).toFixed(1)}`); });
    if (pts.length > 1)
      LascaBoard.el("polyline", { points: pts.join(" "), fill: "none", stroke: "#8b5a2b", "stroke-width": 2 }, svg);
    s.evals.forEach((cp, i) => {
      if (cp !== null) LascaBoard.el("circle", { cx: x(i), cy: y(cp), r: 2.5, fill: "#8b5a2b" }, svg);
    });
    // The marked moves: a coloured dot at the position after each (?! yellow, ? orange, ?? red).
    (s.marks || []).forEach((mark, i) => {
      const cp = s.evals[i + 1];
      if (!mark || cp === null || cp === undefined) return;
      LascaBoard.el("circle", { cx: x(i + 1), cy: y(cp), r: 4.5, fill: MARK_COLOURS[mark], stroke: "#fff", class: "mark", "data-mark": mark }, svg);
    });
    LascaBoard.el("line", { x1: x(s.ply), y1: 0, x2: x(s.ply), y2: H, stroke: "#3e7c59", "stroke-width": 2 }, svg);
  }

  // ---- Actions ---------------------------------------------------------------------------------

  function view(ply) {
    const s = app.state;
    if (!s) return;
    ply = Math.max(0, Math.min(s.moves.length, ply));
    app.preview = null;
    $("preview-banner").classList.add("hidden");
    if (ply !== s.ply) send({ type: "view", ply });
  }

  function closePreview() {
    app.preview = null;
    $("preview-banner").classList.add("hidden");
    render();
  }

  function onMessage(event) {
    const m = JSON.parse(event.data);
    switch (m.type) {
      case "hello":
        app.levels = m.levels;
        $("level").innerHTML = "";
        m.levels.forEach((l, i) => {
          const o = document.createElement("option");
          o.value = String(i);
          o.textContent = l.random
            ? `${l.name} (${l.nodes.toLocaleString("en")} nodes, ${l.random}% random)`
            : `${l.name} (${l.nodes.toLocaleString("en")} nodes)`;
          $("level").appendChild(o);
        });
        break;
      case "state":
        // A selection belongs to one position of one game.
        if (!app.state || app.state.gameId !== m.gameId || app.state.lfen !== m.lfen || app.state.ply !== m.ply ||
            app.state.moves.length !== m.moves.length)
          app.selected = [];
        if (app.state && (app.state.ply !== m.ply || app.state.lfen !== m.lfen)) {
          app.preview = null;
          $("preview-banner").classList.add("hidden");
        }
        const newMove = app.state && m.gameId === app.state.gameId && m.moves.length === app.state.moves.length + 1 &&
          m.ply === m.moves.length;
        // A seat taken (or changed) shows the board from that seat's side; Flip still turns it.
        if (m.seat !== (app.state ? app.state.seat : undefined)) app.flipped = m.seat === "black";
        app.state = m;
        if (app.editorSent && m.moves.length === 0) {  // the edited position was accepted
          app.editorSent = null;
          app.editor = null;
          $("editor").classList.add("hidden");
        }
        if (m.seat) app.seated = true;
        if (!m.seat) rememberGame(m);
        renderDuel();
        if (app.analysis && app.analysis.ply !== m.ply) app.analysis = null;
        render();
        if (newMove) { animateLastMove(m.lastMove); playMoveSound(); }
        break;
      case "analysis": {
        const before = JSON.stringify(arrows());
        app.analysis = m;
        if (app.state) {
          renderAnalysis();
          renderEvalBar();
          if (JSON.stringify(arrows()) !== before) drawBoard();  // a new best move
        }
        break;
      }
      case "lasca.created": {
        const list = $("friend-links");
        list.innerHTML = "";
        const base = `${location.origin}/?table=${m.table}&token=`;
        const links = [["White", m.seats[0].token], ["Black", m.seats[1].token], ["Watch", m.watch]];
        for (const [name, token] of links) {
          const li = document.createElement("li");
          li.innerHTML = `<strong>${name}:</strong> <a class="link duel-link" data-seat="${name.toLowerCase()}" href="${base}${token}" target="_blank" rel="noopener">${base}${token}</a>`;
          list.appendChild(li);
        }
        break;
      }
      case "annotate":
        if (m.event === "started" || m.event === "progress")
          $("annotate-progress").textContent = `Annotating: ${m.done} of ${m.total} positions…`;
        if (m.event === "cancelled") $("annotate-progress").textContent = "Annotation cancelled.";
        break;
      case "preview":
        app.preview = m;
        $("preview-text").textContent = `Preview: ${m.moves.join(" ")}`;
        $("preview-banner").classList.remove("hidden");
        render();
        break;
      case "pdn":
        $("pdn-text").value = m.pdn;
        break;
      case "engine":
        window.pageUi.showNotice(m.text);
        break;
      case "lasca.left":
        // The same seat link was opened in another window: that one plays the seat now.
        closePage(`This window no longer holds the seat: ${m.text}. Reload to take it back.`, false);
        break;
      case "error":
        showError(m.message);
        app.editorSent = null;  // an edited position refused: the editor stays open
        // A table link whose table or token is not known: a page that says so, alone at the
        // top (no game of its own under the table's link).
        if (tableParams() && !app.seated)
          closePage(`This table link opens nothing: ${m.message}.`, true);
        break;
    }
  }

  function tableParams() {
    const q = new URLSearchParams(location.search);
    return q.get("table") && q.get("token") ? { table: q.get("table"), token: q.get("token") } : null;
  }

  // The page plays no more: the status line says why (with a way to a game of one's own);
  // `alone` hides the board and the panels, else the last position stays in view.
  function closePage(text, alone) {
    app.closed = text;
    app.selected = [];
    if (clockTimer) { clearInterval(clockTimer); clockTimer = null; }
    $("duel-resign").disabled = true;
    $("duel-draw").disabled = true;
    document.querySelector("main.layout").classList.toggle("closed-alone", alone);
    render();
    const st = $("status");
    st.textContent = text + " ";
    const a = document.createElement("a");
    a.href = "/";
    a.className = "link";
    a.textContent = "Play a game of your own";
    st.appendChild(a);
    st.dataset.closed = alone ? "link" : "seat";
  }

  // The game's id in the page's address (?game=ID) once the server keeps the game (from its
  // first move or a set position), so that a reload rejoins it; a game not kept yet leaves no
  // id behind. A seat link's address stays the seat link.
  function rememberGame(state) {
    const url = new URL(location.href);
    if (url.searchParams.get("table")) return;
    const id = state.kept ? state.gameId : null;
    if (url.searchParams.get("game") === id) return;
    if (id) url.searchParams.set("game", id);
    else if (url.searchParams.has("game")) url.searchParams.delete("game");
    else return;
    history.replaceState(null, "", url);
  }

  // /?view=N (a game of the games page): a copy of kept game N on the analysis board, people
  // playing both sides; the address then names the copy (?game=ID) as for any game.
  async function openKeptGame(number, url) {
    url.searchParams.delete("view");
    history.replaceState(null, "", url);
    try {
      const reply = await fetch(number.startsWith("table-") ? `/games/table/${number.slice(6)}.pdn` : `/games/lasca/${number}.pdn`);
      if (!reply.ok) { showError(`game ${number} is not kept on this server`); return; }
      send({ type: "settings", engine: "none" });
      send({ type: "pdn.import", pdn: await reply.text() });
    } catch (e) {
      showError(`cannot read game ${number}: ${e}`);
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    app.ws = new WebSocket(`${scheme}://${location.host}/ws`);
    app.ws.addEventListener("message", onMessage);
    app.ws.addEventListener("open", () => {
      const url = new URL(location.href);
      const id = url.searchParams.get("game");
      const view = url.searchParams.get("view");
      const link = tableParams();
      if (link) {
        send({ type: "lasca.join", table: link.table, token: link.token });
      } else if (view && /^(table-)?[0-9]{1,18}$/.test(view)) {
        openKeptGame(view, url);
      } else if (id) {
        send({ type: "join", gameId: id });
      }
    });
    app.ws.addEventListener("close", () => {
      $("status").textContent = "Disconnected from the server: reload the page to play again.";
    });
  }

  function wire() {
    $("new-game").addEventListener("click", () => {
      app.analysis = null;
      send({ type: "new", engine: $("colour").value, level: parseInt($("level").value, 10) });
    });
    $("colour").addEventListener("change", () => send({ type: "settings", engine: $("colour").value }));
    $("level").addEventListener("change", () => send({ type: "settings", level: parseInt($("level").value, 10) }));
    $("flip").addEventListener("click", () => { app.flipped = !app.flipped; render(); });
    $("takeback").addEventListener("click", () => send({ type: "takeback" }));
    $("engine-retry").addEventListener("click", () => send({ type: "retry" }));
    $("nav-first").addEventListener("click", () => view(0));
    $("nav-prev").addEventListener("click", () => app.state && view(app.state.ply - 1));
    $("nav-next").addEventListener("click", () => app.state && view(app.state.ply + 1));
    $("nav-last").addEventListener("click", () => app.state && view(app.state.moves.length));
    $("analyse").addEventListener("click", () => {
      if (!app.state) return;
      send({ type: "analyse", on: !app.state.analysing, multipv: parseInt($("multipv").value, 10) });
    });
    $("multipv").addEventListener("change", () => {
      if (app.state && app.state.analysing)
        send({ type: "analyse", on: true, multipv: parseInt($("multipv").value, 10) });
    });
    $("friend-create").addEventListener("click", () => {
      const v = $("friend-clock").value;
      const [time, increment] = v ? v.split("/").map((x) => parseInt(x, 10)) : [0, 0];
      send({ type: "lasca.create", clock: v ? { time, increment } : null, rated: $("friend-rated").checked });
    });
    $("var-promote").addEventListener("click", () => send({ type: "promote", moves: app.state.moves.slice(0, app.state.ply) }));
    $("var-delete").addEventListener("click", () => send({ type: "delete", moves: app.state.moves.slice(0, app.state.ply) }));
    $("duel-resign").addEventListener("click", () => { if (window.confirm("Resign this game?")) send({ type: "resign" }); });
    $("duel-draw").addEventListener("click", () => {
      const s = app.state;
      if (s && s.drawOffer !== s.seat) send({ type: "draw", offer: true });
    });
    $("theme").value = settings.theme;
    $("animate").checked = settings.animate;
    $("sound").checked = settings.sound;
    $("theme").addEventListener("change", () => { settings.theme = $("theme").value; LascaBoard.setTheme(settings.theme); saveSettings(); render(); });
    $("animate").addEventListener("change", () => { settings.animate = $("animate").checked; saveSettings(); });
    $("sound").addEventListener("change", () => { settings.sound = $("sound").checked; saveSettings(); if (settings.sound) playMoveSound(); });
    $("annotate").addEventListener("click", () => {
      if (!app.state) return;
      if (app.state.annotating) send({ type: "annotate", cancel: true });
      else send({ type: "annotate", nodes: parseInt($("annotate-nodes").value, 10) });
    });
    $("preview-close").addEventListener("click", closePreview);
    $("lines").addEventListener("click", (e) => {
      const span = e.target.closest(".pvmove");
      if (span) send({ type: "preview", ply: parseInt(span.dataset.ply, 10), moves: span.dataset.pv.split(" ") });
    });
    $("lines").addEventListener("mouseenter", () => { linesFrozen = true; });
    $("lines").addEventListener("mouseleave", () => { linesFrozen = false; renderAnalysis(); });
    $("lfen-load").addEventListener("click", () => send({ type: "lfen", lfen: $("lfen-input").value.trim() }));
    $("lfen-input").addEventListener("keydown", (e) => { if (e.key === "Enter") $("lfen-load").click(); });
    $("edit-position").addEventListener("click", openEditor);
    $("editor-cancel").addEventListener("click", closeEditor);
    $("editor-side").addEventListener("change", render);
    for (const b of document.querySelectorAll("#editor .tool")) b.addEventListener("click", () => editorTool(b.dataset.tool));
    $("editor-empty").addEventListener("click", () => { app.editor.board = {}; render(); });
    $("editor-start").addEventListener("click", () => {
      app.editor.board = {};
      for (const n of EDIT_SQUARES) {
        const rank = parseInt(n.slice(1), 10);
        if (rank >= 5) app.editor.board[n] = "b";
        if (rank <= 3) app.editor.board[n] = "w";
      }
      $("editor-side").value = "w";
      render();
    });
    $("editor-play").addEventListener("click", () => {
      app.editorSent = editorLfen();
      send({ type: "lfen", lfen: app.editorSent });
    });
    $("pdn-export").addEventListener("click", () => send({ type: "pdn.export" }));
    $("pdn-import").addEventListener("click", () => send({ type: "pdn.import", pdn: $("pdn-text").value }));
    $("graph").addEventListener("click", (e) => {
      if (!app.state) return;
      const r = $("graph").getBoundingClientRect();
      const n = Math.max(app.state.evals.length - 1, 1);
      view(Math.round(((e.clientX - r.left) / r.width) * n));
    });
    document.addEventListener("keydown", (e) => {
      if (e.target.matches("input, textarea, select") || !app.state) return;
      const keys = { ArrowLeft: app.state.ply - 1, ArrowRight: app.state.ply + 1, Home: 0, End: app.state.moves.length };
      if (e.key in keys) { e.preventDefault(); view(keys[e.key]); }
      if (e.key === "Escape") { app.selected = []; closePreview(); }
    });
  }

  wire();
  connect();
})();
