#!/usr/bin/python3
"""The rules pages and the Lasca lessons in headless Chromium (issue 56, "Done when").

One lasca-web on a database of its own and one Chromium with a profile of its own (a guest).
  - /rules/lasca holds R1..R9 and /rules/torneio G1..G12 and D1..D13, each as an element id
    (the game pages link /rules/lasca#R9); every diagram is drawn (an SVG with content).
  - /learn: the first lesson is answered with the keyboard only (Tab to the board, arrow keys,
    Enter), the polite live region's text checked after each step against the catalogue; the
    focus stays on the board after the move.
  - Wrong answers are explained: a step when a capture is available (compulsory, a link to
    R6), a jump that stops too early (R6), a move that is not legal at all, and a legal move
    that does not reach the lesson's goal (it does not win); then the right answers.
  - The progress is kept across a reload (a guest's: in the browser) and the page opens on the
    first lesson not done.
  - axe-core (WCAG 2.1 A/AA) finds no violation on the three pages, in English and in
    Brazilian Portuguese; in Portuguese no English message of the pages' catalogues (rules,
    learn, common) is shown.
  - Signed in (when the server has /api/account/progress), the progress is the account's:
    the guest's lessons join it, a lesson done is posted, a browser without them shows them.
  - No JavaScript console error (the account's progress service may answer 404 or 401 to a
    guest: those network lines are not the page's errors).

Waits only for conditions, each under browser_test's hang guard; no fixed sleeps.
Exit codes: 0 passed, 1 failed, 77 skipped (no chromium, chromedriver or selenium).
"""
import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import traceback

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_test as bt  # noqa: E402  (exits 77 at once when selenium is missing)
from browser_test import Failure, step, wait_for  # noqa: E402
import axe_check  # noqa: E402
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402

AREAS = ("common", "rules", "learn")
RULE_IDS = {
    "/rules/lasca": [f"R{n}" for n in range(1, 10)],
    "/rules/torneio": [f"G{n}" for n in range(1, 13)] + [f"D{n}" for n in range(1, 14)],
}


def catalogue(static, lang):
    messages = {}
    for area in AREAS:
        with open(os.path.join(static, "i18n", lang, f"{area}.json"), encoding="utf-8") as f:
            messages.update(json.load(f))
    return messages


class Words:
    """The catalogue's messages formatted as i18n.t does (strings only: the pages' plural-free
    messages), with markup removed as the page's text shows it."""

    def __init__(self, messages):
        self.messages = messages

    def html(self, key, **params):
        text = self.messages[key]
        return re.sub(r"\{(\w+)\}", lambda m: str(params[m.group(1)]) if m.group(1) in params else m.group(0), text)

    def __call__(self, key, **params):
        return re.sub(r"<[^>]+>", "", self.html(key, **params))


def set_language(d, url, lang):
    d.get(url + "/rules/lasca")
    d.add_cookie({"name": "lasca_lang", "value": lang, "path": "/"})


def open_page(d, url, path):
    d.get(url + path)
    wait_for(f"{path}'s words", lambda: d.execute_script(
        "return document.querySelector('header h1').textContent.trim().length > 0;"))
    if path == "/learn":
        wait_for("the lesson's position", lambda: d.execute_script(
            "return !!(window.learnApp && window.learnApp.base) && document.getElementById('learn-live').textContent.length > 0;"))


def live(d):
    return d.execute_script("return document.getElementById('learn-live').textContent;")


def wait_live(d, expected, what):
    try:
        wait_for(what, lambda: live(d) == expected)
    except Failure:
        raise Failure(f"{what}: the live region says {live(d)!r}, expected {expected!r}")
    step(f"live region: {expected}")


