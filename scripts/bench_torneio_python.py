#!/usr/bin/python3
"""Random 3-seat Torneio games per second through the Python module `torneio`, two ways:
  strings  rng.choice(state.legal_action_strings()) then state.apply(line): the only way before
           the integer actions (every set-up request lists its 23,760 set-ups as lines)
  ints     rng.choice(state.legal_actions()) then state.apply_action(number), OpenSpiel's loop
  drawn    state.apply(state.random_action()): the choice drawn in C++, for comparison
Best of --repeat runs of --games games each (seeded: the same games every run).
With --openspiel, OpenSpiel's algorithms as tests/python/test_openspiel.py writes them (their
calls into the module are OpenSpiel's mcts.py and ismcts.py's), one seeded game each on 2, 3
and 4 seats against random players:
  ints     random games per second with integer actions (--games of them)
  mcts     MCTS decisions per second (4 simulations, random rollouts)
  ismcts   IS-MCTS decisions per second (4 simulations, a resample each)
Usage: PYTHONPATH=build/python scripts/bench_torneio_python.py [--games N] [--repeat R]
       [--seats S] [--openspiel]"""
import argparse
import os
import random
import sys
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


def openspiel(games, repeat):
    """The figures of docs/benchmarks.md "Torneio through Python's OpenSpiel calls"."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests",
                                    "python"))
    import test_openspiel as os_test  # the algorithms, and the stand-in pyspiel they use

    for seats in (2, 3, 4):
        best = min(timed(ints, games, seats) for _ in range(repeat))
        print(f"{seats} seats ints: {games} games in {best:.3f} s, {games / best:.1f} games/s")
        for name, make in (("mcts", lambda game, rng: os_test.MctsBot(
                game, 2.0, 4, os_test.RolloutEvaluator(1, os_test.random_state(100)), rng=rng)),
                           ("ismcts", lambda game, rng: os_test.IsmctsBot(
                               game, os_test.RolloutEvaluator(1, os_test.random_state(100)),
                               uct_c=2.0, max_simulations=4, rng=rng))):
            random.seed(seats)
            game = os_test.load(seats)
            rng = os_test.random_state(seats)
            bot = make(game, rng)
            bots = [os_test.RandomBot(p, os_test.random_state(seats + p)) for p in range(seats)]
            bots[seats - 1] = bot
            start = time.perf_counter()
            os_test.evaluate_bots(game.new_initial_state(), bots, rng)
            seconds = time.perf_counter() - start
            print(f"{seats} seats {name}: {bot.searches} decisions in {seconds:.2f} s, "
                  f"{bot.searches / seconds:.1f} decisions/s (the game's random moves included)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--openspiel", action="store_true")
    args = parser.parse_args()
    if args.openspiel:
        openspiel(args.games, args.repeat)
        return
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
