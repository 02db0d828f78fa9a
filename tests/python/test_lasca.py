"""Tests of the Python module `lasca`: positions and moves, perft against the
`lasca` program, the rules' verdicts (R9, T1), PDN, diagrams, the engine over UCI, and bad input
at every entry point. Run by ctest as python.lasca (python/CMakeLists.txt), which sets
PYTHONPATH to the built module and LASCA_ENGINE to the engine program. Every limit is in nodes
or depth, never in time, so no result depends on the machine's speed."""
import gc
import io
import os
import pathlib
import random
import re
import subprocess
import sys
import time

import pytest

import hostile_calls
import lasca
import lasca._lasca

ENGINE = os.environ.get("LASCA_ENGINE")
needs_engine = pytest.mark.skipif(not ENGINE, reason="LASCA_ENGINE not set")

# perft from the start position, as `lasca perft --depth N` prints it (lasca-rules.md table).
START_PERFT = {0: 1, 1: 6, 2: 6, 3: 18, 4: 54, 5: 116, 6: 324}
# White to move without a piece: R9, Black wins.
NO_WHITE_LFEN = "b,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,- w 0 1"
# Two officers alone: White's on a1, Black's on g7 (room to shuffle for T1).
OFFICERS_LFEN = "-,-,-,B/-,-,-/-,-,-,-/-,-,-/-,-,-,-/-,-,-/W,-,-,- w 0 1"


# ---- positions and moves ---------------------------------------------------------------------
def test_start_position():
    pos = lasca.Position()
    assert pos.lfen() == lasca.START_LFEN
    assert pos.side_to_move() == "white"
    assert len(pos.legal_moves()) == 6
    assert pos.column("a1") == "w"
    assert pos.column("d4") is None
    assert lasca.Position(lasca.START_LFEN) == pos


@pytest.mark.parametrize("depth", [0, 1, 2, 3, 4, 5, 6])
def test_perft_matches_the_table(depth):
    assert lasca.Position().perft(depth) == START_PERFT[depth]


@needs_engine
@pytest.mark.parametrize("depth", [1, 2, 3, 4, 8])
def test_perft_matches_the_program(depth):
    out = subprocess.run([ENGINE, "perft", "--depth", str(depth)], capture_output=True,
                         text=True, check=True, timeout=60).stdout
    total = [line for line in out.splitlines() if line.startswith("Nodes searched:")]
    assert lasca.Position().perft(depth) == int(total[-1].split(":")[1])


def test_perft_sums_over_legal_moves():
    pos = lasca.Position()
    for move in pos.legal_moves():
        pos.push(move)
        assert pos.perft(3) >= 0
        pos.pop()
    assert sum(_child_perft(pos, m, 4) for m in pos.legal_moves()) == pos.perft(5)


def _child_perft(pos, move, depth):
    pos.push(move)
    try:
        return pos.perft(depth)
    finally:
        pos.pop()


def test_push_pop_round_trip():
    pos = lasca.Position()
    rng = random.Random(26)
    lfens = [pos.lfen()]
    for _ in range(40):
        moves = pos.legal_moves()
        if not moves:
            break
        assert pos.push(rng.choice(moves)) in moves
        lfens.append(pos.lfen())
    assert len(pos.move_stack()) == len(lfens) - 1
    while pos.move_stack():
        lfens.pop()
        pos.pop()
        assert pos.lfen() == lfens[-1]
    assert pos == lasca.Position()
    with pytest.raises(IndexError):  # python-chess's: popping an empty stack
        pos.pop()


def test_push_takes_the_readers_forms_and_writes_the_engines():
    pos = lasca.Position()
    assert pos.push("c3d4") == "c3-d4"
    assert pos.side_to_move() == "black"
    # Black must capture (R6): the only legal move is a capture, written with x.
    (capture,) = pos.legal_moves()
    assert "x" in capture
    with pytest.raises(ValueError, match="."):
        pos.push("g5-f4")  # not legal: a capture is compulsory


def test_columns_after_a_capture():
    pos = lasca.Position()
    pos.push("c3-d4")
    pos.push(pos.legal_moves()[0])  # e5xc3: the black soldier takes the white one prisoner
    assert pos.column("c3") == "bw"
    assert pos.column("e5") is None


def test_copy_is_independent():
    pos = lasca.Position()
    other = pos.copy()
    other.push(other.legal_moves()[0])
    assert pos.lfen() == lasca.START_LFEN
    assert other != pos


def test_svg():
    svg = lasca.Position()._repr_svg_()
    assert svg.lstrip().startswith("<") and "<svg" in svg and svg.rstrip().endswith("</svg>")
    assert "<svg" in lasca.Position().svg(flip=True, size=32, last_move="c3-d4")


# ---- Move values, legal_moves, move_stack (python-chess's habits) -----------------------------
# White's soldier on a5 takes Black's on b6 and lands on c7, its last rank: a capture that
# promotes (R5, R8).
PROMOTING_CAPTURE_LFEN = "-,-,-,-/b,-,-/w,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,- w 0 1"

START_BOARD = """\
  +-----------------------------+
7 | b       b       b       b   |
6 |     b       b       b       |
5 | b       b       b       b   |
4 |     .       .       .       |
3 | w       w       w       w   |
2 |     w       w       w       |
1 | w       w       w       w   |
  +-----------------------------+
    a   b   c   d   e   f   g
white to move"""


def test_move_text_both_ways():
    for text in ["c3-d4", "e5xc3", "d2xb4xd6", "a1-b2"]:
        move = lasca.Move.from_text(text)
        assert str(move) == text and lasca.Move(text) == move == lasca.Move.parse(text)
        assert repr(move) == f"Move('{text}')" and move.promotion is None
    assert str(lasca.Move.from_text("c3d4")) == "c3-d4"  # the readers' form
    assert str(lasca.Move.from_text("d2b4d6")) == "d2xb4xd6"
    capture = lasca.Move("d2xb4xd6")
    assert capture.from_square == "d2" and capture.to_square == "d6"
    assert capture.path == ["b4", "d6"] and capture.captured == ["c3", "c5"]
    assert capture.is_capture and not lasca.Move("c3-d4").is_capture
    assert lasca.Move("c3-d4").captured == []
    for bad in ["", "c3", "c3-e5", "c3xd4", "c3-d4-e5", "c3xe5-g7", "a1-a2", "c3-f6", "zz",
                "x" * 100000]:
        with pytest.raises(ValueError):
            lasca.Move.from_text(bad)
    with pytest.raises(TypeError):
        lasca.Move.from_text(3)


def test_moves_compare_and_hash_by_their_squares():
    legal = lasca.Position().parse_move("c3-d4")
    read = lasca.Move("c3-d4")
    assert legal == read and hash(legal) == hash(read) and legal.promotion is False
    assert len({legal, read, lasca.Move("c3-b4")}) == 2
    assert legal != "c3-d4" and legal != lasca.Move("c3-b4") and None != legal
    import pickle
    assert pickle.loads(pickle.dumps(legal)) == legal


def test_parse_move_gives_the_legal_move_or_value_error():
    pos = lasca.Position()
    assert pos.parse_move("c3d4") == lasca.Move("c3-d4")
    for bad in ["c3-e5", "d4-e5", "a1-b2", "", "nonsense", "c3xd4"]:
        with pytest.raises(ValueError):
            pos.parse_move(bad)
    with pytest.raises(TypeError):
        pos.parse_move(None)
    assert pos == lasca.Position() and len(pos.move_stack) == 0


def test_captured_squares_and_promotion():
    pos = lasca.Position(PROMOTING_CAPTURE_LFEN)
    (move,) = pos.legal_moves
    assert str(move) == "a5xc7" and move.captured == ["b6"] and move.promotion is True
    assert pos.push(move) == "a5xc7"
    assert pos.column("c7") == "Wb" and pos.move_stack[0].promotion is True
    game = lasca.Game(PROMOTING_CAPTURE_LFEN)
    game.push(lasca.Move("a5xc7"))
    assert game.move_stack[0].promotion is True and game.move_stack[0].captured == ["b6"]
    assert game.outcome().winner is lasca.WHITE


def test_legal_moves_is_a_property_that_iterates_and_stays_callable():
    pos = lasca.Position()
    moves = pos.legal_moves
    assert len(moves) == 6 and bool(moves)
    assert all(isinstance(m, lasca.Move) for m in moves)
    assert [str(m) for m in moves] == moves() == pos.legal_moves()
    assert moves() == ["a3-b4", "c3-d4", "e3-f4", "c3-b4", "e3-d4", "g3-f4"]
    assert lasca.Move("c3-d4") in moves and "c3-d4" in moves and "c3d4" in moves
    assert "c3-e5" not in moves and "junk" not in moves and 3 not in moves and None not in moves
    assert moves[0] == moves[-6] == lasca.Move("a3-b4")
    with pytest.raises(IndexError):
        moves[6]
    assert lasca.Game().legal_moves == moves and lasca.Game().legal_moves() == moves()
    assert not lasca.Position(NO_WHITE_LFEN).legal_moves


