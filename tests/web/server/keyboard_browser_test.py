#!/usr/bin/python3
"""The Lasca page by keyboard and screen reader, in English and Brazilian Portuguese, in headless
Chromium.

Starts lasca-web on a free 127.0.0.1 port and checks:
  - the board is one Tab stop (a grid with a roving tabindex); the arrow keys move between its
    squares as they are seen (a flipped board too) and do not step through the move list;
  - a whole game from the start, both sides played by the test with the keyboard only (arrows,
    Enter to pick and play, square by square through a multi-jump; some moves typed in the move
    box), the live region's words checked after every move ("White c3-d4. Black to move"), a
    square's name saying "selected" and "legal target", Escape dropping a selection, the focus
    kept on the board after each move;
  - the move box: an illegal move refused with a message, and the text-mode commands (pieces,
    file, rank, square) answering in the live region;
  - the move list keeps its items while the game is annotated (a click on a move is taken);
    against the engine its reply is announced; a notice is not styled as an error; a rules'
    ending's rule id (R9) links to its paragraph of /rules/lasca;
  - axe-core (WCAG 2.1 A/AA): no violation on / and on a two-person table, in en and pt-BR;
  - in pt-BR the page shows no message of the en catalogue (web/i18n/en/lasca.json) that differs
    from its pt-BR text, and a move is announced in Portuguese; what the server refuses (a pasted
    LFEN that is no position, a PDN with an illegal move) is shown in the words of the pt-BR
    catalogue (web/i18n/pt-BR/server.json).

Usage: keyboard_browser_test.py --server lasca-web --engine lasca --static web/ --axe axe.min.js
       --out DIR. Exit codes: 0 passed, 1 failed, 77 skipped (no chromium, chromedriver or selenium).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_test as bt  # noqa: E402  (its driver, server and waiting helpers; skips without selenium)
from browser_test import Failure, wait_for, step  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
import axe_check  # noqa: E402

MAX_PLIES = 400  # a guard: a game of the chooser below ends long before


class KeyboardPage(bt.Page):
    def speech(self):
        return self.d.find_element(By.ID, "speech").text

    def focused_square(self):
        return self.d.execute_script(
            "const e = document.activeElement; return e && e.classList.contains('grid-cell') ? e.dataset.square : null;")

    def cell_index(self, name):
        return self.d.execute_script(
            "return [...document.querySelectorAll('#board-grid .grid-cell')].findIndex((c) => c.dataset.square === arguments[0]);",
            name)

    def label(self, name):
        return self.d.find_element(By.CSS_SELECTOR, f'#board-grid .grid-cell[data-square="{name}"]').get_attribute("aria-label")

    def keys(self, *keys):
        ActionChains(self.d).send_keys(*keys).perform()

    def tab_to_board(self):
        """Tabs from the top of the page to the board (one Tab stop) and returns how many presses."""
        self.d.execute_script("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0);")
        for presses in range(1, 40):
            self.keys(Keys.TAB)
            if self.focused_square():
                return presses
        raise Failure("Tab never reached the board")

    def go_to(self, name):
        """Moves the focus to a square with the arrow keys only."""
        here = self.cell_index(self.focused_square())
        there = self.cell_index(name)
        dr, dc = there // 7 - here // 7, there % 7 - here % 7
        keys = (Keys.ARROW_DOWN if dr > 0 else Keys.ARROW_UP) * abs(dr) + (Keys.ARROW_RIGHT if dc > 0 else Keys.ARROW_LEFT) * abs(dc)
        if keys:
            self.keys(keys)
        if self.focused_square() != name:
            raise Failure(f"the arrow keys went to {self.focused_square()}, not {name}")

    def status(self):
        return self.d.find_element(By.ID, "status").text.strip()


def side_word(side, lang):
    return {"en": {"white": "White", "black": "Black"}, "pt-BR": {"white": "Brancas", "black": "Pretas"}}[lang][side]


def expect_spoken(page, move, mover, lang):
    """Waits for the live region to say the move and then the status line."""
    wanted = f"{side_word(mover, lang)} {move}. "
    text = wait_for(f"the live region to say {wanted!r}", lambda: (lambda t: t if t.startswith(wanted) else None)(page.speech()))
    rest = text[len(wanted):]
    if rest != page.status():
        raise Failure(f"the live region says {text!r}: after the move not the status {page.status()!r}")
    return text


WORDS = {"en": {"selected": "selected", "target": "legal target"},
         "pt-BR": {"selected": "selecionada", "target": "destino possível"}}


def play_by_keyboard(page, move, lang="en"):
    """Plays a legal move with the arrow keys and Enter, square by square."""
    path = move["path"]
    page.go_to(path[0])
    page.keys(Keys.ENTER)
    wait_for("the piece picked", lambda: page.d.execute_script("return window.lascaApp.selected.join('-');") == path[0])
    if WORDS[lang]["selected"] not in page.label(path[0]):
        raise Failure(f"the picked square's name does not say it is selected: {page.label(path[0])!r}")
    if WORDS[lang]["target"] not in page.label(path[1]):
        raise Failure(f"a legal target's name does not say so: {page.label(path[1])!r}")
    for square in path[1:]:
        page.go_to(square)
        page.keys(Keys.ENTER)


def check_one_tab_stop_and_arrows(page):
    presses = page.tab_to_board()
    stops = page.d.execute_script("return [...document.querySelectorAll('#board-grid .grid-cell')].filter((c) => c.tabIndex === 0).length;")
    if stops != 1:
        raise Failure(f"the board has {stops} Tab stops, not one")
    start = page.focused_square()
    page.go_to("d4")
    page.keys(Keys.ARROW_UP)
    if page.focused_square() != "d5":
        raise Failure(f"ArrowUp from d4 went to {page.focused_square()} on the board seen from White")
    page.d.execute_script("document.getElementById('flip').click();")
    wait_for("the board flipped", lambda: page.d.execute_script("return window.lascaApp.flipped;"))
    page.d.execute_script("document.querySelector('#board-grid .grid-cell[tabindex=\"0\"]').focus();")
    page.go_to("d4")
    page.keys(Keys.ARROW_UP)
    if page.focused_square() != "d3":
        raise Failure(f"ArrowUp from d4 went to {page.focused_square()} on the flipped board")
    page.d.execute_script("document.getElementById('flip').click();")
    wait_for("the board back", lambda: not page.d.execute_script("return window.lascaApp.flipped;"))
    page.d.execute_script("document.querySelector('#board-grid .grid-cell[tabindex=\"0\"]').focus();")
    step(f"the board is one Tab stop (reached in {presses} presses, at {start}); arrows follow the board's orientation")


def check_commands(page):
    box = page.d.find_element(By.ID, "move-input")
    def ask(text):
        box.clear()
        box.send_keys(text + Keys.ENTER)
        return wait_for(f"the answer to {text!r}", lambda: page.speech() if page.speech() and box.get_attribute("value") == "" else None)
    answer = ask("pieces white")
    if not answer.startswith("White: 11 columns:") or "a1 white soldier" not in answer:
        raise Failure(f"'pieces white' answers {answer!r}")
    answer = ask("file c")
    if answer != "File c: c1, white soldier; c3, white soldier; c5, black soldier; c7, black soldier":
        raise Failure(f"'file c' answers {answer!r}")
    answer = ask("rank 4")
    if answer != "Rank 4: b4, empty; d4, empty; f4, empty":
        raise Failure(f"'rank 4' answers {answer!r}")
    answer = ask("square e5")
    if answer != "e5, black soldier":
        raise Failure(f"'square e5' answers {answer!r}")
    if not page.d.find_element(By.ID, "speech").is_displayed():
        raise Failure("the answers of the commands are not shown")
    box.clear()
    box.send_keys("a3-b5" + Keys.ENTER)
    answer = wait_for("the illegal move refused", lambda: (lambda t: t if "not a legal move" in t else None)(page.speech()))
    if box.get_attribute("aria-invalid") != "true" or page.state()["moves"]:
        raise Failure(f"an illegal typed move: {answer!r}, aria-invalid {box.get_attribute('aria-invalid')}")
    box.clear()
    step(f"the text mode: pieces, file, rank, square answered in the live region; an illegal move refused: {answer[:60]!r}…")


def check_keyboard_game(page, axe, out):
    """A whole game from the start, both sides by the test with the keyboard (every fifth move
    typed in the move box)."""
    d = page.d
    page.set_select("colour", "none")
    d.execute_script("document.getElementById('new-game').focus();")
    before = page.state()["gameId"]
    page.keys(Keys.ENTER)
    wait_for("a new game", lambda: (lambda s: s and s["gameId"] != before and s["moves"] == [])(page.state()))
    check_one_tab_stop_and_arrows(page)
    check_commands(page)
    d.execute_script("document.querySelector('#board-grid .grid-cell[tabindex=\"0\"]').focus();")
    # Escape drops a selection.
    first = page.state()["legal"][0]
    page.go_to(first["path"][0])
    page.keys(Keys.ENTER)
    wait_for("a selection", lambda: d.execute_script("return window.lascaApp.selected.length;") == 1)
    axe_check.check(d, axe, "/ with a piece selected")
    page.keys(Keys.ESCAPE)
    wait_for("the selection dropped", lambda: d.execute_script("return window.lascaApp.selected.length;") == 0)
    multi = 0
    typed = 0
    for ply in range(MAX_PLIES):
        s = page.state()
        if s["status"]["over"]:
            break
        legal = s["legal"]
        # Captures first (the rules force them anyway), else the soldier's move furthest forward:
        # a game that ends.
        move = max(legal, key=lambda m: (len(m["path"]), m["move"]) if s["sideToMove"] == "white"
                   else (len(m["path"]), [-ord(c) for c in m["move"]]))
        mover = s["sideToMove"]
        if ply % 5 == 4:
            box = d.find_element(By.ID, "move-input")
            box.clear()
            box.send_keys(move["move"] + Keys.ENTER)
            typed += 1
        else:
            if not page.focused_square():
                raise Failure(f"after ply {ply} the focus is not on the board")
            play_by_keyboard(page, move)
        multi += len(move["path"]) > 2
        wait_for("the move played", lambda: len(page.state()["moves"]) == ply + 1)
        expect_spoken(page, move["move"], mover, "en")
        if ply % 5 == 4:
            d.execute_script("document.querySelector('#board-grid .grid-cell[tabindex=\"0\"]').focus();")
        if ply == 6:
            # The move list's arrows do not act while the board has the focus.
            page.keys(Keys.ARROW_LEFT)
            page.round_trip()
            if page.state()["ply"] != 7:
                raise Failure("ArrowLeft on the board stepped back through the game")
    s = page.state()
    if not s["status"]["over"]:
        raise Failure("the keyboard game did not end")
    spoken = page.speech()
    if "Game over" not in spoken or s["status"]["text"] not in spoken:
        raise Failure(f"the end is not announced: {spoken!r}")
    link = d.find_elements(By.CSS_SELECTOR, "#status a.rule-link")
    if s["status"]["rule"] == "R9" and (not link or not link[0].get_attribute("href").endswith("/rules/lasca#R9")):
        raise Failure("the status' rule id is not a link to its rule")
    bt.screenshot(d, os.path.join(out, "web-keyboard-game.png"))
    step(f"a whole game by keyboard ({len(s['moves'])} plies, {multi} multi-jumps, {typed} typed): {spoken!r}")


def check_annotation_keeps_the_list(page):
    """While the game is annotated the move list is not drawn again (its items stay, a click on
    one is not lost to the next progress report)."""
    d = page.d
    page.set_select("annotate-nodes", "200000")  # deep: the annotation runs while the test looks
    d.find_element(By.ID, "annotate").click()
    wait_for("the annotation to run", lambda: (page.state() or {}).get("annotating"))
    item = d.find_element(By.CSS_SELECTOR, '#moves li.mv[data-ply="3"]')
    progress = d.find_element(By.ID, "annotate-progress").text
    wait_for("a progress report", lambda: d.find_element(By.ID, "annotate-progress").text not in (progress, ""))
    running = bool(page.state().get("annotating"))
    if running and not d.execute_script("return arguments[0].isConnected;", item):
        raise Failure("the move list was drawn again while the annotation ran")
    item.click()
    wait_for("the click on move 3 to show it", lambda: page.state()["ply"] == 3)
    if page.state().get("annotating"):
        d.find_element(By.ID, "annotate").click()
    wait_for("the annotation to stop", lambda: not page.state().get("annotating"))
    step("a click on a move is taken during an annotation" +
         ("; the move list kept its items through a progress report" if running else " (it ended before a report came)"))


def check_engine_reply_and_notice(page):
    """Against the engine (level 0) the engine's reply is announced after the person's move; a
    notice is not shown as an error."""
    d = page.d
    page.set_select("colour", "black")
    page.set_select("level", "0")
    page.new_game("black")
    d.execute_script("document.querySelector('#board-grid .grid-cell[tabindex=\"0\"]').focus();")
    move = page.state()["legal"][0]
    play_by_keyboard(page, move)
    wait_for("the engine's reply", lambda: len(page.state()["moves"]) == 2 and not page.state()["thinking"])
    reply = page.state()["moves"][1]
    text = expect_spoken(page, reply, "black", "en")
    if text != f"Black {reply}. Your move (White)":
        raise Failure(f"the engine's reply is announced as {text!r}")
    if not page.focused_square():
        raise Failure("the focus left the board after the engine's reply")
    colours = d.execute_script(
        "pageUi.showNotice('n'); const n = getComputedStyle(document.getElementById('toast')).backgroundColor;"
        "pageUi.showError('e'); const e = getComputedStyle(document.getElementById('toast')).backgroundColor;"
        "return [n, e];")
    if colours[0] == colours[1]:
        raise Failure(f"a notice looks like an error: {colours}")
    step(f"the engine's reply announced: {text!r}; a notice in its own colour")


NO_WHITE_LFEN = "-,-,-,-/-,-,-/-,b,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,- w 0 1"


def check_rule_link(page):
    """A rules' ending cites its rule as a link to its paragraph of /rules/lasca."""
    d = page.d
    field = d.find_element(By.ID, "lfen-input")
    field.clear()
    field.send_keys(NO_WHITE_LFEN + Keys.ENTER)
    wait_for("the position without White", lambda: (page.state() or {}).get("lfen") == NO_WHITE_LFEN)
    link = wait_for("the rule's link", lambda: d.find_elements(By.CSS_SELECTOR, "#status a.rule-link"))[0]
    if link.text != "R9" or not link.get_attribute("href").endswith("/rules/lasca#R9"):
        raise Failure(f"the status' rule is {link.text!r} linking to {link.get_attribute('href')!r}")
    step(f"the status cites its rule as a link: {page.status()!r} -> {link.get_attribute('href')}")


