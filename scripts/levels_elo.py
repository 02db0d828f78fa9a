#!/usr/bin/env python3
"""Elo ladder of the web page's levels from the reports of scripts/levels.sh.

Reads every <first>-vs-<second>.txt in the folder (the lasca-match reports: pentanomial counts
of the colour-swapped game pairs), fits one rating per player by maximum likelihood over all
pairings at once (logistic Elo, each game's score 0, 1/2 or 1 against the expected score
1 / (1 + 10^(-diff/400))), with the anchor player at 0, and gives each rating a 95% interval
from a parametric bootstrap over game pairs (each pairing's pairs redrawn from its pentanomial
frequencies, the whole fit redone). One virtual drawn game is added to every pairing so that a
100% score still gives a finite rating (it pulls a 100-game result by less than 1%).

    levels_elo.py DIR [--anchor random] [--samples 2000] [--seed 1]
"""
import argparse
import glob
import math
import os
import random
import re

K = math.log(10) / 400


def read_reports(folder):
    """[(first, second, pentanomial counts [5])] from the report files."""
    out = []
    for path in sorted(glob.glob(os.path.join(folder, "*-vs-*.txt"))):
        first, second = os.path.basename(path)[:-4].split("-vs-")
        text = open(path).read()
        m = re.search(r"Pentanomial \[0, 0\.5, 1, 1\.5, 2\]: \[(\d+), (\d+), (\d+), (\d+), (\d+)\]", text)
        if not m:
            raise SystemExit(f"{path}: no pentanomial line (the match did not finish?)")
        out.append((first, second, [int(x) for x in m.groups()]))
    return out


def fit(players, anchor, results):
    """results: [(i, j, points of i, games)]. Newton's method on the log-likelihood."""
    idx = [p for p in players if p != anchor]
    pos = {p: k for k, p in enumerate(idx)}
    r = {p: 0.0 for p in players}
    for _ in range(100):
        n = len(idx)
        g = [0.0] * n
        h = [[0.0] * n for _ in range(n)]
        for a, b, s, games in results:
            e = 1 / (1 + math.exp(-K * (r[a] - r[b])))
            grad = K * (s - games * e)
            curv = K * K * games * e * (1 - e)
            for p, sign in ((a, 1), (b, -1)):
                if p in pos:
                    g[pos[p]] += sign * grad
            for p, sp in ((a, 1), (b, -1)):
                for q, sq in ((a, 1), (b, -1)):
                    if p in pos and q in pos:
                        h[pos[p]][pos[q]] += sp * sq * curv
        step = solve(h, g)
        for p in idx:
            r[p] += max(-400.0, min(400.0, step[pos[p]]))
        if max(abs(x) for x in step) < 1e-6:
            break
    return r


def solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda i: abs(m[i][c]))
        m[c], m[piv] = m[piv], m[c]
        if abs(m[c][c]) < 1e-12:
            raise SystemExit("the pairings do not connect every player to the anchor")
        for i in range(c + 1, n):
            f = m[i][c] / m[c][c]
            for j in range(c, n + 1):
                m[i][j] -= f * m[c][j]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (m[i][n] - sum(m[i][j] * x[j] for j in range(i + 1, n))) / m[i][i]
    return x


def to_results(reports):
    res = []
    for a, b, penta in reports:
        pairs = sum(penta)
        points = sum(c * s for c, s in zip(penta, (0, 0.5, 1, 1.5, 2)))
        res.append((a, b, points + 0.5, 2 * pairs + 1))
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("--anchor", default="random")
    ap.add_argument("--samples", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    reports = read_reports(args.folder)
    players = sorted({p for a, b, _ in reports for p in (a, b)})
    if args.anchor not in players:
        raise SystemExit(f"the anchor {args.anchor} played no pairing")
    best = fit(players, args.anchor, to_results(reports))
    rng = random.Random(args.seed)
    samples = {p: [] for p in players}
    for _ in range(args.samples):
        redrawn = []
        for a, b, penta in reports:
            n = sum(penta)
            redrawn.append((a, b, [0] * 5))
            counts = redrawn[-1][2]
            for k in rng.choices(range(5), weights=penta, k=n):
                counts[k] += 1
        r = fit(players, args.anchor, to_results(redrawn))
        for p in players:
            samples[p].append(r[p])
    print("pairing | games | score of the first | pentanomial [0, 1/2, 1, 3/2, 2]")
    for a, b, penta in reports:
        pts = sum(c * s for c, s in zip(penta, (0, 0.5, 1, 1.5, 2)))
        print(f"{a} vs {b} | {2 * sum(penta)} | {100 * pts / (2 * sum(penta)):.1f}% | {penta}")
    print(f"\nplayer | Elo (anchor {args.anchor} = 0) | 95% interval")
    for p in sorted(players, key=lambda p: best[p]):
        s = sorted(samples[p])
        lo, hi = s[int(0.025 * len(s))], s[int(0.975 * len(s)) - 1]
        print(f"{p} | {best[p]:+.0f} | [{lo:+.0f}, {hi:+.0f}]")


if __name__ == "__main__":
    main()