def test_push_takes_a_move_or_its_text():
    pos = lasca.Position()
    assert pos.push(pos.legal_moves[1]) == "c3-d4"
    assert pos.push("e5xc3") == "e5xc3"
    assert pos.push(lasca.Move("b2xd4")) == "b2xd4"
    assert [str(m) for m in pos.move_stack] == pos.move_stack() == ["c3-d4", "e5xc3", "b2xd4"]
    before = pos.lfen()
    with pytest.raises(ValueError, match="not legal"):
        pos.push(lasca.Move("a3-b4"))  # a move of the other side
    with pytest.raises(TypeError):
        pos.push(42)
    assert pos.lfen() == before
    game = lasca.Game()
    game.push("c3-d4")
    game.push(lasca.Move("e5xc3"))
    game.push(game.parse_move("b2xd4"))
    assert game.move_stack() == game.moves() == ["c3-d4", "e5xc3", "b2xd4"]
    assert game.move_stack == pos.move_stack and game.lfen() == pos.lfen()
    with pytest.raises(TypeError):
        game.push(None)
    assert len(game) == 3


def test_str_of_a_position_is_an_ascii_board():
    pos = lasca.Position()
    assert str(pos) == str(lasca.Game()) == START_BOARD
    pos.push("c3-d4")
    pos.push("e5xc3")
    rows = str(pos).splitlines()
    assert rows[5] == "3 | w       b2      w       w   |"  # the column on c3: black on white
    assert rows[3] == "5 | b       b       .       b   |"
    assert rows[-1] == "white to move"
    assert repr(pos) == f"Position('{pos.lfen()}')"


def test_game_result_and_outcome_in_python_chess_terms():
    game = lasca.Game()
    assert game.result() == "*" and game.outcome() is None and not game.is_game_over()
    assert repr(lasca.Game(NO_WHITE_LFEN).outcome()) == \
        "Outcome(winner=False, termination='no legal move', rule='R9')"
    copy = game.copy()
    copy.push("c3-d4")
    assert len(copy.move_stack) == 1 and len(game.move_stack) == 0


def test_perft_function_over_positions_games_and_lfens():
    game = lasca.Game()
    game.push("c3-d4")
    after = lasca.Position()
    after.push("c3-d4")
    assert lasca.perft(game, 5) == lasca.perft(after, 5) == lasca.perft(after.lfen(), 5)
    assert lasca.perft(lasca.Position(), 6) == START_PERFT[6]
    with pytest.raises(TypeError):
        lasca.perft(42, 3)
    with pytest.raises(ValueError):
        lasca.perft(lasca.Position(), lasca.MAX_PERFT_DEPTH + 1)


# ---- the rules' verdicts ---------------------------------------------------------------------
def test_status_r9_no_legal_move():
    game = lasca.Game(NO_WHITE_LFEN)
    status = game.status()
    assert status.over and status.outcome == "black wins"
    assert status.rule == "R9" and status.termination == "no legal move"
    assert game.result() == "0-1" and game.pdn_result() == "0-2"
    assert game.legal_moves() == [] and len(game.legal_moves) == 0
    outcome = game.outcome()
    assert outcome.winner is lasca.BLACK and outcome.termination == "no legal move"
    assert outcome.rule == "R9" and outcome.result() == "0-1"


def test_status_t1_threefold_repetition():
    game = lasca.Game(OFFICERS_LFEN)
    shuffle = ["a1-b2", "g7-f6", "b2-a1", "f6-g7"]
    for move in shuffle:
        game.push(move)
    assert game.occurrences() == 2 and not game.is_over()
    for move in shuffle:
        game.push(move)
    status = game.status()
    assert status.outcome == "draw" and status.rule == "T1"
    assert game.result() == "1/2-1/2" and game.pdn_result() == "1-1"
    assert game.outcome().winner is None and game.outcome().rule == "T1"
    # Without T1 the same game goes on.
    free = lasca.Game(OFFICERS_LFEN, repetition=False)
    for move in shuffle * 2:
        free.push(move)
    assert free.status().outcome == "ongoing" and free.result() == "*"
    assert free.outcome() is None and free.pdn_result() == "*"


def test_game_pop_replays():
    game = lasca.Game()
    game.push("c3-d4")
    game.push(game.legal_moves()[0])
    assert game.pop() == lasca.Move("e5xc3")
    assert game.moves() == ["c3-d4"] and len(game) == 1
    after_one = lasca.Position()
    after_one.push("c3-d4")
    assert game.lfen() == after_one.lfen()


def test_no_move_after_the_end():
    """A game over by the rules (T1 here, R9 below) takes no further move, so its record is one
    that replay() accepts; a record with a move after the end is refused by both readers."""
    game = lasca.Game(OFFICERS_LFEN)
    shuffle = ["a1-b2", "g7-f6", "b2-a1", "f6-g7"]
    for move in shuffle * 2:
        game.push(move)
    assert game.is_over() and game.status().rule == "T1"
    with pytest.raises(RuntimeError, match="over"):
        game.push("a1-b2")
    assert len(game) == 8
    pdn = game.pdn()
    assert pdn.replay() == game.lfen()
    pdn.moves = pdn.moves + ["a1-b2"]
    with pytest.raises(ValueError, match="after the game ended"):
        pdn.replay()
    with pytest.raises(ValueError, match="after the game ended"):
        lasca.Game.from_pdn(pdn)
    assert str(game.pop()) == "f6-g7"
    game.push("f6-g7")  # taken back, the move may be played again
    with pytest.raises(RuntimeError):
        lasca.Game(NO_WHITE_LFEN).push("a1-b2")
    # Without T1 the game goes on, and its record replays under the same rules.
    free = lasca.Game(OFFICERS_LFEN, repetition=False)
    for move in shuffle * 3:
        free.push(move)
    assert free.pdn().replay(repetition=False) == free.lfen()


def test_position_compares_with_anything_and_is_not_hashable():
    pos = lasca.Position()
    assert None not in [pos] and pos != 0 and not pos == "x" and pos != lasca.Game()
    assert pos in [0, lasca.Position()] and pos == lasca.Position()
    with pytest.raises(TypeError):
        hash(pos)  # it changes as moves are pushed: key() is its hash
    assert {pos.key(): "start"}[lasca.Position().key()] == "start"


def test_lfen_with_surrounding_white_space():
    for text in [lasca.START_LFEN + "\n", " " + lasca.START_LFEN,
                 "\t" + lasca.START_LFEN + "\r\n"]:
        assert lasca.Position(text) == lasca.Position()
        assert lasca.Game(text).lfen() == lasca.START_LFEN
    with pytest.raises(ValueError):
        lasca.Position("\n")


# ---- PDN -------------------------------------------------------------------------------------
def _random_game(seed, plies):
    rng = random.Random(seed)
    game = lasca.Game()
    for _ in range(plies):
        moves = game.legal_moves()
        if not moves or game.is_over():
            break
        game.push(rng.choice(moves))
    return game


def test_pdn_round_trip():
    games = [_random_game(seed, 30 + seed) for seed in range(3)]
    games.append(lasca.Game(NO_WHITE_LFEN))
    pdns = [g.pdn([("Event", "python test"), ("White", "a"), ("Black", "b")]) for g in games]
    text = lasca.write_pdn(pdns)
    read = lasca.read_pdn(text)
    assert len(read) == len(games)
    for game, pdn in zip(games, read):
        assert pdn.moves == game.moves()
        assert pdn.result == game.pdn_result()
        assert pdn.tag("Event") == "python test"
        assert pdn.replay() == game.lfen()
        assert lasca.Game.from_pdn(pdn).lfen() == game.lfen()
    assert read[-1].tag("FEN") == NO_WHITE_LFEN
    assert lasca.write_pdn(read) == text


def test_pdn_file_in_tmp_path(tmp_path):
    path = tmp_path / "games.pdn"
    path.write_text(lasca.write_pdn([_random_game(7, 20).pdn()]))
    (pdn,) = lasca.read_pdn(path.read_text())
    assert len(pdn.moves) == 20


def test_a_comment_never_changes_the_moves():
    """A '}' in a comment would close it early; the writer drops it (the same writer writes the
    web page's PDN)."""
    q = lasca.PdnGame(moves=["c3-d4"])
    q.comments = ["x} 2. c3-b4 {y"]
    q.comment = "pre} 1... e5xc3 {"
    (back,) = lasca.read_pdn(lasca.write_pdn([q]))
    assert back.moves == ["c3-d4"]
    assert back.comments == ["x 2. c3-b4 {y"]
    assert back.comment == "pre 1... e5xc3 {"


def test_iter_pdn_reads_on_past_a_broken_game(tmp_path):
    good = [_random_game(seed, 10).pdn([("Event", f"g{seed}")]) for seed in range(8)]
    broken = '[Event "no end\n\n1. c3-d4 *\n\n'
    text = lasca.write_pdn(good[:4]) + broken + lasca.write_pdn(good[4:])
    with pytest.raises(ValueError):
        lasca.read_pdn(text)  # the strict reader: all or nothing
    path = tmp_path / "games.pdn"
    path.write_text(text)
    with open(path) as f:
        entries = list(lasca.iter_pdn(f))
    assert [e.error is None for e in entries] == [True] * 4 + [False] + [True] * 4
    assert entries[4].game is None and "malformed tag pair" in entries[4].error
    assert entries[0].line == 1 and entries[4].line == text[:text.index(broken)].count("\n") + 1
    assert [e.game.moves for e in entries if e.game] == [g.moves for g in good]
    assert [e.game.moves for e in lasca.iter_pdn(text) if e.game] == [g.moves for g in good]
    # Game by game: the first comes before the source has been read to its end.
    read = []

    def lines():
        for line in text.splitlines(keepends=True):
            read.append(line)
            yield line

    first = next(lasca.iter_pdn(lines()))
    assert first.game.moves == good[0].moves and len(read) < text.count("\n") // 4


