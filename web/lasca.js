// The Lasca page: one WebSocket to lasca-web, every rule question answered by the server
// (legal moves, move texts, LFEN, PDN); this file draws, and sends what the person does: clicks,
// the board grid's keys, a move typed in the move box. Every move and status change is said in
// a polite live region (#speech), which also answers the move box's text-mode commands. Every
// word comes from the catalogue (i18n.t, web/i18n/<lang>/lasca.json).
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
    focusSquare: null,  // the board grid's square in the Tab order (the roving tabindex)
    spokenStatus: "",   // the status line last said in the live region
  };
  const t = (key, params) => window.i18n.t(key, params);
  const sideName = (side) => (side === "white" || side === "w" ? t("lasca.side.white") : t("lasca.side.black"));
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
    if (app.conn) app.conn.send(message);
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
    app.focusSquare = name;
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
    return window.confirm(t("lasca.confirm.replace", { move, count: later }));
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
      showError(t("lasca.editor.threeBlocks", { square: name }));
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

  // The board is drawn again only when what it shows changed (a state that changes only the
  // annotation's progress leaves it, and the element under a pointer or the focus, alone).
  let boardDrawn = "";
  function drawBoard() {
    if (!app.focusSquare) app.focusSquare = app.flipped ? "g7" : "a1";
    const shown = app.preview || app.state;
    const view = app.editor
      ? { board: app.editor.board, lastMove: [], flipped: app.flipped, highlights: {}, arrows: [] }
      : { board: shown.board, lastMove: shown.lastMove, flipped: app.flipped,
          highlights: app.preview ? {} : highlights(), arrows: app.preview ? [] : arrows() };
    const key = JSON.stringify([view, app.focusSquare, settings.theme, i18n.lang]);
    if (key !== boardDrawn) {
      boardDrawn = key;
      LascaBoard.draw($("board"), Object.assign(view, { onSquare, onInspect: inspect, grid: $("board-grid"), focus: app.focusSquare }));
      // A flipped board puts another square in the focused cell: the focus follows its square.
      const active = document.activeElement;
      if (active && active.classList.contains("grid-cell") && active.dataset.square !== app.focusSquare) focusSquare(app.focusSquare);
    }
    renderInspector();
    if (app.editor) {
      $("board").dataset.lfen = editorLfen();
      $("editor-lfen").textContent = editorLfen();
    } else $("board").dataset.lfen = shown.lfen;
  }

  // Moves the board's one Tab stop to a square and the focus with it.
  function focusSquare(name) {
    app.focusSquare = name;
    for (const cell of $("board-grid").querySelectorAll(".grid-cell")) {
      cell.tabIndex = cell.dataset.square === name ? 0 : -1;
      if (cell.dataset.square === name && document.activeElement !== cell) cell.focus();
    }
  }

  // The board grid's keys: arrows (and Home, End along a row) move between squares as they are
  // seen; Enter or Space picks a piece, or plays to the square; Escape drops the selection.
  function gridKeys(e) {
    const cell = e.target.closest(".grid-cell");
    if (!cell) return;
    const name = cell.dataset.square;
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      app.focusSquare = name;
      if (!app.editor && !app.preview && app.state && !app.closed && !personToMove()) {
        say(t("lasca.moveBox.notYourTurn"));
        return;
      }
      onSquare(name);
      const picked = app.selected.length ? app.selected.join("-") : "";
      if (picked && !app.editor) say(t("lasca.speech.picked", { squares: picked, count: targetsCount() }));
      return;
    }
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      if (app.selected.length) { app.selected = []; say(t("lasca.speech.dropped")); render(); }
      return;
    }
    if (!["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) return;
    e.preventDefault();
    const next = LascaBoard.gridStep($("board-grid"), name, e.key);
    if (next) focusSquare(next);
  }

  function targetsCount() {
    const h = highlights();
    return (h.targets || []).length;
  }

  // ---- The live region: moves, the status, the answers of the move box ------------------------

  // Says a text in the live region; `quiet` keeps it off the screen (the status line already
  // shows it).
  function say(text, quiet) {
    const box = $("speech");
    box.classList.toggle("visually-hidden", !!quiet);
    box.classList.remove("error-text");
    // The same words twice are still read out: the region is emptied first.
    if (box.textContent === text) box.textContent = "";
    box.textContent = text;
  }

  // The status line as plain text (what the live region says).
  function statusWords() {
    return $("status").textContent.trim();
  }

  // A new move of the game (anyone's), then the status; else the status when it changed.
  function speakState(newMove) {
    const words = statusWords();
    if (newMove) {
      const s = app.state;
      const mover = s.sideToMove === "white" ? "black" : "white";
      say(t("lasca.speech.move", { side: sideName(mover), move: s.moves[s.moves.length - 1] }) + ". " + words);
    } else if (words !== app.spokenStatus && !app.editor) {
      say(words, true);
    }
    app.spokenStatus = words;
  }

  // ---- The move box: a typed move (c3-d4, c3xe5xg7) or a text-mode command --------------------

  function shownBoard() {
    if (app.editor) return app.editor.board;
    const shown = app.preview || app.state;
    return shown ? shown.board : {};
  }

  function squareWords(name) {
    const column = shownBoard()[name];
    return column ? t("lasca.square.column", { square: name, column: LascaBoard.columnWords(column) })
                  : t("lasca.square.empty", { square: name });
  }

  const PLAYABLE = (() => {
    const names = [];
    for (let rank = 1; rank <= 7; rank++)
      for (const file of "abcdefg")
        if (("abcdefg".indexOf(file) + rank - 1) % 2 === 0) names.push(file + rank);
    return names;
  })();

  function boxAnswer(text, isError) {
    $("move-input").setAttribute("aria-invalid", isError ? "true" : "false");
    say(text);
    $("speech").classList.toggle("error-text", !!isError);
  }

  function moveBox(raw) {
    const text = raw.trim().toLowerCase().replace(/\s+/g, " ");
    if (!text) return;
    if (/^[a-g][1-7]([-x:]?[a-g][1-7])+$/.test(text)) { typedMove(text); return; }
    const [word, arg] = text.split(" ");
    const board = shownBoard();
    if (["pieces", "peças", "pecas"].includes(word) && arg) {
      const white = ["white", "w", "brancas", "branca"].includes(arg);
      if (!white && !["black", "b", "pretas", "preta", "p"].includes(arg)) { boxAnswer(t("lasca.cmd.unknown", { text: raw.trim() }), true); return; }
      const side = white ? "w" : "b";
      const squares = PLAYABLE.filter((n) => board[n] && board[n][0].toLowerCase() === side);
      const list = squares.map((n) => `${n} ${LascaBoard.columnWords(board[n])}`).join("; ");
      boxAnswer(t("lasca.cmd.pieces", { side: sideName(side), count: squares.length, list: list || "—" }));
    } else if (["file", "coluna"].includes(word) && /^[a-g]$/.test(arg || "")) {
      const list = PLAYABLE.filter((n) => n[0] === arg).map(squareWords).join("; ");
      boxAnswer(t("lasca.cmd.file", { file: arg, list }));
    } else if (["rank", "fileira", "linha"].includes(word) && /^[1-7]$/.test(arg || "")) {
      const list = PLAYABLE.filter((n) => n.slice(1) === arg).map(squareWords).join("; ");
      boxAnswer(t("lasca.cmd.rank", { rank: arg, list }));
    } else if ((["square", "casa"].includes(word) && /^[a-g][1-7]$/.test(arg || "")) || /^[a-g][1-7]$/.test(word)) {
      const name = /^[a-g][1-7]$/.test(word) ? word : arg;
      boxAnswer(PLAYABLE.includes(name) ? squareWords(name) : t("lasca.square.light", { square: name }));
    } else if (["board", "tabuleiro"].includes(word)) {
      const ranks = [];
      for (let rank = 7; rank >= 1; rank--)
        ranks.push(t("lasca.cmd.rank", { rank, list: PLAYABLE.filter((n) => n.slice(1) === String(rank)).map(squareWords).join("; ") }));
      boxAnswer(ranks.join(". "));
    } else if (["legal", "lances", "moves"].includes(word)) {
      const legal = app.state && personToMove() ? app.state.legal.map((m) => m.move) : [];
      boxAnswer(legal.length ? t("lasca.cmd.legal", { count: legal.length, list: legal.join(", ") }) : t("lasca.cmd.noLegal"));
    } else if (["status", "situação", "situacao"].includes(word)) {
      boxAnswer(statusWords());
    } else {
      boxAnswer(t("lasca.cmd.unknown", { text: raw.trim() }), true);
      return;
    }
    $("move-input").value = "";
  }

  function typedMove(text) {
    const path = text.match(/[a-g][1-7]/g);
    if (app.closed || !app.state || !personToMove()) { boxAnswer(t("lasca.moveBox.notYourTurn"), true); return; }
    const found = app.state.legal.find((m) => m.path.length === path.length && m.path.every((sq, i) => sq === path[i]));
    if (!found) {
      const legal = app.state.legal.map((m) => m.move).join(", ");
      boxAnswer(t("lasca.moveBox.illegal", { move: text, list: legal }), true);
      return;
    }
    app.selected = [];
    $("move-input").value = "";
    $("move-input").setAttribute("aria-invalid", "false");
    $("speech").classList.remove("error-text");
    if (replacesLaterMoves(found.move)) send({ type: "move", ply: app.state.ply, move: found.move });
    render();
  }

  let movesDrawn = "";
  function render() {
    const s = app.state;
    if (!s) return;
    drawBoard();
    renderStatus();
    const movesKey = JSON.stringify([s.moves, s.ply, s.tree, s.startLfen, s.annotated, s.annotated ? s.evals : null,
                                     s.marks, analysisBoard(), i18n.lang]);
    if (movesKey !== movesDrawn) { movesDrawn = movesKey; renderMoves(); }
    renderAnalysis();
    renderGraph();
    renderEvalBar();
    $("lfen-current").textContent = s.lfen;
    $("takeback").disabled = s.moves.length === 0;
    setText($("analyse"), s.analysing ? t("lasca.analysis.stop") : t("lasca.analysis.start"));
    setText($("annotate"), s.annotating ? t("lasca.annotate.cancel") : t("lasca.annotate.start"));
    $("annotate").disabled = !s.annotating && s.moves.length === 0;
    setText($("annotate-progress"), s.annotating
      ? t("lasca.annotate.progress", { done: s.annotating.done, count: s.annotating.total })
      : (s.annotated ? t("lasca.annotate.done", { count: s.marks.filter((m) => m).length }) : ""));
    $("analyse").classList.toggle("active", s.analysing);
    $("colour").value = s.engine;
    $("level").value = String(s.level);
  }

  // Writes a text only when it changed (no needless work for assistive technology).
  function setText(e, text) {
    if (e.textContent !== text) e.textContent = text;
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
      el.textContent = name ? t("lasca.clock.named", { side: sideName(side), name, time: clockText(ms) })
                            : t("lasca.clock.plain", { side: sideName(side), time: clockText(ms) });
      el.classList.toggle("running", running);
      el.classList.toggle("low", ms < 10000);
    }
  }
  function renderDuel() {
    const s = app.state;
    $("duel-bar").classList.toggle("hidden", !s.seat);
    if (!s.seat) return;
    clockAt = performance.now();
    const who = s.players && (s.players.white || s.players.black)
      ? " " + t("lasca.duel.players", { white: s.players.white || "—", black: s.players.black || "—" }) : "";
    $("duel-seat").textContent = (s.seat === "watch" ? t("lasca.duel.watching") : t("lasca.duel.youPlay", { side: sideName(s.seat) })) +
      (s.rated ? " " + t("lasca.duel.rated") : "") + who;
    const playing = s.seat !== "watch" && !s.status.over;
    $("duel-resign").disabled = !playing;
    $("duel-draw").disabled = !playing;
    $("duel-draw").textContent = s.drawOffer && s.drawOffer !== s.seat ? t("lasca.duel.acceptDraw")
      : s.drawOffer === s.seat ? t("lasca.duel.drawOffered") : t("lasca.duel.offerDraw");
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

  // The end of a game in words, from its rule and result (the rules' own endings cite their
  // rule: R9, T1, T2).
  function endText(status) {
    const white = status.result === "2-0";
    const winner = sideName(white ? "white" : "black"), loser = sideName(white ? "black" : "white");
    switch (status.rule) {
      case "R9": return t("lasca.end.noMove", { winner, loser, rule: "R9" });
      case "T1": return t("lasca.end.repetition", { rule: "T1" });
      case "T2": return t("lasca.end.noProgress", { rule: "T2" });
      case "time": return t("lasca.end.time", { loser });
      case "resign": return t("lasca.end.resign", { loser });
      case "agreement": return t("lasca.end.agreement");
      default: return window.i18n.server(status);
    }
  }

  // Writes a status text, its rule ids "(R9)" as links to their paragraph of the rules.
  function writeStatus(st, text) {
    if (st.dataset.text === text) return;
    st.dataset.text = text;
    st.textContent = "";
    const parts = text.split(/\b(R[1-9])\b/);
    parts.forEach((part, i) => {
      if (i % 2 === 0) { if (part) st.append(part); return; }
      const a = document.createElement("a");
      a.href = `/rules/lasca#${part}`;
      a.className = "rule-link";
      a.textContent = part;
      st.append(a);
    });
  }

  function statusText() {
    const s = app.state;
    if (app.editor) return t("lasca.status.editing");
    if (s.status.over && s.ply === s.moves.length)
      return t("lasca.status.gameOver", { text: endText(s.status), result: s.status.result });
    if (s.ply !== s.moves.length)
      return t("lasca.status.viewing", { ply: s.ply, total: s.moves.length }) +
        (s.viewStatus.over ? " — " + endText(s.viewStatus) : "");
    if (s.thinking) return t("lasca.status.thinking");
    const side = sideName(s.sideToMove);
    if (s.seat) return s.seat === s.sideToMove ? t("lasca.status.yourMove", { side }) : t("lasca.status.toMove", { side });
    if (s.engine === "none") return t("lasca.status.toMove", { side });
    if (s.engine !== s.sideToMove) return t("lasca.status.yourMove", { side });
    if (s.engineUnavailable)
      return s.moves.length ? t("lasca.status.engineDownTakeback", { side }) : t("lasca.status.engineDown", { side });
    return t("lasca.status.engineToMove", { side });
  }

  function renderStatus() {
    const s = app.state;
    const st = $("status");
    if (app.closed) return;  // closePage wrote why
    st.classList.toggle("over", s.status.over);
    writeStatus(st, statusText());
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
    if (!s.analysing) { info.textContent = t("lasca.analysis.idle"); return; }
    if (s.engineUnavailable) { info.textContent = t("lasca.analysis.engineDown"); return; }
    if (!a) { info.textContent = s.thinking ? t("lasca.analysis.waiting") : t("lasca.analysis.running"); return; }
    const nps = a.nps >= 1e6 ? (a.nps / 1e6).toLocaleString(i18n.lang, { maximumFractionDigits: 2 }) + " M"
                             : Math.round(a.nps / 1e3) + " k";
    info.textContent = t("lasca.analysis.info", { depth: a.depth, nps, nodes: a.nodes }) +
      (a.table ? " · " + t("lasca.analysis.table", { table: a.table }) : "");
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
        span.title = t("lasca.analysis.showAfter");
        span.dataset.ply = s.ply;
        span.dataset.pv = line.pv.slice(0, i + 1).join(" ");
        li.appendChild(span);
        li.appendChild(document.createTextNode(" "));
      });
      if (line.pv.length > shown.length) {
        const more = document.createElement("span");
        more.className = "pvmore";
        more.textContent = "…";
        more.title = t("lasca.analysis.moreMoves", { count: line.pv.length });
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

  // A level as it plays (the server's levels, weakest first); the server's name for a level
  // this page does not know.
  function levelName(i, level) {
    const names = [t("lasca.level.starter"), t("lasca.level.beginner"), t("lasca.level.novice"), t("lasca.level.casual"),
                   t("lasca.level.club"), t("lasca.level.strong"), t("lasca.level.full")];
    return names[i] || level.name;
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
          o.textContent = levelName(i, l);
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
        speakState(newMove);
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
        const links = [["white", t("lasca.side.white"), m.seats[0].token], ["black", t("lasca.side.black"), m.seats[1].token],
                       ["watch", t("lasca.friend.watch"), m.watch]];
        for (const [seat, name, token] of links) {
          const li = document.createElement("li");
          const strong = document.createElement("strong");
          strong.textContent = t("lasca.friend.seat", { seat: name });
          const a = document.createElement("a");
          a.className = "link duel-link";
          a.dataset.seat = seat;
          a.href = base + token;
          a.target = "_blank";
          a.rel = "noopener";
          a.textContent = base + token;
          li.append(strong, " ", a);
          list.appendChild(li);
        }
        break;
      }
      case "annotate":
        if (m.event === "started" || m.event === "progress")
          setText($("annotate-progress"), t("lasca.annotate.progress", { done: m.done, count: m.total }));
        if (m.event === "cancelled") setText($("annotate-progress"), t("lasca.annotate.cancelled"));
        break;
      case "preview":
        app.preview = m;
        $("preview-text").textContent = t("lasca.preview.text", { moves: m.moves.join(" ") });
        $("preview-banner").classList.remove("hidden");
        render();
        break;
      case "pdn":
        $("pdn-text").value = m.pdn;
        break;
      case "engine":
        window.pageUi.showNotice(window.i18n.server(m));
        break;
      case "lasca.left":
        // The same seat link was opened in another window: that one plays the seat now.
        closePage(t("lasca.closed.seatLeft", { text: window.i18n.server(m) }), false);
        break;
      case "error":
        showError(window.i18n.server(m));
        app.editorSent = null;  // an edited position refused: the editor stays open
        // A table link whose table or token is not known: a page that says so, alone at the
        // top (no game of its own under the table's link).
        if (tableParams() && !app.seated)
          closePage(t("lasca.closed.badLink", { message: window.i18n.server(m) }), true);
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
    st.dataset.text = "";
    st.textContent = text + " ";
    const a = document.createElement("a");
    a.href = "/";
    a.className = "link";
    a.textContent = t("lasca.closed.ownGame");
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
      if (!reply.ok) { showError(t("lasca.error.notKept", { number })); return; }
      send({ type: "settings", engine: "none" });
      send({ type: "pdn.import", pdn: await reply.text() });
    } catch (e) {
      showError(t("lasca.error.cannotRead", { number, error: String(e) }));
    }
  }

  // The connection comes back (a restart, or the table moved to another instance of the
  // server) when the page has something to come back to: a seat link or a kept game.
  function connect() {
    Object.defineProperty(app, "ws", { get: () => app.conn.ws });
    app.conn = window.pageUi.socket("/ws", { message: onMessage, open: () => {
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
    }, close: () => {
      $("status").dataset.text = "";
      $("status").textContent = t("lasca.status.disconnected");
      say(t("lasca.status.disconnected"));
    }, keep: () => {
      const url = new URL(location.href);
      return !!(tableParams() || url.searchParams.get("game"));
    } });
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
    $("duel-resign").addEventListener("click", () => { if (window.confirm(t("lasca.duel.confirmResign"))) send({ type: "resign" }); });
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
    const grid = $("board-grid");
    grid.addEventListener("keydown", gridKeys);
    grid.addEventListener("focusin", (e) => { if (e.target.dataset.square) { app.focusSquare = e.target.dataset.square; inspect(e.target.dataset.square); } });
    grid.addEventListener("focusout", () => inspect(null));
    $("move-form").addEventListener("submit", (e) => { e.preventDefault(); moveBox($("move-input").value); });
    $("pdn-export").addEventListener("click", () => send({ type: "pdn.export" }));
    $("pdn-import").addEventListener("click", () => send({ type: "pdn.import", pdn: $("pdn-text").value }));
    $("graph").addEventListener("click", (e) => {
      if (!app.state) return;
      const r = $("graph").getBoundingClientRect();
      const n = Math.max(app.state.evals.length - 1, 1);
      view(Math.round(((e.clientX - r.left) / r.width) * n));
    });
    document.addEventListener("keydown", (e) => {
      if (e.target.matches("input, textarea, select") || e.target.closest("#board-grid") || !app.state) return;
      const keys = { ArrowLeft: app.state.ply - 1, ArrowRight: app.state.ply + 1, Home: 0, End: app.state.moves.length };
      if (e.key in keys) { e.preventDefault(); view(keys[e.key]); }
      if (e.key === "Escape") { app.selected = []; closePreview(); }
    });
  }

  wire();
  connect();
})();
