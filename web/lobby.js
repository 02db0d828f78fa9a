// The lobby page: the account box (sign up, sign in, sign out) and the lobby's WebSocket
// (/ws/lobby, protocol.md "The lobby"): open seeks, challenges, Torneio tables gathering people
// and the public games being played, each list kept as the server tells it. When a game starts
// for this tab (`lobby.start`), the page opens the seat's link.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const lobby = { ws: null, you: null, seeks: new Map(), offers: new Map(), challenges: new Map(), games: new Map(), reasons: [] };

  const say = (text) => { $("lobby-status").textContent = text; };
  const clockText = (clock) => clock ? `${clock.time / 60000} min + ${clock.increment / 1000} s` : "no clock";
  const modeText = (x) => `${x.rated ? "rated" : "casual"} ${x.speed}`;
  const ratingText = (r) => r ? `${r.rating}${r.provisional ? "?" : ""}` : "";
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  const button = (text, onClick, label) => {
    const b = el("button", text);
    b.type = "button";
    if (label) b.setAttribute("aria-label", label);
    b.addEventListener("click", onClick);
    return b;
  };
  const send = (m) => { if (lobby.ws && lobby.ws.readyState === WebSocket.OPEN) lobby.ws.send(JSON.stringify(m)); };

  function chosenClock() {
    const v = $("seek-clock").value;
    if (!v) return null;
    const [time, increment] = v.split("/").map(Number);
    return { time, increment };
  }
  const speedOf = (clock) => {
    if (!clock) return "correspondence";
    const t = clock.time / 1000 + 40 * (clock.increment / 1000);
    return t < 180 ? "bullet" : t < 480 ? "blitz" : t < 1500 ? "rapid" : "classical";
  };

  // ---- the account box --------------------------------------------------------------------
  function showAccount() {
    const name = lobby.you && lobby.you.name;
    $("signed-in").hidden = !name;
    $("account-form").hidden = !!name;
    $("seek-rated").disabled = !name;
    $("offer-rated").disabled = !name;
    $("seek-range").disabled = !name;
    $("challenge-create").disabled = !name;
    if (!name) {
      $("seek-rated").checked = false;
      $("offer-rated").checked = false;
      $("seek-range").value = "";
      return;
    }
    $("me-name").textContent = name;
    $("me-link").href = `/@/${encodeURIComponent(name)}`;
    const parts = Object.entries(lobby.you.ratings || {}).map(([c, r]) => `${c} ${ratingText(r)}`);
    $("me-ratings").textContent = parts.length ? `(${parts.join(", ")})` : "(no rated game yet)";
  }

  async function account(path, body) {
    $("account-error").textContent = "";
    try {
      const response = await fetch(path, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(body || {}), credentials: "same-origin",
      });
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) {
        $("account-error").textContent = answer.error || `the server answered ${response.status}`;
        return false;
      }
      connect();  // the WebSocket learns the new session when it opens again
      return true;
    } catch (e) {
      $("account-error").textContent = "the server cannot be reached";
      return false;
    }
  }
  const credentials = () => ({ name: $("account-name").value.trim(), password: $("account-password").value });
  $("account-form").addEventListener("submit", (e) => { e.preventDefault(); account("/api/signin", credentials()); });
  $("signup").addEventListener("click", () => account("/api/signup", credentials()));
  $("signout").addEventListener("click", () => account("/api/signout", {}));

  // ---- the lists --------------------------------------------------------------------------
  function renderSeeks() {
    const body = $("seeks");
    body.replaceChildren();
    for (const s of lobby.seeks.values()) {
      const row = el("tr");
      if (s.mine) row.className = "mine";
      row.dataset.seek = s.id;
      row.append(el("td", s.maker || "guest"), el("td", ratingText(s.makerRating)),
        el("td", clockText(s.clock)), el("td", modeText(s) + (s.range ? ` (${s.range[0]}-${s.range[1]})` : "")));
      const action = el("td");
      const who = s.maker || "a guest";
      if (s.mine) action.append(button("Cancel", () => send({ type: "seek.cancel", seek: s.id }), `Cancel my seek, ${clockText(s.clock)}`));
      else action.append(button("Accept", () => send({ type: "seek.accept", seek: s.id }), `Accept the seek of ${who}, ${clockText(s.clock)}, ${modeText(s)}`));
      row.append(action);
      body.append(row);
    }
    $("no-seeks").hidden = lobby.seeks.size > 0;
  }

  function renderChallenges() {
    const list = $("challenges");
    list.replaceChildren();
    for (const c of lobby.challenges.values()) {
      const item = el("li");
      item.dataset.challenge = c.id;
      if (c.mine) {
        item.append(el("span", `You challenged ${c.to}: ${clockText(c.clock)}, ${modeText(c)} `),
          button("Cancel", () => send({ type: "challenge.cancel", challenge: c.id })));
      } else {
        item.append(el("span", `${c.from} challenges you: ${clockText(c.clock)}, ${modeText(c)} `),
          button("Accept", () => send({ type: "challenge.accept", challenge: c.id }), `Accept the challenge of ${c.from}`));
        const reason = el("select");
        reason.setAttribute("aria-label", "Reason to decline");
        for (const r of lobby.reasons) {
          const o = el("option", r.text);
          o.value = r.key;
          reason.append(o);
        }
        item.append(reason, button("Decline", () => send({ type: "challenge.decline", challenge: c.id, reason: reason.value }), `Decline the challenge of ${c.from}`));
      }
      list.append(item);
    }
  }

  function renderOffers() {
    const list = $("offers");
    list.replaceChildren();
    for (const o of lobby.offers.values()) {
      const item = el("li");
      item.dataset.offer = o.id;
      const names = o.sitting.map((n) => n || "guest").join(", ");
      item.append(el("span", `${o.seats} seats, ${o.people} people (${o.free} free), ${o.rated ? "rated" : "casual"}, ${o.rounds} rounds: ${names} `));
      if (o.mine) item.append(button("Cancel", () => send({ type: "torneio.stand", offer: o.id })));
      else if (o.seated) item.append(button("Stand up", () => send({ type: "torneio.stand", offer: o.id })));
      else item.append(button("Sit", () => send({ type: "torneio.sit", offer: o.id }), `Sit at the table of ${names}`));
      list.append(item);
    }
    $("no-offers").hidden = lobby.offers.size > 0;
  }

  function renderGames() {
    const list = $("games");
    list.replaceChildren();
    for (const g of lobby.games.values()) {
      const item = el("li");
      const link = el("a", `${g.white || "guest"} – ${g.black || "guest"}`);
      link.href = g.watch;
      item.append(link, el("span", ` ${clockText(g.clock)}, ${modeText(g)}`, "hint"));
      list.append(item);
    }
    $("no-games").hidden = lobby.games.size > 0;
  }

  function onMessage(m) {
    switch (m.type) {
      case "lobby.hello":
        lobby.you = m.you;
        lobby.reasons = m.reasons || [];
        lobby.seeks = new Map(m.seeks.map((s) => [s.id, s]));
        lobby.offers = new Map(m.offers.map((o) => [o.id, o]));
        lobby.challenges = new Map(m.challenges.map((c) => [c.id, c]));
        lobby.games = new Map(m.games.map((g) => [g.table, g]));
        $("people").textContent = m.people;
        showAccount();
        renderSeeks(); renderChallenges(); renderOffers(); renderGames();
        document.body.dataset.lobby = "ready";
        break;
      case "lobby.seek":
        lobby.seeks.set(m.seek.id, m.seek);
        renderSeeks();
        if (!m.seek.mine) say(`New seek by ${m.seek.maker || "a guest"}: ${clockText(m.seek.clock)}, ${modeText(m.seek)}`);
        break;
      case "lobby.seekGone":
        lobby.seeks.delete(m.seek);
        renderSeeks();
        break;
      case "lobby.offer":
        lobby.offers.set(m.offer.id, m.offer);
        renderOffers();
        break;
      case "lobby.offerGone":
        lobby.offers.delete(m.offer);
        renderOffers();
        break;
      case "lobby.challenge":
        lobby.challenges.set(m.challenge.id, m.challenge);
        renderChallenges();
        if (!m.challenge.mine) say(`${m.challenge.from} challenges you`);
        break;
      case "lobby.challengeGone":
        lobby.challenges.delete(m.challenge);
        renderChallenges();
        if (m.declined) window.pageUi.showNotice(`${m.by} declined: ${m.text}`);
        break;
      case "lobby.game":
        lobby.games.set(m.game.table, m.game);
        renderGames();
        break;
      case "lobby.people":
        $("people").textContent = m.people;
        break;
      case "lobby.gameGone":
        lobby.games.delete(m.table);
        renderGames();
        break;
      case "lobby.start":
        say("Your game starts");
        location.assign(m.url);
        break;
      case "error":
        window.pageUi.showError(m.message);
        break;
    }
  }

  function connect() {
    if (lobby.ws) {
      lobby.ws.onclose = null;
      lobby.ws.close();
    }
    document.body.dataset.lobby = "connecting";
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
    lobby.ws = ws;
    ws.onmessage = (e) => onMessage(JSON.parse(e.data));
    ws.onclose = () => {
      if (lobby.ws !== ws) return;
      document.body.dataset.lobby = "closed";
      window.pageUi.showError("Disconnected from the lobby: reload the page to come back");
    };
  }

  // ---- making offers ----------------------------------------------------------------------
  $("seek-create").addEventListener("click", () => {
    const clock = chosenClock();
    const m = { type: "seek.create", clock, rated: $("seek-rated").checked };
    const within = Number($("seek-range").value);
    if (within && lobby.you && lobby.you.name) {
      const mine = (lobby.you.ratings || {})[speedOf(clock)];
      const r = mine ? mine.rating : 1500;
      m.range = [Math.max(0, r - within), Math.min(4000, r + within)];
    }
    send(m);
  });
  $("challenge-create").addEventListener("click", () => {
    send({ type: "challenge.create", to: $("challenge-name").value.trim(), clock: chosenClock(), rated: $("seek-rated").checked });
  });
  $("offer-create").addEventListener("click", () => {
    send({
      type: "torneio.open", seats: Number($("offer-seats").value), people: Number($("offer-people").value),
      level: Number($("offer-level").value), rounds: Number($("offer-rounds").value), rated: $("offer-rated").checked,
    });
  });

  connect();
})();