def test_pdn_with_an_illegal_move_is_refused():
    (pdn,) = lasca.read_pdn('[Event "x"]\n\n1. c3-d4 a5-b4 *\n')
    with pytest.raises(ValueError):
        pdn.replay()
    with pytest.raises(ValueError, match="move 2"):
        lasca.Game.from_pdn(pdn)


# ---- the PDN game tree -----------------------------------------------------------------------
TREE_PDN = """[Event "tree"]
[Site "here"]

{start} 1. c3-d4 {a} (1. a3-b4 {alt} 1... c5xa3 2. c3-d4 (2. e3-f4)) (1. e3-f4) 1... e5xc3 \
2. d2xb4 (2. b2xd4 f6-e5) 2... c5-d4 *
"""


def test_pdn_tree_reads_variations_and_writes_them_back():
    (pdn,) = lasca.read_pdn(TREE_PDN)
    tree = pdn.tree()
    assert [str(m) for m in tree.mainline_moves()] == ["c3-d4", "e5xc3", "d2xb4", "c5-d4"]
    assert tree.comment == "start" and tree.result == "*"
    assert tree.headers == {"Event": "tree", "Site": "here"}
    first = tree.next()
    assert first.comment == "a" and first.is_mainline() and first.ply() == 1
    assert [str(v.move) for v in tree.variations] == ["c3-d4", "a3-b4", "e3-f4"]
    side = tree.variations[1]
    assert side.comment == "alt" and not side.is_mainline()
    assert [str(v.move) for v in side.variations] == ["c5xa3"]
    assert [str(v.move) for v in side.next().variations] == ["c3-d4", "e3-f4"]
    assert [str(m) for m in side.mainline_moves()] == ["c5xa3", "c3-d4"]
    third = first.next().next()
    assert [str(v.move) for v in third.parent.variations] == ["d2xb4", "b2xd4"]
    assert third.root() is tree
    # Round trip: the tree's text is what the C++ writer wrote, and reads back to the same tree.
    text = str(tree)
    assert text == lasca.write_pdn([pdn])
    assert str(lasca.read_pdn(text)[0].tree()) == text
    assert "(1. a3-b4 {alt} 1... c5xa3 2. c3-d4 (2. e3-f4)) (1. e3-f4)" in text
    # Positions along a line are the rules core's.
    assert side.next().variations[1].board().lfen() == _after(["a3-b4", "c5xa3", "e3-f4"])
    assert lasca.PdnTree.from_pdn(pdn).pdn().variations[0].line.moves == ["a3-b4", "c5xa3",
                                                                           "c3-d4"]
    assert pdn.replay() == list(tree.mainline())[-1].board().lfen()


def test_pdn_tree_keeps_glyphs_and_a_variations_first_comment():
    text = ("1. c3-d4!? $14 (1. a3-b4 {quiet} $2 ({or} 1. e3-f4) 1... g7-f6) "
            "1... e5xc3 2. d2xb4 !! *\n")
    (pdn,) = lasca.read_pdn(text)
    assert pdn.nags == [[5, 14], [], [3]]
    assert pdn.variations[0].line.variations[0].line.comment == "or"
    tree = pdn.tree()
    first = tree.next()
    assert first.nags == {5, 14} and first.next().nags == set()
    side = tree.variations[1]
    assert side.nags == {2} and side.comment == "quiet" and side.starting_comment == ""
    other = tree.variations[2]
    assert str(other.move) == "e3-f4" and other.starting_comment == "or"
    written = str(tree)
    assert "1. c3-d4 $5 $14 (1. a3-b4 $2 {quiet} 1... g7-f6) ({or} 1. e3-f4)" in written
    assert str(lasca.read_pdn(written)[0].tree()) == written
    # Built in Python: glyphs are a set, written in order; one outside 0..255 is refused.
    built = lasca.PdnTree()
    built.add_variation("c3-d4", nags=[6, 1]).add_variation("e5xc3")
    built.add_variation("a3-b4", starting_comment="instead")
    assert "1. c3-d4 $1 $6 ({instead} 1. a3-b4) 1... e5xc3" in str(built)
    built.variations[0].nags.add(256)
    with pytest.raises(ValueError, match="glyph"):
        str(built)
    with pytest.raises(ValueError, match="glyph"):
        lasca.PdnLine(["c3-d4"], nags=[[-1]])


def test_pdn_tree_built_and_edited_in_python():
    tree = lasca.PdnTree({"Event": "built"})
    node = tree.add_variation("c3-d4", "main")
    node = node.add_variation(lasca.Move("e5xc3"))
    node.parent.add_variation("b6-a5")  # not legal here: moves are checked by board()/replay()
    tree.add_main_variation("a3-b4")
    assert [str(m) for m in tree.mainline_moves()] == ["a3-b4"]
    (back,) = lasca.read_pdn(str(tree))
    assert back.moves == ["a3-b4"] and back.variations[0].line.moves == ["c3-d4", "e5xc3"]
    assert back.tag("Event") == "built"
    with pytest.raises(ValueError):
        tree.variations[1].variations[1].board()
    with pytest.raises(ValueError):
        tree.add_variation("c3-e5")
    with pytest.raises(TypeError):
        tree.add_variation(7)


def test_pdn_headers_are_an_ordered_dict_written_through():
    pdn = lasca.PdnGame(moves=["c3-d4"], tags=[("Event", "e"), ("Site", "s")])
    assert list(pdn.headers) == ["Event", "Site"] and pdn.headers["Site"] == "s"
    pdn.headers["Event"] = "changed"
    pdn.headers["Round"] = "3"
    del pdn.headers["Site"]
    assert pdn.tags == [("Event", "changed"), ("Round", "3")]
    assert dict(pdn.headers) == {"Event": "changed", "Round": "3"}
    with pytest.raises(KeyError):
        pdn.headers["Nope"]
    with pytest.raises(TypeError):
        pdn.headers["Round"] = 3
    roster = [("Event", "changed"), ("Site", "?"), ("Date", "????.??.??"), ("Round", "3"),
              ("White", "?"), ("Black", "?"), ("Result", "*")]
    assert lasca.read_pdn(lasca.write_pdn([pdn]))[0].tags == roster  # the Seven Tag Roster


def test_pdn_games_end_at_their_results():
    """Two games without tags written one after the other read back as two games (the reader
    took the second one's moves as the first's), and the writer writes the Seven Tag Roster."""
    game = lasca.PdnGame(moves=["c3-d4"])
    text = lasca.write_pdn([game, game])
    assert text.startswith('[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n'
                           '[White "?"]\n[Black "?"]\n[Result "*"]\n\n1. c3-d4 *\n')
    read = lasca.read_pdn(text)
    assert [g.moves for g in read] == [["c3-d4"], ["c3-d4"]]
    assert lasca.write_pdn(read) == text
    # Written by people: a game ends at its result, the next word begins the next game.
    games = "1. c3-d4 * {the end} 1. a3-b4 2-0\n1. e3-f4 (1. c3-b4 *) 0-2\n"
    assert [(g.moves, g.result) for g in lasca.read_pdn(games)] == \
        [(["c3-d4"], "*"), (["a3-b4"], "2-0"), (["e3-f4"], "0-2")]
    assert [(e.line, e.game.moves) for e in lasca.iter_pdn(games)] == \
        [(1, ["c3-d4"]), (1, ["a3-b4"]), (2, ["e3-f4"])]


@pytest.mark.parametrize("text, error", [
    ("1. c3-d4" + " (1. a3-b4" * 33 + ")" * 33 + " *", "nested deeper than 32 levels on line 1"),
    ("1. c3-d4\n$999 *", "glyph '$999' is not $0..$255 on line 2"),
    ("1. c3-d4 " + "(" * 100_000, "unclosed '(' on line 1"),
    ("\x00", "control character 0x00 on line 1"),
])
def test_pdn_that_would_lose_input_is_refused(text, error):
    """Each used to be read with something dropped: the variations past 32 levels, the glyph,
    the unclosed parentheses; NUL was read as a move."""
    with pytest.raises(ValueError, match=re.escape(error)):
        lasca.read_pdn(text)
    (entry,) = lasca.iter_pdn(text)
    assert entry.game is None and entry.error.endswith(error)


# ---- the engine --------------------------------------------------------------------------------
def test_engine_lines_are_read_by_the_core_parser():
    """The client reads the engine's lines with the core's reply parser (lasca/engine/replies.h),
    as lasca-match and the web tables do; its info dicts keep their keys and order."""
    from lasca import _lasca
    from lasca.engine import _parse_info
    line = ("info depth 7 seldepth 11 multipv 2 score cp -35 nodes 5000 nps 90000 time 55 "
            "hashfull 3 pv c3-d4 e5xc3")
    info = _parse_info(line)
    assert list(info.items()) == [("multipv", 2), ("depth", 7), ("seldepth", 11),
                                  ("score", {"cp": -35}), ("nodes", 5000), ("nps", 90000),
                                  ("time", 55), ("hashfull", 3), ("pv", ["c3-d4", "e5xc3"])]
    assert _parse_info("info depth 3 score mate -2 pv a3-b4") == \
        {"multipv": 1, "depth": 3, "score": {"mate": -2}, "pv": ["a3-b4"]}
    for other in ("info depth 3 score cp 5 lowerbound pv c3-d4", "info string gameover",
                  "info score cp 1 depth 3 pv c3-d4", "info depth 3 nodes 9", "bestmove c3-d4"):
        assert _parse_info(other) is None, other
    assert _lasca.parse_info(line).fields[0] == "depth"
    assert _lasca.parse_best_move("bestmove d2xb4 ponder e5-f4").ponder == "e5-f4"
    assert _lasca.parse_best_move("bestmove").move == ""
    assert _lasca.parse_option("option name Hash type spin default 16 min 1 max 4096").max == 4096
    assert _lasca.parse_id("id name Lasca 1").value == "Lasca 1"
    assert _lasca.parse_info_string("info string error: x") == "error: x"


