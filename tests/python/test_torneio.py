"""Tests of the Python module `torneio`: random games to their end, legal actions,
what one seat may know (hidden set-ups stay hidden), clones, a player's Knowledge, bad input at
every entry point, and the example player scripts/torneio_random_player.py played through
torneio-referee. Run by ctest as python.torneio (python/CMakeLists.txt), which sets PYTHONPATH,
TORNEIO_REFEREE and TORNEIO_PLAYER."""
import os
import random
import subprocess
import sys

import pytest

import torneio

REFEREE = os.environ.get("TORNEIO_REFEREE")
PLAYER = os.environ.get("TORNEIO_PLAYER")


def play_random(state, limit=100_000):
    """Random decisions from the state's own stream until the game ends; the decision count."""
    decisions = 0
    while not state.is_over():
        assert decisions < limit
        state.apply(state.random_action())
        decisions += 1
    return decisions


# ---- whole games -----------------------------------------------------------------------------
@pytest.mark.parametrize("seats,seed", [(2, 1), (2, 2), (3, 3), (4, 4)])
def test_random_game_to_its_end(seats, seed):
    state = torneio.State(seats, seed)
    assert state.request() == "request setup" and state.to_decide() == 1
    decisions = play_random(state)
    assert state.check()
    outcome = state.outcome()
    assert outcome.kind in ("win", "draw")
    assert outcome.seats and all(1 <= s <= seats for s in outcome.seats)
    if outcome.kind == "win":
        assert len(outcome.seats) == 1
    assert state.request() is None and state.to_decide() is None
    assert len(state.history()) == decisions
    with pytest.raises(RuntimeError):
        state.random_action()
    with pytest.raises(RuntimeError):
        state.apply("pass")
    # Every seat's last line is the end event.
    for seat in range(1, seats + 1):
        assert state.view(seat)[-1].startswith("event end ")


def test_same_seed_same_game():
    a, b = torneio.State(3, 99), torneio.State(3, 99)
    play_random(a)
    play_random(b)
    assert a.history() == b.history()
    c = torneio.State(3, 100)
    play_random(c)
    assert c.history() != a.history()


def test_legal_actions_hold_the_random_action():
    state = torneio.State(2, 5)
    assert state.count_legal_actions() == 110_880  # 2-seat set-ups (include/torneio/rules/action.h)
    setups = state.legal_actions()
    assert len(setups) == 110_880 and all(a.startswith("setup king ") for a in setups[:10])
    while not state.is_over():
        legal = state.legal_actions()
        assert len(legal) == state.count_legal_actions()
        action = state.random_action()
        assert action in legal or legal[0].startswith("setup")
        state.apply(action)


# ---- hidden information ------------------------------------------------------------------------
def _setup_of(state, seat):
    """Seat's own set-up as its view shows it (the private event 'event setup ...')."""
    return [line for line in state.view(seat) if line.startswith("event setup")]


def test_view_shows_only_own_setup():
    state = torneio.State(2, 8)
    state.apply(state.random_action())
    state.apply(state.random_action())
    own1, own2 = _setup_of(state, 1), _setup_of(state, 2)
    assert len(own1) == 1 and len(own2) == 1 and own1 != own2
    assert own2[0] not in state.view(1) and own1[0] not in state.view(2)


def test_same_public_history_different_hidden_setups_same_view():
    """Seat 1's view is a function of what seat 1 may know: two games that differ only in
    seat 2's secret set-up (and seat 2 always passes) give seat 1 byte-identical lines."""
    params = "seats=2 pass=always"
    setup1 = torneio.State(2, 11, params=params).random_action()
    other = torneio.State(2, 12, params=params)
    other.apply(setup1)
    setup2a = other.random_action()
    setup2b = torneio.State(2, 13, params=params)
    setup2b.apply(setup1)
    setup2b = setup2b.random_action()
    assert setup2a != setup2b

    games = [torneio.State(2, 0, params=params) for _ in range(2)]
    for game, setup2 in zip(games, (setup2a, setup2b)):
        game.apply(setup1)
        game.apply(setup2)
    rng = random.Random(5)
    for _ in range(40):  # seat 1 moves (never a combat: that reveals legitimately), seat 2 passes
        assert games[0].to_decide() == games[1].to_decide() == 1
        moves = [a for a in games[0].legal_actions() if a.startswith("move")]
        assert moves == [a for a in games[1].legal_actions() if a.startswith("move")]
        move = rng.choice(moves)
        for game in games:
            game.apply(move)
            game.apply("pass")
        assert games[0].view(1) == games[1].view(1)
    assert games[0].view(2) != games[1].view(2)  # seat 2 itself knows the difference
    assert games[0].view(1, since=games[0].event_count()) == ["request turn 41"]


