"""Tests of the Python module `lasca`: positions and moves, perft against the
`lasca` program, the rules' verdicts (R9, T1), PDN, diagrams, the engine over UCI, and bad input
at every entry point. Run by ctest as python.lasca (python/CMakeLists.txt), which sets
PYTHONPATH to the built module and LASCA_ENGINE to the engine program. Every limit is in nodes
or depth, never in time, so no result depends on the machine's speed."""
import os
import random
import subprocess

import pytest

import lasca

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
    with pytest.raises(RuntimeError):
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


# ---- the rules' verdicts ---------------------------------------------------------------------
def test_status_r9_no_legal_move():
    game = lasca.Game(NO_WHITE_LFEN)
    status = game.status()
    assert status.over and status.outcome == "black wins"
    assert status.rule == "R9" and status.termination == "no legal move"
    assert game.result() == "0-2"
    assert game.legal_moves() == []


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
    assert game.result() == "1-1"
    # Without T1 the same game goes on.
    free = lasca.Game(OFFICERS_LFEN, repetition=False)
    for move in shuffle * 2:
        free.push(move)
    assert free.status().outcome == "ongoing" and free.result() == "*"


def test_game_pop_replays():
    game = lasca.Game()
    game.push("c3-d4")
    game.push(game.legal_moves()[0])
    assert game.pop() == "e5xc3"
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
    assert game.pop() == "f6-g7"
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
        assert pdn.result == game.result()
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


# ---- the engine --------------------------------------------------------------------------------
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
        _expect_refusal(pos.svg, last_move=text)
        if _expect_refusal(pos.push, text) is not None:
            pos.pop()
        if _expect_refusal(game.push, text) is not None:
            game.pop()
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
    with pytest.raises(RuntimeError):
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
    assert again.pop() == "e5xc3" and again == lasca.Position(_after(["c3-d4"]))
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
