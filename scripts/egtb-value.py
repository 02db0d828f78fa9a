#!/usr/bin/env python3
"""What the endgame tables are worth in play (docs/egtb.md, "What the tables are worth"), and a
check of a table against the moves of its positions.

  check   positions sampled from a set: a win in d plies has a move to a loss in d - 1 and none
          to a shorter loss, a loss in d has only moves to wins, the longest in d - 1 (a
          position without a move: a loss in 0), a draw has a move to a draw and none to a
          loss (the tables of every set a move leads to must be in the folder). The engine is
          not used.

Two measurements, both with the same engine binary with and without its EgtbPath option:

  suite   a file of LFENs (late positions from self-play games, say): how many of them a table
          holds, and whether the engine's move and node count at a fixed node budget differ
          with the tables (they cannot when no position of the search is in a table);
  match   a match from positions sampled uniformly from a table set (one column a side of N
          pieces: 1v1:N; two columns against one: 2v1:N): each position is played twice,
          the engine with the tables taking each side once, at a fixed node budget a move,
          with T1 and T2 on. It prints the score of the engine with the tables, its Elo, and
          for the side to move by its table value (won, drawn, lost) and by whether it had the
          tables: how many games ended as the table says, worse or better for it.

Needs the lasca Python module (PYTHONPATH=build/python). Usage:
  egtb-value.py --tables DIR check --set 2v1:6 [--positions K] [--seed S]
  egtb-value.py --engine build/lasca --tables DIR [--nodes N] suite FILE
  egtb-value.py --engine build/lasca --tables DIR [--nodes N] match --set 1v1:9 [--positions K]
                [--seed S] [--max-plies P] [--min-plies D]"""
import argparse
import math
import random
import sys

import lasca
import lasca.engine
import lasca.tablebase

FILES = "abcdefg"
_MAX_DRAWS = 1_000_000  # random positions drawn before a sample is given up


def playable_squares():
    """The 25 playable squares, each as (file index, rank index)."""
    return [(f, r) for r in range(7) for f in range(7) if (f + r) % 2 == 0]


def lfen_of(board, white_to_move):
    """The LFEN of a board given as {(file, rank): column text, top first}."""
    ranks = []
    for r in range(6, -1, -1):
        ranks.append(",".join(board.get((f, r), "-") for f in range(7) if (f + r) % 2 == 0))
    return "/".join(ranks) + (" w" if white_to_move else " b") + " 0 1"


def random_column(rng, height, commander_white):
    """A column of `height` pieces: the commander's block over the prisoners' block (R3, R5),
    each piece a soldier or an officer at random."""
    block = rng.randint(1, height)
    top, bottom = ("w", "b") if commander_white else ("b", "w")
    pieces = [top] * block + [bottom] * (height - block)
    return "".join(p.upper() if rng.random() < 0.5 else p for p in pieces)


def split(rng, total, parts):
    """`total` as `parts` positive heights, uniformly over the compositions."""
    cuts = sorted(rng.sample(range(1, total), parts - 1))
    bounds = [0] + cuts + [total]
    return [bounds[i + 1] - bounds[i] for i in range(parts)]


def sample_position(rng, family, pieces, tablebase, min_plies):
    """(lfen, Position, wdl for the side to move) of a position of the set, uniform over
    (heights, contents, squares, side), that the table holds, with a legal move (a soldier
    commander on its own promotion rank is not a position), drawn or decided in at least
    min_plies plies."""
    loaded = (tablebase.piece_counts() if family == "1v1"
              else tablebase.two_against_one_piece_counts())
    if pieces not in loaded:
        raise ValueError(f"no table of the set {family}:{pieces} in the folder")
    squares = playable_squares()
    for _ in range(_MAX_DRAWS):
        white_pair = rng.random() < 0.5
        if family == "1v1":
            owners = [True, False]
        else:
            owners = [white_pair, white_pair, not white_pair]
        heights = split(rng, pieces, len(owners))
        where = rng.sample(squares, len(owners))
        board = {sq: random_column(rng, h, w) for sq, h, w in zip(where, heights, owners)}
        lfen = lfen_of(board, rng.random() < 0.5)
        try:
            position = lasca.Position(lfen)
        except ValueError:  # a soldier commander on its promotion rank (R8)
            continue
        if len(position.legal_moves) == 0:
            continue
        value = table_value(tablebase, position)
        if value is not None and (value[0] == 0 or value[1] >= min_plies):
            return lfen, position, value[0]
    raise ValueError(f"no position of {family}:{pieces} at least {min_plies} plies from the end "
                     f"in {_MAX_DRAWS} draws")