TEXT_SCRIPT = """
const out = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  const p = n.parentElement;
  if (!p || p.closest('script, style, code, #pdn-text')) continue;
  if (p.tagName !== 'OPTION' && p.getClientRects().length === 0) continue;
  const text = n.textContent.trim();
  if (text) out.push(text);
}
for (const e of document.querySelectorAll('[title], [aria-label], [placeholder]'))
  for (const a of ['title', 'aria-label', 'placeholder']) if (e.getAttribute(a)) out.push(e.getAttribute(a));
out.push(document.title);
return out;
"""


def english_left(page, static):
    """The page's texts that are an en message of lasca.json whose pt-BR text differs."""
    def load(lang):
        with open(os.path.join(static, "i18n", lang, "lasca.json"), encoding="utf-8") as f:
            return json.load(f)
    en, pt = load("en"), load("pt-BR")
    patterns = []
    for key, message in en.items():
        forms = message.values() if isinstance(message, dict) else [message]
        other = pt[key].values() if isinstance(pt[key], dict) else [pt[key]]
        for form in forms:
            if form in other or len(re.sub(r"\{\w+\}", "", form).strip(" .,:;—()")) < 3:
                continue
            regex = "".join(".+?" if part.startswith("{") else re.escape(part)
                            for part in re.split(r"(\{\w+\})", form.strip()))
            patterns.append((key, re.compile(regex)))
    found = []
    for text in page.d.execute_script(TEXT_SCRIPT):
        for key, regex in patterns:
            if regex.fullmatch(text.strip()):
                found.append(f"{key}: {text!r}")
    return found


