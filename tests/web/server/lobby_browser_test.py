#!/usr/bin/python3
"""The lobby in three headless Chromiums, driven by clicks like people (issue 55, "Done when").

One lasca-web on a database of its own; three browsers with profiles of their own (so their
cookies differ): A and B sign up through the lobby's form and see their names; a guest G opens
the lobby. A makes a rated blitz seek (3 min + 2 s) and a casual one without a clock: B sees both,
G only the casual one. B accepts the rated seek: A and B land on the Lasca page at one table
(same table id, different tokens), each page naming both players and saying "Rated". G reloads
the lobby, finds the game among the games being played and opens it as a watcher. White moves by
clicks, Black moves, Black resigns (answering the page's confirm()): all three pages show the
moves and the result. Each player's /api/@/<name> then holds the blitz rating, deviation and
volatility this test computes itself with Glicko-2 (Glickman's "Example of the Glicko-2 system",
lichess's start 1500/500/0.09, tau 0.75), to 1e-6, and the page /@/<name> shows the rounded
rating with "?" (provisional). No JavaScript console errors on any page. Screenshots go to --out.

Then the languages: the lobby, /games and a player's page in English and in Brazilian Portuguese
(the lasca_lang cookie), each with <html lang> set and, in Portuguese, no message of the English
catalogues (common, lobby, pages) left on the page, and a refused sign-in shown in the words of
the pt-BR catalogue (the answer's key); with --axe, axe-core finds no WCAG 2.1 A/AA violation on
any of them. A signed-in player picks Português in the lobby's language picker: the
page comes back in Portuguese, and so does it after signing in again in another browser (the
account keeps the choice).

Reuses browser_test.py's helpers (the module beside this one). Waits only for conditions, each
under browser_test's hang guard; no fixed sleeps.

Exit codes: 0 passed, 1 failed, 77 skipped (no chromium, chromedriver or selenium).
"""
import argparse
import json
import math
import re
import os
import shutil
import subprocess
import sys
import tempfile
import traceback
from urllib.parse import parse_qs, urlparse

sys.dont_write_bytecode = True  # no __pycache__ beside the sources
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_test as bt  # noqa: E402  (exits 77 at once when selenium is missing)
from browser_test import Failure, Page, step, wait_for  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select  # noqa: E402

PASSWORD = "lobby-test-password"
NAME_A = "Ana_lobby"
NAME_B = "Bo_lobby"
BLITZ = "180000/2000"  # 3 min + 2 s: 180 + 40 x 2 = 260 s estimated, blitz

# ---- Glicko-2, as in Glickman's "Example of the Glicko-2 system" ---------------------------

SCALE = 173.7178
TAU = 0.75
EPSILON = 0.000001
START = (1500.0, 500.0, 0.09)  # lichess's start: rating, RD, volatility


def glicko2(player, games, tau=TAU):
    """The rating (r, RD, sigma) after one rating period with these games, each (r_j, RD_j, s_j)
    against the opponent's rating before the period: steps 2 to 8 of the paper."""
    r, rd, sigma = player
    mu, phi = (r - 1500) / SCALE, rd / SCALE
    g = lambda phi_j: 1 / math.sqrt(1 + 3 * phi_j ** 2 / math.pi ** 2)
    E = lambda mu_j, phi_j: 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))
    scaled = [((rj - 1500) / SCALE, rdj / SCALE, s) for rj, rdj, s in games]
    v = 1 / sum(g(pj) ** 2 * E(mj, pj) * (1 - E(mj, pj)) for mj, pj, _ in scaled)
    total = sum(g(pj) * (s - E(mj, pj)) for mj, pj, s in scaled)
    delta = v * total
    # Step 5: the new volatility by the Illinois algorithm.
    a = math.log(sigma ** 2)

    def f(x):
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / tau ** 2
    A = a
    if delta ** 2 > phi ** 2 + v:
        B = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        B = a - k * tau
    fA, fB = f(A), f(B)
    while abs(B - A) > EPSILON:
        C = A + (A - B) * fA / (fB - fA)
        fC = f(C)
        if fC * fB < 0:
            A, fA = B, fB
        else:
            fA /= 2
        B, fB = C, fC
    sigma_new = math.exp(A / 2)
    # Steps 6 to 8.
    phi_star = math.sqrt(phi ** 2 + sigma_new ** 2)
    phi_new = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu_new = mu + phi_new ** 2 * total
    return (SCALE * mu_new + 1500, SCALE * phi_new, sigma_new)