def table_value(tablebase, position):
    """(wdl, plies) for the side to move: a position without a move is lost in 0; None when no
    table holds a position that has moves."""
    if len(position.legal_moves) == 0:
        return -1, 0
    wdl = tablebase.get_wdl(position)
    return None if wdl is None else (wdl, tablebase.get_distance(position) if wdl else 0)


def inconsistency(tablebase, lfen):
    """Why the table's value of lfen disagrees with its moves, or None."""
    position = lasca.Position(lfen)
    wdl, plies = table_value(tablebase, position)
    children = []
    for move in position.legal_moves:
        child = position.copy()
        child.push(move)
        value = table_value(tablebase, child)
        if value is None:
            return f"{lfen}: {move} leads to a position no table holds: {child.lfen()}"
        children.append(value)
    losses = [d for w, d in children if w == -1]
    if wdl == 1:
        if not losses or min(losses) != plies - 1:
            return f"{lfen}: a win in {plies} without a move to a loss in {plies - 1}"
    elif wdl == -1:
        if plies == 0:
            return None if not children else f"{lfen}: a loss in 0 with moves"
        if any(w != 1 for w, _ in children) or max(d for _, d in children) != plies - 1:
            return f"{lfen}: a loss in {plies} with a move to a draw, a loss or a longer win"
    elif losses or not any(w == 0 for w, _ in children):
        return f"{lfen}: a draw with a move to a loss, or without a move to a draw"
    return None


def check(args):
    family, count = parse_set(args.set)
    tablebase = lasca.tablebase.open_tablebase(args.tables)
    rng = random.Random(args.seed)
    counts = {1: 0, 0: 0, -1: 0}
    for _ in range(args.positions):
        lfen, _, wdl = sample_position(rng, family, count, tablebase, 0)
        problem = inconsistency(tablebase, lfen)
        if problem:
            sys.exit(f"inconsistent: {problem}")
        counts[wdl] += 1
    print(f"set {args.set}, {args.positions} positions (seed {args.seed}): consistent "
          f"({counts[1]} wins, {counts[0]} draws, {counts[-1]} losses for the side to move)")


def parse_set(text):
    family, _, count = text.partition(":")
    if family not in ("1v1", "2v1") or not count.isdigit():
        sys.exit("--set is 1v1:N or 2v1:N")
    return family, int(count)


def open_engine(path, tables):
    options = {"EgtbPath": tables} if tables else {}
    return lasca.engine.Engine(path, options=options, timeout=60.0)


def suite(args):
    tablebase = lasca.tablebase.open_tablebase(args.tables)
    with open(args.file, encoding="utf-8") as source:
        lines = [(number, line.split("#")[0].strip()) for number, line in enumerate(source, 1)]
    positions = []
    for number, lfen in lines:
        if lfen:
            try:
                positions.append(lasca.Position(lfen))
            except ValueError as e:
                raise ValueError(f"{args.file}:{number}: {e}") from None
    held = same = 0
    pieces = set()
    with open_engine(args.engine, None) as plain, open_engine(args.engine, args.tables) as probing:
        for position in positions:
            pieces.add(sum(len(position.column(f"{FILES[f]}{r + 1}") or "")
                           for f, r in playable_squares()))
            held += tablebase.get_wdl(position) is not None
            plain.new_game()
            probing.new_game()
            a = plain.analyse(position, nodes=args.nodes)
            b = probing.analyse(position, nodes=args.nodes)
            key_a = (a[0]["pv"][:1], a[0]["nodes"], a[0]["score"]) if a else None
            key_b = (b[0]["pv"][:1], b[0]["nodes"], b[0]["score"]) if b else None
            same += key_a == key_b
    print(f"positions {len(positions)}, pieces in all {sorted(pieces)}")
    print(f"held by a table: {held}")
    print(f"same move, score and node count with and without the tables at {args.nodes} nodes: "
          f"{same} of {len(positions)}")