def check_pages(d, url, axe, lang, english, words):
    """axe-core and the rule ids on each page; in pt-BR, no English message of the catalogue."""
    set_language(d, url, lang)
    for path in ("/rules/lasca", "/rules/torneio", "/learn"):
        open_page(d, url, path)
        if d.execute_script("return document.documentElement.lang;") != lang:
            raise Failure(f"{path}: <html lang> is not {lang}")
        for rule in RULE_IDS.get(path, []):
            if not d.find_elements(By.ID, rule):
                raise Failure(f"{path} ({lang}): no element with id {rule}")
            if not d.find_element(By.ID, rule).text.strip():
                raise Failure(f"{path} ({lang}): the rule {rule} has no text")
        for svg in d.find_elements(By.CSS_SELECTOR, "svg.lasca-diagram, svg.torneio-diagram"):
            if not d.execute_script("return arguments[0].childElementCount > 10;", svg):
                raise Failure(f"{path} ({lang}): a diagram is not drawn")
        axe_check.check(d, axe, f"{path} ({lang})")
        step(f"{path} ({lang}): axe-core finds no violation; rule ids present")
        if lang != "en":
            shown = d.execute_script("""
                const parts = [document.body.innerText, document.title];
                for (const e of document.querySelectorAll('[aria-label],[placeholder],[title]'))
                  parts.push(e.getAttribute('aria-label') || '', e.getAttribute('placeholder') || '', e.getAttribute('title') || '');
                return parts.join('\\n');""")
            left = [key for key, fragment in english if fragment in shown]
            if left:
                raise Failure(f"{path} ({lang}): English messages shown: {left[:5]}")
            step(f"{path} ({lang}): no English message of the catalogues")


def english_fragments(en, other):
    """(key, a piece of its English text) for every message that the other language words
    differently: the longest piece between placeholders, when it is long enough to be telling."""
    out = []
    for key, text in en.items():
        if not isinstance(text, str) or other.get(key) == text:
            continue
        plain = re.sub(r"<[^>]+>", "", text)
        pieces = [p.strip() for p in re.split(r"\{\w+\}", plain)]
        longest = max(pieces, key=len)
        if len(longest) >= 8:
            out.append((key, longest))
    return out


def press(d, *keys):
    ActionChains(d).send_keys(*keys).perform()


def focused_square(d):
    return d.execute_script(
        "const e = document.activeElement; return e && e.matches && e.matches('#learn-board rect.sq') ? e.dataset.square : null;")


def check_keyboard_lesson(d, url, w):
    """Lesson 1 by the keyboard only: Tab to the board, arrows to c3, Enter, arrow to d4, Enter."""
    d.get(url + "/learn")
    d.execute_script("localStorage.clear();")
    open_page(d, url, "/learn")
    wait_live(d, w("learn.lesson.intro", n=1, total=8, title=w("learn.first.title"), task=w("learn.first.task")),
              "the first lesson's introduction")
    d.execute_script("if (document.activeElement) document.activeElement.blur();")  # Tab from the page's start
    for _ in range(40):
        if focused_square(d):
            break
        press(d, Keys.TAB)
    if focused_square(d) != "a1":
        raise Failure(f"Tab did not reach the board's first square (focus on {focused_square(d)})")
    step("Tab reaches the board (a1)")
    press(d, Keys.ARROW_UP, Keys.ARROW_UP)
    if focused_square(d) != "c3":
        raise Failure(f"two presses of the up arrow from a1 reached {focused_square(d)}, not c3")
    label = d.execute_script("return document.activeElement.getAttribute('aria-label');")
    if label != w("learn.square.piece", square="c3", piece=w("learn.piece.w")):
        raise Failure(f"c3's name is {label!r}")
    press(d, Keys.ENTER)
    wait_live(d, w("learn.select.picked", piece=w("learn.square.piece", square="c3", piece=w("learn.piece.w"))),
              "c3 picked")
    press(d, Keys.ARROW_UP)
    label = d.execute_script("return document.activeElement.getAttribute('aria-label');")
    if label != w("learn.square.target", label=w("learn.square.empty", square="d4")):
        raise Failure(f"d4 is not named a legal target: {label!r}")
    press(d, Keys.SPACE)
    wait_live(d, w("learn.verdict.correct", move="c3-d4", why=w("learn.first.done")) + " " + w("learn.verdict.next"),
              "the first lesson answered")
    if focused_square(d) != "d4":
        raise Failure(f"the focus left the board after the move (on {focused_square(d)})")
    wait_for("the progress", lambda: d.find_element(By.ID, "learn-progress").text == w("learn.progress", count=1, total=8))
    step("lesson 1 done by the keyboard only; the focus stays on d4")


def type_move(d, text):
    box = d.find_element(By.ID, "learn-move")
    box.clear()
    box.send_keys(text, Keys.ENTER)


