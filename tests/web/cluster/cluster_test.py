"""Three lasca-web instances behind HAProxy on one PostgreSQL database (scripts/cluster.sh), and
one of them killed with kill -9 in the middle of a two-person game with a clock, a game against
the engine and a Torneio table with an AI seat, all played through the front: every table comes
back on another instance with every committed move and decision, its links still work, the
clock charged the time the table was away; the killed instance, started again, holds nothing
and sends a tab of a table it lost to the table's new home. Then an instance is frozen
(SIGSTOP) until another takes its table, and thawed: nothing it writes lands (the write refused
and counted, or the tab sent away first).

    cluster_test.py BINDIR SCRIPTSDIR [--figures N [--lease-ms MS]]

--figures N: instead of the checks, N kills of the table's home, each timed from the kill to
the table answering again through the front (docs/benchmarks.md prints p50/p95/max), with
leases of --lease-ms (3000 as the checks use).
Every wait is bounded (a hang fails the test, it never waits for ever); no wait decides a
result by the machine's speed."""

import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket  # Debian's python3-websocket

HANG = 120  # seconds: only ever a hang guard


def run(*args):
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout.strip()


class Cluster:
    def __init__(self, bindir, scripts, lease_ms, instances=3):
        self.script = os.path.join(scripts, "cluster.sh")
        # A short path: PostgreSQL's socket lives under it (at most 107 bytes).
        self.dir = tempfile.mkdtemp(prefix="lc", dir="/tmp")
        os.rmdir(self.dir)
        self.url = run(self.script, "start", self.dir, bindir, "--lease-ms", str(lease_ms),
                       "--instances", str(instances), "--watch", str(os.getpid()))
        self.port = int(self.url.rstrip("/").rsplit(":", 1)[1])
        self.db = run(self.script, "db", self.dir)

    def stop(self):
        subprocess.run([self.script, "stop", self.dir], check=False)

    def sql(self, query):
        return run("psql", self.db, "-Atc", query)

    def home_of(self, key):
        return self.sql(f"SELECT home FROM table_homes WHERE id = '{key}'")

    def instance_get(self, n, path):
        """The body of webN's answer to GET path, asked directly (with the PROXY header the
        front would send)."""
        port = int(run(self.script, "port", self.dir, str(n)))
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(b"PROXY TCP4 127.0.0.1 127.0.0.1 1 2\r\n"
                      b"GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n"
                      % (path.encode(), port))
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        return data.split(b"\r\n\r\n", 1)[1].decode()

    def instance_health(self, n):
        """webN's /health."""
        return json.loads(self.instance_get(n, "/health"))


class Tab:
    """One page's WebSocket through the front, as web/ui.js keeps it: it follows "moved"
    (connecting again with ?home=) and connects again when the connection ends."""

    def __init__(self, cluster, path, home="", cookie=None):
        self.cluster, self.path, self.home, self.cookie = cluster, path, home, cookie
        self.ws = None
        self.connect()

    def connect(self):
        query = f"?home={self.home}" if self.home else ""
        deadline = time.monotonic() + HANG
        while True:
            try:
                # A frozen instance accepts and never answers: the handshake gets 5 s.
                self.ws = websocket.create_connection(
                    f"ws://127.0.0.1:{self.cluster.port}{self.path}{query}", timeout=5,
                    cookie=self.cookie)
                self.recv_type("lobby.hello" if self.path == "/ws/lobby" else "hello")
                if self.path == "/ws":  # a Lasca tab's own new game comes with its hello
                    self.recv_type("state")
                self.ws.settimeout(HANG)
                return
            except (OSError, websocket.WebSocketException):
                assert time.monotonic() < deadline, "the front never answered"
                time.sleep(0.1)

    def send(self, message):
        self.ws.send(json.dumps(message))

    def recv(self):
        return json.loads(self.ws.recv())

    def recv_type(self, *types):
        while True:
            m = self.recv()
            if m["type"] in types:
                return m

    def ask(self, message, *types):
        """Sends `message` and returns the first reply of one of `types` (or an error),
        following "moved" and lost connections (the message sent again) until it is answered."""
        deadline = time.monotonic() + HANG
        while True:
            assert time.monotonic() < deadline, f"{message} was never answered"
            try:
                self.sent_at = time.monotonic()
                self.send(message)
                m = self.recv_type(*types, "error", "moved")
                if m["type"] != "moved":
                    return m
                self.home = m["home"]
                self.sent_elsewhere += 1
            except (OSError, websocket.WebSocketException):
                time.sleep(0.1)
            try:
                self.ws.close()
            except Exception:
                pass
            self.connect()

    sent_elsewhere = 0  # how many times this tab was told the table lives on another instance
    sent_at = 0.0  # when ask() last sent its message

    def wait_closed(self):
        """Reads what is left until the server's end closes (its instance was killed)."""
        try:
            while True:
                self.ws.recv()
        except (OSError, websocket.WebSocketException):
            pass


