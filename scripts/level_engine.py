#!/usr/bin/env python3
"""A web-page level as an engine for lasca-match (scripts/levels.sh): lasca behind a filter
that turns every `go ...` into `go nodes N` and, for a level with a random share (kLevels'
randomPercent in include/web/lasca_tables/lasca_table.h), replaces that share of the engine's moves by a
legal move, as the web server does. The server draws from the position's Zobrist key; this
filter draws from a hash of the `position` command, which the engine does not print: the same
share of moves is replaced, not the same moves.

    level_engine.py ENGINE NODES [RANDOM_PERCENT]
"""
import hashlib
import re
import subprocess
import sys


def main():
    engine_path, nodes = sys.argv[1], int(sys.argv[2])
    percent = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    engine = subprocess.Popen([engine_path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def out(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def read_until(prefix, forward):
        """Engine lines up to the first starting with prefix (returned); others forwarded or kept."""
        kept = []
        for line in engine.stdout:
            line = line.rstrip("\n")
            if line.startswith(prefix):
                return line, kept
            if forward:
                out(line)
            else:
                kept.append(line)
        sys.exit(0)  # the engine closed

    position = ""
    for line in sys.stdin:
        line = line.strip()
        if line.startswith("position"):
            position = line
            send(line)
        elif line.startswith("go"):
            send(f"go nodes {nodes}")
            best, _ = read_until("bestmove", forward=True)
            if percent > 0:
                digest = int.from_bytes(hashlib.sha256(position.encode()).digest()[:8], "big")
                if digest % 100 < percent:
                    send("go perft 1")
                    _, lines = read_until("Nodes searched", forward=False)
                    legal = [l.split(": ")[0] for l in lines if re.fullmatch(r"\S+: \d+", l)]
                    if legal:
                        best = "bestmove " + legal[(digest // 100) % len(legal)]
            out(best)
        elif line == "quit":
            send(line)
            break
        else:
            send(line)
            if line in ("uci", "ugi", "isready"):
                reply = {"uci": "uciok", "ugi": "ugiok", "isready": "readyok"}[line]
                read_until(reply, forward=True)
                out(reply)
    engine.wait(5)


if __name__ == "__main__":
    main()