def check_wrong_answers(d, url, w):
    d.find_element(By.ID, "learn-next").click()
    wait_live(d, w("learn.lesson.intro", n=2, total=8, title=w("learn.capture.title"), task=w("learn.capture.task")),
              "lesson 2's introduction")
    type_move(d, "g3-f4")
    wait_live(d, w("learn.verdict.mustCapture", move="g3-f4"), "a step when a capture must be taken")
    if not d.find_elements(By.CSS_SELECTOR, '#learn-live a[href="/rules/lasca#R6"]'):
        raise Failure("the compulsory capture's explanation has no link to R6")
    type_move(d, "c3-b4")
    wait_live(d, w("learn.verdict.mustCapture", move="c3-b4"), "another step when a capture must be taken")
    type_move(d, "c3xe5")
    wait_live(d, w("learn.verdict.correct", move="c3xe5", why=w("learn.capture.done")) + " " + w("learn.verdict.next"),
              "lesson 2 answered")

    d.find_element(By.ID, "learn-next").click()
    wait_live(d, w("learn.lesson.intro", n=3, total=8, title=w("learn.multi.title"), task=w("learn.multi.task")),
              "lesson 3's introduction")
    type_move(d, "c3xe5")
    wait_live(d, w("learn.verdict.keepJumping", move="c3xe5"), "a jump that stops too early")
    type_move(d, "c3-c4")
    wait_live(d, w("learn.verdict.mustCapture", move="c3-c4"), "a move that is no move at all, with a capture available")
    type_move(d, "hello")
    wait_live(d, w("learn.verdict.badText", text="hello"), "a text that is not a move")

    # The won position: a legal move that does not win, then the one that does.
    d.find_element(By.CSS_SELECTOR, '#lesson-list button[data-lesson="win"]').click()
    wait_live(d, w("learn.lesson.intro", n=8, total=8, title=w("learn.win.title"), task=w("learn.win.task")),
              "lesson 8's introduction")
    type_move(d, "g3-f4")
    wait_live(d, w("learn.verdict.notGoal", move="g3-f4", why=w("learn.win.wrong")), "a legal move that does not win")
    wait_for("the lesson's position back", lambda: d.execute_script(
        "const a = window.learnApp; return a.shown === a.base && !a.busy;"))
    type_move(d, "b2-c3")
    wait_live(d, w("learn.verdict.illegal", move="b2-c3"), "a move that is not legal")
    for square in ("a1", "b2"):
        d.find_element(By.CSS_SELECTOR, f'#learn-board rect.sq[data-square="{square}"]').click()
    wait_live(d, w("learn.verdict.correct", move="a1-b2", why=w("learn.win.done")) + " " + w("learn.verdict.last"),
              "the winning move, by clicks")


def check_reload(d, url, w):
    open_page(d, url, "/learn")
    stored = d.execute_script("return JSON.parse(localStorage.getItem('lasca.learn.done') || '[]');")
    if sorted(stored) != ["capture", "first", "win"]:
        raise Failure(f"the browser keeps {stored}, not the three lessons done")
    wait_for("the progress after a reload",
             lambda: d.find_element(By.ID, "learn-progress").text == w("learn.progress", count=3, total=8))
    done = d.execute_script(
        "return [...document.querySelectorAll('#lesson-list button')].filter((b) => b.querySelector('.done-mark')).map((b) => b.dataset.lesson);")
    if sorted(done) != ["capture", "first", "win"]:
        raise Failure(f"after a reload the list marks {done} done")
    wait_live(d, w("learn.lesson.intro", n=3, total=8, title=w("learn.multi.title"), task=w("learn.multi.task")),
              "the page opens on the first lesson not done")
    step("the progress is kept across a reload")


