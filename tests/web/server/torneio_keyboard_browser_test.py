#!/usr/bin/env python3
"""The Torneio page by keyboard and screen reader, in English and Brazilian Portuguese.

In headless Chromium against a lasca-web of its own (its own database in a temporary folder):
- /torneio: axe-core finds no WCAG 2.1 A/AA violation; the rounds and every kind of seat and AI
  level are explained in visible text; a table against an AI seat is made with the keyboard;
- a seat, by keyboard only: the board is one Tab stop, arrow keys move between its squares,
  Enter places the set-up's king and warriors, Tab reaches the strengths and the confirm button,
  Enter picks a warrior and moves it, C calls a combat; after each step the polite live region
  says what happened and what is asked now, the focus stays on the board and each square's name
  says what the seat knows of it; axe-core finds nothing in set-up nor in play;
- the text mode: pieces, square, moves, help, seen, and a decision typed in the command box;
- the same page and seat in pt-BR (the lasca_lang cookie): no violation, and no English word left.
Exit code 77 when Chromium, chromedriver or selenium is missing.
"""

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
import traceback

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_test as bt  # noqa: E402  (exits 77 at once when selenium is missing)
from browser_test import Failure, step, wait_for  # noqa: E402
import axe_check  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402

FILES = "abcdefghijklmnop"

# Whole English words that no pt-BR Torneio page may show (not words Portuguese shares: "move",
# "normal", "links"; the protocol's own words in the command examples are left out below).
ENGLISH = ["the", "your", "you", "seat", "seats", "round", "rounds", "warrior", "warriors", "king",
           "moves", "combat", "waiting", "strength", "points", "point", "pieces", "piece",
           "create", "table", "with", "and", "of", "to", "on", "is", "are", "here",
           "nothing", "person", "heuristic", "easy", "strong", "connecting", "send",
           "command", "board", "what", "happened", "how", "played", "set-up", "setup"]


def view(d):
    return d.execute_script("return window.torneioApp.view;")


def live(d, since=0):
    """The messages said in the live region since the first `since`, the newest first (the page
    keeps every one in torneioApp.said; the region itself shows the last few)."""
    return d.execute_script("return window.torneioApp.said.slice(arguments[0]).reverse();", since)


def said_count(d):
    return d.execute_script("return window.torneioApp.said.length;")


def last_shown(d):
    return d.execute_script("const p = document.querySelector('main:not(.hidden) .announce p:last-child'); return p ? p.textContent : '';")


def active_square(d):
    return d.execute_script("const a = document.activeElement; return a && a.classList && a.classList.contains('tsq') ? a.dataset.square : null;")


def press(d, *keys):
    chain = ActionChains(d)
    for k in keys:
        chain.send_keys(k)
    chain.perform()


def wait_live(d, what, predicate, since=0):
    """Waits for a message said since the first `since` for which predicate is true; returns it.
    The live region shows the newest message."""
    text = wait_for(f"the live region to say {what}", lambda: next((s for s in live(d, since) if predicate(s)), None))
    shown = [s for s in live(d) if s == last_shown(d)]
    if not shown:
        raise Failure(f"the live region does not show the last message said: {last_shown(d)!r}")
    return text


def go_to(d, square):
    """Moves the board's cursor to square with the arrow keys (the focus on the board)."""
    here = active_square(d)
    if not here:
        raise Failure("the focus is not on a board square")
    df = FILES.index(square[0]) - FILES.index(here[0])
    dr = int(square[1:]) - int(here[1:])
    keys = [Keys.ARROW_RIGHT if df > 0 else Keys.ARROW_LEFT] * abs(df) + [Keys.ARROW_UP if dr > 0 else Keys.ARROW_DOWN] * abs(dr)
    if keys:
        press(d, *keys)
    wait_for(f"the cursor on {square}", lambda: active_square(d) == square)