def check_glicko2_itself():
    """The test's own Glicko-2 against the paper's worked example (tau 0.5)."""
    r, rd, sigma = glicko2((1500, 200, 0.06), [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)], tau=0.5)
    if abs(r - 1464.06) > 0.01 or abs(rd - 151.52) > 0.01 or abs(sigma - 0.05999) > 0.00001:
        raise Failure(f"the test's Glicko-2 misses the paper's example: {r}, {rd}, {sigma}")


def round_half_away(x):
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


# ---- the lobby page ---------------------------------------------------------------------------

def lobby_ready(d):
    return d.execute_script("return document.body.dataset.lobby;") == "ready"


def open_lobby(d, url):
    d.get(url + "lobby")
    wait_for("the lobby's hello", lambda: lobby_ready(d))


def sign_up(d, url, name):
    open_lobby(d, url)
    field = d.find_element(By.ID, "account-name")
    field.clear()
    field.send_keys(name)
    field = d.find_element(By.ID, "account-password")
    field.clear()
    field.send_keys(PASSWORD)
    d.find_element(By.ID, "signup").click()
    # The page opens its WebSocket again after the answer: the new hello knows the account.
    wait_for(f"{name} signed in", lambda: lobby_ready(d) and d.find_element(By.ID, "me-name").text == name
             and d.find_element(By.ID, "signed-in").is_displayed()
             and d.find_element(By.ID, "seek-rated").is_enabled())
    error = d.find_element(By.ID, "account-error").text
    if error:
        raise Failure(f"signing up {name} says {error!r}")
    step(f"{name} signed up through the lobby's form; #me-name shows it")


def seek_rows(d):
    """The seeks listed: {id: (texts of the cells, the action button's text)}."""
    return d.execute_script("""
        const rows = {};
        for (const tr of document.querySelectorAll('#seeks tr[data-seek]')) {
          const cells = [...tr.querySelectorAll('td')].map((td) => td.textContent);
          const b = tr.querySelector('button');
          rows[tr.dataset.seek] = [cells, b ? b.textContent : null];
        }
        return rows;""")


def make_seek(d, clock, rated):
    before = set(seek_rows(d))
    Select(d.find_element(By.ID, "seek-clock")).select_by_value(clock)
    box = d.find_element(By.ID, "seek-rated")
    if box.is_selected() != rated:
        box.click()
    d.find_element(By.ID, "seek-create").click()
    rows = wait_for("the new seek listed", lambda: (lambda r: r if len(r) == len(before) + 1 else None)(seek_rows(d)))
    (new,) = set(rows) - before
    cells, action = rows[new]
    if action != "Cancel":
        raise Failure(f"the maker's own seek offers {action!r}, not Cancel: {cells}")
    return new, cells


def check_seeks(a, b, g, url, out):
    rated, rated_cells = make_seek(a, BLITZ, True)
    casual, casual_cells = make_seek(a, "", False)
    if "rated blitz" not in rated_cells[3] or "3 min + 2 s" not in rated_cells[2] or rated_cells[0] != NAME_A:
        raise Failure(f"the rated blitz seek reads {rated_cells}")
    if "casual" not in casual_cells[3] or "no clock" not in casual_cells[2]:
        raise Failure(f"the casual seek reads {casual_cells}")
    step(f"A made a rated blitz seek {rated_cells} and a casual one without a clock {casual_cells}")
    rows = wait_for("B to see both seeks", lambda: (lambda r: r if set(r) == {rated, casual} else None)(seek_rows(b)))
    if any(action != "Accept" for _, action in rows.values()):
        raise Failure(f"B is not offered to accept A's seeks: {rows}")
    step("B sees both seeks, each with Accept")
    # The rated seek was made first: had it been sent to G, it came before the casual one.
    rows = wait_for("G to see the casual seek", lambda: (lambda r: r if casual in r else None)(seek_rows(g)))
    if set(rows) != {casual}:
        raise Failure(f"the guest sees {len(rows)} seeks, not only the casual one: {rows}")
    if "rated" in g.find_element(By.ID, "seeks").text:
        raise Failure("the guest's list shows a rated seek")
    step("the guest G sees only the casual seek (1 row, the rated one absent)")
    bt.screenshot(a, os.path.join(out, "lobby-seeks.png"))
    return rated