def play(engines, lfen, nodes, max_plies):
    """Plays the game from lfen; engines[0] moves for White. Returns 1, 0 or -1 for White."""
    game = lasca.Game(lfen)
    for _ in range(max_plies):
        if game.is_over():
            break
        white = game.turn == lasca.WHITE
        move = engines[0 if white else 1].play(game, nodes=nodes)
        if move is None:
            break
        game.push(move)
    outcome = game.outcome()
    if outcome is None or outcome.winner is None:
        return 0
    return 1 if outcome.winner == lasca.WHITE else -1


def match(args):
    family, count = parse_set(args.set)
    tablebase = lasca.tablebase.open_tablebase(args.tables)
    rng = random.Random(args.seed)
    score = games = 0.0
    # results[(table value for the side to move, side to move has the tables)]
    #     = [worse than the table's value, as the table says, better] for the side to move
    results = {}
    with open_engine(args.engine, None) as plain, open_engine(args.engine, args.tables) as probing:
        for _ in range(args.positions):
            lfen, position, value = sample_position(rng, family, count, tablebase,
                                                    args.min_plies)
            mover_white = position.turn == lasca.WHITE
            for mover_has_tables in (True, False):
                tables_white = mover_has_tables == mover_white
                engines = (probing, plain) if tables_white else (plain, probing)
                for engine in engines:
                    engine.new_game()
                white_result = play(engines, lfen, args.nodes, args.max_plies)
                mover_result = white_result if mover_white else -white_result
                tables_result = white_result if tables_white else -white_result
                score += (tables_result + 1) / 2
                games += 1
                entry = results.setdefault((value, mover_has_tables), [0, 0, 0])
                entry[(mover_result > value) - (mover_result < value) + 1] += 1
    share = score / games
    clipped = min(max(share, 1e-6), 1 - 1e-6)
    elo = -400 * math.log10(1 / clipped - 1)
    print(f"set {args.set}, {args.positions} positions, {int(games)} games, {args.nodes} nodes "
          f"a move, seed {args.seed}, "
          f"decided positions at least {args.min_plies} plies from the end")
    print(f"engine with the tables: {score:g} of {int(games)} ({100 * share:.1f}%), "
          f"Elo {elo:+.0f}")
    names = {1: "won", 0: "drawn", -1: "lost"}
    for (value, mover_has_tables), (worse, kept, better) in sorted(results.items(),
                                                                   reverse=True):
        who = "with" if mover_has_tables else "without"
        print(f"side to move {names[value]} by the table, {who} the tables: "
              f"{worse + kept + better} games, the table's result {kept} "
              f"({100 * kept / (worse + kept + better):.1f}%), worse {worse}, better {better}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", help="the engine (suite, match)")
    parser.add_argument("--tables", required=True)
    parser.add_argument("--nodes", type=int, default=10000)
    commands = parser.add_subparsers(dest="command", required=True)
    check_parser = commands.add_parser("check")
    check_parser.add_argument("--set", required=True)
    check_parser.add_argument("--positions", type=int, default=10000)
    check_parser.add_argument("--seed", type=int, default=1)
    suite_parser = commands.add_parser("suite")
    suite_parser.add_argument("file")
    match_parser = commands.add_parser("match")
    match_parser.add_argument("--set", required=True)
    match_parser.add_argument("--positions", type=int, default=100)
    match_parser.add_argument("--seed", type=int, default=1)
    match_parser.add_argument("--max-plies", type=int, default=400)
    match_parser.add_argument("--min-plies", type=int, default=0,
                              help="only decided positions at least this many plies from the end")
    args = parser.parse_args()
    if not 1 <= args.nodes <= 10**9:
        sys.exit("--nodes is 1..1e9")
    if args.command != "check" and not args.engine:
        sys.exit(f"{args.command} needs --engine")
    try:
        if args.command == "check":
            if not 1 <= args.positions <= 10**7:
                sys.exit("--positions is 1..1e7")
            check(args)
        elif args.command == "suite":
            suite(args)
        else:
            if not 1 <= args.positions <= 100000 or not 1 <= args.max_plies <= 10000 \
                    or not 0 <= args.min_plies <= 255:
                sys.exit("--positions is 1..100000, --max-plies 1..10000, --min-plies 0..255")
            match(args)
    except (OSError, ValueError, lasca.engine.EngineError) as e:
        sys.exit(f"egtb-value.py: {e}")


if __name__ == "__main__":
    main()
