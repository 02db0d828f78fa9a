#!/usr/bin/python3
"""The guided first Torneio game ("Your first Torneio game" on /learn) in headless Chromium.

One lasca-web on a database of its own, one Chromium profile per language (guests):
  - /learn's entry, reached and pressed with the keyboard, makes a two-seat table against the
    easy AI and opens the person's seat with the guide's panel;
  - the set-up's explanation is the panel's first, and is said in the seat's live region;
  - a random set-up by keyboard (Tab to the button, Enter), then the game played from the
    command box (a random legal move each turn, a combat called on a warrior's square when
    none came after three turns, "random" for any other decision) until the guide has shown
    the strengths, moving and a first combat; every explanation shown is in the panel once, in
    the order things happened, and was said once in the live region, in that order;
  - the panel can be hidden and shown again (its button says which, aria-expanded follows);
  - axe-core (WCAG 2.1 A/AA) finds no violation on the seat with its guide, in set-up and in
    play;
  - the game played on to its end (typed "random" decisions; the game ends by round 200, D11):
    the end is explained, the lesson "torneio-first" is kept in the browser and /learn marks it
    done;
  - in pt-BR (the lasca_lang cookie) the guide's first explanation is the Portuguese one, and
    the guided seat shows no English word.
Waits only for conditions, each under browser_test's hang guard; no fixed sleeps.
Exit codes: 0 passed, 1 failed, 77 skipped (no chromium, chromedriver, selenium or axe-core).
"""
import argparse
import os
import random
import shutil
import sys
import tempfile
import traceback

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_test as bt  # noqa: E402  (exits 77 at once when selenium is missing)
from browser_test import Failure, step, wait_for  # noqa: E402
import axe_check  # noqa: E402
import learn_browser_test as lb  # noqa: E402  (the catalogue's words, the console check)
import torneio_keyboard_browser_test as tk  # noqa: E402  (the seat's live region, keys, commands)
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

LESSON = "torneio-first"
COMBAT_AFTER = 3      # our turns without any combat before the test calls one itself
MOST_DECISIONS = 1000  # a game ends by round 200 (D11): far fewer decisions of one seat


def steps(d):
    """The guide's explanations in the panel, in order: [(id, title)]."""
    return d.execute_script(
        "return [...document.querySelectorAll('#guide-list > li')].map((li) => [li.dataset.step, li.querySelector('h3').textContent]);")


def guide_said(d, w):
    """The live region's messages that are the guide's, in the order said."""
    prefix = w("learn.torneio.guide.say", title="", text="").split(":")[0]
    return [s for s in d.execute_script("return window.torneioApp.said;") if s.startswith(prefix)]


def start_guided_game(d, url, w):
    """Opens /learn and presses its Torneio entry with the keyboard; returns the seat's view."""
    lb.open_page(d, url, "/learn")
    wait_for("the Torneio entry's words", lambda: d.find_element(By.ID, "torneio-start").text.startswith(w("learn.torneio.title")))
    d.execute_script("if (document.activeElement) document.activeElement.blur();")
    tk.tab_to(d, lambda d: d.execute_script("return document.activeElement.id;") == "torneio-start", "the Torneio entry", limit=120)
    tk.press(d, Keys.ENTER)
    wait_for("the guided seat's page", lambda: "guide=1" in d.current_url and "/torneio?" in d.current_url)
    v = wait_for("the set-up request", lambda: (lambda v: v if v and (v.get("request") or {}).get("kind") == "setup" else None)(tk.view(d)))
    if v["seats"] != 2:
        raise Failure(f"the guided table has {v['seats']} seats, not 2")
    wait_for("the guide's panel", lambda: d.find_elements(By.ID, "guide-list"))
    return v


def check_setup_explained(d, w, v):
    expected = w("learn.torneio.guide.say", title=w("learn.torneio.setup.title"),
                 text=w("learn.torneio.setup.text", squares=" ".join(v["zone"])))
    tk.wait_live(d, "the set-up explained", lambda s: s == expected)
    shown = steps(d)
    if shown[:1] != [["setup", w("learn.torneio.setup.title")]]:
        raise Failure(f"the guide's first explanation is not the set-up's: {shown}")
    step(f"the guide explains the set-up first, in the panel and the live region: {expected[:90]!r}")


def wait_decision(d, before):
    """Waits for a request other than `before` (a request line), or the end; returns the view."""
    def ready():
        v = tk.view(d)
        if not v:
            return None
        r = v.get("request")
        if v.get("over") or (r and r.get("line") != before):
            return v
        return None
    return wait_for("the seat's next decision", ready)


