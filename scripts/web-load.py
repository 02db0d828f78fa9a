#!/usr/bin/python3
"""Load test of lasca-web: a club evening at once.

Starts lasca-web on a free 127.0.0.1 port and, at once:
  --idle N     tabs that open the page and do nothing (each gets its hello and state),
  --tables N   tabs that play a whole Lasca game against the engine at a tiny node budget (level
               0, "Starter"), always picking a legal move the server sent,
  --duels N    two-person tables (lasca.create, then a tab joins each seat), played to the end
               by legal moves, no clock,
  --torneio N  Torneio tables of one person and two AI seats (levels easy and normal), the
               person answering every request with `random`, --torneio-rounds rounds at most.
Every game must end by its rules and be kept. Clients are Python threads (standard library
only); idle tabs are plain sockets of the main thread.

Reports: games completed and failed per kind; the server's RSS before the tabs, with the idle
tabs open (and per idle tab), its peak and after; the engine processes (peak count, peak total
RSS, and that none is left once the clients left); the server's own CPU time (its engines not
counted) per ply of the Lasca games; per-move latency as clients see it (median, p95, max):
people's moves (from sending a move to the first `state` that holds it, against the engine and at
two-person tables) and the engine's replies (from that state to the one that holds the engine's
move). Measured in the clients' Python threads, so it includes their own scheduling.

With --db FILE the server keeps its games in that SQLite file; --db '' (the default) in memory.
With a file, once the server has stopped, the script reports the file's size and the games kept.
--club is --idle 760 --tables 200 --duels 20 --torneio 10 (1,000 Lasca tabs in all, with the two
tabs of each two-person table). --server-arg passes an argument to lasca-web (repeatable).

--annotate PLIES (alone, instead of the games above) measures the analysis board: one tab plays a
game of people against themselves to PLIES plies (legal moves chosen by a fixed rule, seeds tried
until a game lasts that long), then with analysis on steps the view through every ply (each step
waits for an analysis of that ply at --annotate-depth), then annotates the whole game at
--annotate-nodes per position. Reports the server's CPU for each phase and per step.

  scripts/web-load.py --tables 50 [--db ''|FILE] [--server build/lasca-web] [--engine build/lasca]
  scripts/web-load.py --club --deadline 1800
  scripts/web-load.py --annotate 200 [--annotate-nodes 2000]
"""
import argparse
import base64
import json
import os
import shutil
import sqlite3
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time


class WebSocket:
    """A minimal WebSocket client (RFC 6455): text frames, masked, no extensions."""

    def __init__(self, host, port, path="/ws", timeout=60):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           f"Sec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(head.split(b"\r\n")[0].decode())

    def send(self, message):
        data = json.dumps(message).encode()
        header = bytes([0x81])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        elif len(data) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(data))
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def receive(self):
        """The next text message as JSON (control frames skipped). A message may come in
        fragments (a text frame without FIN, then continuation frames up to the one with FIN)."""
        message = None
        while True:
            b0, b1 = self._read(2)
            length = b1 & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read(8))[0]
            payload = self._read(length)
            opcode = b0 & 0x0F
            final = bool(b0 & 0x80)
            if opcode == 8:
                raise ConnectionError("closed by the server")
            if opcode == 1:
                message = payload
            elif opcode == 0 and message is not None:
                message += payload
            else:
                continue
            if final:
                return json.loads(message)

    def close(self):
        try:
            self.sock.sendall(bytes([0x88, 0x80]) + os.urandom(4))
        except OSError:
            pass
        self.sock.close()