def duel_state(tab, table, token):
    m = tab.ask({"type": "lasca.join", "table": table, "token": token}, "state")
    assert m["type"] == "state", m
    return m


def play_duel_move(white, black, state):
    """The side to move plays its first legal move; returns the mover's next state."""
    mover = white if state["sideToMove"] == "white" else black
    if state.get("seat") != state["sideToMove"]:  # the mover's tab's own state
        mover.send({"type": "view", "ply": len(state["moves"])})
        while True:
            state = mover.recv_type("state")
            if len(state["moves"]) == state["ply"] and state["legal"]:
                break
    move = state["legal"][0]["move"]
    mover.send({"type": "move", "ply": len(state["moves"]), "move": move})
    while True:
        m = mover.recv_type("state", "error")
        assert m["type"] == "state", m
        if len(m["moves"]) == len(state["moves"]) + 1:
            return m


def torneio_act(seat, view, count):
    """The seat answers its requests with random decisions until `count` were made (the AI seat
    answers between); returns the last view."""
    done = 0
    while done < count and not view.get("over"):
        if view.get("request"):
            seat.send({"type": "torneio.act", "action": "random"})
            done += 1
        view = seat.recv_type("torneio.view")
    return view


def sign_up(cluster, name):
    """A new account through the front; returns its session cookie ("name=value")."""
    origin = f"http://127.0.0.1:{cluster.port}"
    request = urllib.request.Request(
        f"{origin}/api/signup", method="POST",
        data=json.dumps({"name": name, "password": f"{name}-cluster-password"}).encode(),
        headers={"Content-Type": "application/json", "Origin": origin})
    with urllib.request.urlopen(request, timeout=HANG) as answer:
        cookies = [c.split(";", 1)[0] for c in answer.headers.get_all("Set-Cookie")]
    return "; ".join(cookies)