@needs_engine
def test_engine_analyse_multipv_lines_are_legal():
    with lasca.Engine(ENGINE, options={"Threads": 1, "Hash": 16}) as engine:
        assert engine.name.startswith("Lasca")
        game = _random_game(3, 10)
        lines = engine.analyse(game, depth=5, multipv=3)
        assert 1 <= len(lines) <= 3
        assert len(lines) == min(3, len(game.legal_moves()))
        first_moves = set()
        for rank, line in enumerate(lines, 1):
            assert line["multipv"] == rank
            assert line["depth"] == 5
            assert set(line["score"]) <= {"cp", "mate"} and len(line["score"]) == 1
            pos = game.position()
            for move in line["pv"]:
                assert move in pos.legal_moves()
                pos.push(move)
            first_moves.add(line["pv"][0])
        assert len(first_moves) == len(lines)  # each line starts with a different move


@needs_engine
def test_engine_same_nodes_same_search():
    with lasca.Engine(ENGINE) as engine:
        engine.new_game()
        a = engine.analyse(lasca.Position(), nodes=3000)
        engine.new_game()
        b = engine.analyse(lasca.Position(), nodes=3000)
        assert a[0]["pv"] == b[0]["pv"] and a[0]["score"] == b[0]["score"]
        move = engine.play(lasca.Position(), nodes=2000)
        assert move in lasca.Position().legal_moves()
        assert engine.play(lasca.START_LFEN, depth=2) in lasca.Position().legal_moves()


@needs_engine
def test_engine_game_over():
    with lasca.Engine(ENGINE) as engine:
        assert engine.analyse(lasca.Position(NO_WHITE_LFEN), depth=3) == []
        assert engine.play(lasca.Game(NO_WHITE_LFEN), depth=3) is None


@needs_engine
def test_engine_bad_limits():
    with lasca.Engine(ENGINE) as engine:
        for kwargs in [{}, {"depth": 0}, {"depth": 101}, {"nodes": -5}, {"nodes": 2 ** 60},
                       {"depth": "3"}, {"depth": True}, {"movetime": 0},
                       {"depth": 3, "multipv": 0}, {"depth": 3, "multipv": 65}]:
            with pytest.raises(ValueError):
                engine.analyse(lasca.Position(), **kwargs)
        with pytest.raises(ValueError):
            engine.analyse("not an lfen", depth=2)
        with pytest.raises(TypeError):
            engine.analyse(42, depth=2)
        for timeout in [-1, 0, float("nan"), float("inf"), True, "3"]:
            with pytest.raises(ValueError, match="timeout"):
                engine.analyse(lasca.Position(), depth=2, timeout=timeout)
        with pytest.raises(lasca.EngineError):
            engine.configure("MultiPV", 0)  # the engine's own error line
        # Still usable after every refusal.
        assert engine.play(lasca.Position(), depth=2) in lasca.Position().legal_moves()


@needs_engine
def test_simple_engine_play_and_analyse_with_limits():
    with lasca.SimpleEngine.popen_uci(ENGINE, options={"Hash": 16}) as engine:
        engine.configure({"Threads": 1, "Hash": 8})
        game = _random_game(5, 8)
        engine.new_game()
        info = engine.analyse(game, lasca.Limit(nodes=3000))
        assert info["nodes"] >= 1 and info["depth"] >= 1 and info["multipv"] == 1
        score = info["score"]
        assert isinstance(score, lasca.PovScore) and score.turn is game.turn
        assert score.pov(score.turn) == score.relative == -score.pov(not score.turn)
        assert score.white() == score.pov(lasca.WHITE) == score.pov("white")
        assert score.black() == -score.white()
        assert not score.is_mate() and isinstance(score.relative.score(), int)
        pos = game.position()
        for move in info["pv"]:
            assert isinstance(move, lasca.Move) and move in pos.legal_moves
            pos.push(move)
        engine.new_game()
        again = engine.analyse(game, lasca.Limit(nodes=3000))
        assert again["pv"] == info["pv"] and again["score"] == info["score"]
        result = engine.play(game, lasca.Limit(depth=3), info=lasca.INFO_ALL)
        assert isinstance(result, lasca.PlayResult) and result.move in game.legal_moves
        assert result.info["depth"] == 3 and result.info["pv"][0] == result.move
        assert engine.play(game, lasca.Limit(depth=3)).info == {}  # python-chess: INFO_NONE
        lines = engine.analyse(lasca.Position(), lasca.Limit(depth=4), multipv=3)
        assert [line["multipv"] for line in lines] == [1, 2, 3]
        assert len({line["pv"][0] for line in lines}) == 3
        assert lines[0]["score"].relative >= lines[2]["score"].relative
        assert engine.play(lasca.Position(NO_WHITE_LFEN), lasca.Limit(depth=2)).move is None
        assert engine.analyse(lasca.Position(NO_WHITE_LFEN), lasca.Limit(depth=2)) == {}


@needs_engine
def test_simple_engine_analysis_streams_and_stops():
    with lasca.SimpleEngine.popen(ENGINE) as engine:
        depths = []
        with engine.analysis(lasca.Position(), lasca.Limit(depth=6)) as analysis:
            for info in analysis:
                depths.append(info["depth"])
        assert depths == sorted(depths) and depths[-1] == 6 and len(depths) >= 2
        assert analysis.info["depth"] == 6
        # Leaving early stops the search: the engine answers the next command at once.
        with engine.analysis(lasca.Position(), lasca.Limit(depth=60)) as analysis:
            for info in analysis:
                if info["depth"] >= 3:
                    break
        assert engine.play(lasca.Position(), lasca.Limit(depth=2)).move in \
            lasca.Position().legal_moves
        with engine.analysis(lasca.Position(), lasca.Limit(nodes=5000)) as analysis:
            result = analysis.wait()
        assert result.move in lasca.Position().legal_moves


@needs_engine
def test_simple_engine_bad_input():
    with lasca.SimpleEngine.popen_uci(ENGINE) as engine:
        for kwargs in [{"mate": 0}, {"depth": 0}, {"nodes": 0}, {"nodes": 2 ** 60}, {"time": 0},
                       {"time": -1.0}, {"time": float("nan")}, {"depth": "3"}]:
            with pytest.raises(ValueError):
                lasca.Limit(**kwargs)
        with pytest.raises(TypeError):
            engine.play(lasca.Position(), {"depth": 3})
        with pytest.raises(TypeError):
            engine.configure("Hash")
        with pytest.raises(lasca.EngineError):
            engine.configure({"MultiPV": 0})
        with pytest.raises(ValueError):
            engine.analyse(lasca.Position(), lasca.Limit(depth=2), multipv=0)
        assert engine.play(lasca.Position(), lasca.Limit(nodes=500)).move is not None
    # The names of Engine stay: analyse with keywords, play giving the text.
    assert issubclass(lasca.SimpleEngine, lasca.Engine)


def test_scores_from_both_sides_and_mates():
    win = lasca.PovScore(lasca.Mate(3), "black")
    assert win.is_mate() and win.black() == lasca.Mate(3) and win.white() == lasca.Mate(-3)
    assert win.pov("black").mate() == 3 and win.white().mate() == -3
    assert lasca.Mate(3).score() is None and lasca.Mate(3).score(mate_score=10000) == 9997
    assert lasca.Mate(-3).score(mate_score=10000) == -9997
    assert lasca.Cp(40).score(mate_score=10000) == 40 and lasca.Cp(40).mate() is None
    assert lasca.Mate(-1) < lasca.Mate(-5) < lasca.Cp(-900) < lasca.Cp(0) < lasca.Mate(5) \
        < lasca.Mate(1)
    assert lasca.PovScore(lasca.Cp(25), "white") == lasca.PovScore(lasca.Cp(-25), "black")
    assert str(lasca.Cp(25)) == "+25" and repr(lasca.Mate(-2)) == "Mate(-2)"
    with pytest.raises(ValueError):
        lasca.PovScore(lasca.Cp(0), "red")
    with pytest.raises(ValueError):
        win.pov(1)
    assert win.pov(True) == win.white() and win.turn is lasca.BLACK
    assert repr(win) == "PovScore(Mate(+3), BLACK)"


def test_engine_that_does_not_start_or_answer(tmp_path):
    with pytest.raises(lasca.EngineError):
        lasca.Engine(str(tmp_path / "no-such-engine"))
    with pytest.raises(lasca.EngineError):
        lasca.Engine("/bin/cat", timeout=0.5)  # echoes, never says uciok
    with pytest.raises(lasca.EngineError):
        lasca.Engine("/bin/true", timeout=5)  # ends at once
    with pytest.raises(ValueError):
        lasca.Engine("/bin/true", timeout=-1)


