#!/usr/bin/python3
"""Moves per second and per-move latency of two-person tables played as fast as their players
answer, through lasca-web: one instance on SQLite, or 1..3 instances on PostgreSQL behind
HAProxy (scripts/cluster.sh). docs/benchmarks.md prints what it measured and the command.

    cluster_load.py BINDIR SCRIPTSDIR --setup sqlite|cluster1|cluster2|cluster3
                    [--tables 16] [--seconds 20]

Each table is two WebSocket clients (white and black, threads of this program) that answer each
state with their first legal move; a game that ends starts a new table. Latency: from a move
sent to the mover's state showing it (committed to the database first)."""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import websocket

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "web", "cluster"))
from cluster_test import Cluster  # noqa: E402


def recv_type(ws, *types):
    while True:
        m = json.loads(ws.recv())
        if m["type"] in types:
            return m


def connect(port):
    ws = websocket.create_connection(f"ws://127.0.0.1:{port}/ws", timeout=60)
    recv_type(ws, "hello")
    recv_type(ws, "state")
    return ws


def join(port, table, token):
    """A seat's connection, following {"type":"moved"} to the table's home."""
    home = ""
    for _ in range(20):
        ws = websocket.create_connection(
            f"ws://127.0.0.1:{port}/ws" + (f"?home={home}" if home else ""), timeout=60)
        recv_type(ws, "hello")
        recv_type(ws, "state")
        ws.send(json.dumps({"type": "lasca.join", "table": table, "token": token}))
        m = recv_type(ws, "state", "moved", "error")
        if m["type"] == "state":
            return ws, m
        ws.close()
        home = m.get("home", "")
    raise RuntimeError("never reached the table")


def player_pair(port, stop, latencies, counts):
    while not stop.is_set():
        maker = connect(port)
        maker.send(json.dumps({"type": "lasca.create", "clock": None}))
        made = recv_type(maker, "lasca.created")
        maker.close()
        seats = {s["colour"]: s["token"] for s in made["seats"]}
        white, ws = join(port, made["table"], seats["white"])
        black, bs = join(port, made["table"], seats["black"])
        tabs = {"white": (white, ws), "black": (black, bs)}
        state = ws
        while not stop.is_set() and not state["status"]["over"]:
            side = state["sideToMove"]
            tab, own = tabs[side]
            while len(own["moves"]) < len(state["moves"]) or not own["legal"]:
                own = recv_type(tab, "state")
                if own["status"]["over"]:
                    break
            if own["status"]["over"]:
                break
            plies = len(own["moves"])
            sent = time.monotonic()
            tab.send(json.dumps({"type": "move", "ply": plies, "move": own["legal"][0]["move"]}))
            while True:
                got = recv_type(tab, "state", "error")
                if got["type"] == "error":
                    raise RuntimeError(got)
                if len(got["moves"]) == plies + 1:
                    break
            latencies.append(time.monotonic() - sent)
            counts[0] += 1
            tabs[side] = (tab, got)
            state = got
        white.close()
        black.close()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("bindir")
    p.add_argument("scripts")
    p.add_argument("--setup", required=True, choices=["sqlite", "cluster1", "cluster2", "cluster3"])
    p.add_argument("--tables", type=int, default=16)
    p.add_argument("--seconds", type=float, default=20)
    args = p.parse_args()
    cluster = server = scratch = None
    try:
        if args.setup == "sqlite":
            scratch = tempfile.mkdtemp(prefix="lasca-load-")
            server = subprocess.Popen([os.path.join(args.bindir, "lasca-web"), "--port", "0",
                                       "--db", os.path.join(scratch, "web.db"), "--max-engines", "1",
                                       "--log-level", "warn"], stdout=subprocess.PIPE, text=True)
            port = int(server.stdout.readline().strip().rstrip("/").rsplit(":", 1)[1])
        else:
            cluster = Cluster(args.bindir, args.scripts, lease_ms=5000,
                              instances=int(args.setup[-1]))
            port = cluster.port
        stop = threading.Event()
        latencies, counts = [], [0]
        threads = [threading.Thread(target=player_pair, args=(port, stop, latencies, counts),
                                    daemon=True) for _ in range(args.tables)]
        for t in threads:
            t.start()
        time.sleep(2)  # the tables made; the measure starts
        start_count, start_lat = counts[0], len(latencies)
        time.sleep(args.seconds)
        moves = counts[0] - start_count
        window = sorted(latencies[start_lat:])
        stop.set()
        for t in threads:
            t.join(30)
        q = lambda f: window[min(len(window) - 1, int(f * len(window)))] * 1000
        print(f"{args.setup}: {args.tables} tables, {moves / args.seconds:.0f} moves/s, "
              f"latency p50 {q(0.5):.1f} ms, p95 {q(0.95):.1f} ms, max {window[-1] * 1000:.1f} ms "
              f"({len(window)} moves)")
    finally:
        if cluster:
            cluster.stop()
        if server:
            server.terminate()
            server.wait(30)
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