def lobby_checks(cluster):
    """One lobby shown by every instance (each tab below is sent to the instance it names):
    a seek made on web1 is seen and accepted on web2, both tabs sent to the table, which web2
    made with web1's seat token for its maker; it is listed everywhere and its end leaves every
    list. A challenge from a person on web1 to one on web3 is declined, then accepted. A Torneio
    offer made on web1 gathers people on web2 and web3, each told its own seat; the table is
    watched through each instance. Events cross by LISTEN/NOTIFY (ids only)."""
    ana = Tab(cluster, "/ws/lobby", home="web1")
    bo = Tab(cluster, "/ws/lobby", home="web2")
    eve = Tab(cluster, "/ws/lobby", home="web3")
    ana.send({"type": "seek.create", "clock": None})
    seek = bo.recv_type("lobby.seek")["seek"]
    assert eve.recv_type("lobby.seek")["seek"]["id"] == seek["id"]
    assert ana.recv_type("lobby.seek")["seek"]["mine"] is True
    bo.send({"type": "seek.accept", "seek": seek["id"]})
    starts = [t.recv_type("lobby.start") for t in (ana, bo)]
    table = starts[0]["table"]
    assert starts[1]["table"] == table and {s["colour"] for s in starts} == {"white", "black"}
    assert starts[0]["token"] != starts[1]["token"]
    assert eve.recv_type("lobby.seekGone")["seek"] == seek["id"]
    for t in (ana, bo, eve):
        assert t.recv_type("lobby.game")["game"]["table"] == table
    assert cluster.home_of(f"duel:{table}") == "web2", "made where it was accepted"
    # The maker's token, made on web1, opens its seat on the table web2 made.
    player = Tab(cluster, "/ws")
    joined = player.ask({"type": "lasca.join", "table": table, "token": starts[0]["token"]}, "state")
    assert joined["type"] == "state" and joined["seat"] == starts[0]["colour"], joined
    player.send({"type": "resign"})
    for t in (ana, bo, eve):
        assert t.recv_type("lobby.gameGone")["table"] == table
    print("lobby: a seek made on web1 accepted on web2; the table listed and unlisted everywhere")

    # A challenge between people on web1 and web3: declined, then accepted.
    cara = Tab(cluster, "/ws/lobby", home="web1", cookie=sign_up(cluster, "cara"))
    davi = Tab(cluster, "/ws/lobby", home="web3", cookie=sign_up(cluster, "davi"))
    cara.send({"type": "challenge.create", "to": "Davi", "clock": None})
    challenge = davi.recv_type("lobby.challenge")["challenge"]
    assert challenge["from"] == "cara" and challenge["mine"] is False, challenge
    davi.send({"type": "challenge.decline", "challenge": challenge["id"], "reason": "later"})
    declined = cara.recv_type("lobby.challengeGone")
    assert declined["declined"] and declined["reason"] == "later" and declined["by"] == "davi"
    cara.send({"type": "challenge.create", "to": "davi", "clock": None})
    challenge = davi.recv_type("lobby.challenge")["challenge"]
    davi.send({"type": "challenge.accept", "challenge": challenge["id"]})
    accepted = cara.recv_type("lobby.challengeGone")
    assert accepted.get("accepted") is True, accepted
    cstarts = [t.recv_type("lobby.start") for t in (cara, davi)]
    assert cstarts[0]["table"] == cstarts[1]["table"]
    assert {s["colour"] for s in cstarts} == {"white", "black"}
    names = cluster.sql(f"SELECT white_account IS NOT NULL AND black_account IS NOT NULL "
                        f"FROM lasca_duels WHERE id = '{cstarts[0]['table']}'")
    assert names == "t", names
    print("lobby: a challenge from web1 to web3 declined, then accepted")

    # A Torneio offer made on web1 gathers people on web2 and web3.
    ana.send({"type": "torneio.open", "seats": 4, "people": 3, "rounds": 20})
    offer = bo.recv_type("lobby.offer")["offer"]
    bo.send({"type": "torneio.sit", "offer": offer["id"]})
    while eve.recv_type("lobby.offer")["offer"]["free"] != 1:
        pass
    eve.send({"type": "torneio.sit", "offer": offer["id"]})
    tstarts = [t.recv_type("lobby.start") for t in (ana, bo, eve)]
    ttable = tstarts[0]["table"]
    assert all(t["game"] == "torneio" and t["table"] == ttable for t in tstarts), tstarts
    assert [t["seat"] for t in tstarts] == [1, 2, 3], tstarts
    assert cluster.home_of(f"torneio:{ttable}") == "web3"
    for start in tstarts:  # each instance's token opens its seat
        seat = Tab(cluster, "/ws/torneio")
        joined = seat.ask({"type": "torneio.join", "table": ttable, "token": start["token"]},
                          "torneio.joined")
        assert joined["type"] == "torneio.joined" and joined["seat"] == start["seat"], joined
        seat.ws.close()
    sent_on = 0
    for n in (1, 2, 3):
        watcher = Tab(cluster, "/ws/torneio", home=f"web{n}")
        watching = watcher.ask({"type": "torneio.watch", "table": ttable}, "torneio.watching")
        assert watching["type"] == "torneio.watching" and watching["table"] == ttable, watching
        sent_on += watcher.sent_elsewhere
        watcher.ws.close()
    assert sent_on == 2, f"{sent_on} watchers were sent to the table's home, not 2"
    for n in (1, 2, 3):  # every instance's /games lists it to watch
        assert f"/torneio?watch={ttable}" in cluster.instance_get(n, "/games"), n
    print("lobby: a Torneio offer made on web1 gathered people on web2 and web3; watched "
          "through each instance and listed on each one's /games")
    for t in (ana, bo, eve, cara, davi, player):
        t.ws.close()