def decide(d, v, rng, turns, combat_seen):
    """Makes the seat's decision from the command box; returns the request line answered."""
    r = v["request"]
    if r["kind"] == "turn" and not combat_seen and turns >= COMBAT_AFTER:
        square = next(p["square"] for p in v["own"] if p["piece"] > 0 and p["alive"])
        tk.command(d, f"combat {square}")
    elif r["kind"] == "turn" and not combat_seen:
        moves = [c for c in r["choices"] if c.startswith("move ")]
        if moves:
            _, piece, to = rng.choice(moves).split()
            tk.command(d, f"{'k' if piece == '0' else piece} {to}")
        else:
            tk.command(d, "random")
    else:
        tk.command(d, "random")
    return r["line"]


def check_order(d, w, want_first):
    """Every explanation shown is in the panel once, first those of want_first in that order,
    and the live region said each once, in the panel's order."""
    shown = steps(d)
    ids = [s[0] for s in shown]
    if len(set(ids)) != len(ids):
        raise Failure(f"an explanation is in the panel twice: {ids}")
    if ids[:len(want_first)] != want_first:
        raise Failure(f"the explanations are not in the order things happened: {ids}, expected {want_first} first")
    said = guide_said(d, w)
    titles = [title for _, title in shown]
    said_titles = [next((t for t in titles if s.startswith(w("learn.torneio.guide.say", title=t, text=""))), None) for s in said]
    if said_titles != titles:
        raise Failure(f"the live region said the guide's explanations {said_titles}, the panel holds {titles}")
    return ids


def play_to_first_combat(d, w, args):
    rng = random.Random(56)
    mark = tk.said_count(d)
    before = tk.view(d)["request"]["line"]  # the set-up's request, answered below
    tk.tab_to(d, lambda d: "random-setup" in (d.execute_script("return document.activeElement.className;") or ""), "the random set-up button")
    tk.press(d, Keys.ENTER)
    tk.wait_live(d, "the strengths explained", lambda s: s.startswith(w("learn.torneio.guide.say", title=w("learn.torneio.strengths.title"), text="")), mark)
    step("a random set-up by keyboard; the strengths explained")
    turns = 0
    for _ in range(MOST_DECISIONS):
        v = wait_decision(d, before)
        ids = [s[0] for s in steps(d)]
        if "combat" in ids or v.get("over"):
            break
        if v["request"]["kind"] == "turn":
            turns += 1
        before = decide(d, v, rng, turns, False)
    else:
        raise Failure(f"no combat came in {MOST_DECISIONS} decisions")
    if "combat" not in [s[0] for s in steps(d)]:
        raise Failure(f"the game ended after {turns} turns without the guide explaining a combat: {steps(d)}")
    ids = check_order(d, w, ["setup", "strengths", "move", "combat"])
    step(f"a first combat after {turns} turns of ours; the guide holds {ids}, each once, in order, each said once")
    wait_for("a decision or the end after the combat", lambda: (tk.view(d) or {}).get("request") or (tk.view(d) or {}).get("over"))
    tk.axe(d, args, "a guided seat in play (en)")
    return before


def check_hide(d, w):
    toggle = d.find_element(By.ID, "guide-toggle")
    if toggle.text != w("learn.torneio.guide.hide") or toggle.get_attribute("aria-expanded") != "true":
        raise Failure(f"the guide's button says {toggle.text!r}, aria-expanded={toggle.get_attribute('aria-expanded')}")
    d.execute_script("arguments[0].focus();", toggle)
    tk.press(d, Keys.ENTER)
    wait_for("the guide hidden", lambda: not d.find_element(By.ID, "guide-body").is_displayed())
    if toggle.text != w("learn.torneio.guide.show") or toggle.get_attribute("aria-expanded") != "false":
        raise Failure(f"the hidden guide's button says {toggle.text!r}, aria-expanded={toggle.get_attribute('aria-expanded')}")
    tk.press(d, Keys.ENTER)
    wait_for("the guide shown again", lambda: d.find_element(By.ID, "guide-body").is_displayed())
    step("the guide is hidden and shown again by keyboard; its button and aria-expanded follow")