def play_one_game(host, port, index, max_plies, results, latencies, engine_latencies):
    """Plays one game against the engine; appends each of its moves' latency (seconds, from
    sending it to the first `state` that holds it) to latencies, and each engine reply's (from
    that state to the first that holds the engine's move) to engine_latencies.

    A tab gets a game of its own on opening (the `hello` and a `state`, sent before the server
    reads anything); the client plays the game its `new` starts, so every state of that first
    game is skipped, and it never sends two moves for one ply (answering it too would send a
    client's first move twice, and on a slow server the doubled moves would go on all game).
    """
    try:
        ws = WebSocket(host, port)
        ws.send({"type": "new", "engine": "black" if index % 2 == 0 else "white", "level": 0})
        first_game = None
        state = None
        sent = None  # (ply, time) of the move awaiting its state
        waiting = None  # (ply, time): the engine's move at ply is awaited since
        last_ply = -1  # the ply of the last move sent
        while True:
            m = ws.receive()
            if m["type"] == "error":
                raise RuntimeError(m["message"])
            if m["type"] != "state":
                continue
            if first_game is None:
                first_game = m["gameId"]
            if m["gameId"] == first_game:
                continue
            state = m
            now = time.monotonic()
            plies = len(state["moves"])
            if sent is not None and plies > sent[0]:
                latencies.append(now - sent[1])
                sent = None
            if waiting is not None and plies > waiting[0]:
                engine_latencies.append(now - waiting[1])
                waiting = None
            if state["status"]["over"]:
                break
            if plies > max_plies:
                raise RuntimeError("game too long")
            if state["sideToMove"] == state["engine"]:
                if waiting is None:
                    waiting = (plies, now)
                continue
            if not state["thinking"] and plies > last_ply:
                legal = state["legal"]
                sent = (plies, time.monotonic())
                last_ply = plies
                ws.send({"type": "move", "ply": plies, "move": legal[(plies * 7 + index) % len(legal)]["move"]})
        results[index] = ("ok", len(state["moves"]), state["status"]["rule"])
        ws.close()
    except Exception as e:  # noqa: BLE001 - any failure of a client is reported
        results[index] = ("fail", 0, str(e))


def states_of_new_game(ws):
    """Yields the `state` messages of the game the tab's first `new` started (the tab's own first
    game, given on opening, is skipped); raises on an error reply."""
    first_game = None
    while True:
        m = ws.receive()
        if m["type"] == "error":
            raise RuntimeError(m["message"])
        if m["type"] != "state":
            yield m
            continue
        if first_game is None:
            first_game = m["gameId"]
            continue
        if m["gameId"] != first_game:
            yield m


def annotate_game(host, port, server_pid, plies, depth, nodes):
    """The analysis board's work on one long game (see --annotate). Returns report lines."""
    ws = WebSocket(host, port, timeout=300)
    lines = []
    game = None
    cpu = cpu_seconds(server_pid)
    played = 0
    for seed in range(1000):
        ws.send({"type": "new", "engine": "none"})
        messages = states_of_new_game(ws)
        state = None
        for m in messages:
            if m["type"] != "state" or len(m["moves"]) != (0 if state is None else len(state["moves"]) + 1):
                continue
            state = m
            k = len(state["moves"])
            if state["status"]["over"] or k == plies:
                break
            legal = state["legal"]
            played += 1
            time.sleep(0.055)  # within the server's 20 messages a second per tab
            ws.send({"type": "move", "ply": k, "move": legal[(k * 7 + seed) % len(legal)]["move"]})
        if len(state["moves"]) == plies:
            game = state
            break
        ws.close()
        ws = WebSocket(host, port, timeout=300)
    if game is None:
        raise RuntimeError(f"no game of {plies} plies found")
    used = cpu_seconds(server_pid) - cpu
    lines.append(f"analysis board: a game of {plies} plies (seed {seed}); {played} moves played in all "
                 f"(each game tried): server CPU {used:.3f} s, {1000 * used / played:.3f} ms a move")
    cpu = cpu_seconds(server_pid)
    wall = time.monotonic()
    ws.send({"type": "analyse", "on": True})
    for ply in range(plies, -1, -1):
        if ply != plies:
            time.sleep(0.055)
            ws.send({"type": "view", "ply": ply})
        while True:
            m = ws.receive()
            if m["type"] == "error":
                raise RuntimeError(m["message"])
            if m["type"] == "analysis" and m["ply"] == ply and m["depth"] >= depth:
                break
    used = cpu_seconds(server_pid) - cpu
    lines.append(f"analysis stepped through {plies + 1} positions to depth {depth}: server CPU "
                 f"{used:.3f} s ({1000 * used / (plies + 1):.3f} ms a position), wall "
                 f"{time.monotonic() - wall:.1f} s")
    ws.send({"type": "analyse", "on": False})
    cpu = cpu_seconds(server_pid)
    wall = time.monotonic()
    ws.send({"type": "annotate", "nodes": nodes})
    while True:
        m = ws.receive()
        if m["type"] == "error":
            raise RuntimeError(m["message"])
        if m["type"] == "annotate" and m["event"] == "done":
            break
        if m["type"] == "annotate" and m["event"] == "cancelled":
            raise RuntimeError("the annotation was cancelled")
    used = cpu_seconds(server_pid) - cpu
    lines.append(f"annotation at {nodes} nodes of {plies + 1} positions: server CPU {used:.3f} s "
                 f"({1000 * used / (plies + 1):.3f} ms a position), wall {time.monotonic() - wall:.1f} s")
    ws.close()
    return lines