def checks(cluster, bindir):
    lobby_checks(cluster)
    # Everything made on web1 (tabs that name it to the front), then web1 killed.
    white = Tab(cluster, "/ws", home="web1")
    made = white.ask({"type": "lasca.create", "clock": {"time": 300000, "increment": 0}},
                     "lasca.created")
    assert made["type"] == "lasca.created", made
    table = made["table"]
    tokens = {s["colour"]: s["token"] for s in made["seats"]}
    black = Tab(cluster, "/ws", home="web1")
    ws = duel_state(white, table, tokens["white"])
    bs = duel_state(black, table, tokens["black"])
    state = ws
    for _ in range(4):
        state = play_duel_move(white, black, state)
    moves = state["moves"]
    assert cluster.home_of(f"duel:{table}") == "web1"

    engine = Tab(cluster, "/ws", home="web1")
    es = engine.ask({"type": "new", "engine": "black", "level": 0}, "state")
    es = engine.ask({"type": "move", "ply": 0, "move": es["legal"][0]["move"]}, "state")
    while len(es["moves"]) < 2 or es["thinking"]:
        es = engine.recv_type("state")
    game = es["gameId"]
    assert cluster.home_of(f"lasca:{game}") == "web1"

    seat = Tab(cluster, "/ws/torneio", home="web1")
    created = seat.ask({"type": "torneio.create", "rounds": 30,
                        "seats": [{"kind": "person"}, {"kind": "ai", "level": 0}]},
                       "torneio.created")
    assert created["type"] == "torneio.created", created
    ttable, ttoken = created["table"], created["seats"][0]["token"]
    joined = seat.ask({"type": "torneio.join", "table": ttable, "token": ttoken}, "torneio.joined")
    assert joined["type"] == "torneio.joined", joined
    view = torneio_act(seat, seat.recv_type("torneio.view"), 4)
    tlines = view["lineCount"]
    decisions = int(cluster.sql(f"SELECT COUNT(*) FROM torneio_decisions WHERE tbl = '{ttable}'"))
    assert decisions >= 4 and cluster.home_of(f"torneio:{ttable}") == "web1"

    # A seek made on web1, seen on web2: it goes when web1 dies (its tab is gone).
    maker = Tab(cluster, "/ws/lobby", home="web1")
    onlooker = Tab(cluster, "/ws/lobby", home="web2")
    maker.send({"type": "seek.create", "clock": None})
    lost_seek = onlooker.recv_type("lobby.seek")["seek"]["id"]

    # Black to move, its clock running; web1 dies.
    assert state["sideToMove"] == "white" or state["sideToMove"] == "black"
    running = state["clock"]["running"]
    before_ms = state["clock"][running]
    seen_at = time.monotonic()  # the turn began before: the state above showed it
    run(cluster.script, "kill", cluster.dir, "1")
    killed_at = time.monotonic()
    for tab in (white, black, engine, seat, maker):
        tab.wait_closed()
    assert onlooker.recv_type("lobby.seekGone")["seek"] == lost_seek
    print(f"lobby: the seek made on web1 left web2's lobby "
          f"{time.monotonic() - killed_at:.2f} s after the kill")
    onlooker.ws.close()

    # Every table back through the front, on another instance, as it was.
    ws = duel_state(white, table, tokens["white"])
    back_at = time.monotonic()
    print(f"failover: the table answered {back_at - killed_at:.2f} s after the kill")
    assert ws["moves"] == moves, (ws["moves"], moves)
    # The new home restored the table after the join that it answered was sent: it charged at
    # least the time from the turn's start (before seen_at) to that send.
    away_ms = (white.sent_at - seen_at) * 1000
    assert ws["clock"][running] <= before_ms - away_ms + 1000, \
        ("the time away was not charged", ws["clock"], before_ms, away_ms)
    new_home = cluster.home_of(f"duel:{table}")
    assert new_home in ("web2", "web3"), new_home
    bs = duel_state(black, table, tokens["black"])
    state = play_duel_move(white, black, ws if ws["sideToMove"] == "white" else bs)
    assert state["moves"][:len(moves)] == moves and len(state["moves"]) == len(moves) + 1

    es2 = engine.ask({"type": "join", "gameId": game}, "state")
    assert es2["moves"] == es["moves"], (es2["moves"], es["moves"])
    es2 = engine.ask({"type": "move", "ply": len(es2["moves"]), "move": es2["legal"][0]["move"]}, "state")
    while len(es2["moves"]) < len(es["moves"]) + 2 or es2["thinking"]:
        es2 = engine.recv_type("state")
    assert cluster.home_of(f"lasca:{game}") in ("web2", "web3")

    seat2 = Tab(cluster, "/ws/torneio")
    joined = seat2.ask({"type": "torneio.join", "table": ttable, "token": ttoken}, "torneio.joined")
    assert joined["type"] == "torneio.joined", joined
    view = seat2.recv_type("torneio.view")
    assert view["linesFrom"] == 0 and view["lineCount"] >= tlines, (view["lineCount"], tlines)
    view = torneio_act(seat2, view, 2)
    after = int(cluster.sql(f"SELECT COUNT(*) FROM torneio_decisions WHERE tbl = '{ttable}'"))
    assert after > decisions, (after, decisions)
    assert cluster.home_of(f"torneio:{ttable}") in ("web2", "web3")

    # web1 again: it holds nothing, and sends a tab of its old table to the new home.
    run(cluster.script, "start-instance", cluster.dir, "1")
    health = cluster.instance_health(1)
    assert health["home"]["tables"] == 0 and health["home"]["staleWrites"] == 0, health
    direct = Tab(cluster, "/ws", home="web1")
    direct.send({"type": "lasca.join", "table": table, "token": made["watch"]})
    m = direct.recv_type("moved", "state", "error")
    if m["type"] == "moved":  # reached web1 (the front had it up again): sent on
        assert m["home"] == new_home, m
    assert cluster.home_of(f"duel:{table}") == new_home
    for key in (f"duel:{table}", f"lasca:{game}", f"torneio:{ttable}"):
        assert cluster.home_of(key) != "web1", key

    # The new home frozen until another instance takes the table, then thawed: a move its
    # tab sent meanwhile is written nowhere.
    n = int(new_home[3:])
    mover = white if state["sideToMove"] == "white" else black
    plies = len(state["moves"])
    run(cluster.script, "freeze", cluster.dir, str(n))
    mover.send({"type": "move", "ply": plies, "move": state["legal"][0]["move"]}
               if state["legal"] else {"type": "view", "ply": plies})
    watcher = Tab(cluster, "/ws")
    taken = watcher.ask({"type": "lasca.join", "table": table, "token": made["watch"]}, "state")
    third = cluster.home_of(f"duel:{table}")
    assert third not in (new_home, ""), third
    run(cluster.script, "thaw", cluster.dir, str(n))
    # The frozen instance's tab: refused, or told the table moved, never served as before.
    deadline = time.monotonic() + HANG
    outcome = None
    while outcome is None:
        assert time.monotonic() < deadline
        try:
            m = mover.recv()
        except (OSError, websocket.WebSocketException):
            outcome = "closed"
            break
        if m["type"] in ("error", "moved"):
            outcome = m["type"]
        elif m["type"] == "state":
            assert len(m["moves"]) == plies, ("a stale move was shown as played", m["moves"])
    stored = int(cluster.sql(f"SELECT COUNT(*) FROM lasca_duel_moves WHERE duel = '{table}'"))
    assert stored == plies, ("a stale write landed", stored, plies)
    health = cluster.instance_health(n)
    print(f"stale: the late instance answered {outcome}; its staleWrites "
          f"{health['home']['staleWrites']}, tables {health['home']['tables']}")
    assert cluster.home_of(f"duel:{table}") == third
    assert taken["moves"] == state["moves"]


