#!/usr/bin/python3
"""Random 3-seat Torneio games per second through the Python module `torneio`, two ways:
  strings  rng.choice(state.legal_action_strings()) then state.apply(line): the only way before
           the integer actions (every set-up request lists its 23,760 set-ups as lines)
  ints     rng.choice(state.legal_actions()) then state.apply_action(number), OpenSpiel's loop
  drawn    state.apply(state.random_action()): the choice drawn in C++, for comparison
Best of --repeat runs of --games games each (seeded: the same games every run).
Usage: PYTHONPATH=build/python scripts/bench_torneio_python.py [--games N] [--repeat R]"""
import argparse
import random
import time

import torneio


def strings(games, seats):
    for seed in range(games):
        rng = random.Random(seed)
        state = torneio.State(seats, seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_action_strings()))


def ints(games, seats):
    game = torneio.Game(seats)
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))


def drawn(games, seats):
    for seed in range(games):
        state = torneio.State(seats, seed)
        while not state.is_over():
            state.apply(state.random_action())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seats", type=int, default=3)
    args = parser.parse_args()
    for name, run in (("strings", strings), ("ints", ints), ("drawn", drawn)):
        games = max(1, args.games // 10) if name == "strings" else args.games
        best = min(timed(run, games, args.seats) for _ in range(args.repeat))
        print(f"{name}: {games} games in {best:.3f} s, {games / best:.1f} games/s")


def timed(run, games, seats):
    start = time.perf_counter()
    run(games, seats)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
