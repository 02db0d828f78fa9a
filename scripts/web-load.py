#!/usr/bin/python3
"""Load test of lasca-web: N tables play whole Lasca games against the engine at once.

Starts lasca-web on a free 127.0.0.1 port, opens N WebSocket clients (threads,
Python's standard library only), each playing one game against the engine at a tiny node budget
(level 0) by always picking a legal move the server sent. Every game must end by the rules
(R9, T1 or T2). Reports the server's memory and the engine processes during the run and after
the clients left: the engines must be stopped when their tables close. Bounded: at most 200
clients, each game at most --max-plies plies and the whole run at most --deadline seconds.

Also reports the server's own CPU time per ply (user + system of the lasca-web process from
/proc, its engines not counted), and the per-move latency a client sees: the time from sending
a move to receiving the first `state` reply that holds it (median, p95, max over every move of
every client; measured in the clients' Python threads, so it includes their own scheduling). With
--db FILE the server keeps its games in that SQLite file (each accepted move committed before
its reply goes out); --db '' (the default) keeps them in memory. With a file, once the
server has stopped, the script reports the file's size (plus its -wal file if one is left), the
number of games it keeps (SELECT COUNT(*) FROM lasca_games on a copy) and the bytes per game.

  scripts/web-load.py --tables 50 [--db ''|FILE] [--server build/lasca-web] [--engine build/lasca]
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


def play_one_game(host, port, index, max_plies, results, latencies):
    """Plays one game; appends each move's latency (seconds, from sending it to the first
    `state` that holds it) to latencies.

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
            if sent is not None and len(state["moves"]) > sent[0]:
                latencies.append(time.monotonic() - sent[1])
                sent = None
            if state["status"]["over"]:
                break
            if len(state["moves"]) > max_plies:
                raise RuntimeError("game too long")
            if not state["thinking"] and state["sideToMove"] != state["engine"] and len(state["moves"]) > last_ply:
                legal = state["legal"]
                ply = len(state["moves"])
                sent = (ply, time.monotonic())
                last_ply = ply
                ws.send({"type": "move", "ply": ply, "move": legal[(ply * 7 + index) % len(legal)]["move"]})
        results[index] = ("ok", len(state["moves"]), state["status"]["rule"])
        ws.close()
    except Exception as e:  # noqa: BLE001 - any failure of a client is reported
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


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tables", type=int, default=10)
    p.add_argument("--server", default=os.path.join(root, "build", "lasca-web"))
    p.add_argument("--engine", default=os.path.join(root, "build", "lasca"))
    p.add_argument("--max-plies", type=int, default=400)
    p.add_argument("--deadline", type=float, default=600)
    p.add_argument("--db", default="", metavar="PATH",
                   help="the server's database file ('' keeps every game in memory, the default)")
    args = p.parse_args()
    if not 1 <= args.tables <= 200:
        sys.exit("--tables must be 1..200")
    db = os.path.abspath(args.db) if args.db else ""
    kept_before = (0, 0, 0)
    if db and os.path.exists(db):
        kept_before = count_kept(db)
    server = subprocess.Popen([args.server, "--port", "0", "--db", db, "--engine", args.engine, "--log-level", "warn",
                               "--max-tables", str(args.tables), "--max-engines", str(args.tables)],
                              stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        port = int(line.strip().rsplit(":", 1)[1].rstrip("/"))
        idle_rss = rss_kb(server.pid)
        cpu_before = cpu_seconds(server.pid)
        results = [None] * args.tables
        latencies = []
        threads = [threading.Thread(target=play_one_game,
                                    args=("127.0.0.1", port, i, args.max_plies, results, latencies), daemon=True)
                   for i in range(args.tables)]
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
        # The clients have left: every engine must be gone soon (a hang guard, not a measure).
        deadline = time.monotonic() + 10
        while children_of(server.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = len(children_of(server.pid))
        ok = [r for r in results if r and r[0] == "ok"]
        failed = [r for r in results if not r or r[0] != "ok"]
        rules = {}
        for r in ok:
            rules[r[2]] = rules.get(r[2], 0) + 1
        print(f"tables: {args.tables}, games completed: {len(ok)}, failed: {len(failed)}")
        print(f"endings: {rules}; plies: total {sum(r[1] for r in ok)}, "
              f"longest {max((r[1] for r in ok), default=0)}")
        print(f"wall time: {elapsed:.1f} s")
        print(f"server RSS: idle {idle_rss} kB, peak {peak_rss} kB, after {rss_kb(server.pid)} kB")
        print(f"engine processes: peak {peak_engines}, peak total RSS {peak_engine_rss} kB, after the clients left {left}")
        lat = sorted(latencies)
        if lat:
            print(f"per-move latency ({'database ' + db if db else 'in memory'}): {len(lat)} moves, "
                  f"median {1000 * percentile(lat, 0.5):.2f} ms, p95 {1000 * percentile(lat, 0.95):.2f} ms, "
                  f"max {1000 * max(lat):.2f} ms")
        plies = sum(r[1] for r in ok)
        if plies:
            print(f"server CPU: {server_cpu:.2f} s for {plies} plies, {1000 * server_cpu / plies:.3f} ms per ply "
                  f"(the server process alone, engines not counted)")
        for r in failed[:5]:
            print(f"failure: {r}")
        status = 0 if not failed and left == 0 else 1
    finally:
        server.terminate()
        code = server.wait(10)
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
        # A tab's first state (hello) already keeps a game of its own, without moves: each client
        # leaves two games, the empty one and the one it played.
        print(f"games kept: {games} ({played} with moves), moves kept: {moves}{before}; "
              f"{size / games if games else 0:.0f} bytes per game kept, "
              f"{size / played if played else 0:.0f} per game with moves")
        if played - kept_before[1] < len(ok):
            print(f"failure: {played - kept_before[1]} games with moves kept for {len(ok)} completed")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