# ---- bad input never crashes -----------------------------------------------------------------
GARBAGE_STRINGS = ["", " ", "x", "a1", "h8", "z9", "c3-d4-e5", "c3xe5xg7xe5", "0000",
                   "\x00", "é", "\udcff", "-" * 10000, "b,b,b,b/b,b,b w", "w 0 1",
                   lasca.START_LFEN + " extra", lasca.START_LFEN.replace("w 0 1", "w -1 1"),
                   "[Event", "1. c3-d4 {unclosed", "(((((", "[FEN \"nonsense\"]\n\n1. c3-d4 *",
                   "b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,W w 0 1"]
GARBAGE_NUMBERS = [-1, -(2 ** 70), 2 ** 70, 21, 10 ** 6, 1.5, None, "3", [], float("nan")]


def _random_garbage(rng, n):
    alphabet = "abcdefghxX-1234567890 ,/wWbB*[]{}()\"\n\t"
    return ["".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 60))) for _ in range(n)]


def _expect_refusal(call, *args, **kwargs):
    """The call either works or raises one of the module's exceptions; never anything else."""
    try:
        return call(*args, **kwargs)
    except (ValueError, RuntimeError, TypeError, OverflowError, UnicodeError):
        return None


def test_garbage_into_every_entry_point():
    rng = random.Random(2026)
    strings = GARBAGE_STRINGS + _random_garbage(rng, 300)
    pos = lasca.Position()
    game = lasca.Game()
    for text in strings:
        _expect_refusal(lasca.Position, text)
        _expect_refusal(lasca.Game, text)
        _expect_refusal(pos.column, text)
        _expect_refusal(pos.is_legal, text)
        _expect_refusal(lasca.Move.from_text, text)
        _expect_refusal(pos.parse_move, text)
        assert (text in pos.legal_moves) in (True, False)
        _expect_refusal(pos.svg, last_move=text)
        if _expect_refusal(pos.push, text) is not None:
            pos.pop()
        if _expect_refusal(game.push, text) is not None:
            game.pop()
        _expect_refusal(lasca.Move.from_uci, text)
        if _expect_refusal(pos.push_uci, text) is not None:
            pos.pop()
        if _expect_refusal(game.push_uci, text) is not None:
            game.pop()
        _expect_refusal(lasca.PdnTree().add_line, [text])
        _expect_refusal(lasca.PdnTree().add_line, text)
        try:
            lasca.PdnTree().remove_variation(text)
        except (KeyError, ValueError, TypeError):  # no such variation; no move's text
            pass
        _expect_refusal(lasca.read_game, io.StringIO(text))
        for pdn in _expect_refusal(lasca.read_pdn, text) or []:
            _expect_refusal(pdn.replay)
            _expect_refusal(lasca.Game.from_pdn, pdn)
            _expect_refusal(lasca.write_pdn, [pdn])
    for number in GARBAGE_NUMBERS + [rng.randrange(-10 ** 9, 10 ** 9) for _ in range(50)]:
        if isinstance(number, int) and 0 <= number <= 6:
            continue
        with pytest.raises((ValueError, TypeError)):
            pos.perft(number)
        _expect_refusal(pos.svg, size=number)
        _expect_refusal(pos.column, number)
    assert pos == lasca.Position() and game.moves() == []


def test_garbage_raises_the_right_errors():
    with pytest.raises(ValueError):
        lasca.Position("")
    with pytest.raises(ValueError):
        lasca.Position("b,b,b,b/b,b,b w 0 1")
    with pytest.raises(ValueError):
        lasca.Position().push("a1-h8")
    with pytest.raises(ValueError):
        lasca.Position().push("x" * 100000)
    with pytest.raises(ValueError):
        lasca.Position().column("b1")  # a light square
    with pytest.raises(ValueError):
        lasca.Position().perft(-1)
    with pytest.raises(ValueError):
        lasca.Position().perft(lasca.MAX_PERFT_DEPTH + 1)
    with pytest.raises(TypeError):
        lasca.Position().perft(2 ** 70)
    with pytest.raises(TypeError):
        lasca.Position(None)
    with pytest.raises(IndexError):
        lasca.Game().pop()
    with pytest.raises(ValueError):
        lasca.Position().svg(size=10)
    with pytest.raises(ValueError):
        lasca.read_pdn('[Event "x"\n\n1. c3-d4 *\n')


def test_positions_and_games_pickle_with_their_moves():
    import copy
    import pickle
    pos = lasca.Position()
    for move in ["c3-d4", "e5xc3"]:
        pos.push(move)
    again = pickle.loads(pickle.dumps(pos))
    assert again == pos and again.move_stack() == pos.move_stack()
    assert str(again.pop()) == "e5xc3" and again == lasca.Position(_after(["c3-d4"]))
    game = lasca.Game(repetition=False)
    for move in ["c3-d4", "e5xc3", "b2xd4"]:
        game.push(move)
    for other in [pickle.loads(pickle.dumps(game)), copy.deepcopy(game), game.copy()]:
        assert other.moves() == game.moves() and other.lfen() == game.lfen()
        other.pop()
        assert len(other) == 2 and len(game) == 3  # a copy, not the same game
    restored = pickle.loads(pickle.dumps(game))
    assert restored.is_game_over() == game.is_over() is False
    with pytest.raises((RuntimeError, TypeError, ValueError)):
        lasca.Game.__new__(lasca.Game).__setstate__(("x",))


def test_version():
    assert lasca.__version__.count(".") == 2 and all(p.isdigit() for p in lasca.__version__.split("."))


def _after(moves):
    pos = lasca.Position()
    for move in moves:
        pos.push(move)
    return pos.lfen()


# Every class lasca._lasca binds, with a function making a well-made object (None: none is made
# here) and whether it pickles: hostile_calls.check_class's table.
LASCA_CLASSES = {
    "Move": ("lambda: L.Position().parse_move('c3-d4')", True),
    "MoveList": ("lambda: L.Position().legal_moves", True),
    "Position": ("lambda: pushed(L.Position(), 'c3-d4', 'e5xc3')", True),
    "Outcome": (f"lambda: L.Game({NO_WHITE_LFEN!r}).outcome()", True),
    "Status": ("lambda: pushed(L.Game(), 'c3-d4').status()", True),
    "Game": ("lambda: pushed(L.Game(repetition=False), 'c3-d4', 'e5xc3', 'b2xd4')", True),
    "PdnLine": ("lambda: L.PdnLine(['a3-b4'], ['hi'], [L.PdnVariation(0, L.PdnLine(['c3-d4']))],"
                " 'before', [[1]])", True),
    "PdnVariation": ("lambda: L.PdnVariation(0, L.PdnLine(['a3-b4'], nags=[[3]]))", True),
    "PdnGame": (r"""lambda: L.read_pdn('[Event "x"]\n1. c3-d4 $1 {hi} (1. a3-b4) b6-a5 2-0')[0]""",
                True),
    "PdnEntry": ("lambda: pushed_pdn('1. c3-d4 *')", True),
    "PdnReader": ("lambda: L.PdnReader()", False),
    "Tablebase": ("None", False),
    "InfoReply": ("lambda: L.parse_info('info depth 3 score cp 12 nodes 100 pv c3-d4')", False),
    "BestMoveReply": ("lambda: L.parse_best_move('bestmove c3-d4')", False),
    "OptionReply": ("lambda: L.parse_option('option name Hash type spin default 1 min 1 max 9')",
                    False),
    "IdReply": ("lambda: L.parse_id('id name Lasca')", False),
}
LASCA_PRELUDE = """
import lasca._lasca as L
def pushed(target, *moves):
    for move in moves:
        target.push(move)
    return target
def pushed_pdn(text):
    reader = L.PdnReader()
    return reader.feed(text) or reader.finish()
"""


def test_the_hostile_table_lists_every_bound_class():
    bound = {name for name, value in vars(lasca._lasca).items() if isinstance(value, type)}
    assert bound == set(LASCA_CLASSES)


@pytest.mark.parametrize("name", sorted(LASCA_CLASSES))
def test_pickling_in_every_protocol_and_objects_made_without_init_never_crash(name):
    """Issue 54: protocols 0 and 1 aborted the interpreter, and an object made by
    Cls.__new__(Cls) read uninitialised memory (pop() crashed, legal_moves gave garbage)."""
    make, pickles = LASCA_CLASSES[name]
    hostile_calls.check_class(LASCA_PRELUDE, f"L.{name}", make, pickles)


def test_pickles_are_the_same_in_every_protocol_and_objects_without_init_raise():
    import pickle
    pos = lasca.Position()
    pos.push("c3-d4")
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(pos, protocol=protocol))
        assert again == pos and str(again.pop()) == "c3-d4"
    with pytest.raises(TypeError, match="without __init__"):
        lasca.Position.__new__(lasca.Position).pop()
    with pytest.raises(TypeError, match="without __init__"):
        lasca.Game.__new__(lasca.Game).push("c3-d4")
    made = lasca.Position.__new__(lasca.Position)
    made.__init__()  # __init__ after __new__ is how Python makes every object
    assert len(made.legal_moves) == 6

# ---- type stubs ------------------------------------------------------------------------------
def _stub_tree():
    import ast
    path = os.path.join(os.path.dirname(lasca.__file__), "__init__.pyi")
    with open(path, encoding="utf-8") as f:
        return ast.parse(f.read())