def tab_to(d, predicate, what, limit=60):
    """Presses Tab until predicate(driver) is true."""
    for _ in range(limit):
        if predicate(d):
            return
        press(d, Keys.TAB)
    raise Failure(f"{limit} presses of Tab never reached {what}")


def axe(d, args, where):
    axe_check.check(d, args.axe, where)
    step(f"axe-core: no WCAG 2.1 A/AA violation on {where}")


def no_english(d, where):
    """The page's visible words, the language picker's names left out, hold no English word."""
    text = d.execute_script("""
        const body = document.body.cloneNode(true);
        for (const e of body.querySelectorAll('select[data-lang-picker], script, .hidden, #lines, #toast')) e.remove();
        const labels = [...document.querySelectorAll('[aria-label]')].map((e) => e.getAttribute('aria-label'));
        const titles = [...document.querySelectorAll('[title]')].map((e) => e.getAttribute('title'));
        return [document.title, body.innerText || body.textContent, ...labels, ...titles].join('\\n');""")
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"setup king \S+ warriors( \S+:\d+)+", " ", text)  # the protocol's form, typed as is
    found = sorted({w for w in re.findall(r"[A-Za-z][A-Za-z-]*", text) if w.lower() in ENGLISH})
    if found:
        raise Failure(f"{where} in pt-BR shows English words: {found}")
    step(f"{where} in pt-BR: no English word left")


def make_table(d, base_url, kind="ai"):
    """Makes a 2-seat table against an AI seat with the keyboard; returns seat 1's link."""
    d.get(base_url + "torneio")
    wait_for("the Torneio hello", lambda: d.execute_script("return !!(window.torneioApp && window.torneioApp.hello);"))
    d.find_element(By.ID, f"kind-2").send_keys(kind)  # a select takes a typed option name
    d.execute_script("document.getElementById('create').focus();")
    press(d, Keys.ENTER)
    link = wait_for("the seat links", lambda: d.find_elements(By.CSS_SELECTOR, '.seat-link[data-seat="1"]'))
    return link[0].get_attribute("href")


def check_create_page(d, base_url, args):
    d.get(base_url + "torneio")
    wait_for("the Torneio hello", lambda: d.execute_script("return !!(window.torneioApp && window.torneioApp.hello);"))
    about = d.find_element(By.ID, "rounds-about")
    if not about.is_displayed() or "D11" not in about.text:
        raise Failure(f"the rounds are not explained in visible text: {about.text!r}")
    kinds = d.find_element(By.ID, "kinds-about").text
    for word in ("person", "random", "heuristic", "ai", "easy", "strong", "0.98"):
        if word not in kinds:
            raise Failure(f"the kinds of seat and AI levels are not all explained: {word!r} missing from {kinds!r}")
    for s in (1, 2):
        label = d.execute_script(f"const s = document.getElementById('kind-{s}'); return s.labels.length ? s.labels[0].textContent : '';")
        if label != f"Seat {s}":
            raise Failure(f"seat {s}'s kind has no label: {label!r}")
    step("the rounds, each kind of seat and each AI level are explained in visible text; every select is labelled")
    axe(d, args, "/torneio (en)")