def play_duel_seat(host, port, table, token, index, max_plies, results, latencies):
    """One seat of a two-person table: joins with the seat's token and plays a legal move
    whenever it is the seat's turn, to the end of the game. results[index]: as play_one_game."""
    try:
        ws = WebSocket(host, port)
        ws.send({"type": "lasca.join", "table": table, "token": token})
        sent = None
        last_ply = -1
        while True:
            m = ws.receive()
            if m["type"] == "error":
                raise RuntimeError(m["message"])
            if m["type"] != "state" or "seat" not in m:
                continue
            plies = len(m["moves"])
            if sent is not None and plies > sent[0]:
                latencies.append(time.monotonic() - sent[1])
                sent = None
            if m["status"]["over"]:
                results[index] = ("ok", plies, m["status"]["rule"])
                break
            if plies > max_plies:
                raise RuntimeError("game too long")
            if m["sideToMove"] == m["seat"] and m["ply"] == plies and plies > last_ply and m["legal"]:
                legal = m["legal"]
                sent = (plies, time.monotonic())
                last_ply = plies
                ws.send({"type": "move", "ply": plies, "move": legal[(plies * 5 + index) % len(legal)]["move"]})
        ws.close()
    except Exception as e:  # noqa: BLE001
        results[index] = ("fail", 0, str(e))


def play_torneio_table(host, port, index, rounds, results):
    """A Torneio table of one person (this client, answering each request with `random`) and
    two AI seats, to the end of the game."""
    try:
        ws = WebSocket(host, port, path="/ws/torneio")
        ws.send({"type": "torneio.create", "rounds": rounds,
                 "seats": [{"kind": "person"}, {"kind": "ai", "level": 0}, {"kind": "ai", "level": 1}]})
        token = table = None
        answered = None
        while True:
            m = ws.receive()
            if m["type"] == "error":
                raise RuntimeError(m["message"])
            if m["type"] == "torneio.created":
                table = m["table"]
                token = next(x["token"] for x in m["seats"] if x["kind"] == "person")
                ws.send({"type": "torneio.join", "table": table, "token": token})
                continue
            if m["type"] != "torneio.view":
                continue
            if m.get("over"):
                outcome = m.get("outcome") or {}
                results[index] = ("ok", m.get("round", 0), "draw" if outcome.get("draw") else "won")
                break
            request = m.get("request")
            key = (m.get("lineCount"), request and request.get("line"))
            if request and key != answered:
                answered = key
                ws.send({"type": "torneio.act", "action": "random"})
        ws.close()
    except Exception as e:  # noqa: BLE001
        results[index] = ("fail", 0, str(e))


