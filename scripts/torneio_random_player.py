#!/usr/bin/python3
"""A Torneio player program in Python: the player protocol (protocol.md, "The Torneio player
protocol") spoken with the `torneio` module. It plays uniformly random legal replies.

It holds only what a player may know: a torneio.Knowledge rebuilt from the event lines the
referee sends it; its replies are computed from its own pieces and the request line.
Run it under the referee (PYTHONPATH holds the built module, build/python):

    PYTHONPATH=build/python build/torneio-referee \
        --player name=py,cmd=scripts/torneio_random_player.py --player name=r,cmd=build/torneio
"""
import sys

import torneio


def newgame(tokens):
    """(Knowledge, None) from 'newgame seat <n> seed <s> <params>', or (None, error text)."""
    if len(tokens) < 6 or tokens[1] != "seat" or tokens[3] != "seed":
        return None, "newgame needs: newgame seat <n> seed <s> seats=<n> ..."
    try:
        seat, seed = int(tokens[2]), int(tokens[4])
        if not 0 <= seed < 2 ** 64:
            raise ValueError("seed out of range 0..18446744073709551615")
        return torneio.Knowledge(seat, " ".join(tokens[5:]), seed), None
    except (ValueError, TypeError) as error:
        return None, f"newgame: {error}"


def main():
    knowledge = None

    def say(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for raw in sys.stdin:
        line = raw.strip()
        tokens = line.split()
        if not tokens:
            continue
        command = tokens[0]
        if command == "torneio":
            say("id name pyrandom")
            say("id author the lasca developers")
            say("torneiook")
        elif command == "isready":
            say("readyok")
        elif command == "setoption":
            say("info string error: no options")
        elif command == "newgame":
            fresh, error = newgame(tokens)
            if error:
                say(f"info string error: {error}")
            else:
                knowledge = fresh
        elif command == "event" and knowledge is not None:
            try:
                knowledge.update(line)
            except ValueError as error:
                say(f"info string error: {error}")
        elif command == "request" and knowledge is not None:
            try:
                say(knowledge.random_action(line))
            except ValueError as error:
                say(f"info string error: {error}")
                say("pass")  # one reply is owed; the referee judges it
        elif command == "quit":
            break
        else:
            say(f"info string error: unknown command '{command}'")


if __name__ == "__main__":
    main()