def seat_of(page):
    return (page.state() or {}).get("seat")


def check_accept(a, b, rated, url):
    """B accepts A's rated seek: both land on the Lasca page at one table. Returns
    {"white": Page, "black": Page} and the table's id."""
    b.find_element(By.CSS_SELECTOR, f'#seeks tr[data-seek="{rated}"] button').click()
    pages = {NAME_A: Page(a), NAME_B: Page(b)}
    for name, p in pages.items():
        wait_for(f"{name}'s seat at the table", lambda: seat_of(p) in ("white", "black"))
    qa, qb = (parse_qs(urlparse(d.current_url).query) for d in (a, b))
    if urlparse(a.current_url).path != "/" or "table" not in qa or "token" not in qa:
        raise Failure(f"A is not on the Lasca page's table: {a.current_url}")
    if qa["table"] != qb["table"] or qa["token"] == qb["token"]:
        raise Failure(f"not one table with two seats: {a.current_url} and {b.current_url}")
    seats = {seat_of(p): (name, p) for name, p in pages.items()}
    if set(seats) != {"white", "black"}:
        raise Failure(f"the two players do not hold the two colours: {list(seats)}")
    want = f"White: {seats['white'][0]}, Black: {seats['black'][0]}."
    for name, p in pages.items():
        text = wait_for(f"{name}'s duel bar", lambda: (lambda t: t if want in t else None)(
            p.d.find_element(By.ID, "duel-seat").text))
        if "Rated." not in text or not p.state().get("rated"):
            raise Failure(f"{name}'s page does not say the game is rated: {text!r}")
        if p.state()["clock"] is None:
            raise Failure(f"{name}'s table has no clock")
    step(f"B accepted: both at table {qa['table'][0]} with their own tokens; {want} Rated")
    return {colour: p for colour, (_, p) in seats.items()}, {colour: n for colour, (n, _) in seats.items()}, qa["table"][0]


def check_watcher(g, url, table, names):
    open_lobby(g, url)
    link = wait_for("the game among the games being played", lambda: next(
        (l for l in g.find_elements(By.CSS_SELECTOR, "#games a") if f"table={table}" in (l.get_attribute("href") or "")), None))
    text = link.text
    if names["white"] not in text or names["black"] not in text:
        raise Failure(f"the game's link reads {text!r}")
    link.click()
    watcher = Page(g)
    wait_for("the watcher's seat", lambda: seat_of(watcher) == "watch")
    if parse_qs(urlparse(g.current_url).query).get("table") != [table]:
        raise Failure(f"the watch link opened another table: {g.current_url}")
    step(f"G reloaded the lobby, found {text!r} and opened it as a watcher")
    return watcher