def test_the_stubs_declare_every_public_name():
    """__init__.pyi (installed beside the package, with py.typed) names every public name of
    the package, and every public attribute of each class; nothing it names is missing."""
    import ast
    import enum
    import inspect
    tree = _stub_tree()
    declared, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            declared.add(node.name)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)} | \
                {n.target.id for n in node.body if isinstance(n, ast.AnnAssign)}
        if isinstance(node, ast.AnnAssign):
            declared.add(node.target.id)
    public = {name for name in dir(lasca) if not name.startswith("_")
              and not inspect.ismodule(getattr(lasca, name))} | {"__version__"}
    assert public - declared == set(), "public names without a stub"
    assert {n for n in declared if n not in ("Colour", "AnyPosition")} - public == set()
    assert set(lasca.__all__) == public
    for name, names in members.items():
        real = {a for a in dir(getattr(lasca, name)) if not a.startswith("_")}
        if issubclass(getattr(lasca, name), (BaseException, enum.Enum)):
            continue
        inherited = set()
        for base in getattr(lasca, name).__mro__[1:]:
            if base.__name__ in members:
                inherited |= members[base.__name__]
        assert real - names - inherited - _MAPPING_METHODS == set(), name
    assert os.path.exists(os.path.join(os.path.dirname(lasca.__file__), "py.typed"))


_MAPPING_METHODS = {"clear", "get", "items", "keys", "pop", "popitem", "setdefault", "update",
                    "values"}


# ---- endgame tables (lasca.tablebase, docs/egtb.md) ---------------------------------------------
TUNE = os.environ.get("LASCA_TUNE")
needs_tune = pytest.mark.skipif(not TUNE, reason="LASCA_TUNE not set")


@needs_tune
def test_tablebase_probes_a_generated_table(tmp_path):
    import lasca.tablebase
    subprocess.run([TUNE, "egtb", "--pieces", "4", "--out", str(tmp_path)], check=True,
                   capture_output=True)
    tb = lasca.tablebase.open_tablebase(str(tmp_path))
    assert tb.piece_counts() == [4]
    assert tb.two_against_one_piece_counts() == [4]
    # Two columns against one: Black's b2 (over a white prisoner) and c2 against White's a1.
    trio = lasca.Position("-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/bw,-,b/W,-,-,- b")
    assert tb.get_wdl(trio) in (-1, 0, 1)
    assert tb.get_distance(trio) is not None
    # Black's soldier over two white prisoners on b2, White's officer on a1, Black to move:
    # b2-c1 is forced and Black wins in 3 plies.
    pos = lasca.Position("-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/bww,-,-/W,-,-,- b")
    assert tb.probe_wdl(pos) == 1
    assert tb.probe_distance(pos) == 3
    pos.push("b2-c1")
    assert tb.probe_wdl(pos) == -1
    assert tb.get_distance(pos) == 2
    # A position no table holds.
    start = lasca.Position()
    assert tb.get_wdl(start) is None
    with pytest.raises(KeyError):
        tb.probe_wdl(start)


@needs_tune
def test_tablebase_refuses_bad_folders_and_files(tmp_path):
    import lasca.tablebase
    with pytest.raises(ValueError, match="not a folder"):
        lasca.tablebase.open_tablebase(str(tmp_path / "missing"))
    subprocess.run([TUNE, "egtb", "--pieces", "3", "--out", str(tmp_path)], check=True,
                   capture_output=True)
    path = tmp_path / "lasca-1v1-3.egtb"
    data = bytearray(path.read_bytes())
    data[-20] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="checksum"):
        lasca.tablebase.open_tablebase(str(tmp_path))


@needs_engine
@needs_tune
def test_egtb_value_script_plays_table_positions_with_and_without_the_tables(tmp_path):
    tables = tmp_path / "tables"
    subprocess.run([TUNE, "egtb", "--pieces", "4", "--out", str(tables)], check=True,
                   capture_output=True, timeout=300)
    script = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "egtb-value.py"
    base = [sys.executable, str(script), "--engine", ENGINE, "--tables", str(tables),
            "--nodes", "300"]
    out = subprocess.run(base + ["match", "--set", "2v1:4", "--positions", "8", "--seed", "3",
                                 "--min-plies", "15"],
                         capture_output=True, text=True, check=True, timeout=600).stdout
    assert "set 2v1:4, 8 positions, 16 games, 300 nodes a move, seed 3" in out
    lines = [line for line in out.splitlines() if line.startswith("side to move")]
    assert sum(int(line.split(": ")[1].split()[0]) for line in lines) == 16
    # The engine with the tables never does worse than the table's result: it plays table
    # wins out and never lets a table draw go.
    with_tables = [line for line in lines if ", with the tables" in line]
    assert with_tables and all(", worse 0," in line for line in with_tables)
    # A suite of two positions: the start (22 pieces, in no table) and a table position.
    suite = tmp_path / "suite.txt"
    suite.write_text(lasca.START_LFEN + "\n# a comment\n"
                     "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/bww,-,-/W,-,-,- b\n")
    out = subprocess.run(base + ["suite", str(suite)], capture_output=True, text=True,
                         check=True, timeout=300).stdout
    assert "positions 2, pieces in all [4, 22]" in out
    assert "held by a table: 1" in out
    assert "with and without the tables at 300 nodes: " in out
    failed = subprocess.run(base + ["match", "--set", "3v3:4"], capture_output=True, text=True,
                            timeout=60)
    assert failed.returncode != 0 and "--set is 1v1:N or 2v1:N" in failed.stderr
    # check: the tables agree with their moves; without the 1v1 table a capture leads nowhere.
    check = [sys.executable, str(script), "--tables", str(tables), "check", "--set", "2v1:4",
             "--positions", "300"]
    out = subprocess.run(check, capture_output=True, text=True, check=True, timeout=300).stdout
    assert out.startswith("set 2v1:4, 300 positions (seed 1): consistent (")
    failed = subprocess.run(check[:-4] + ["--set", "2v1:5"], capture_output=True, text=True,
                            timeout=60)
    assert failed.returncode != 0 and "no table of the set 2v1:5 in the folder" in failed.stderr
    bad = tmp_path / "bad.txt"
    bad.write_text("not an LFEN\n")
    failed = subprocess.run(base + ["suite", str(bad)], capture_output=True, text=True,
                            timeout=60)
    assert failed.returncode != 0 and "bad.txt:1: LFEN" in failed.stderr
    (tables / "lasca-1v1-4.egtb").unlink()
    failed = subprocess.run(check, capture_output=True, text=True, timeout=300)
    assert failed.returncode != 0 and "leads to a position no table holds" in failed.stderr


@needs_tune
def test_egtb_value_check_finds_a_value_that_disagrees_with_the_moves(tmp_path):
    import importlib.util
    import lasca.tablebase
    script = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "egtb-value.py"
    spec = importlib.util.spec_from_file_location("egtb_value", script)
    egtb_value = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(egtb_value)
    subprocess.run([TUNE, "egtb", "--pieces", "4", "--out", str(tmp_path)], check=True,
                   capture_output=True, timeout=300)
    tb = lasca.tablebase.open_tablebase(str(tmp_path))
    lfen = "-,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,-/bww,-,-/W,-,-,- b 0 1"  # Black wins in 3 plies
    assert egtb_value.inconsistency(tb, lfen) is None

    class Liar:
        """The tables, but with another value for one position."""
        def __init__(self, wdl, plies):
            self.wdl, self.plies = wdl, plies

        def get_wdl(self, position):
            return self.wdl if position.lfen() == lfen else tb.get_wdl(position)

        def get_distance(self, position):
            return self.plies if position.lfen() == lfen else tb.get_distance(position)

    assert "a win in 5 without a move to a loss in 4" in egtb_value.inconsistency(Liar(1, 5), lfen)
    assert "a draw with a move to a loss" in egtb_value.inconsistency(Liar(0, 0), lfen)
    assert "a loss in 4 with a move to" in egtb_value.inconsistency(Liar(-1, 4), lfen)


def test_table_reach_script_counts_games_by_their_columns(tmp_path):
    # Two games (the move number falls between them): the first reaches one column a side.
    data = tmp_path / "data.txt"
    data.write_text(
        "1 10 b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 0 1\n"
        "1 30 -,-,-,-/-,-,-/-,-,bw,-/-,-,-/-,-,-,-/-,W,-/-,-,-,- w 0 40\n"
        "0.5 0 b,b,b,b/b,b,b/b,b,b,b/-,-,-/w,w,w,w/w,w,w/w,w,w,w w 0 1\n"
        "0.5 0 -,-,-,-/-,b,-/-,-,bw,-/-,-,-/-,-,-,-/-,W,-/-,-,-,- b 0 30\n")
    script = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "table-reach.py"
    out = subprocess.run([sys.executable, str(script), str(data)], capture_output=True,
                         text=True, check=True, timeout=60).stdout
    assert "games 2, positions 4" in out
    assert "one column a side: 1 games (50.0%)" in out
    assert "two columns against one: 1 games (50.0%)" in out
    assert "two columns against one, at most 5 pieces: 1 games (50.0%)" in out
    assert "at most 3 columns in all: 2 games (100.0%)" in out
    assert "columns in each game's last kept position (9: 9 or more): 2: 1, 3: 1" in out
    bad = tmp_path / "bad.txt"
    bad.write_text("not a line\n")
    failed = subprocess.run([sys.executable, str(script), str(bad)], capture_output=True,
                            text=True, timeout=60)
    assert failed.returncode != 0 and "bad.txt:1: not a datagen line" in failed.stderr


@needs_engine
def test_an_engine_dropped_without_quit_ends_its_program():
    for _ in range(5):
        engine = lasca.SimpleEngine.popen_uci(ENGINE, options={"Hash": 16})
        pid = engine._process.pid
        assert os.path.exists(f"/proc/{pid}")
        del engine
        gc.collect()
        deadline = time.monotonic() + 30  # a hang guard: the program ends at the collection
        while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
            time.sleep(0.01)
        assert not os.path.exists(f"/proc/{pid}"), "the engine's program outlived its object"