def test_view_lines_feed_a_players_knowledge():
    """Each seat's view, fed line by line to a Knowledge (what a player program holds), is
    accepted and ends with the same outcome."""
    state = torneio.State(3, 21)
    play_random(state)
    for seat in (1, 2, 3):
        knowledge = torneio.Knowledge(seat, state.params())
        for line in state.view(seat):
            knowledge.update(line)
        assert knowledge.is_over()
        assert knowledge.outcome().seats == state.outcome().seats


def test_knowledge_answers_requests_like_the_state():
    state = torneio.State(2, 31)
    knowledges = {s: torneio.Knowledge(s, state.params(), seed=s) for s in (1, 2)}
    seen = {1: 0, 2: 0}
    while not state.is_over():
        seat = state.to_decide()
        lines = state.view(seat)
        for line in lines[seen[seat]:-1]:
            knowledges[seat].update(line)
        seen[seat] = len(lines) - 1
        request = lines[-1]
        assert request == state.request()
        if not request.startswith("request setup"):
            assert knowledges[seat].legal_actions(request) == state.legal_actions()
        action = knowledges[seat].random_action(request)
        assert knowledges[seat].is_legal(request, action)
        state.apply(action)
    assert state.check()


def test_knowledge_refuses_a_request_without_a_legal_reply():
    """A hand-made request the seat's pieces cannot answer (warrior 1 is not on h8) raises,
    rather than giving [] or a 'pass' that is_legal then refuses."""
    state = torneio.State(2, 41)
    for _ in range(2):
        state.apply(state.random_action())  # both set-ups
    knowledge = torneio.Knowledge(1, state.params(), seed=1)
    for line in state.view(1):
        if line.startswith("event"):
            knowledge.update(line)
    assert knowledge.own_pieces() and all(square != "h8" for _, square, _ in
                                          knowledge.own_pieces())
    for fresh in (knowledge, torneio.Knowledge(1, "seats=2")):
        with pytest.raises(ValueError, match="no legal reply"):
            fresh.legal_actions("request withdraw 1 h8")
        with pytest.raises(ValueError, match="no legal reply"):
            fresh.random_action("request withdraw 1 h8")
        assert not fresh.is_legal("request withdraw 1 h8", "pass")
    request = state.request()
    assert knowledge.is_legal(request, knowledge.random_action(request))
    assert knowledge.legal_actions(request) == state.legal_actions()


# ---- clones ------------------------------------------------------------------------------------
def test_clone_is_independent():
    state = torneio.State(2, 41)
    for _ in range(6):
        state.apply(state.random_action())
    before = (state.history(), state.view(1), state.view(2), state.request())
    copy = state.clone()
    assert copy.random_action() == state.clone().random_action()  # the stream is copied too
    play_random(copy)
    assert copy.is_over()
    assert (state.history(), state.view(1), state.view(2), state.request()) == before
    assert not state.is_over()
    play_random(state)
    assert state.is_over()


# ---- bad input never crashes -------------------------------------------------------------------
def _refused(call, *args, **kwargs):
    try:
        call(*args, **kwargs)
        return False
    except (ValueError, RuntimeError, TypeError, OverflowError, UnicodeError):
        return True