def play_to_end(d, w, url, before):
    for _ in range(MOST_DECISIONS):
        v = wait_decision(d, before)
        if v.get("over"):
            break
        before = decide(d, v, None, 0, True)
    else:
        raise Failure(f"the game did not end in {MOST_DECISIONS} decisions")
    wait_for("the end explained", lambda: "end" in [s[0] for s in steps(d)])
    ids = check_order(d, w, ["setup", "strengths", "move", "combat"])
    if ids[-1] != "end":
        raise Failure(f"the end is not the guide's last explanation: {ids}")
    round_ = tk.view(d)["round"]
    step(f"the game played to its end (round {round_}); the guide holds {ids}")
    wait_for("the lesson kept in the browser", lambda: LESSON in (d.execute_script(
        "return JSON.parse(localStorage.getItem('lasca.learn.done') || '[]');") or []))
    lb.open_page(d, url, "/learn")
    wait_for("/learn marking the Torneio game done", lambda: w("learn.list.done") in d.find_element(By.ID, "torneio-start").text)
    bt.screenshot(d, os.path.join(bt.OUT_DIR[0], "learn-torneio-done.png"))
    step("the guided game is marked done on /learn")


def check_portuguese(d, url, args, pt):
    d.get(url + "/learn")
    d.add_cookie({"name": "lasca_lang", "value": "pt-BR", "path": "/"})
    v = start_guided_game(d, url, pt)
    if d.execute_script("return document.documentElement.lang;") != "pt-BR":
        raise Failure("the guided seat is not in pt-BR")
    check_setup_explained(d, pt, v)
    toggle = d.find_element(By.ID, "guide-toggle").text
    if toggle != pt("learn.torneio.guide.hide"):
        raise Failure(f"the guide's button in pt-BR says {toggle!r}")
    tk.axe(d, args, "a guided seat in set-up (pt-BR)")
    tk.no_english(d, "a guided seat in set-up")
    step("in pt-BR the guide's first explanation is the Portuguese one")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True, help="lasca-web")
    parser.add_argument("--engine", required=True)
    parser.add_argument("--static", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--axe", required=True, help="axe-core's axe.min.js")
    args = parser.parse_args()
    for path in (bt.CHROMIUM, bt.CHROMEDRIVER):
        if not shutil.which(path):
            bt.skip(f"{path} is not installed")
    if not os.path.isfile(args.axe):
        bt.skip(f"{args.axe} is missing (npm ci in tests/web/a11y)")
    args.static = os.path.abspath(args.static)
    os.makedirs(args.out, exist_ok=True)
    bt.OUT_DIR[0] = args.out
    work = tempfile.mkdtemp(prefix="lasca-torneio-guide-")
    args.db = os.path.join(work, "web.db")  # this test's own database
    en = lb.Words(lb.catalogue(args.static, "en"))
    pt = lb.Words(lb.catalogue(args.static, "pt-BR"))
    server, url = bt.start_server(args)
    url = url.rstrip("/")
    driver = None
    try:
        driver = bt.make_driver(os.path.join(work, "en"))
        step("chromium started")
        lb.set_language(driver, url, "en")
        v = start_guided_game(driver, url, en)
        check_setup_explained(driver, en, v)
        tk.axe(driver, args, "a guided seat in set-up (en)")
        before = play_to_first_combat(driver, en, args)
        check_hide(driver, en)
        bt.screenshot(driver, os.path.join(args.out, "torneio-guide.png"))
        play_to_end(driver, en, url, before)
        lb.check_no_console_errors(driver, "the guided Torneio game")
        bt.quit_driver(driver)
        driver = bt.make_driver(os.path.join(work, "pt"))
        check_portuguese(driver, url, args, pt)
        bt.screenshot(driver, os.path.join(args.out, "torneio-guide-pt-BR.png"))
        lb.check_no_console_errors(driver, "the guided Torneio game in pt-BR")
    except (Failure, axe_check.AxeFailure) as e:
        print(f"FAIL: {e}")
        if driver:
            try:
                print("guide:", steps(driver))
                print("live region:", tk.live_text(driver))
                driver.save_screenshot(os.path.join(args.out, "torneio-guide-failure.png"))
            except Exception:  # noqa: BLE001  (the failure is what matters)
                pass
        return 1
    except Exception:  # a broken expectation of the test itself: fail at once, never hang
        traceback.print_exc()
        print("FAIL: an unexpected exception (above)")
        return 1
    finally:
        if driver:
            bt.quit_driver(driver)
        server.terminate()
        try:
            server.wait(10)
        except Exception:  # noqa: BLE001
            server.kill()
        shutil.rmtree(work, ignore_errors=True)
    step("the guided first Torneio game passed in en and pt-BR")
    return 0


if __name__ == "__main__":
    sys.exit(main())