def play(players, watcher, out):
    everyone = [players["white"], players["black"], watcher]
    for ply, colour in enumerate(("white", "black")):
        mover = players[colour]
        legal = wait_for(f"{colour}'s turn", lambda: (lambda s: s["legal"] if s and len(s["moves"]) == ply and s["legal"] else None)(mover.state()))
        for square in legal[0]["path"]:
            mover.click_square(square)
        wait_for(f"{colour}'s move on every page", lambda: all(len(p.state()["moves"]) == ply + 1 for p in everyone))
    moves = players["white"].state()["moves"]
    if any(p.state()["moves"] != moves for p in everyone):
        raise Failure("the three pages show different moves")
    if watcher.state()["legal"] or watcher.d.find_element(By.ID, "duel-resign").is_enabled():
        raise Failure("the watcher could act")
    step(f"White and Black moved by clicks ({', '.join(moves)}); the watcher saw both moves")
    bt.screenshot(players["white"].d, os.path.join(out, "lobby-game.png"))
    black = players["black"].d
    black.find_element(By.ID, "duel-resign").click()
    wait_for("the question", lambda: bt._alert(black)).accept()
    for p in everyone:
        wait_for("the end on every page", lambda: p.state()["status"]["over"])
        text = wait_for("the result shown", lambda: (lambda t: t if "Black resigned" in t else None)(
            p.d.find_element(By.ID, "status").text))
    if any(p.state()["status"] != players["white"].state()["status"] for p in everyone):
        raise Failure("the three pages show different results")
    if watcher.state()["moves"] != moves:
        raise Failure("the watcher's moves changed at the end")
    bt.screenshot(players["white"].d, os.path.join(out, "lobby-game-end.png"))
    bt.screenshot(watcher.d, os.path.join(out, "lobby-watch.png"))
    step(f"Black resigned: every page says {text!r}")


