// The lobby page: the account box (sign up, sign in, sign out) and the lobby's WebSocket
// (/ws/lobby, protocol.md "The lobby"): open seeks, challenges, Torneio tables gathering people
// and the public games being played (two-person tables and Torneio tables, each with its watch
// link), each list kept as the server tells it. When a game starts
// for this tab (`lobby.start`), the page opens the seat's link.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const lobby = { conn: null, you: null, seeks: new Map(), offers: new Map(), challenges: new Map(), games: new Map(), reasons: [] };

  const t = window.i18n.t;
  const say = (text) => { $("lobby-status").textContent = text; };
  const clockText = (clock) => clock
    ? t("lobby.clock", { minutes: clock.time / 60000, increment: clock.increment / 1000 })
    : t("lobby.noClock");
  const speedName = (speed) => ({
    bullet: t("lobby.speed.bullet"), blitz: t("lobby.speed.blitz"), rapid: t("lobby.speed.rapid"),
    classical: t("lobby.speed.classical"), correspondence: t("lobby.speed.correspondence"),
    torneio: t("lobby.speed.torneio"),
  })[speed] || speed;
  const modeText = (x) => x.rated
    ? t("lobby.mode.rated", { speed: speedName(x.speed) })
    : t("lobby.mode.casual", { speed: speedName(x.speed) });
  const guest = () => t("lobby.guest");
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
  const send = (m) => { if (lobby.conn) lobby.conn.send(m); };

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
    const parts = Object.entries(lobby.you.ratings || {}).map(([c, r]) => `${speedName(c)} ${ratingText(r)}`);
    $("me-ratings").textContent = parts.length
      ? t("lobby.account.ratings", { ratings: parts.join(", ") }) : t("lobby.account.noRatings");
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
        $("account-error").textContent = answer.error
          ? window.i18n.server({ key: answer.key, params: answer.params, message: answer.error })
          : t("lobby.error.status", { status: String(response.status) });
        return false;
      }
      connect();  // the WebSocket learns the new session when it opens again
      return true;
    } catch (e) {
      $("account-error").textContent = t("lobby.error.unreachable");
      return false;
    }
  }
  const credentials = () => ({ name: $("account-name").value.trim(), password: $("account-password").value });
  $("account-form").addEventListener("submit", (e) => { e.preventDefault(); account("/api/signin", credentials()); });
  $("signup").addEventListener("click", () => account("/api/signup", credentials()));
  $("signout").addEventListener("click", () => account("/api/signout", {}));

  // How many people have the lobby open (the number itself in #people, which tests read).
  function showPeople(n) {
    const line = $("people-line");
    const text = t("lobby.games.people", { count: n });
    const at = text.indexOf(String(n));
    const number = el("span", String(n));
    number.id = "people";
    if (at < 0) { line.replaceChildren(text); return; }
    line.replaceChildren(text.slice(0, at), number, text.slice(at + String(n).length));
  }

  // ---- the lists --------------------------------------------------------------------------
  function renderSeeks() {
    const body = $("seeks");
    body.replaceChildren();
    for (const s of lobby.seeks.values()) {
      const row = el("tr");
      if (s.mine) row.className = "mine";
      row.dataset.seek = s.id;
      row.append(el("td", s.maker || guest()), el("td", ratingText(s.makerRating)),
        el("td", clockText(s.clock)), el("td", modeText(s) + (s.range ? ` (${s.range[0]}-${s.range[1]})` : "")));
      const action = el("td");
      const who = s.maker || guest();
      if (s.mine) action.append(button(t("lobby.action.cancel"), () => send({ type: "seek.cancel", seek: s.id }), t("lobby.seek.cancelLabel", { clock: clockText(s.clock) })));
      else action.append(button(t("lobby.action.accept"), () => send({ type: "seek.accept", seek: s.id }), t("lobby.seek.acceptLabel", { name: who, clock: clockText(s.clock), mode: modeText(s) })));
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
        item.append(el("span", t("lobby.challenge.sent", { name: c.to, clock: clockText(c.clock), mode: modeText(c) }) + " "),
          button(t("lobby.action.cancel"), () => send({ type: "challenge.cancel", challenge: c.id }), t("lobby.challenge.cancelLabel", { name: c.to })));
      } else {
        item.append(el("span", t("lobby.challenge.received", { name: c.from, clock: clockText(c.clock), mode: modeText(c) }) + " "),
          button(t("lobby.action.accept"), () => send({ type: "challenge.accept", challenge: c.id }), t("lobby.challenge.acceptLabel", { name: c.from })));
        const reason = el("select");
        reason.setAttribute("aria-label", t("lobby.challenge.reason"));
        for (const r of lobby.reasons) {
          const o = el("option", window.i18n.server(r));
          o.value = r.reason;
          reason.append(o);
        }
        item.append(reason, button(t("lobby.action.decline"), () => send({ type: "challenge.decline", challenge: c.id, reason: reason.value }), t("lobby.challenge.declineLabel", { name: c.from })));
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
      const names = o.sitting.map((n) => n || guest()).join(", ");
      const parts = [t("lobby.offer.seatsCount", { count: o.seats }), t("lobby.offer.peopleCount", { count: o.people, free: o.free }),
        o.rated ? t("lobby.offer.ratedWord") : t("lobby.offer.casualWord"), t("lobby.offer.roundsCount", { count: o.rounds })];
      item.append(el("span", t("lobby.offer.line", { parts: parts.join(", "), names }) + " "));
      if (o.mine) item.append(button(t("lobby.action.cancel"), () => send({ type: "torneio.stand", offer: o.id }), t("lobby.offer.cancelLabel")));
      else if (o.seated) item.append(button(t("lobby.offer.stand"), () => send({ type: "torneio.stand", offer: o.id })));
      else item.append(button(t("lobby.offer.sit"), () => send({ type: "torneio.sit", offer: o.id }), t("lobby.offer.sitLabel", { names })));
      list.append(item);
    }
    $("no-offers").hidden = lobby.offers.size > 0;
  }

  function aiLevelName(level) {
    switch (level) {
      case 0: return t("lobby.offer.levelEasy");
      case 1: return t("lobby.offer.levelNormal");
      case 2: return t("lobby.offer.levelStrong");
    }
    return String(level);
  }

  function renderGames() {
    const list = $("games");
    list.replaceChildren();
    for (const g of lobby.games.values()) {
      const item = el("li");
      if (g.kind === "torneio") {
        // A Torneio table: who sits where (a guest, an AI of its level), watched by its id.
        const names = g.seats.map((s) => s.kind === "person" ? s.player || guest() : t("torneio.watch.aiSeat", { level: aiLevelName(s.level) }));
        const link = el("a", t("torneio.watch.lobbyGame", { names: names.join(", ") }));
        link.href = g.watch;
        const parts = [t("lobby.offer.seatsCount", { count: g.seats.length }), g.rated ? t("lobby.offer.ratedWord") : t("lobby.offer.casualWord"),
          t("lobby.offer.roundsCount", { count: g.rounds })];
        item.append(link, el("span", ` ${parts.join(", ")}`, "hint"));
        list.append(item);
        continue;
      }
      const link = el("a", t("lobby.games.players", { white: g.white || guest(), black: g.black || guest() }));
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
        showPeople(m.people);
        showAccount();
        renderSeeks(); renderChallenges(); renderOffers(); renderGames();
        document.body.dataset.lobby = "ready";
        break;
      case "lobby.seek":
        lobby.seeks.set(m.seek.id, m.seek);
        renderSeeks();
        if (!m.seek.mine) say(t("lobby.seek.new", { name: m.seek.maker || guest(), clock: clockText(m.seek.clock), mode: modeText(m.seek) }));
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
        if (!m.challenge.mine) say(t("lobby.challenge.announce", { name: m.challenge.from }));
        break;
      case "lobby.challengeGone":
        lobby.challenges.delete(m.challenge);
        renderChallenges();
        if (m.declined) window.pageUi.showNotice(t("lobby.challenge.declined", { name: m.by, reason: window.i18n.server(m) }));
        break;
      case "lobby.game":
        lobby.games.set(m.game.table, m.game);
        renderGames();
        break;
      case "lobby.people":
        showPeople(m.people);
        break;
      case "lobby.gameGone":
        lobby.games.delete(m.table);
        renderGames();
        break;
      case "lobby.start":
        say(t("lobby.start"));
        location.assign(m.url);
        break;
      case "error":
        window.pageUi.showError(window.i18n.server(m));
        break;
    }
  }

  // The lobby's WebSocket (ui.js pageUi.socket), opened again at once after signing in or out,
  // and by itself after it closes (a restart, or its instance stopped: any other instance shows
  // the same lobby); the tab's offers went with the connection.
  function connect() {
    document.body.dataset.lobby = "connecting";
    if (lobby.conn) {
      lobby.conn.reopen();
      return;
    }
    lobby.conn = window.pageUi.socket("/ws/lobby", {
      message: (e) => onMessage(JSON.parse(e.data)),
      close: () => {
        document.body.dataset.lobby = "closed";
        window.pageUi.showError(t("lobby.error.disconnected"));
      },
      keep: () => true,
    });
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
