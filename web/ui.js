// What the pages share: the WebSocket that comes back, and the toast that shows an error reply (red) or a notice (neutral, such as
// "engine restarted") from the server for a few seconds. It sits at the bottom of the window, or at the
// top when it would cover a banner (the engine's Retry button, say).
"use strict";

window.pageUi = (() => {
  let toastTimer = null;
  const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

  // Puts the shown toast where it covers no visible banner; again whenever the page changes
  // under it (a banner shown, the page scrolled or resized).
  function placeToast() {
    const t = document.getElementById("toast");
    if (!t || t.classList.contains("hidden")) return;
    t.classList.remove("toast-top");
    const banners = [...document.querySelectorAll(".banner")].filter((b) => b.getClientRects().length > 0);
    const r = t.getBoundingClientRect();
    if (banners.some((b) => overlap(r, b.getBoundingClientRect()))) t.classList.add("toast-top");
  }

  // An error: the red toast. A notice (the engine busy or restarted): the same place, in a
  // neutral style.
  function showError(text, notice) {
    const t = document.getElementById("toast");
    t.textContent = text;
    t.classList.toggle("toast-notice", !!notice);
    t.classList.remove("hidden");
    placeToast();
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => t.classList.add("hidden"), 4000);
  }
  window.addEventListener("scroll", placeToast, { passive: true });
  window.addEventListener("resize", placeToast);
  const showNotice = (text) => showError(text, true);

  // The page's WebSocket to `path` (/ws, /ws/torneio, /ws/lobby), which comes back. on.open(ws) runs at
  // each connection (a table's page joins its table again there), on.message(event) for each message
  // but "moved", on.close() when a connection ends. When the server says the table lives on
  // another instance ({"type":"moved","home":NAME}: several servers behind one front), or the
  // connection ends while on.keep() says the page has a table to come back to (a seat link, a
  // kept game), it connects again, first at once, then after 0.25 s doubling to 4 s, naming
  // the home (?home=NAME) for the front to route it; a message received resets the wait.
  // conn.send(m) sends while open; conn.reopen() connects again at once.
  function socket(path, on) {
    const conn = { ws: null, home: "", wait: 0, send(m) {
      if (conn.ws && conn.ws.readyState === WebSocket.OPEN) conn.ws.send(JSON.stringify(m));
    } };
    function open() {
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      const query = conn.home ? `?home=${encodeURIComponent(conn.home)}` : "";
      const ws = new WebSocket(`${scheme}://${location.host}${path}${query}`);
      conn.ws = ws;
      ws.addEventListener("open", () => on.open && on.open(ws));
      ws.addEventListener("message", (event) => {
        const m = JSON.parse(event.data);
        conn.wait = 0;
        if (m.type === "moved") {
          conn.home = m.home || "";
          conn.moved = true;
          ws.close();
          return;
        }
        on.message(event);
      });
      ws.addEventListener("close", () => {
        if (conn.ws !== ws) return;
        if (on.close) on.close();
        const moved = conn.moved;
        conn.moved = false;
        if (!moved && !(on.keep && on.keep())) return;
        const wait = moved ? 0 : conn.wait;
        conn.wait = Math.min(4000, Math.max(250, conn.wait * 2));
        setTimeout(open, wait);
      });
    }
    // Closes the connection and opens a new one at once (the page signed in or out).
    conn.reopen = () => {
      const old = conn.ws;
      conn.ws = null;
      conn.wait = 0;
      if (old) old.close();
      open();
    };
    open();
    return conn;
  }
  return { showError, showNotice, placeToast, socket };
})();