def check_server_words(page, static):
    """The server's refusals shown in the page's language: the toast of a pasted LFEN that is no
    position and of an imported PDN with an illegal move is the pt-BR catalogue's text."""
    with open(os.path.join(static, "i18n", "pt-BR", "server.json"), encoding="utf-8") as f:
        words = json.load(f)
    d = page.d
    field = d.find_element(By.ID, "lfen-input")
    field.clear()
    field.send_keys("no position" + Keys.ENTER)
    shown = wait_for("the refused LFEN's toast", page.toast)
    if shown != words["server.lasca.badLfen"]:
        raise Failure(f"a refused LFEN reads {shown!r} in pt-BR")
    pdn = d.find_element(By.ID, "pdn-text")
    pdn.clear()
    pdn.send_keys("1. a1-b2 *")
    d.find_element(By.ID, "pdn-import").click()
    expected = words["server.lasca.pdn.badMove"].replace("{number}", "1").replace("{move}", "a1-b2")
    shown = wait_for("the refused PDN's toast", lambda: (lambda t: t if t and t != shown else None)(page.toast()))
    if shown != expected:
        raise Failure(f"a PDN with an illegal move reads {shown!r} in pt-BR, not {expected!r}")
    step(f"the server's refusals in Portuguese: {words['server.lasca.badLfen']!r}, {shown!r}")