def test_is_legal_takes_a_move_as_push_does():
    position = lasca.Position()
    move = position.legal_moves[0]
    assert position.is_legal(move) and position.is_legal(str(move))
    other = lasca.Position()
    other.push(move)
    assert not other.is_legal(move)
    with pytest.raises(TypeError):
        position.is_legal(3)


@needs_engine
def test_a_new_command_ends_an_abandoned_analysis():
    with lasca.SimpleEngine.popen_uci(ENGINE, options={"Hash": 16}) as engine:
        for k in range(5):
            first = lasca.Game()
            second = lasca.Game()
            second.push(second.legal_moves[k % len(second.legal_moves)])
            analysis = engine.analysis(first, lasca.Limit(depth=60))
            next(iter(analysis))  # started, then abandoned without stop or close
            info = engine.analyse(second, lasca.Limit(depth=2))
            assert info["depth"] <= 2
            assert info["pv"][0] in second.legal_moves
            assert list(analysis) == [] or all(isinstance(i, dict) for i in analysis)


# ---- python-chess's habits (issue 54): scripts written for python-chess, the import changed ----
def test_python_chess_board_habits():
    pos = lasca.Position()
    assert pos.turn is lasca.WHITE is True and lasca.BLACK is False
    assert pos.fen() == pos.lfen() == lasca.START_LFEN and pos.ply() == 0
    assert pos.legal_moves.count() == len(pos.legal_moves) == 6
    move = pos.push_uci("c3d4")  # the readers' form; written back in the engine's
    assert isinstance(move, lasca.Move) and move.uci() == str(move) == "c3-d4"
    assert pos.peek() == move == lasca.Move.from_uci("c3-d4") and pos.turn is lasca.BLACK
    assert pos.ply() == 1 and pos.legal_moves.count() == 1
    capture = pos.push_uci("e5xc3")
    assert capture.promotion is False and pos.ply() == 2 and pos.turn is lasca.WHITE
    assert lasca.Move.from_uci("c3xe5xg7").uci() == "c3xe5xg7"
    # copy(stack=...): all (True, the default), none (False) or the last n moves.
    assert pos.copy().move_stack == pos.move_stack
    assert pos.copy(stack=False).move_stack == lasca.Position().move_stack
    last = pos.copy(stack=1)
    assert last == pos and list(last.move_stack) == [capture]
    assert last.pop() == capture and last.fen() == _after(["c3-d4"])
    with pytest.raises(IndexError):
        last.pop()  # the move before it is not on the copy's stack
    assert pos.copy(stack=10 ** 30).move_stack == pos.move_stack
    # pop() returns the Move; an empty stack is python-chess's IndexError, for peek() too.
    assert pos.pop() == capture and pos.pop() == move
    for call in (pos.pop, pos.peek, lasca.Game().pop, lasca.Game().peek):
        with pytest.raises(IndexError):
            call()
    pos.push("c3-d4")
    pos.reset()
    assert pos == lasca.Position() and not pos.move_stack
    # Bad input: exceptions, nothing changed.
    for bad in ["", "c3-e5", "a1-b2", "0000", "x" * 100000]:
        with pytest.raises(ValueError):
            pos.push_uci(bad)
    for bad, error in [(5, TypeError), (None, TypeError), (lasca.Move("c3-d4"), TypeError)]:
        with pytest.raises(error):
            pos.push_uci(bad)
    for stack, error in [(-1, ValueError), ("1", TypeError), (1.5, TypeError), (None, TypeError)]:
        with pytest.raises(error):
            pos.copy(stack=stack)
    assert pos == lasca.Position() and not pos.move_stack


def test_python_chess_game_habits():
    game = lasca.Game()
    assert game.turn is lasca.WHITE and game.fen() == lasca.START_LFEN and game.ply() == 0
    first = game.push_uci("c3d4")
    assert first == lasca.Move("c3-d4") and game.peek() == first and game.turn is lasca.BLACK
    game.push_uci("e5xc3")
    copy = game.copy(stack=1)
    assert copy.moves() == ["e5xc3"] and copy.lfen() == game.lfen()
    assert copy.start().lfen() == _after(["c3-d4"])
    assert game.copy(stack=False).moves() == [] and game.copy().moves() == game.moves()
    popped = game.pop()
    assert isinstance(popped, lasca.Move) and str(popped) == "e5xc3" and popped.promotion is False
    ended = lasca.Game(NO_WHITE_LFEN)
    with pytest.raises(RuntimeError):
        ended.push_uci("a1-b2")
    with pytest.raises(ValueError):
        game.push_uci("c3-d4")  # Black to move


def test_null_move():
    null = lasca.Move.null()
    assert not null and lasca.Move("c3-d4") and null == lasca.Move.from_uci("0000")
    assert null.uci() == str(null) == "0000" and repr(null) == "Move.null()"
    assert null.from_square is None and null.to_square is None
    assert null.path == [] and null.captured == [] and not null.is_capture
    assert null not in lasca.Position().legal_moves and not lasca.Position().is_legal(null)
    assert hash(null) == hash(lasca.Move.null())
    for target in (lasca.Position(), lasca.Game()):
        with pytest.raises(ValueError, match="not legal"):
            target.push(null)
        assert len(target.move_stack) == 0
    import pickle
    assert pickle.loads(pickle.dumps(null)) == null


def test_position_outcome_over_its_move_stack():
    """is_game_over(), outcome(), result() on the Position that holds the stack: R9 at once, T1
    counted over the pushed moves. Lasca's draws end the game by themselves: claim_draw changes
    nothing."""
    pos = lasca.Position(OFFICERS_LFEN)
    shuffle = ["a1-b2", "g7-f6", "b2-a1", "f6-g7"]
    for move in shuffle:
        pos.push(move)
    assert not pos.is_game_over() and pos.outcome() is None and pos.result() == "*"
    for move in shuffle:
        pos.push(move)
    for claim in (False, True):
        outcome = pos.outcome(claim_draw=claim)
        assert outcome is not None
        assert outcome.winner is None and outcome.rule == "T1" and outcome.result() == "1/2-1/2"
        assert pos.is_game_over(claim_draw=claim) and pos.result(claim_draw=claim) == "1/2-1/2"
    # Only the pushed moves count: the same position without its stack is not a repetition.
    assert lasca.Position(pos.fen()).outcome() is None
    lost = lasca.Position(NO_WHITE_LFEN)
    assert lost.outcome().winner is lasca.BLACK and lost.result() == "0-1"
    assert lasca.Game(NO_WHITE_LFEN).outcome(claim_draw=True) == lost.outcome()
    assert lasca.Game(NO_WHITE_LFEN).result(claim_draw=True) == "0-1"
    with pytest.raises(TypeError):
        pos.outcome(True)  # claim_draw is keyword-only, as in python-chess


def test_outcome_winner_is_a_colour_and_old_pickles_load():
    import pickle
    outcome = lasca.Game(NO_WHITE_LFEN).outcome()
    assert outcome.winner is False and outcome.result() == "0-1"
    old = outcome.__reduce__()
    restored = old[0](*old[1])
    restored.__setstate__(("white", "no legal move", "R9"))  # the form earlier versions wrote
    assert restored.winner is True and restored.result() == "1-0"
    assert pickle.loads(pickle.dumps(outcome)) == outcome


PDN_FILE = """[Event "first"]

1. c3-d4 e5xc3 2. d2xb4 *

[Event "broken"]
1. c3-e5 *

[Event "third"]
[FEN "-,-,-,-/b,-,-/w,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,- w 0 1"]

1. a5xc7 2-0
"""


def test_read_game_reads_a_file_game_by_game(tmp_path):
    path = tmp_path / "games.pdn"
    path.write_text(PDN_FILE)
    with open(path) as handle:
        first = lasca.read_game(handle)
        assert isinstance(first, lasca.PdnTree) and first.headers["Event"] == "first"
        assert [str(m) for m in first.mainline_moves()] == ["c3-d4", "e5xc3", "d2xb4"]
        with pytest.raises(ValueError, match="line 5"):
            lasca.read_game(handle)  # the broken game; the next call goes on after it
        third = lasca.read_game(handle)
        assert third.headers["Event"] == "third" and third.result == "2-0"
        assert third.end().board().outcome().winner is lasca.WHITE
        assert lasca.read_game(handle) is None and lasca.read_game(handle) is None
    # Two games ending on one line: each is given in turn.
    path.write_text('1. c3-d4 * 1. a3-b4 *\n')
    with open(path) as handle:
        games = [lasca.read_game(handle), lasca.read_game(handle), lasca.read_game(handle)]
    assert [str(g.next().move) for g in games[:2]] == ["c3-d4", "a3-b4"] and games[2] is None
    with pytest.raises(TypeError):
        lasca.read_game(5)
    with open(path, "rb") as handle, pytest.raises(TypeError):
        lasca.read_game(handle)
    assert len(list(lasca.iter_pdn(PDN_FILE))) == 3  # the older reader stays


