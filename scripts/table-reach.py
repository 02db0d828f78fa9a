#!/usr/bin/env python3
"""How often games reach the endgame tables' sets: reads datagen text ("<result> <score>
<LFEN>" lines, games in order, a game starting where the move number falls) and counts the
games with a kept position of one column a side (the tables of docs/egtb.md), of two columns
against one (by pieces in all) and of a few columns in all (classes not built yet). Usage: table-reach.py FILE..."""
import argparse
import collections
import sys


def columns(lfen):
    """(white columns, black columns, pieces in all) of an LFEN's board."""
    white = black = pieces = 0
    for square in lfen.split()[0].replace("/", ",").split(","):
        if square in ("", "-"):
            continue
        pieces += len(square)
        if square[0] in "wW":
            white += 1
        else:
            black += 1
    return white, black, pieces


def games_of(path):
    game, last = [], None
    with open(path, encoding="utf-8") as data:
        for number, line in enumerate(data, 1):
            fields = line.split()
            if not fields:
                continue
            if len(fields) < 4 or not fields[-1].isdigit():
                sys.exit(f"{path}:{number}: not a datagen line")
            move = int(fields[-1])
            if last is not None and move < last:
                yield game
                game = []
            last = move
            game.append(columns(" ".join(fields[2:])))
    if game:
        yield game


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    games = [g for path in args.files for g in games_of(path)]
    tests = {
        "one column a side": lambda w, b, n: w == 1 and b == 1,
        "two columns against one": lambda w, b, n: sorted((w, b)) == [1, 2],
        "two columns against one, at most 5 pieces": lambda w, b, n: sorted((w, b)) == [1, 2]
        and n <= 5,
        "two columns against one, at most 8 pieces": lambda w, b, n: sorted((w, b)) == [1, 2]
        and n <= 8,
        "at most 3 columns in all": lambda w, b, n: w + b <= 3,
        "at most 4 columns in all": lambda w, b, n: w + b <= 4,
        "one side down to one column": lambda w, b, n: min(w, b) == 1,
    }
    print(f"games {len(games)}, positions {sum(map(len, games))}")
    for name, test in tests.items():
        reached = sum(1 for g in games if any(test(*p) for p in g))
        print(f"{name}: {reached} games ({100.0 * reached / max(1, len(games)):.1f}%)")
    last = collections.Counter(min(w + b, 9) for g in games for w, b, _ in g[-1:])
    print("columns in each game's last kept position (9: 9 or more):",
          ", ".join(f"{k}: {v}" for k, v in sorted(last.items())))


if __name__ == "__main__":
    main()