def fetch(d, method, path, body=None):
    """The page's own same-origin fetch: [status, parsed JSON or null]."""
    return d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const init = {method: arguments[0], credentials: "same-origin", headers: {"Content-Type": "application/json"}};
        if (arguments[2] !== null) init.body = JSON.stringify(arguments[2]);
        fetch(arguments[1], init).then(async (r) => done([r.status, await r.json().catch(() => null)]))
          .catch((e) => done([0, String(e)]));""", method, path, body)


def check_account_progress(d, url, w):
    """Signed in, the progress is the account's: the lessons done as a guest join it, a lesson
    done is posted, and a browser without them shows the account's. A server without
    /api/account/progress (404) leaves the page on the browser's store: that part is skipped."""
    open_page(d, url, "/learn")
    status, _ = fetch(d, "GET", "/api/account/progress")
    if status == 404:
        step("the server has no /api/account/progress: the account's progress is not checked")
        return
    if status != 401:
        raise Failure(f"a guest's GET /api/account/progress answered {status}, not 401")
    status, answer = fetch(d, "POST", "/api/signup", {"name": "learn_test", "password": "learn-test-password"})
    if status != 200:
        raise Failure(f"sign-up answered {status}: {answer}")
    open_page(d, url, "/learn")  # the guest's three lessons join the account
    wait_for("the guest's lessons on the account", lambda: sorted(
        (fetch(d, "GET", "/api/account/progress")[1] or {}).get("learn", [])) == ["capture", "first", "win"])
    if d.find_element(By.ID, "learn-kept").text != w("learn.kept.account"):
        raise Failure("the page does not say the progress is kept on the account")
    type_move(d, "c3xe5xg7")  # lesson 3, the first not done
    wait_live(d, w("learn.verdict.correct", move="c3xe5xg7", why=w("learn.multi.done")) + " " + w("learn.verdict.next"),
              "lesson 3 answered, signed in")
    wait_for("lesson 3 on the account", lambda: "multi" in (fetch(d, "GET", "/api/account/progress")[1] or {}).get("learn", []))
    d.execute_script("localStorage.clear();")
    open_page(d, url, "/learn")
    wait_for("the account's progress in a browser without it",
             lambda: d.find_element(By.ID, "learn-progress").text == w("learn.progress", count=4, total=8))
    step("signed in, the progress is kept on the account")


def check_no_console_errors(d, where):
    errors = [e for e in d.get_log("browser") if e["level"] == "SEVERE"
              and "/api/account/progress" not in e["message"]]
    if errors:
        raise Failure(f"{where}: {len(errors)} JavaScript console errors, the first: {errors[:3]}")
    step(f"{where}: no JavaScript console errors")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", "--server", dest="web", required=True, help="lasca-web")
    parser.add_argument("--engine", required=True)
    parser.add_argument("--static", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "web"))
    parser.add_argument("--out", required=True)
    parser.add_argument("--axe", required=True, help="axe-core's axe.min.js")
    args = parser.parse_args()
    for path in (bt.CHROMIUM, bt.CHROMEDRIVER):
        if not shutil.which(path):
            bt.skip(f"{path} is not installed")
    if not os.path.isfile(args.axe):
        bt.skip(f"{args.axe} is missing (npm ci in tests/web/a11y)")
    args.server = args.web  # browser_test.start_server's name for it
    args.static = os.path.abspath(args.static)
    os.makedirs(args.out, exist_ok=True)
    root = tempfile.mkdtemp(prefix="lasca-learn-")
    args.db = os.path.join(root, "web.db")  # this test's own database
    en, pt = catalogue(args.static, "en"), catalogue(args.static, "pt-BR")
    w = Words(en)
    server, url = bt.start_server(args)
    url = url.rstrip("/")
    driver = None
    try:
        driver = bt.make_driver(os.path.join(root, "profile"))
        set_language(driver, url, "en")
        check_keyboard_lesson(driver, url, w)
        check_wrong_answers(driver, url, w)
        check_reload(driver, url, w)
        bt.screenshot(driver, os.path.join(args.out, "learn.png"))
        check_no_console_errors(driver, "the lessons")
        check_pages(driver, url, args.axe, "en", [], w)
        english = english_fragments(en, pt)
        if len(english) < 100:
            raise Failure(f"only {len(english)} English messages to look for: the catalogues were not read")
        check_pages(driver, url, args.axe, "pt-BR", english, w)
        bt.screenshot(driver, os.path.join(args.out, "learn-pt-BR.png"))
        check_no_console_errors(driver, "the rules and lessons pages")
        set_language(driver, url, "en")
        check_account_progress(driver, url, w)
        check_no_console_errors(driver, "the lessons, signed in")
        print(f"screenshots in {args.out}")
        return 0
    except (Failure, axe_check.AxeFailure) as e:
        if driver:
            try:
                driver.save_screenshot(os.path.join(args.out, "learn-failure.png"))
            except Exception:
                pass
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
        except Exception:
            server.kill()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
