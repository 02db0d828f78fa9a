// The guide of "Your first Torneio game" (a lesson of /learn): on a seat page opened with
// &guide=1 (learn.js makes the table: the person against the easy AI), a panel explains each
// thing of the game the first time it happens: the set-up, the strengths, moving, a combat, a
// combat on an empty square, a reveal, a combat's result, a reward, a king found, the end. Each
// explanation is given once, kept in the panel's list in the order things happened (the newest
// open, the earlier ones folded to their titles, to open and read again) and said in the seat's
// polite live region; the panel can be hidden (it is then silent) and shown again.
// The guide only reads: web/torneio.js dispatches "torneio:view" on the document with each
// torneio.view it receives ({view, announce}: the message, and the page's function that says a
// text in its live region), and the guide decides from the view's lines (the seat's protocol
// lines, protocol.md "Events") and fields what happened; the strengths form appearing in
// #choices is the one thing it watches on the page. The seat plays as always.
// The explanations already said for this table are kept in sessionStorage: a reload shows the
// list again without saying it again. When the game ends the lesson "torneio-first" is marked
// done as learn.js keeps progress (the account's when /api/account/progress answers 200, else
// this browser's localStorage).
"use strict";

window.torneioGuide = (() => {
  const query = new URLSearchParams(location.search);
  const guide = { on: false, steps: [], hidden: false };
  if (query.get("guide") !== "1" || !query.get("table") || !query.get("token")) return guide;
  guide.on = true;

  const t = (key, params) => window.i18n.t(key, params);
  const LESSON = "torneio-first";            // learn.js's TORNEIO
  const PROGRESS = "lasca.learn.done";       // learn.js's STORE
  const KEPT = `lasca.torneio.guide.${query.get("table")}`;
  let announce = null;                       // torneio.js's live region
  let view = null;                           // the last view
  let combatSquare = null;                   // the square of the combat in course
  let kingFound = false;                     // a king was revealed in the combat in course
  let marked = false;                        // the lesson was marked done
  const kept = readKept();                   // {said: [ids], hidden}

  function readKept() {
    try {
      const k = JSON.parse(sessionStorage.getItem(KEPT) || "{}");
      return { said: Array.isArray(k.said) ? k.said : [], hidden: !!k.hidden };
    } catch (e) {
      return { said: [], hidden: false };
    }
  }
  function writeKept() {
    try { sessionStorage.setItem(KEPT, JSON.stringify(kept)); } catch (e) { /* private mode */ }
  }
  function plain(html) {
    const d = document.createElement("div");
    d.innerHTML = html;
    return d.textContent;
  }

  // ---- The panel -------------------------------------------------------------------------------
  let list = null, body = null, toggle = null;

  function buildPanel() {
    const card = document.createElement("section");
    card.className = "card guide";
    card.id = "guide";
    card.setAttribute("aria-labelledby", "guide-title");
    const head = document.createElement("div");
    head.className = "guide-head";
    const h2 = document.createElement("h2");
    h2.id = "guide-title";
    h2.textContent = t("learn.torneio.guide.heading");
    toggle = document.createElement("button");
    toggle.type = "button";
    toggle.id = "guide-toggle";
    toggle.setAttribute("aria-controls", "guide-body");
    toggle.addEventListener("click", () => setHidden(!guide.hidden));
    head.append(h2, toggle);
    body = document.createElement("div");
    body.id = "guide-body";
    const intro = document.createElement("p");
    intro.className = "hint";
    intro.textContent = t("learn.torneio.guide.intro");
    list = document.createElement("ol");
    list.id = "guide-list";
    list.className = "guide-list";
    const back = document.createElement("p");
    back.className = "hint";
    back.innerHTML = t("learn.torneio.guide.back");
    body.append(intro, list, back);
    card.append(head, body);
    // Beside the decision: after the seat's first card, or first on the page's side.
    const panel = document.querySelector("#seat-view .panel");
    const first = panel && panel.querySelector(":scope > .card");
    if (first) first.after(card);
    else document.getElementById("seat-view").appendChild(card);
    setHidden(kept.hidden);
  }

  function setHidden(hidden) {
    guide.hidden = hidden;
    body.hidden = hidden;
    toggle.textContent = hidden ? t("learn.torneio.guide.show") : t("learn.torneio.guide.hide");
    toggle.setAttribute("aria-expanded", hidden ? "false" : "true");
    kept.hidden = hidden;
    writeKept();
  }

  // Adds the explanation `id` once: to the list, and said in the live region unless it was
  // already said for this table or the guide is hidden.
  function explain(id, title, html) {
    if (guide.steps.some((s) => s.id === id)) return;
    const text = plain(html);
    guide.steps.push({ id, title, text });
    // The newest explanation is open, the earlier ones fold to their titles (open on demand).
    for (const d of list.querySelectorAll("details")) d.open = false;
    const li = document.createElement("li");
    li.dataset.step = id;
    const details = document.createElement("details");
    details.open = true;
    const summary = document.createElement("summary");
    const h3 = document.createElement("h3");
    h3.textContent = title;
    summary.appendChild(h3);
    const p = document.createElement("p");
    p.innerHTML = html;
    details.append(summary, p);
    li.appendChild(details);
    list.appendChild(li);
    if (kept.said.includes(id)) return;
    kept.said.push(id);
    writeKept();
    if (!guide.hidden && announce) announce(t("learn.torneio.guide.say", { title, text }));
  }

  // ---- What happened ---------------------------------------------------------------------------
  const me = () => (view ? view.seat : 0);

  function explainSetup() {
    explain("setup", t("learn.torneio.setup.title"), t("learn.torneio.setup.text", { squares: (view.zone || []).join(" ") }));
  }
  function explainStrengths() {
    explain("strengths", t("learn.torneio.strengths.title"), t("learn.torneio.strengths.text", { total: view.strengthTotal }));
  }

  function onLine(line) {
    const w = line.trim().split(/\s+/);
    if (w[0] !== "event") return;
    const seat = parseInt(w[2], 10);
    const mine = seat === me();
    switch (w[1]) {
      case "setup":
        explainStrengths();
        break;
      case "turn":
        if (mine) explain("move", t("learn.torneio.move.title"), t("learn.torneio.move.text"));
        break;
      case "moved":
        explain("move", t("learn.torneio.move.title"), t("learn.torneio.move.text"));
        break;
      case "combat":
        combatSquare = w[3];
        kingFound = false;
        explain("combat", t("learn.torneio.combat.title"),
          (mine ? t("learn.torneio.combat.you", { square: w[3] }) : t("learn.torneio.combat.other", { seat, square: w[3] }))
          + " " + t("learn.torneio.combat.text"));
        break;
      case "unopposed":
        explain("unopposed", t("learn.torneio.unopposed.title"), t("learn.torneio.unopposed.text", { square: w[3] }));
        break;
      case "reveal": {
        const square = combatSquare || "";
        let what;
        if (w[3] === "king") what = mine ? t("learn.torneio.reveal.youKing", { square }) : t("learn.torneio.reveal.otherKing", { seat, square });
        else what = mine ? t("learn.torneio.reveal.you", { square, strength: w[3] }) : t("learn.torneio.reveal.other", { seat, square, strength: w[3] });
        explain("reveal", t("learn.torneio.reveal.title"), what + " " + t("learn.torneio.reveal.text"));
        if (w[3] === "king") {
          kingFound = true;
          explain("king", t("learn.torneio.king.title"),
            (mine ? t("learn.torneio.king.you", { square }) : t("learn.torneio.king.other", { seat, square })) + " " + t("learn.torneio.king.text"));
        }
        break;
      }
      case "result": {
        // A king found decides more than the combat: its explanation says what follows.
        if (kingFound) break;
        const what = w[2] === "none" ? t("learn.torneio.result.none")
          : mine ? t("learn.torneio.result.you") : t("learn.torneio.result.other", { seat });
        explain("result", t("learn.torneio.result.title"), what + " " + t("learn.torneio.result.text"));
        break;
      }
      case "gained": {
        const count = parseInt(w[3], 10) || 0;
        explain("reward", t("learn.torneio.reward.title"),
          (mine ? t("learn.torneio.reward.you", { count }) : t("learn.torneio.reward.other", { seat, count })) + " " + t("learn.torneio.reward.text"));
        break;
      }
      case "end":
        explainEnd();
        break;
    }
  }

  function explainEnd() {
    const o = view.outcome;
    let what = "";
    if (o && o.draw) what = t("learn.torneio.end.draw");
    else if (o && o.seats[0] === me()) what = t("learn.torneio.end.win");
    else if (o) what = t("learn.torneio.end.lose", { seat: o.seats[0] });
    explain("end", t("learn.torneio.end.title"), (what ? what + " " : "") + t("learn.torneio.end.text"));
    markDone();
  }

  // ---- Progress (as learn.js keeps it) ---------------------------------------------------------
  async function markDone() {
    if (marked) return;
    marked = true;
    try {
      const r = await fetch("/api/account/progress", { credentials: "same-origin" });
      if (r.status === 200) {
        const data = await r.json();
        if (Array.isArray(data.learn)) {
          const ids = data.learn.includes(LESSON) ? data.learn : [...data.learn, LESSON];
          await fetch("/api/account/progress", {
            method: "POST", credentials: "same-origin",
            headers: { "Content-Type": "application/json" }, body: JSON.stringify({ learn: ids }),
          });
          guide.marked = "account";
          return;
        }
      }
    } catch (e) { /* no account service: the browser keeps it */ }
    try {
      const ids = JSON.parse(localStorage.getItem(PROGRESS) || "[]");
      if (!ids.includes(LESSON)) ids.push(LESSON);
      localStorage.setItem(PROGRESS, JSON.stringify(ids));
    } catch (e) { /* private mode */ }
    guide.marked = "browser";
  }

  // ---- The seat's views ------------------------------------------------------------------------
  function onView(e) {
    announce = e.detail.announce;
    view = e.detail.view;
    if (!view || !view.started) return;
    if (view.linesFrom === 0) combatSquare = null;  // every line again (a reload)
    explainSetup();
    for (const line of view.lines || []) onLine(line);
    if (view.over) explainEnd();
  }

  function start() {
    buildPanel();
    document.addEventListener("torneio:view", onView);
    // The strengths form: shown once the king and the three warriors are placed by hand.
    const choices = document.getElementById("choices");
    if (choices)
      new MutationObserver(() => {
        if (view && choices.querySelector(".strengths")) explainStrengths();
      }).observe(choices, { childList: true, subtree: true });
  }
  start();
  return guide;
})();