def check_keyboard_turn(d, base_url, args):
    link = make_table(d, base_url)
    step("a table against an AI seat made with the keyboard")
    d.get(link)
    wait_for("the set-up request", lambda: ((view(d) or {}).get("request") or {}).get("kind") == "setup")
    wait_live(d, "the set-up asked", lambda s: "Set up in secret" in s)
    axe(d, args, "a seat in set-up (en)")
    tab_to(d, active_square, "the board")
    stops = d.execute_script("return document.querySelectorAll('#tboard .tsq[tabindex=\"0\"]').length;")
    if stops != 1:
        raise Failure(f"the board has {stops} Tab stops, not one")
    ring = d.execute_script("return !document.querySelector('#tboard .focus-ring').classList.contains('hidden');")
    if not ring:
        raise Failure("the focused square shows no focus ring")
    step(f"Tab reaches the board at {active_square(d)}: one Tab stop, a visible focus ring")
    v = view(d)
    zone = v["zone"]
    label = d.find_element(By.CSS_SELECTOR, f'.tsq[data-square="{zone[0]}"]').get_attribute("aria-label")
    if "you may put your king here" not in label:
        raise Failure(f"a set-up square does not say the king may go there: {label!r}")
    chosen = [zone[0], zone[2], zone[4], zone[6]]
    names = ["your king", "warrior 1", "warrior 2", "warrior 3"]
    for i, square in enumerate(chosen):
        go_to(d, square)
        mark = said_count(d)
        press(d, Keys.ENTER)
        said = wait_live(d, f"{names[i]} on {square}", lambda s, i=i, square=square: s.startswith(f"{names[i].capitalize() if i else 'Your king'} on {square}."), mark)
        if i < 3 and names[i + 1] not in said:
            raise Failure(f"after placing {names[i]} the live region does not ask for {names[i + 1]}: {said!r}")
    if "Split 10 strength points" not in said:
        raise Failure(f"the strengths are not asked for: {said!r}")
    step("the king and 3 warriors placed with arrow keys and Enter, each said in the live region")
    strengths = ["2", "3", "5"]
    for i in (1, 2, 3):
        tab_to(d, lambda d, i=i: d.execute_script("return document.activeElement.id;") == f"strength-{i}", f"strength {i}")
        press(d, Keys.CONTROL + "a", strengths[i - 1])
    tab_to(d, lambda d: "confirm-setup" in (d.execute_script("return document.activeElement.className;") or ""), "the confirm button")
    mark = said_count(d)
    press(d, Keys.ENTER)
    said = wait_live(d, "the set-up accepted", lambda s: "Your set-up: king on" in s, mark)
    want = f"king on {chosen[0]}, warrior 1 on {chosen[1]} (strength 2), warrior 2 on {chosen[2]} (strength 3), warrior 3 on {chosen[3]} (strength 5)"
    if want not in said:
        raise Failure(f"the set-up said is not the one typed: {said!r}")
    wait_for("the focus back on the board", lambda: active_square(d))
    step(f"strengths typed and confirmed by keyboard; said: {said[:90]!r}; the focus is back on the board")

    # A move: pick a warrior with Enter, then its square.
    v = wait_for("the first turn", lambda: (lambda v: v if v and (v.get("request") or {}).get("kind") == "turn" else None)(view(d)))
    wait_live(d, "the turn asked", lambda s: "Your turn, round" in s)
    move = next(c for c in v["request"]["choices"] if c.startswith("move 1 "))
    _, piece, to = move.split()
    start = v["own"][1]["square"]
    go_to(d, start)
    mark = said_count(d)
    press(d, Keys.ENTER)
    said = wait_live(d, "warrior 1 picked", lambda s: s.startswith(f"Warrior 1 on {start} is picked"), mark)
    picked = d.find_element(By.CSS_SELECTOR, f'.tsq[data-square="{start}"]')
    if "picked" not in picked.get_attribute("aria-label") or picked.get_attribute("aria-selected") != "true":
        raise Failure(f"the picked square does not say so: {picked.get_attribute('aria-label')!r}")
    target = d.find_element(By.CSS_SELECTOR, f'.tsq[data-square="{to}"]').get_attribute("aria-label")
    if "warrior 1 may go here" not in target:
        raise Failure(f"a legal target does not say so: {target!r}")
    lines = len(d.execute_script("return window.torneioApp.lines;"))
    go_to(d, to)
    mark = said_count(d)
    press(d, Keys.ENTER)
    said = wait_live(d, "the move", lambda s: f"You moved warrior 1 from {start} to {to}." in s, mark)
    if active_square(d) != to:
        raise Failure(f"after the move the focus left the board's square {to}: {active_square(d)!r}")
    step(f"warrior 1 moved {start}-{to} by keyboard; said: {said[:120]!r}")

    # A combat: C on a warrior's square.
    v = wait_for("the next turn", lambda: (lambda v: v if v and (v.get("request") or {}).get("kind") == "turn"
                                             and len(d.execute_script("return window.torneioApp.lines;")) > lines + 2 else None)(view(d)))
    square = v["own"][2]["square"]
    go_to(d, square)
    mark = said_count(d)
    press(d, "c")
    said = wait_live(d, "the combat", lambda s: f"You call a combat on {square}." in s, mark)
    outcome = wait_live(d, "the combat's outcome", lambda s: any(w in s for w in ("Nobody else stands", "reveals", "wins the combat", "No winner")), mark)
    said = said if said == outcome else f"{said} / {outcome}"
    if not active_square(d):
        raise Failure("after the combat the focus left the board")
    step(f"a combat called on {square} with C; said: {said[:140]!r}")
    wait_for("a decision after the combat", lambda: (view(d) or {}).get("request") or (view(d) or {}).get("over"))
    axe(d, args, "a seat in play, after a combat (en)")
    check_text_mode(d)
    return link


