#!/usr/bin/python3
"""A public Torneio table watched in headless Chromium (/torneio?watch=<table id>).

One lasca-web on a database of its own and one Chromium. In a first tab, two guests' lobby
WebSockets gather at a casual Torneio offer (2 seats, 3 rounds); when the table starts, each
opens its seat and waits. A second tab opens the watch link the lobby lists: the watcher's page
shows the board, the table and the set-up status, no decision button, nothing of the create or
seat views; axe-core finds no WCAG 2.1 A/AA violation, in English and in Brazilian Portuguese
(the lasca_lang cookie). Then the two seats play at random to the end while the watcher's page
follows: its live region says the public events as they come, its list of public events grows,
its status says the game is over and the outcome is shown; by keyboard, an arrow key moves on
the board and Enter says the square. A made-up watch id says the table cannot be watched. No
JavaScript console errors.

Waits only for conditions, each under browser_test's hang guard; no fixed sleeps.
Exit codes: 0 passed, 1 failed, 77 skipped (no chromium, chromedriver or selenium).
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_test as bt  # noqa: E402  (exits 77 at once when selenium is missing)
from browser_test import Failure, step, wait_for  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

import axe_check  # noqa: E402

# Two guests' lobby sockets make and fill a casual offer; each seat then joins its table and
# answers "random" to every request once window.__players.go is set. Calls back with the table id.
START_TABLE = """
const done = arguments[arguments.length - 1];
const url = (path) => `ws://${location.host}${path}`;
const P = window.__players = { go: false, seats: [], table: null };
const send = (ws, m) => ws.send(JSON.stringify(m));
function seat(start) {
  const ws = new WebSocket(url("/ws/torneio"));
  const s = { ws, request: null, over: false };
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.type === "hello") send(ws, { type: "torneio.join", table: start.table, token: start.token });
    if (m.type === "torneio.view") {
      s.request = m.request;
      s.over = m.started && m.over;
      if (P.go && m.request) send(ws, { type: "torneio.act", action: "random" });
    }
  };
  P.seats.push(s);
}
P.start = () => {
  P.go = true;
  for (const s of P.seats) if (s.request) send(s.ws, { type: "torneio.act", action: "random" });
};
const maker = new WebSocket(url("/ws/lobby")), sitter = new WebSocket(url("/ws/lobby"));
let hellos = 0, sat = false;
const hello = () => { if (++hellos === 2) send(maker, { type: "torneio.open", seats: 2, people: 2, rounds: 3 }); };
maker.onmessage = (e) => {
  const m = JSON.parse(e.data);
  if (m.type === "lobby.hello") hello();
  if (m.type === "lobby.start") { P.table = m.table; seat(m); }
};
sitter.onmessage = (e) => {
  const m = JSON.parse(e.data);
  if (m.type === "lobby.hello") hello();
  if (m.type === "lobby.offer" && !m.offer.seated && !sat) { sat = true; send(sitter, { type: "torneio.sit", offer: m.offer.id }); }
  if (m.type === "lobby.start") { seat(m); done(m.table); }
  if (m.type === "error") done("error: " + m.message);
};
"""


def watch_state(d):
    return d.execute_script("""
        const w = window.torneioWatch;
        if (!w || !w.view) return null;
        return { over: w.view.over, round: w.view.round, events: w.view.eventCount, said: w.said.slice(),
                 log: document.querySelectorAll('#watch-log li').length,
                 status: document.getElementById('wstatus').textContent,
                 outcome: document.getElementById('watch-outcome').textContent };""")


def check_watch_page(d, where):
    """The watcher's page as it must always be: its own view only, no decision to take."""
    shown = d.execute_script("""
        const visible = (id) => !document.getElementById(id).classList.contains('hidden');
        return { create: visible('create-view'), seat: visible('seat-view'), watch: visible('watch-view'),
                 buttons: [...document.querySelectorAll('#watch-view button')].length,
                 cells: document.querySelectorAll('#wgrid [role=gridcell]').length,
                 stops: document.querySelectorAll('#wgrid [tabindex="0"]').length };""")
    if shown["create"] or shown["seat"] or not shown["watch"]:
        raise Failure(f"{where}: the views shown are {shown}")
    if shown["buttons"]:
        raise Failure(f"{where}: the watcher's page has {shown['buttons']} button(s)")
    if shown["cells"] != 64 or shown["stops"] != 1:
        raise Failure(f"{where}: the board has {shown['cells']} squares and {shown['stops']} tab stops")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", "--server", dest="web", required=True, help="lasca-web")
    parser.add_argument("--engine", required=True)
    parser.add_argument("--static", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "web"))
    parser.add_argument("--out", required=True)
    parser.add_argument("--axe", help="axe-core's axe.min.js: check every page with it")
    args = parser.parse_args()
    for path in (bt.CHROMIUM, bt.CHROMEDRIVER):
        if not shutil.which(path):
            bt.skip(f"{path} is not installed")
    args.server = args.web
    args.static = os.path.abspath(args.static)
    os.makedirs(args.out, exist_ok=True)
    bt.OUT_DIR[0] = args.out
    root = tempfile.mkdtemp(prefix="lasca-torneio-watch-")
    args.db = os.path.join(root, "web.db")
    server, url = bt.start_server(args)
    d = None
    try:
        d = bt.make_driver(os.path.join(root, "profile"))
        d.get(url + "lobby")
        table = d.execute_async_script(START_TABLE)
        if not table or table.startswith("error"):
            raise Failure(f"the lobby's Torneio table did not start: {table}")
        players = d.current_window_handle
        step(f"two guests gathered at a lobby offer: table {table}, both seats open and waiting")

        d.switch_to.new_window("tab")
        d.get(url + "lobby")
        link = wait_for("the lobby to list the table", lambda: d.execute_script(
            "return [...document.querySelectorAll('#games a')].map((a) => a.getAttribute('href'))"
            ".find((h) => h.includes(arguments[0])) || null;", table))
        if link != f"/torneio?watch={table}":
            raise Failure(f"the lobby's watch link is {link}")
        d.get(url + link.lstrip("/"))
        state = wait_for("the watcher's first view", lambda: watch_state(d))
        check_watch_page(d, "the watcher's page")
        if "Set-up" not in state["status"] or not state["said"] or table not in state["said"][0]:
            raise Failure(f"the watcher's page at the start reads {state}")
        step(f"the watcher's page opened from the lobby's link: {state['status']!r}, said {state['said'][0]!r}")
        if args.axe:
            axe_check.check(d, args.axe, "the watcher's page (en)")
            d.add_cookie({"name": "lasca_lang", "value": "pt-BR", "path": "/"})
            d.get(url + link.lstrip("/"))
            wait_for("the watcher's page in Portuguese", lambda: watch_state(d))
            if d.find_element(By.TAG_NAME, "html").get_attribute("lang") != "pt-BR":
                raise Failure("the watcher's page is not in Portuguese")
            check_watch_page(d, "the watcher's page (pt-BR)")
            axe_check.check(d, args.axe, "the watcher's page (pt-BR)")
            d.delete_cookie("lasca_lang")
            d.get(url + link.lstrip("/"))
            wait_for("the watcher's page in English again", lambda: watch_state(d))
            step("axe-core: no WCAG 2.1 A/AA violation on the watcher's page, in en and pt-BR")

        d.switch_to.window(players)
        d.execute_script("window.__players.start();")
        watcher = [h for h in d.window_handles if h != players][0]
        d.switch_to.window(watcher)
        state = wait_for("the game to end on the watcher's page", lambda: (lambda s: s if s and s["over"] else None)(watch_state(d)))
        if state["log"] < 3 or len(state["said"]) < 3 or state["events"] < 3:
            raise Failure(f"the watcher was not told the game as it went: {state}")
        if "Game over" not in state["status"] or "Game over" not in state["outcome"]:
            raise Failure(f"the end reads {state['status']!r} / {state['outcome']!r}")
        joined = " ".join(state["said"])
        for private in ("Your set-up", "You moved", "strength now", "warrior 1 on"):
            if private in joined:
                raise Failure(f"the watcher was told {private!r}: {joined}")
        step(f"the game played to its end: {state['log']} public events listed, {len(state['said'])} said in "
             f"the live region, {state['outcome']!r}")
        check_watch_page(d, "the watcher's page at the end")
        if args.axe:
            axe_check.check(d, args.axe, "the watcher's page at the end (en)")

        cell = d.find_element(By.CSS_SELECTOR, '#wgrid [tabindex="0"]')
        d.execute_script("arguments[0].focus();", cell)
        start = d.execute_script("return document.activeElement.dataset.square;")
        d.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
        moved = d.execute_script("return document.activeElement.dataset.square;")
        d.switch_to.active_element.send_keys(Keys.ENTER)
        said = d.execute_script("return window.torneioWatch.said.slice(-1)[0];")
        if start != "a1" or moved != "b1" or not said.startswith("b1"):
            raise Failure(f"by keyboard: {start} -> {moved}, said {said!r}")
        step(f"by keyboard: the arrow moved from {start} to {moved}, Enter said {said!r}")
        bt.screenshot(d, os.path.join(args.out, "torneio-watch.png"))

        d.get(url + "torneio?watch=0123456789ab")
        wait_for("a made-up id refused", lambda: "cannot be watched" in d.find_element(By.ID, "wstatus").text)
        step("a made-up watch id: " + d.find_element(By.ID, "wstatus").text)
        bt.check_no_console_errors(d, "the watcher's pages")
        return 0
    except Failure as e:
        if d:
            try:
                d.save_screenshot(os.path.join(args.out, "torneio-watch-failure.png"))
            except Exception:
                pass
        print(f"FAIL: {e}")
        return 1
    except Exception:  # a broken expectation of the test itself: fail at once, never hang
        traceback.print_exc()
        print("FAIL: an unexpected exception (above)")
        return 1
    finally:
        if d:
            bt.quit_driver(d)
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