def test_garbage_into_every_entry_point():
    rng = random.Random(7)
    alphabet = "abcdefghij0123456789 :-=setupkingwarriorsmovecombatpassorderreward\n"
    strings = ["", " ", "pass", "move", "move 9 a1", "move 0 z99", "combat", "setup king",
               "setup king a1 warriors b2:3 c1:3 d2:5", "order a1", "reward 0", "reward 4",
               "withdraw a1", "\x00", "\udcff", "é" * 5000, "request", "request turn 0",
               "request turn 99999999999999999999", "event end win 1", "event setup x",
               "seats=9", "seats=2 board=100", "seats=2 seats=2"]
    strings += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(60)))
                for _ in range(300)]
    numbers = [-1, 0, 1, 5, -(2 ** 70), 2 ** 70, 2 ** 64, None, "2", 1.5]

    state = torneio.State(2, 1)
    for text in strings:
        _refused(state.apply, text)
        _refused(torneio.State, 2, 0, text)
        _refused(torneio.Knowledge, 1, text)
    assert state.history() == [] or all(h[1].startswith("setup") for h in state.history())
    for number in numbers:
        for call in (lambda n: torneio.State(n, 0), lambda n: torneio.State(2, n),
                     lambda n: state.view(n), lambda n: torneio.Knowledge(n, "seats=2"),
                     lambda n: torneio.default_params(n), lambda n: state.view(1, since=n)):
            _refused(call, number)
    for bad in [-1, 0, 3, 2 ** 70, None]:
        with pytest.raises((ValueError, TypeError)):
            state.view(bad)
    for bad in [0, 1, 5, -3]:
        with pytest.raises(ValueError):
            torneio.State(bad, 0)

    knowledge = torneio.Knowledge(1, "seats=2")
    for text in strings:
        _refused(knowledge.update, text)
        _refused(knowledge.legal_actions, text)
        _refused(knowledge.random_action, text)
        _refused(knowledge.is_legal, text, text)
        _refused(knowledge.is_legal, "request setup", text)

    # Illegal actions from a live game are refused and change nothing.
    state = torneio.State(2, 3)
    play_until = 30
    while not state.is_over() and len(state.history()) < play_until:
        before = (state.history(), state.view(1), state.view(2))
        for text in ["pass", "move 0 a1", "combat h8", "reward 1", "order a1",
                     "setup king a1 warriors c1:3 e1:3 g1:4"] + strings[:40]:
            if text in state.legal_actions():
                continue
            with pytest.raises((ValueError, RuntimeError, TypeError)):  # TypeError: not UTF-8
                state.apply(text)
            assert (state.history(), state.view(1), state.view(2)) == before
        state.apply(state.random_action())
    assert state.check()


def test_bad_params_and_seats_raise():
    with pytest.raises(ValueError):
        torneio.State(2, 0, params="seats=3")
    with pytest.raises(ValueError):
        torneio.State(2, 0, params="seats=2 board=3")
    with pytest.raises(ValueError):
        torneio.Knowledge(3, "seats=2")
    with pytest.raises(TypeError):
        torneio.State(2, -1)  # seeds are 0..2^64-1
    with pytest.raises(ValueError):
        torneio.State(2, 0).view(3)


# ---- the example player through the referee ----------------------------------------------------
@pytest.mark.skipif(not (REFEREE and PLAYER), reason="TORNEIO_REFEREE / TORNEIO_PLAYER not set")
def test_example_player_plays_through_the_referee(tmp_path):
    env = dict(os.environ)  # PYTHONPATH (set by ctest) lets the player import torneio
    records = tmp_path / "records"
    result = subprocess.run(
        [REFEREE, "--player", f"name=py1,cmd={PLAYER}", "--player", f"name=py2,cmd={PLAYER}",
         "--games", "2", "--seed", "7", "--records", str(records),
         "--log-dir", str(tmp_path / "logs"), "--decision-ms", "60000",
         "--timeout-start", "60000"],
        capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    recorded = sorted(records.glob("game-*.jsonl"))
    assert len(recorded) == 2
    assert "disqualified" not in "".join(p.read_text() for p in recorded)
    assert "py1" in result.stdout and "py2" in result.stdout