def command(d, text):
    """Types a command in the text mode's box; returns the count of messages said before it."""
    mark = said_count(d)
    box = d.find_element(By.ID, "tcommand")
    box.send_keys(text, Keys.ENTER)
    return mark


def check_text_mode(d):
    v = view(d)
    king = v["own"][0]["square"]
    mark = command(d, "pieces")
    said = wait_live(d, "the pieces", lambda s: s.startswith("King: "), mark)
    if f"King: {king}" not in said or "Warrior 1:" not in said:
        raise Failure(f"pieces: {said!r}")
    mark = command(d, f"square {king}")
    wait_live(d, "the king's square", lambda s: s == f"{king}, your king", mark)
    empty = next(f + r for f in "abcdefgh" for r in "45" if not any(p["square"] == f + r for p in v["own"])
                 and not any(s["square"] == f + r for s in v["sightings"]))
    mark = command(d, empty)
    wait_live(d, "an empty square", lambda s: s.startswith(f"{empty}, none of your pieces, nothing seen here"), mark)
    mark = command(d, "help")
    wait_live(d, "the help", lambda s: s.startswith("Commands: pieces"), mark)
    mark = command(d, "seen")
    wait_live(d, "the sightings", lambda s: "No opponent's piece has been seen yet." in s or "seen here in round" in s, mark)
    mark = command(d, "table")
    wait_live(d, "the table", lambda s: "Seat 1 (south) — you" in s, mark)
    mark = command(d, "fly me")
    wait_live(d, "a command not understood", lambda s: s.startswith("Not understood: fly me."), mark)
    step("text mode: pieces, square, a bare square, help, seen, table and a bad command answered in the live region")
    v = wait_for("a turn", lambda: (lambda v: v if v and ((v.get("request") or {}).get("kind") == "turn" or v.get("over")) else None)(view(d)))
    if v.get("over"):
        return
    mark = command(d, "moves")
    wait_live(d, "the moves", lambda s: "can go to" in s, mark)
    move = next(c for c in v["request"]["choices"] if c.startswith("move "))
    _, piece, to = move.split()
    start = v["own"][int(piece)]["square"]
    mark = command(d, f"{'k' if piece == '0' else piece} {to}")
    name = "your king" if piece == "0" else f"warrior {piece}"
    wait_live(d, "the typed move", lambda s: f"You moved {name} from {start} to {to}." in s, mark)
    step(f"text mode: moves listed, and the move {piece} {to} typed in the command box and played")


