#!/usr/bin/python3
"""How long the lobby takes to cross instances: three lasca-web instances on PostgreSQL behind
HAProxy (scripts/cluster.sh), a maker's lobby tab on web1 and a taker's on web2 (or both on
web1: --same), each round a seek made (by a new maker's tab), seen, accepted and started. docs/benchmarks.md prints
what it measured and the command.

    cluster_lobby.py BINDIR SCRIPTSDIR [--rounds 50] [--same]

seen:    from seek.create sent by the maker's tab to lobby.seek at the taker's tab
started: from seek.accept sent by the taker's tab to lobby.start at the maker's tab (the table
         made on the taker's instance, the maker told by its own instance)."""
import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "web", "cluster"))
from cluster_test import Cluster, Tab  # noqa: E402


def summary(name, values):
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    print(f"{name}: p50 {statistics.median(values) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, "
          f"max {values[-1] * 1000:.1f} ms ({len(values)} rounds)")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("bindir")
    p.add_argument("scripts")
    p.add_argument("--rounds", type=int, default=50)
    p.add_argument("--same", action="store_true", help="both tabs on web1")
    args = p.parse_args()
    cluster = Cluster(args.bindir, args.scripts, 5000)
    try:
        taker = Tab(cluster, "/ws/lobby", home="web1" if args.same else "web2")
        seen, started = [], []
        for _ in range(args.rounds):
            # A maker's tab per round: a tab makes at most 10 offers at once (then one each 5 s).
            maker = Tab(cluster, "/ws/lobby", home="web1")
            t0 = time.monotonic()
            maker.send({"type": "seek.create", "clock": None})
            seek = taker.recv_type("lobby.seek")["seek"]["id"]
            seen.append(time.monotonic() - t0)
            t1 = time.monotonic()
            taker.send({"type": "seek.accept", "seek": seek})
            maker.recv_type("lobby.start")
            started.append(time.monotonic() - t1)
            taker.recv_type("lobby.start")
            maker.ws.close()
        print("tabs on web1 and " + ("web1" if args.same else "web2"))
        summary("seen", seen)
        summary("started", started)
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