def figures(cluster, count):
    """`count` kills of a two-person table's home, each timed to the table answering again."""
    times = []
    white = Tab(cluster, "/ws")
    made = white.ask({"type": "lasca.create", "clock": None}, "lasca.created")
    table, token = made["table"], made["seats"][0]["token"]
    duel_state(white, table, token)
    for _ in range(count):
        home = cluster.home_of(f"duel:{table}")
        n = int(home[3:])
        run(cluster.script, "kill", cluster.dir, str(n))
        killed = time.monotonic()
        white.wait_closed()
        duel_state(white, table, token)
        times.append(time.monotonic() - killed)
        run(cluster.script, "start-instance", cluster.dir, str(n))
        time.sleep(3)  # the front sees it up again (rise 2, inter 1 s)
    times.sort()
    pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
    print(f"failover over {count} kills: p50 {pick(0.5):.2f} s, p95 {pick(0.95):.2f} s, "
          f"max {times[-1]:.2f} s")


def main():
    bindir, scripts = sys.argv[1], sys.argv[2]
    count = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == "--figures" else 0
    lease = int(sys.argv[6]) if len(sys.argv) > 6 and sys.argv[5] == "--lease-ms" else 3000
    cluster = Cluster(bindir, scripts, lease_ms=lease)
    try:
        if count:
            figures(cluster, count)
        else:
            checks(cluster, bindir)
    finally:
        if os.environ.get("LASCA_CLUSTER_KEEP"):
            print("kept:", cluster.dir)
        else:
            cluster.stop()
    print("ok")


if __name__ == "__main__":
    main()