def check_portuguese(d, base_url, args):
    d.get(base_url + "torneio")
    d.add_cookie({"name": "lasca_lang", "value": "pt-BR", "path": "/"})
    link = make_table(d, base_url, kind="IA")
    if d.execute_script("return document.documentElement.lang;") != "pt-BR":
        raise Failure("the page is not in pt-BR")
    wait_live(d, "the links made", lambda s: s.startswith("A mesa foi criada"))
    axe(d, args, "/torneio (pt-BR)")
    no_english(d, "/torneio")
    d.get(link)
    wait_for("the set-up request", lambda: ((view(d) or {}).get("request") or {}).get("kind") == "setup")
    wait_live(d, "the set-up asked", lambda s: "Posicione-se em segredo" in s)
    axe(d, args, "a seat in set-up (pt-BR)")
    no_english(d, "a seat in set-up")
    tab_to(d, active_square, "the board")
    zone = view(d)["zone"]
    for square in zone[:4]:
        go_to(d, square)
        press(d, Keys.ENTER)
    wait_live(d, "the strengths asked", lambda s: "Divida 10 pontos de força" in s)
    no_english(d, "a seat choosing strengths")
    tab_to(d, lambda d: "confirm-setup" in (d.execute_script("return document.activeElement.className;") or ""), "the confirm button")
    press(d, Keys.ENTER)
    wait_live(d, "the set-up accepted", lambda s: "A sua formação: rei em" in s)
    v = wait_for("the first turn", lambda: (lambda v: v if v and (v.get("request") or {}).get("kind") == "turn" else None)(view(d)))
    square = v["own"][1]["square"]
    go_to(d, square)
    mark = said_count(d)
    press(d, "c")
    said = wait_live(d, "the combat", lambda s: f"Você convoca um combate em {square}." in s, mark)
    wait_for("a decision after the combat", lambda: (view(d) or {}).get("request") or (view(d) or {}).get("over"))
    axe(d, args, "a seat in play, after a combat (pt-BR)")
    mark = command(d, "peças")
    wait_live(d, "the pieces", lambda s: s.startswith("Rei: "), mark)
    mark = command(d, "lances")
    wait_live(d, "the moves", lambda s: "pode ir para" in s or "Nada é pedido" in s, mark)
    no_english(d, "a seat in play")
    step(f"the seat played in pt-BR by keyboard; said: {said[:100]!r}")


def live_text(d):
    return " | ".join(live(d))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--engine", required=True)
    parser.add_argument("--static", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--axe", required=True)
    args = parser.parse_args()
    for path in (bt.CHROMIUM, bt.CHROMEDRIVER):
        if not shutil.which(path):
            bt.skip(f"{path} is not installed")
    if not os.path.exists(args.axe):
        bt.skip(f"axe-core is not installed ({args.axe}): npm ci in tests/web/a11y")
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="lasca-torneio-keys-")
    args.db = os.path.join(work, "web.db")
    server, url = bt.start_server(args)
    driver = None
    try:
        driver = bt.make_driver(os.path.join(work, "en"))
        step("chromium started")
        check_create_page(driver, url, args)
        check_keyboard_turn(driver, url, args)
        bt.screenshot(driver, os.path.join(args.out, "torneio-keyboard.png"))
        bt.check_no_console_errors(driver, "the Torneio page by keyboard")
        bt.quit_driver(driver)
        driver = bt.make_driver(os.path.join(work, "pt"))
        check_portuguese(driver, url, args)
        bt.screenshot(driver, os.path.join(args.out, "torneio-keyboard-pt-BR.png"))
        bt.check_no_console_errors(driver, "the Torneio page in pt-BR")
    except (Failure, axe_check.AxeFailure, AssertionError) as e:
        print(f"FAIL: {e}")
        traceback.print_exc()
        if driver:
            try:
                print("live region:", live_text(driver))
                driver.save_screenshot(os.path.join(args.out, "torneio-keyboard-failure.png"))
            except Exception:  # noqa: BLE001  (the failure is what matters)
                pass
        sys.exit(1)
    finally:
        if driver:
            bt.quit_driver(driver)
        server.kill()
        server.wait()
        shutil.rmtree(work, ignore_errors=True)
    step("all Torneio keyboard, screen reader and language checks passed")


if __name__ == "__main__":
    main()