def children_of(pid):
    kids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    kids.append(int(entry))
            except OSError:
                pass
    return kids


def cpu_seconds(pid):
    """The CPU time (user + system, seconds) the process has used so far: its own threads only,
    not its children (the engines)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def percentile(sorted_values, fraction):
    """The nearest-rank percentile of an ascending list (None when empty)."""
    if not sorted_values:
        return None
    rank = max(1, -(-len(sorted_values) * fraction // 1))  # ceil(n * fraction), at least 1
    return sorted_values[int(rank) - 1]


def database_files(path):
    """The database file and its -wal file, each with its size in bytes (0 when absent)."""
    return [(f, os.path.getsize(f) if os.path.exists(f) else 0) for f in (path, path + "-wal")]


def count_kept(path):
    """(games, games with a move, moves) kept in the database file, read on a copy (with its
    -wal file) so the file itself is left as the server left it."""
    with tempfile.TemporaryDirectory() as folder:
        copy = os.path.join(folder, "copy.db")
        shutil.copyfile(path, copy)
        if os.path.exists(path + "-wal"):
            shutil.copyfile(path + "-wal", copy + "-wal")
        db = sqlite3.connect(copy)
        try:
            games = db.execute("SELECT COUNT(*) FROM lasca_games").fetchone()[0]
            played = db.execute("SELECT COUNT(DISTINCT game) FROM lasca_moves").fetchone()[0]
            moves = db.execute("SELECT COUNT(*) FROM lasca_moves").fetchone()[0]
        finally:
            db.close()
    return games, played, moves


def latency_line(name, values):
    lat = sorted(values)
    if not lat:
        return f"{name}: none"
    return (f"{name}: {len(lat)} moves, median {1000 * percentile(lat, 0.5):.1f} ms, "
            f"p95 {1000 * percentile(lat, 0.95):.1f} ms, max {1000 * max(lat):.1f} ms")


def create_duel(host, port):
    """Makes a two-person table; its id and the White and Black tokens."""
    ws = WebSocket(host, port)
    try:
        ws.send({"type": "lasca.create", "clock": None})
        while True:
            m = ws.receive()
            if m["type"] == "error":
                raise RuntimeError(m["message"])
            if m["type"] == "lasca.created":
                tokens = {x["colour"]: x["token"] for x in m["seats"]}
                return m["table"], tokens["white"], tokens["black"]
    finally:
        ws.close()


def open_idle_tab(host, port):
    """A tab that opens the page (its hello and state read) and stays open doing nothing."""
    ws = WebSocket(host, port)
    while ws.receive()["type"] != "state":
        pass
    return ws


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=10, help="games against the engine at once, 0..1000")
    p.add_argument("--idle", type=int, default=0, help="idle tabs, 0..5000")
    p.add_argument("--duels", type=int, default=0, help="two-person tables, 0..500")
    p.add_argument("--torneio", type=int, default=0, help="Torneio tables with AI seats, 0..16")
    p.add_argument("--torneio-rounds", type=int, default=40)
    p.add_argument("--club", action="store_true", help="--idle 760 --tables 200 --duels 20 --torneio 10")
    p.add_argument("--server", default=os.path.join(root, "build", "lasca-web"))
    p.add_argument("--engine", default=os.path.join(root, "build", "lasca"))
    p.add_argument("--server-arg", action="append", default=[], help="an argument for lasca-web")
    p.add_argument("--pool", type=int, default=os.cpu_count() or 1,
                   help="engine processes the server may keep once every tab left (its --max-engines)")
    p.add_argument("--max-plies", type=int, default=400)
    p.add_argument("--deadline", type=float, default=600)
    p.add_argument("--annotate", type=int, default=0, metavar="PLIES",
                   help="measure the analysis board on one game of PLIES plies, 1..1000 (alone)")
    p.add_argument("--annotate-depth", type=int, default=6, help="the analysis depth awaited per ply")
    p.add_argument("--annotate-nodes", type=int, default=2000, help="the annotation's nodes per position")
    p.add_argument("--db", default="", metavar="PATH",
                   help="the server's database file ('' keeps every game in memory, the default)")
    args = p.parse_args()
    if args.club:
        args.idle, args.tables, args.duels, args.torneio = 760, 200, 20, 10
    if args.annotate:
        args.tables = 0
    if not (0 <= args.annotate <= 1000 and 1 <= args.annotate_depth <= 60
            and 1 <= args.annotate_nodes <= 10_000_000):
        sys.exit("--annotate 0..1000, --annotate-depth 1..60, --annotate-nodes 1..10000000")
    if not (0 <= args.tables <= 1000 and 0 <= args.idle <= 5000 and 0 <= args.duels <= 500
            and 0 <= args.torneio <= 16 and 1 <= args.torneio_rounds <= 200):
        sys.exit("--tables 0..1000, --idle 0..5000, --duels 0..500, --torneio 0..16, --torneio-rounds 1..200")
    try:  # every tab is a socket of this process too
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = args.idle + args.tables + 3 * args.duels + args.torneio + 256
        if soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    except (ImportError, ValueError, OSError):
        pass
    db = os.path.abspath(args.db) if args.db else ""
    kept_before = (0, 0, 0)
    if db and os.path.exists(db):
        kept_before = count_kept(db)
    # Every simulated person comes from 127.0.0.1: the limits per address are lifted (the limits
    # in all stay as they are).
    per_address = ["--max-connections-per-address", "100000", "--max-torneio-tables-per-address",
                   "10000", "--max-duels-per-address", "100000", "--max-games-per-address", "1000000"]
    server = subprocess.Popen([args.server, "--port", "0", "--db", db, "--engine", args.engine, "--log-level", "warn"]
                              + per_address + args.server_arg, stdout=subprocess.PIPE, text=True)
    status = 1
    host = "127.0.0.1"
    idle_tabs = []
    try:
        line = server.stdout.readline()
        port = int(line.strip().rsplit(":", 1)[1].rstrip("/"))
        base_rss = rss_kb(server.pid)
        failures = []
        for _ in range(args.idle):
            try:
                idle_tabs.append(open_idle_tab(host, port))
            except Exception as e:  # noqa: BLE001
                failures.append(("idle", str(e)))
                break
        idle_rss = rss_kb(server.pid)
        if args.annotate:
            for report in annotate_game(host, port, server.pid, args.annotate, args.annotate_depth,
                                        args.annotate_nodes):
                print(report)
            status = 0
            return status
        cpu_before = cpu_seconds(server.pid)
        results = [None] * args.tables
        duel_results = [None] * (2 * args.duels)
        torneio_results = [None] * args.torneio
        latencies, engine_latencies, duel_latencies = [], [], []
        threads = [threading.Thread(target=play_one_game,
                                    args=(host, port, i, args.max_plies, results, latencies, engine_latencies),
                                    daemon=True)
                   for i in range(args.tables)]
        for d in range(args.duels):
            try:
                table, white, black = create_duel(host, port)
            except Exception as e:  # noqa: BLE001
                failures.append(("duel.create", str(e)))
                continue
            for k, token in enumerate((white, black)):
                threads.append(threading.Thread(target=play_duel_seat,
                                                args=(host, port, table, token, 2 * d + k, args.max_plies,
                                                      duel_results, duel_latencies), daemon=True))
        threads += [threading.Thread(target=play_torneio_table,
                                     args=(host, port, i, args.torneio_rounds, torneio_results), daemon=True)
                    for i in range(args.torneio)]
        start = time.monotonic()
        for t in threads:
            t.start()
        peak_engines, peak_rss, peak_engine_rss = 0, 0, 0
        while any(t.is_alive() for t in threads) and time.monotonic() - start < args.deadline:
            kids = children_of(server.pid)
            peak_engines = max(peak_engines, len(kids))
            peak_rss = max(peak_rss, rss_kb(server.pid))
            peak_engine_rss = max(peak_engine_rss, sum(rss_kb(k) for k in kids))
            time.sleep(0.2)
        elapsed = time.monotonic() - start
        server_cpu = cpu_seconds(server.pid) - cpu_before
        for ws in idle_tabs:
            ws.close()
        # The clients have left: the engines of tabs of their own must be gone soon; a pool
        # keeps its --max-engines workers (a hang guard, not a measure).
        deadline = time.monotonic() + 10
        while len(children_of(server.pid)) > args.pool and time.monotonic() < deadline:
            time.sleep(0.1)
        left = len(children_of(server.pid))
        print(f"idle tabs: {len(idle_tabs)} of {args.idle} open; server RSS {base_rss} kB before, "
              f"{idle_rss} kB with them"
              + (f" ({(idle_rss - base_rss) / len(idle_tabs):.1f} kB per idle tab)" if idle_tabs else ""))
        all_failed = list(failures)
        for name, res in (("engine games", results), ("two-person games", duel_results),
                          ("torneio tables", torneio_results)):
            if not res:
                continue
            ok = [r for r in res if r and r[0] == "ok"]
            failed = [r for r in res if not r or r[0] != "ok"]
            all_failed += [(name,) + (tuple(r) if r else ("unfinished",)) for r in failed]
            rules = {}
            for r in ok:
                rules[r[2]] = rules.get(r[2], 0) + 1
            unit = "rounds" if name == "torneio tables" else "plies"
            print(f"{name}: {len(ok)} of {len(res)} ended, endings {rules}; {unit}: total "
                  f"{sum(r[1] for r in ok)}, longest {max((r[1] for r in ok), default=0)}")
        print(f"wall time: {elapsed:.1f} s")
        print(f"server RSS: peak {peak_rss} kB, after {rss_kb(server.pid)} kB")
        print(f"engine processes: peak {peak_engines}, peak total RSS {peak_engine_rss} kB, "
              f"after the clients left {left}")
        print(latency_line("people's moves against the engine", latencies))
        print(latency_line("engine replies", engine_latencies))
        if args.duels:
            print(latency_line("people's moves at two-person tables", duel_latencies))
        plies = sum(r[1] for r in results + duel_results if r and r[0] == "ok")
        if plies:
            print(f"server CPU: {server_cpu:.2f} s for {plies} Lasca plies, {1000 * server_cpu / plies:.3f} ms per ply "
                  f"(the server process alone, engines not counted; Torneio tables included)")
        for r in all_failed[:8]:
            print(f"failure: {r}")
        status = 0 if not all_failed and left <= args.pool else 1
    finally:
        for ws in idle_tabs:
            try:
                ws.close()
            except OSError:
                pass
        server.terminate()
        code = server.wait(30)
    print(f"server stopped: exit code {code}")
    if code != 0:
        status = 1
    if db:
        files = database_files(db)
        size = sum(n for _, n in files)
        print("database: " + ", ".join(f"{os.path.basename(f)} {n} B" for f, n in files if n or f == db)
              + f", total {size} B ({size / 1e6:.2f} MB)")
        try:
            games, played, moves = count_kept(db)
        except (OSError, sqlite3.Error) as e:
            print(f"failure: cannot read the database: {e}")
            return 1
        before = f" ({kept_before[0]} games were there before the run)" if kept_before[0] else ""
        print(f"games kept: {games} ({played} with moves), moves kept: {moves}{before}; "
              f"{size / games if games else 0:.0f} bytes per game kept, "
              f"{size / played if played else 0:.0f} per game with moves")
        completed = sum(1 for r in results if r and r[0] == "ok")
        if played - kept_before[1] < completed:
            print(f"failure: {played - kept_before[1]} games with moves kept for {completed} completed")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