def test_game_tree_python_chess_habits():
    tree = lasca.PdnTree()  # a new game has the Seven Tag Roster
    assert list(tree.headers) == ["Event", "Site", "Date", "Round", "White", "Black", "Result"]
    assert tree.headers["Date"] == "????.??.??" and tree.headers["Result"] == "*"
    assert lasca.PdnTree({"Event": "x"}).headers == {"Event": "x"}
    assert tree.is_end() and tree.end() is tree and tree.turn() is lasca.WHITE
    last = tree.add_line(["c3-d4", lasca.Move("e5xc3"), "d2xb4"], comment="end",
                         starting_comment="start", nags=[1])
    assert last.comment == "end" and last.nags == {1} and last.is_end()
    assert tree.end() is last and last.ply() == 3 and last.turn() is lasca.BLACK
    assert tree.next().starting_comment == "start" and not tree.next().starts_variation()
    side = tree.add_variation("a3-b4")
    assert side.starts_variation() and not tree.starts_variation()
    assert tree.variation("a3b4") is side and tree.variation(1) is side
    assert tree.variation(side) is side and tree.has_variation("c3-d4")
    assert not tree.has_variation("e3-f4") and not tree.has_variation(7)
    tree.promote_to_main("a3-b4")
    assert tree.next() is side and [str(m) for m in tree.mainline_moves()] == ["a3-b4"]
    tree.demote(side)
    assert tree.next().move == lasca.Move("c3-d4")
    tree.promote(1)
    assert tree.next() is side
    tree.remove_variation(lasca.Move("c3-d4"))
    assert [str(v.move) for v in tree.variations] == ["a3-b4"]
    assert "1. a3-b4 *" in str(tree)
    for bad, error in [("e3-f4", KeyError), (5, KeyError), (None, TypeError), (1.0, TypeError)]:
        with pytest.raises(error):
            tree.remove_variation(bad)
    with pytest.raises(ValueError):
        tree.add_line(["c3-d4", "c3-e5"])  # not a move's shape: nothing is added
    with pytest.raises(TypeError):
        tree.add_line([7])
    assert tree.end() is side and len(tree.variations) == 1


def _fake_engine(tmp_path, on_go):
    """A program speaking just enough UCI: the handshake and isready; `on_go` the Python lines
    it runs on `go`."""
    script = tmp_path / "fake_engine.py"
    script.write_text(f"""import sys
for line in sys.stdin:
    line = line.strip()
    if line == "uci":
        print("id name Fake 1\\nid author someone\\nuciok", flush=True)
    elif line == "isready":
        print("readyok", flush=True)
    elif line.startswith("go"):
        {on_go}
""")
    return [sys.executable, str(script)]


@needs_engine
def test_engine_id_ping_close_and_commands(tmp_path):
    with lasca.SimpleEngine.popen_uci([ENGINE, "--log-level", "off"]) as engine:
        assert engine.id["name"].startswith("Lasca") and "author" in engine.id
        assert engine.name == engine.id["name"]
        engine.ping()
        with engine.analysis(lasca.Position(), lasca.Limit(depth=60)) as analysis:
            analysis.get()
            engine.ping()  # a new command ends the analysis, as in python-chess
            assert analysis.next() is None  # ended: its lines were read to its bestmove
    with pytest.raises(lasca.EngineTerminatedError):
        engine.ping()
    engine.close()  # again: nothing to do
    with pytest.raises(lasca.EngineTerminatedError):
        engine.play(lasca.Position(), lasca.Limit(depth=1))
    # The program not found: python-chess's FileNotFoundError (also an EngineError).
    for command in [str(tmp_path / "no-such-engine"), [str(tmp_path / "no-such-engine"), "x"]]:
        with pytest.raises(FileNotFoundError) as raised:
            lasca.SimpleEngine.popen_uci(command)
        assert isinstance(raised.value, lasca.EngineError)
    with pytest.raises(ValueError):
        lasca.SimpleEngine.popen_uci([])
    with pytest.raises(TypeError):
        lasca.SimpleEngine.popen_uci(5)
    with pytest.raises(lasca.EngineTerminatedError):
        lasca.SimpleEngine.popen_uci([ENGINE, "--no-such-flag"])  # exits 2 at once
    # An engine that ends in the middle of a search: EngineTerminatedError.
    with lasca.SimpleEngine.popen_uci(_fake_engine(tmp_path, "sys.exit(0)")) as fake:
        assert fake.id == {"name": "Fake 1", "author": "someone"}
        with pytest.raises(lasca.EngineTerminatedError):
            fake.play(lasca.Position(), lasca.Limit(depth=2))
        with pytest.raises(lasca.EngineTerminatedError):
            fake.ping()


@needs_engine
def test_engine_play_ponder_limits_and_info_flags():
    won = "-,-,-,-/b,-,-/w,-,-,-/-,-,-/-,-,-,-/-,-,-/-,-,-,- w 0 1"  # a5xc7 ends it (R9)
    with lasca.SimpleEngine.popen_uci(ENGINE, options={"Hash": 16}) as engine:
        pos = lasca.Position()
        result = engine.play(pos, lasca.Limit(depth=4))
        assert result.move in pos.legal_moves and result.info == {}
        after = pos.copy()
        after.push(result.move)
        assert result.ponder in after.legal_moves
        assert not result.draw_offered and not result.resigned
        none = engine.play(lasca.Position(NO_WHITE_LFEN), lasca.Limit(depth=2))
        assert none.move is None and none.ponder is None
        # Limit(mate=n): stops once a win in n moves is proven.
        info = engine.analyse(lasca.Position(won), lasca.Limit(mate=1))
        assert info["score"].is_mate() and info["score"].relative.mate() == 1
        assert info["score"].white() == lasca.Mate(1) and str(info["pv"][0]) == "a5xc7"
        # info= chooses the fields, as python-chess's INFO_* flags.
        basic = {"depth", "seldepth", "multipv", "nodes", "nps", "time", "hashfull"}
        for flags, extra in [(lasca.INFO_ALL, {"score", "pv"}), (lasca.INFO_BASIC, set()),
                             (lasca.INFO_SCORE, {"score"}), (lasca.INFO_PV, {"pv"}),
                             (lasca.INFO_SCORE | lasca.INFO_PV, {"score", "pv"})]:
            assert set(engine.analyse(pos, lasca.Limit(depth=3), info=flags)) == basic | extra
        assert engine.analyse(pos, lasca.Limit(depth=3), info=lasca.INFO_NONE) == {}
        assert engine.play(pos, lasca.Limit(depth=3), info=lasca.INFO_SCORE).info["depth"] == 3
        for bad in [-1, 32, "all", None, 1.0]:
            with pytest.raises(ValueError):
                engine.analyse(pos, lasca.Limit(depth=2), info=bad)
        # Limit(): play searches until its timeout, then stops: still a searched legal move.
        assert lasca.Limit() == lasca.Limit() and repr(lasca.Limit(mate=3)) == "Limit(mate=3)"
        assert engine.play(pos, lasca.Limit(), timeout=0.3).move in pos.legal_moves


@needs_engine
def test_engine_root_moves():
    with lasca.SimpleEngine.popen_uci(ENGINE) as engine:
        pos = lasca.Position()
        info = engine.analyse(pos, lasca.Limit(depth=4), root_moves=["a3-b4"])
        assert str(info["pv"][0]) == "a3-b4"
        assert engine.play(pos, lasca.Limit(depth=4), root_moves=[lasca.Move("g3-f4")]).move \
            == lasca.Move("g3-f4")
        lines = engine.analyse(pos, lasca.Limit(depth=3), multipv=3,
                               root_moves=["a3b4", "g3-f4"])
        assert {str(line["pv"][0]) for line in lines} == {"a3-b4", "g3-f4"}
        with engine.analysis(pos, lasca.Limit(depth=3), root_moves=["e3-d4"]) as analysis:
            assert all(str(i["pv"][0]) == "e3-d4" for i in analysis)
        for bad, error in [(["c3-e5"], ValueError), (["e5-d4"], ValueError), ([], ValueError),
                           ([lasca.Move("e5-d4")], ValueError), ("a3-b4", TypeError),
                           ([5], TypeError), (lasca.Move("a3-b4"), TypeError), (7, TypeError)]:
            with pytest.raises(error):
                engine.analyse(pos, lasca.Limit(depth=2), root_moves=bad)
        assert engine.play(pos, lasca.Limit(depth=2)).move in pos.legal_moves  # still usable


@needs_engine
def test_analysis_get_next_empty_and_infinite():
    with lasca.SimpleEngine.popen_uci(ENGINE) as engine:
        pos = lasca.Position()
        analysis = engine.analysis(pos, lasca.Limit(depth=4))
        depths = []
        while True:
            try:
                depths.append(analysis.get()["depth"])
            except lasca.AnalysisComplete:
                break
        assert depths == [1, 2, 3, 4]
        assert analysis.next() is None and analysis.empty() and not analysis.would_block()
        with pytest.raises(lasca.AnalysisComplete):
            analysis.get()
        best = analysis.wait()
        assert best.move in pos.legal_moves and best.ponder is not None
        assert analysis.info["depth"] == 4
        # No limit: `go infinite`, until stop() (or the with-block's end).
        with engine.analysis(pos) as analysis:
            for info in analysis:
                if info["depth"] >= 3:
                    analysis.stop()
            assert analysis.wait().move in pos.legal_moves
        with engine.analysis(pos, lasca.Limit()) as analysis:
            assert analysis.next()["depth"] == 1
        analysis = engine.analysis(pos, lasca.Limit(depth=2), info=lasca.INFO_NONE)
        assert analysis.next() is None and analysis.wait().move in pos.legal_moves
        assert engine.play(pos, lasca.Limit(depth=1)).move in pos.legal_moves