def create_table(page, url):
    d = page.d
    d.get(url)
    wait_for("the page", page.state)
    d.execute_script("window.lascaApp.ws.send(JSON.stringify({type: 'lasca.create', clock: null}));")
    links = wait_for("the table's links", lambda: (lambda l: l if len(l) == 3 else None)(
        d.find_elements(By.CSS_SELECTOR, "#friend-links a.duel-link")))
    return {l.get_attribute("data-seat"): l.get_attribute("href") for l in links}


def check_languages(page, url, axe, static, out):
    """axe on / and a two-person table in en and pt-BR; in pt-BR no English left and a move
    announced in Portuguese, at the table too (the opponent's move)."""
    d = page.d
    for lang in ("en", "pt-BR"):
        d.get(url)
        d.add_cookie({"name": "lasca_lang", "value": lang, "path": "/"})
        d.get(url)
        wait_for("the page", page.state)
        wait_for(f"<html lang={lang}>", lambda: d.execute_script("return document.documentElement.lang;") == lang)
        axe_check.check(d, axe, f"/ ({lang})")
        links = create_table(page, url)
        axe_check.check(d, axe, f"/ with a table's links ({lang})")
        d.get(links["white"])
        wait_for("White's seat", lambda: (page.state() or {}).get("seat") == "white")
        axe_check.check(d, axe, f"a two-person table ({lang})")
        if lang == "pt-BR":
            page.tab_to_board()
            move = page.state()["legal"][0]
            play_by_keyboard(page, move, "pt-BR")
            wait_for("the move played", lambda: len(page.state()["moves"]) == 1)
            text = expect_spoken(page, move["move"], "white", "pt-BR")
            if text != f"Brancas {move['move']}. Vez das Pretas":
                raise Failure(f"the move at the table is announced as {text!r}")
            axe_check.check(d, axe, "a two-person table after a move (pt-BR)")
            left = english_left(page, static)
            d.get(url)
            wait_for("the page", page.state)
            left += english_left(page, static)
            if left:
                raise Failure("English left on the Lasca page in pt-BR:\n  " + "\n  ".join(left))
            check_server_words(page, static)
            bt.screenshot(d, os.path.join(out, "web-keyboard-pt-BR.png"))
        step(f"axe-core: no violation on / and a two-person table in {lang}" +
             ("; no English message left, the move announced in Portuguese" if lang == "pt-BR" else ""))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--engine", required=True)
    parser.add_argument("--static", required=True)
    parser.add_argument("--axe", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    for path in (bt.CHROMIUM, bt.CHROMEDRIVER):
        if not shutil.which(path):
            bt.skip(f"{path} is not installed")
    if not os.path.exists(args.axe):
        bt.skip(f"{args.axe} is missing (npm ci in tests/web/a11y)")
    os.makedirs(args.out, exist_ok=True)
    bt.OUT_DIR[0] = args.out
    folder = tempfile.mkdtemp(prefix="lasca-keyboard-")
    args.db = os.path.join(folder, "web.db")
    server, url = bt.start_server(args)
    driver = None
    try:
        driver = bt.make_driver(os.path.join(folder, "profile"))
        page = KeyboardPage(driver)
        driver.get(url)
        wait_for("the first state", page.state)
        check_keyboard_game(page, args.axe, args.out)
        check_annotation_keeps_the_list(page)
        check_engine_reply_and_notice(page)
        check_rule_link(page)
        check_languages(page, url, args.axe, args.static, args.out)
        bt.check_no_console_errors(driver, "the Lasca page by keyboard")
        return 0
    except (Failure, axe_check.AxeFailure) as e:
        if driver:
            driver.save_screenshot(os.path.join(args.out, "web-keyboard-failure.png"))
        print(f"FAIL: {e}")
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
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
