#!/usr/bin/python3
"""A two-person game with a clock played by clicks in two headless Chromiums through HAProxy in
front of three lasca-web instances on one PostgreSQL database (scripts/cluster.sh), across a
kill -9 of the table's home: both pages connect again by themselves (web/ui.js), show the game
as it was from its new home, and play on; no JavaScript console errors.

    cluster_browser_test.py BINDIR SCRIPTSDIR

Exit codes: 0 passed, 1 failed, 77 skipped (no chromium, chromedriver or selenium). Every wait
is a hang guard; nothing is decided by the machine's speed."""
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "server"))
sys.path.insert(0, HERE)

import browser_test as bt  # noqa: E402  (its Chromium, its waits, its skip)
from cluster_test import Cluster, run  # noqa: E402


def links_of(page, url):
    """A table for two with a ten-minute clock, made from `page`: its seats' links."""
    page.d.get(url)
    bt.wait_for("the page", page.state)
    page.d.execute_script("window.lascaApp.ws.send(JSON.stringify({type: 'lasca.create', "
                          "clock: {time: 600000, increment: 0}}));")
    links = bt.wait_for("the table's links", lambda: (lambda l: l if len(l) == 3 else None)(
        page.d.find_elements(bt.By.CSS_SELECTOR, "#friend-links a.duel-link")))
    return {l.get_attribute("data-seat"): l.get_attribute("href") for l in links}


def play_one(mover, other):
    """The mover's page plays its first legal move by clicks; both pages show it."""
    s = bt.wait_for("the mover's turn", lambda: (lambda s: s if s and s["legal"] else None)(mover.state()))
    plies = len(s["moves"])
    for square in s["legal"][0]["path"]:
        mover.click_square(square)
    bt.wait_for("the move shown to both", lambda: len(mover.state()["moves"]) == plies + 1
                and len(other.state()["moves"]) == plies + 1)


def main():
    bindir, scripts = sys.argv[1], sys.argv[2]
    for path in (bt.CHROMIUM, bt.CHROMEDRIVER):
        if not shutil.which(path):
            bt.skip(f"{path} is not installed")
    cluster = Cluster(bindir, scripts, lease_ms=3000)
    profile = tempfile.mkdtemp(prefix="lasca-cluster-browser-")
    drivers = []
    try:
        drivers = [bt.make_driver(profile + "-white"), bt.make_driver(profile + "-black")]
        white, black = bt.Page(drivers[0]), bt.Page(drivers[1])
        links = links_of(white, cluster.url)
        table = links["white"].split("table=")[1].split("&")[0]
        white.d.get(links["white"])
        black.d.get(links["black"])
        bt.wait_for("White's seat", lambda: (white.state() or {}).get("seat") == "white")
        bt.wait_for("Black's seat", lambda: (black.state() or {}).get("seat") == "black")
        for _ in range(2):
            play_one(white, black)
            play_one(black, white)
        moves = white.state()["moves"]
        home = cluster.home_of(f"duel:{table}")
        bt.step(f"four moves played by clicks through the front, the table on {home}")

        run(cluster.script, "kill", cluster.dir, home[3:])
        for page in (white, black):
            bt.wait_for("the page to see its connection end",
                        lambda: page.d.find_element(bt.By.ID, "status").get_attribute("textContent")
                        == page.d.execute_script("return window.i18n.t('lasca.status.disconnected');"))
        for page, seat in ((white, "white"), (black, "black")):
            bt.wait_for(f"{seat}'s page back at its table",
                        lambda: page.d.execute_script(
                            "const a = window.lascaApp; return a.ws && a.ws.readyState === 1 && "
                            "a.state && a.state.seat === arguments[0] && a.state.clock && "
                            "a.state.clock.running !== null;", seat), timeout=120)
            if page.state()["moves"] != moves:
                raise bt.Failure(f"{seat}'s page shows {page.state()['moves']}, not {moves}")
        new_home = cluster.home_of(f"duel:{table}")
        if new_home in (home, ""):
            raise bt.Failure(f"the table is still on {new_home}")
        bt.step(f"{home} killed: both pages back by themselves, the table on {new_home}")
        play_one(white, black)
        play_one(black, white)
        stored = int(cluster.sql(f"SELECT COUNT(*) FROM lasca_duel_moves WHERE duel = '{table}'"))
        if stored != len(moves) + 2:
            raise bt.Failure(f"{stored} moves stored, not {len(moves) + 2}")
        for driver, where in ((drivers[0], "White's page"), (drivers[1], "Black's page")):
            errors = bt.console_errors(driver)
            if errors:
                raise bt.Failure(f"console errors on {where}: {errors}")
        bt.step("two more moves played on the new home; no console errors")
    except bt.Failure as e:
        print(f"FAIL: {e}")
        return 1
    finally:
        for d in drivers:
            bt.quit_driver(d)
        cluster.stop()
        shutil.rmtree(profile + "-white", ignore_errors=True)
        shutil.rmtree(profile + "-black", ignore_errors=True)
        shutil.rmtree(profile, ignore_errors=True)
    print("ok")
    return 0


if __name__ == "__main__":
    bt.STARTED = time.monotonic()
    sys.exit(main())