def fetch_json(d, path):
    return d.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0], { credentials: 'same-origin' })
          .then((r) => r.json().then((j) => done({ status: r.status, body: j })))
          .catch((e) => done({ status: 0, body: String(e) }));""", path)


def check_ratings(players, names, url):
    white, black = glicko2(START, [(START[0], START[1], 1.0)]), glicko2(START, [(START[0], START[1], 0.0)])
    expected = {"white": white, "black": black}
    for colour, p in players.items():
        r, rd, sigma = expected[colour]
        # lichess's bounds (RD 45 to 500, rating at least 400, volatility at most 0.1) must not
        # bind here, or the server's figures are not the paper's.
        if not (45 <= rd <= 500 and r >= 400 and sigma <= 0.1):
            raise Failure(f"the expected rating {expected[colour]} lies outside lichess's bounds")
        name = names[colour]

        def blitz():
            answer = fetch_json(p.d, f"/api/@/{name}")
            if answer["status"] != 200:
                raise Failure(f"/api/@/{name} answered {answer['status']}: {answer['body']}")
            return next((x for x in answer["body"].get("ratings", []) if x["category"] == "blitz"), None)
        got = wait_for(f"{name}'s blitz rating", blitz)
        for key, want in (("rating", r), ("deviation", rd), ("volatility", sigma)):
            if abs(got[key] - want) > 1e-6:
                raise Failure(f"{name}'s blitz {key} is {got[key]!r}, the test's Glicko-2 gives {want!r}")
        if got["provisional"] is not True:
            raise Failure(f"{name}'s blitz rating is not provisional: {got}")
        p.d.get(url + "@/" + name)
        shown = f"{round_half_away(r)}?"
        cell = wait_for(f"{name}'s page", lambda: next(
            (tr.find_element(By.CSS_SELECTOR, "td.rating").text for tr in p.d.find_elements(By.CSS_SELECTOR, "tr")
             if tr.find_elements(By.CSS_SELECTOR, "td.rating") and tr.text.startswith("blitz")), None))
        if cell != shown:
            raise Failure(f"/@/{name} shows the blitz rating {cell!r}, not {shown!r}")
        step(f"{name} ({colour}): blitz {got['rating']:.6f} / {got['deviation']:.6f} / {got['volatility']:.8f} "
             f"= the test's Glicko-2; /@/{name} shows {shown}")


# ---- the languages -----------------------------------------------------------------------------

AREAS = ("common", "lobby", "pages")


def english_left_pieces(static):
    """The English messages of AREAS that a Portuguese page must not show: each form's longest
    piece between placeholders and markup, of 5 characters or more, when the Portuguese message
    of the same key does not hold it too."""
    pieces = set()
    for area in AREAS:
        with open(os.path.join(static, "i18n", "en", f"{area}.json"), encoding="utf-8") as f:
            en = json.load(f)
        with open(os.path.join(static, "i18n", "pt-BR", f"{area}.json"), encoding="utf-8") as f:
            pt = json.load(f)
        for key, message in en.items():
            forms = message.values() if isinstance(message, dict) else [message]
            theirs = json.dumps(pt.get(key), ensure_ascii=False)
            for text in forms:
                parts = [p.strip(" .,:;()") for p in re.split(r"\{\w+\}|<[^>]*>", text)]
                longest = max(parts, key=len, default="")
                if len(longest) >= 5 and longest not in theirs:
                    pieces.add(longest)
    return sorted(pieces)


def page_words(d):
    """What a person reads or hears of the page: its text, title, and the names and hints of its
    elements."""
    return d.execute_script("""
        const parts = [document.title, document.body.innerText];
        for (const e of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]'))
          for (const a of ['aria-label', 'title', 'placeholder', 'alt'])
            if (e.getAttribute(a)) parts.push(e.getAttribute(a));
        for (const o of document.querySelectorAll('option')) parts.push(o.textContent);
        return parts.join('\\n');""")


def set_language(d, url, lang):
    d.get(url + "games")
    d.delete_cookie("lasca_lang")
    d.add_cookie({"name": "lasca_lang", "value": lang, "path": "/"})


def check_page_language(d, where, lang, english, axe):
    got = d.execute_script("return document.documentElement.lang;")
    if got != lang:
        raise Failure(f"{where} in {lang} has <html lang={got!r}>")
    if lang == "pt-BR":
        text = page_words(d)
        left = [p for p in english if re.search(r"(?<![\w-])" + re.escape(p) + r"(?![\w-])", text)]
        if left:
            raise Failure(f"{where} in pt-BR still shows English: {left[:8]}")
    if axe:
        import axe_check
        try:
            axe_check.check(d, axe, f"{where} ({lang})")
        except axe_check.AxeFailure as e:
            raise Failure(str(e))
    step(f"{where} in {lang}: <html lang> {lang}" + (", no English message left" if lang == "pt-BR" else "")
         + (", axe: 0 violations" if axe else ""))


def check_account_error(g, static):
    """In pt-BR the account form shows the server's refusal in Portuguese (the answer's key). The
    browser logs the 401 as a console error: that one is taken out of the log, any other fails."""
    with open(os.path.join(static, "i18n", "pt-BR", "server.json"), encoding="utf-8") as f:
        expected = json.load(f)["server.account.wrongNameOrPassword"]
    errors = [e for e in g.get_log("browser") if e["level"] == "SEVERE"]
    for field, value in (("account-name", "Nobody_here"), ("account-password", "not the password")):
        box = g.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    g.find_element(By.ID, "signin").click()
    shown = wait_for("the refused sign-in", lambda: g.find_element(By.ID, "account-error").text)
    if shown != expected:
        raise Failure(f"a refused sign-in reads {shown!r} in pt-BR, not {expected!r}")
    errors += [e for e in g.get_log("browser") if e["level"] == "SEVERE" and "/api/signin" not in e["message"]]
    if errors:
        raise Failure(f"G's lobby: {len(errors)} JavaScript console errors, the first: {errors[:3]}")
    step(f"the account form in pt-BR: a refused sign-in reads {shown!r}")


def check_languages(g, a, url, args, player, out):
    english = english_left_pieces(args.static)
    if len(english) < 50:
        raise Failure(f"only {len(english)} English messages to look for: the catalogues were not read")
    for lang in ("en", "pt-BR"):
        set_language(g, url, lang)
        open_lobby(g, url)
        check_page_language(g, "the lobby", lang, english, args.axe)
        if lang == "pt-BR":
            check_account_error(g, args.static)
        bt.screenshot(g, os.path.join(out, f"lobby-{lang}.png"))
        g.get(url + "games")
        wait_for("/games", lambda: g.find_elements(By.CSS_SELECTOR, "table.games"))
        check_page_language(g, "/games", lang, english, args.axe)
        g.get(url + "@/" + player)
        wait_for(f"/@/{player}", lambda: g.find_elements(By.CSS_SELECTOR, "table.ratings"))
        check_page_language(g, f"/@/{player}", lang, english, args.axe)
        bt.screenshot(g, os.path.join(out, f"player-{lang}.png"))
    # A signed-in player's lobby, then its language picker: the choice is kept on the account.
    open_lobby(a, url)
    wait_for("A's account shown", lambda: a.find_element(By.ID, "signed-in").is_displayed())
    check_page_language(a, "a signed-in lobby", "en", english, args.axe)
    Select(a.find_element(By.CSS_SELECTOR, "select[data-lang-picker]")).select_by_value("pt-BR")
    wait_for("the lobby again in Portuguese", lambda: a.execute_script(
        "return document.documentElement.lang === 'pt-BR' && document.body.dataset.lobby === 'ready';"))
    wait_for("A's account shown", lambda: a.find_element(By.ID, "signed-in").is_displayed())
    check_page_language(a, "a signed-in lobby after picking Português", "pt-BR", english, args.axe)
    me = fetch_json(a, "/api/me")
    if me["body"].get("lang") != "pt-BR":
        raise Failure(f"the account did not keep the language: /api/me says {me['body']}")
    # Another browser (G's, its cookie English) signing in as A gets the account's language.
    set_language(g, url, "en")
    open_lobby(g, url)
    for field, value in (("account-name", NAME_A), ("account-password", PASSWORD)):
        box = g.find_element(By.ID, field)
        box.clear()
        box.send_keys(value)
    g.find_element(By.ID, "signin").click()
    wait_for("G signed in as A", lambda: lobby_ready(g) and g.find_element(By.ID, "me-name").text == NAME_A)
    cookie = g.get_cookie("lasca_lang")
    if not cookie or cookie["value"] != "pt-BR":
        raise Failure(f"signing in did not set the account's language: lasca_lang is {cookie}")
    g.get(url + "games")
    wait_for("/games", lambda: g.find_elements(By.CSS_SELECTOR, "table.games"))
    check_page_language(g, "/games after signing in", "pt-BR", english, None)


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
    args.server = args.web  # browser_test.start_server's name for it
    args.static = os.path.abspath(args.static)
    os.makedirs(args.out, exist_ok=True)
    bt.OUT_DIR[0] = args.out
    check_glicko2_itself()
    root = tempfile.mkdtemp(prefix="lasca-lobby-")
    args.db = os.path.join(root, "web.db")  # this test's own database
    server, url = bt.start_server(args)
    drivers = {}
    try:
        for who in ("A", "B", "G"):
            drivers[who] = bt.make_driver(os.path.join(root, "profile-" + who))
        a, b, g = drivers["A"], drivers["B"], drivers["G"]
        step("three chromiums started")
        sign_up(a, url, NAME_A)
        sign_up(b, url, NAME_B)
        open_lobby(g, url)
        if g.find_element(By.ID, "signed-in").is_displayed() or g.find_element(By.ID, "seek-rated").is_enabled():
            raise Failure("the guest's lobby shows an account or lets it make a rated seek")
        step("the guest G opened the lobby")
        rated = check_seeks(a, b, g, url, args.out)
        for who, d in drivers.items():
            bt.check_no_console_errors(d, f"{who}'s lobby")
        players, names, table = check_accept(a, b, rated, url)
        watcher = check_watcher(g, url, table, names)
        play(players, watcher, args.out)
        for who, d in drivers.items():
            bt.check_no_console_errors(d, f"{who}'s Lasca page")
        check_ratings(players, names, url)
        check_languages(g, a, url, args, NAME_A, args.out)
        for who, d in drivers.items():
            bt.check_no_console_errors(d, f"{who}'s pages")
        print(f"screenshots in {args.out}")
        return 0
    except Failure as e:
        for who, d in drivers.items():
            try:
                d.save_screenshot(os.path.join(args.out, f"lobby-failure-{who}.png"))
            except Exception:
                pass
        print(f"FAIL: {e}")
        return 1
    except Exception:  # a broken expectation of the test itself: fail at once, never hang
        traceback.print_exc()
        print("FAIL: an unexpected exception (above)")
        return 1
    finally:
        for d in drivers.values():
            bt.quit_driver(d)
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
