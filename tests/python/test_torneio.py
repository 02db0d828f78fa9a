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

import hostile_calls
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
    assert len(state.decisions()) == decisions
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
    assert a.decisions() == b.decisions()
    c = torneio.State(3, 100)
    play_random(c)
    assert c.decisions() != a.decisions()


def test_legal_actions_hold_the_random_action():
    state = torneio.State(2, 5)
    assert state.count_legal_actions() == 110_880  # 2-seat set-ups (include/torneio/rules/action.h)
    setups = state.legal_action_strings()
    assert len(setups) == 110_880 and all(a.startswith("setup king ") for a in setups[:10])
    while not state.is_over():
        legal = state.legal_action_strings()
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
        moves = [a for a in games[0].legal_action_strings() if a.startswith("move")]
        assert moves == [a for a in games[1].legal_action_strings() if a.startswith("move")]
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
            assert knowledges[seat].legal_actions(request) == state.legal_action_strings()
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
    assert knowledge.legal_actions(request) == state.legal_action_strings()


# ---- clones ------------------------------------------------------------------------------------
def test_clone_is_independent():
    state = torneio.State(2, 41)
    for _ in range(6):
        state.apply(state.random_action())
    before = (state.decisions(), state.view(1), state.view(2), state.request())
    copy = state.clone()
    assert copy.random_action() == state.clone().random_action()  # the stream is copied too
    play_random(copy)
    assert copy.is_over()
    assert (state.decisions(), state.view(1), state.view(2), state.request()) == before
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
    assert state.decisions() == [] or all(h[1].startswith("setup") for h in state.decisions())
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
    while not state.is_over() and len(state.decisions()) < play_until:
        before = (state.decisions(), state.view(1), state.view(2))
        for text in ["pass", "move 0 a1", "combat h8", "reward 1", "order a1",
                     "setup king a1 warriors c1:3 e1:3 g1:4"] + strings[:40]:
            if text in state.legal_action_strings():
                continue
            with pytest.raises((ValueError, RuntimeError, TypeError)):  # TypeError: not UTF-8
                state.apply(text)
            assert (state.decisions(), state.view(1), state.view(2)) == before
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


# Every class torneio binds, with a function making a well-made object and whether it pickles:
# hostile_calls.check_class's table.
TORNEIO_CLASSES = {
    "Game": ("lambda: torneio.Game(3)", True),
    "Outcome": ("lambda: played(torneio.State(2, 1), 100_000).outcome()", True),
    "State": ("lambda: played(torneio.State(3, 5), 40)", True),
    "Knowledge": ("lambda: torneio.Knowledge(1, torneio.default_params(2))", False),
    "GameType": ("lambda: torneio.load_game('torneio(players=3)').get_type()", True),
    "PlayerAction": ("lambda: played(torneio.State(2, 1), 9).full_history()[-1]", True),
}
TORNEIO_PRELUDE = """
import torneio
def played(state, decisions):
    for _ in range(decisions):
        if state.is_over():
            break
        state.apply(state.random_action())
    return state
"""


def test_the_hostile_table_lists_every_bound_class():
    import enum
    bound = {name for name, value in vars(torneio).items()
             if isinstance(value, type) and not issubclass(value, enum.Enum)}
    assert bound == set(TORNEIO_CLASSES)


def test_the_openspiel_enums_are_pythons_own_and_pickle_by_name():
    """pybind11's enums abort the interpreter under pickle protocols 0-1 and give a value to
    Cls.__new__(Cls): the module's enums are enum.IntEnum."""
    import enum
    import pickle
    members = [torneio.PlayerId.CHANCE, torneio.GameType.Dynamics.SEQUENTIAL,
               torneio.GameType.Utility.GENERAL_SUM, torneio.GameType.RewardModel.TERMINAL,
               torneio.GameType.Information.IMPERFECT_INFORMATION,
               torneio.GameType.ChanceMode.DETERMINISTIC]
    for member in members:
        assert isinstance(member, enum.IntEnum)
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            assert pickle.loads(pickle.dumps(member, protocol=protocol)) is member
        with pytest.raises(TypeError):
            type(member).__new__(type(member))
    assert torneio.PlayerId.TERMINAL == torneio.TERMINAL == -4


@pytest.mark.parametrize("name", sorted(TORNEIO_CLASSES))
def test_pickling_in_every_protocol_and_objects_made_without_init_never_crash(name):
    """Issue 54: protocols 0 and 1 aborted the interpreter, and an object made by
    Cls.__new__(Cls) read uninitialised memory (view(1) and sample() crashed, serialize()
    wrote seats=42562)."""
    make, pickles = TORNEIO_CLASSES[name]
    hostile_calls.check_class(TORNEIO_PRELUDE, f"torneio.{name}", make, pickles)


def test_states_and_games_pickle_in_every_protocol_and_objects_without_init_raise():
    import pickle
    state = torneio.State(2, 3)
    for _ in range(10):
        state.apply(state.random_action())
    game = torneio.Game(4)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        again = pickle.loads(pickle.dumps(state, protocol=protocol))
        assert again.serialize() == state.serialize()
        assert pickle.loads(pickle.dumps(game, protocol=protocol)).params() == game.params()
    with pytest.raises(TypeError, match="without __init__"):
        torneio.State.__new__(torneio.State).serialize()
    with pytest.raises(TypeError, match="without __init__"):
        torneio.Knowledge.__new__(torneio.Knowledge).sample()
    with pytest.raises(TypeError):
        pickle.dumps(torneio.Knowledge(1, torneio.default_params(2)), protocol=0)

# ---- OpenSpiel's shape: Game, integer actions, returns, information states -------------------
def test_game_metadata():
    game = torneio.Game(2)
    assert game.num_players() == 2 and game.board_size() == 8
    # include/torneio/rules/action_index.h: 7 * 64 + 4 turn and combat actions, then a set-up's
    # steps: 64 squares to place on and strengths 0..10
    assert game.num_distinct_actions() == 452 + 64 + 11
    assert game.first_setup_action() == 452
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.observation_tensor_shape() == [10 * 64 + 15]
    assert game.max_game_length() > 2 * 200
    three = torneio.load_game(3)
    assert three.num_distinct_actions() == 704 + 100 + 11
    assert three.new_initial_state().num_distinct_actions() == 704 + 100 + 11
    assert three.new_initial_state().get_game().params() == three.params()
    assert torneio.Game(2, params="seats=2 rounds=5").max_game_length() < game.max_game_length()


def _check_integer_actions(state, rng):
    """Every legal action's number -> string -> number is the identity, the numbers are the
    string form's actions, and the mask marks exactly them."""
    player = state.current_player()
    assert player == state.to_decide() - 1
    legal = state.legal_actions()
    assert legal == sorted(legal) and legal == state.legal_actions(player)
    for other in range(state.num_players()):
        if other != player:
            assert state.legal_actions(other) == []
    mask = state.legal_actions_mask()
    assert len(mask) == state.num_distinct_actions() and sum(mask) == len(legal)
    assert all(mask[a] == 1 for a in legal)
    checked = legal
    if state.request() == "request setup":
        # A set-up is placed in small steps: a square of the zone, or a warrior's strength.
        assert 1 <= len(legal) <= 11
        assert all(state.action_to_string(player, a).split()[0] in ("place", "strength")
                   for a in legal)
    else:
        assert sorted(state.action_to_string(player, a) for a in legal) == \
            sorted(state.legal_action_strings())
    for a in checked:
        text = state.action_to_string(player, a)
        assert state.string_to_action(player, text) == a


@pytest.mark.parametrize("seats,seed", [(2, 1), (3, 2), (4, 3)])
def test_integer_actions_round_trip_and_apply_like_strings(seats, seed):
    rng = random.Random(seed)
    by_number = torneio.Game(seats).new_initial_state()
    by_text = torneio.State(seats)
    while not by_number.is_terminal():
        _check_integer_actions(by_number, rng)
        action = rng.choice(by_number.legal_actions())
        text = by_number.action_to_string(by_number.current_player(), action)
        by_number.apply_action(action)
        by_text.apply(text)
        assert by_number.view(1) == by_text.view(1)
    assert by_text.is_over() and by_number.decisions() == by_text.decisions()
    assert by_number.history() == by_text.history()
    assert len(by_number.history()) <= by_number.get_game().max_game_length()


def test_returns_and_the_terminal_marker():
    for seats, seed, params in [(2, 1, None), (3, 4, None), (2, 5, "seats=2 rounds=2"),
                                (3, 6, "seats=3 rounds=3")]:
        state = torneio.State(seats, seed, params=params)
        assert state.returns() == [0.0] * seats and state.current_player() == 0
        play_random(state)
        assert state.is_terminal() and state.current_player() == torneio.TERMINAL == -4
        assert state.legal_actions() == [] and sum(state.legal_actions_mask()) == 0
        outcome = state.outcome()
        named = 1.0 if outcome.kind == "win" else 0.0
        assert state.returns() == [named if p + 1 in outcome.seats else -1.0
                                   for p in range(seats)]
        with pytest.raises(RuntimeError):
            state.apply_action(0)
    assert torneio.State(2, 5, params="seats=2 rounds=2").returns() == [0.0, 0.0]


def test_serialize_deserialize_and_pickle():
    import pickle
    state = torneio.State(3, 9)
    for _ in range(60):
        state.apply(state.random_action())
    for copy in (torneio.State.deserialize(state.serialize()),
                 state.get_game().deserialize_state(state.serialize()),
                 pickle.loads(pickle.dumps(state))):
        assert copy.history() == state.history()
        assert [copy.view(s) for s in (1, 2, 3)] == [state.view(s) for s in (1, 2, 3)]
        assert copy.serialize() == state.serialize()
    play_random(state)
    assert torneio.State.deserialize(state.serialize()).returns() == state.returns()
    bad = ["", "torneio-state 2", "torneio-state 1\nparams seats=2\nactions",
           "torneio-state 2\nparams seats=9\nactions", "torneio-state 2\nparams seats=2\nactions x",
           "torneio-state 2\nparams seats=2\nactions -1", "torneio-state 2\nparams seats=2\nactions 0",
           "torneio-state 2\nparams seats=2\nactions 99999999999999999999999",
           "torneio-state 2\nparams seats=2\nstart 1 1 a1\nactions",
           "torneio-state 2\nparams seats=2\nstart 1 1 a1 a1:3 c1:3 d2:4 / h8 -:0 -:0 -:10\nactions",
           state.serialize() + " 0", "\x00" * 100]
    for text in bad:
        with pytest.raises(ValueError):
            torneio.State.deserialize(text)


def _twin_games(moves=40):
    """Two 2-seat games that differ only in seat 2's secret set-up, seat 1 moving and calling
    combats (that find nothing there: the games stay alike for seat 1), seat 2 passing."""
    params = "seats=2 pass=always"
    first = torneio.State(2, 11, params=params)
    setup1 = first.random_action()
    setups2 = []
    for seed in (12, 13):
        other = torneio.State(2, seed, params=params)
        other.apply(setup1)
        setups2.append(other.random_action())
    assert setups2[0] != setups2[1]
    games = [torneio.State(2, 0, params=params) for _ in range(2)]
    for game, setup2 in zip(games, setups2):
        game.apply(setup1)
        game.apply(setup2)
    rng = random.Random(5)
    for _ in range(moves):
        choices = [a for a in games[0].legal_action_strings()
                   if a.startswith("move") and a in games[1].legal_action_strings()]
        move = rng.choice(choices)
        for game in games:
            game.apply(move)
            game.apply("pass")
    return games


def test_information_state_and_observation_hide_other_seats():
    games = _twin_games()
    assert games[0].view(1) == games[1].view(1)
    assert games[0].information_state_string(0) == games[1].information_state_string(0)
    assert games[0].observation_tensor(0) == games[1].observation_tensor(0)
    assert games[0].information_state_string(1) != games[1].information_state_string(1)
    assert games[0].observation_tensor(1) != games[1].observation_tensor(1)
    tensor = games[0].observation_tensor(0)
    assert len(tensor) == games[0].observation_tensor_shape()[0] == 10 * 64 + 15
    # Own pieces in planes 0-3, one square each (all alive: seat 2 only passed).
    assert [sum(tensor[p * 64:(p + 1) * 64]) for p in range(4)] == [1.0] * 4
    assert games[0].information_state_string(0).split("\n")[:2] == \
        ["params " + games[0].params(), "seat 1"]


def test_observation_sees_public_sightings():
    state = torneio.State(2, 3)
    while not state.is_over():
        before = state.event_count()
        state.apply(state.random_action())
        lines = state.view(1, since=before)
        combats = [line.split() for line in lines if line.startswith("event combat 2 ")]
        if combats:
            square = combats[0][3]
            index = (int(square[1:]) - 1) * 8 + ord(square[0]) - ord("a")
            assert state.observation_tensor(0)[6 * 64 + index] == 1.0  # plane 6: next opponent
            return
    pytest.fail("no combat of seat 2 in the game")


# ---- resampling (OpenSpiel's ResampleFromInfostate) ----------------------------------------
def _knowledge_of(state, seat, seed=0):
    knowledge = torneio.Knowledge(seat, state.params(), seed)
    for line in state.view(seat):
        if line.startswith("event "):
            knowledge.update(line)
    return knowledge


def test_sample_agrees_with_what_the_seat_saw():
    state = torneio.State(3, 17)
    for step in range(400):
        if state.is_over():
            break
        state.apply(state.random_action())
        if step % 37 != 36 or state.request() is None or state.request().startswith("request setup"):
            continue
        for seat in (1, 2, 3):
            knowledge = _knowledge_of(state, seat)
            if not knowledge.own_pieces():
                continue  # eliminated
            samples = [knowledge.sample(seed) for seed in range(4)]
            for sample in samples:
                assert sample.check()
                assert sample.pieces(seat) == knowledge.own_pieces() == state.pieces(seat)
                assert sample.round() == knowledge.round() == state.round()
                assert sample.survivors() == state.survivors()
                turns = [line.split() for line in state.view(seat) if line.startswith("event turn ")]
                assert sample.to_decide() == int(turns[-1][2])  # the seat whose turn it is
                for other in (1, 2, 3):
                    assert bool(sample.pieces(other)) == bool(state.pieces(other))
            assert len({s.serialize() for s in samples}) > 1  # the others' pieces are drawn
            assert knowledge.sample(2).serialize() == samples[2].serialize()
            copy = torneio.State.deserialize(samples[0].serialize())  # a start line
            assert copy.serialize() == samples[0].serialize()
            play_random(copy)  # a playable game


def test_sample_depends_only_on_the_seats_view():
    games = _twin_games(moves=30)
    for seed in range(3):
        a = _knowledge_of(games[0], 1, seed).sample(seed)
        b = _knowledge_of(games[1], 1, seed).sample(seed)
        assert a.serialize() == b.serialize()
        a, b = (game.resample_from_infostate(0, seed) for game in games)
        assert a.pieces(2) == b.pieces(2)
        assert a.information_state_string(0) == b.information_state_string(0) == \
            games[0].information_state_string(0)
    assert games[0].resample_from_infostate(1, 0).pieces(2) == games[0].pieces(2)


def test_sample_refuses_before_set_up_and_after_the_end():
    state = torneio.State(2, 1)
    knowledge = torneio.Knowledge(1, state.params())
    with pytest.raises(RuntimeError):
        knowledge.sample()
    with pytest.raises(ValueError):
        knowledge.sample(0, particles=0)
    play_random(state)
    with pytest.raises(RuntimeError):
        _knowledge_of(state, 1).sample()
    with pytest.raises(RuntimeError):
        state.resample_from_infostate(0)


def test_bad_numbers_into_the_openspiel_calls():
    state = torneio.Game(2).new_initial_state()
    for bad in [-1, 2 ** 63, 2 ** 70, 111_332, None, "1", 1.5]:
        assert _refused(state.apply_action, bad)
        assert _refused(state.action_to_string, 0, bad)
        assert _refused(state.action_to_string, bad, 0)
        assert _refused(state.information_state_string, bad) or bad is None
        assert _refused(state.observation_tensor, bad) or bad is None
        assert _refused(state.legal_actions, bad) or bad in (None,)
        assert _refused(state.resample_from_infostate, bad)
    assert _refused(state.apply_action, 0)  # a move during the set-ups: illegal
    assert _refused(state.action_to_string, 2, 0)
    for text in ["", "move 0 a1 a2", "setup king a8 warriors b8:3 c7:3 d8:4", "\x00", "é" * 5000]:
        assert _refused(state.string_to_action, 0, text)
    assert state.history() == [] and state.current_player() == 0


# ---- OpenSpiel's calls beyond the basics (issue 54) ------------------------------------------
def test_load_game_by_openspiel_game_string_and_parameters():
    game = torneio.load_game("torneio(players=3,rounds=50)")
    assert game.num_players() == 3 and game.get_parameters()["rounds"] == 50
    assert torneio.load_game("torneio").num_players() == 2
    same = torneio.load_game("torneio", {"players": 3, "rounds": 50})
    assert same == game and str(same) == str(game)
    assert torneio.load_game(str(game)) == game  # the game string reads back
    assert torneio.load_game("torneio(pass=always)").get_parameters()["pass"] == "always"
    for bad in ["chess", "torneio(players=5)", "torneio(colour=red)", "torneio(players)",
                "torneio(players=3", "torneio(players=3,players=3)", "torneio(rounds=0)", "\x00"]:
        with pytest.raises(ValueError):
            torneio.load_game(bad)
    with pytest.raises(TypeError):
        torneio.load_game("torneio", {"players": 2.5})
    with pytest.raises(ValueError):
        torneio.load_game("torneio(players=2)", {"players": 2})


def test_game_type_and_metadata_as_openspiel_reads_them():
    two, four = torneio.load_game("torneio"), torneio.load_game("torneio(players=4)")
    kind = two.get_type()
    assert kind.short_name == "torneio"
    assert kind.dynamics == torneio.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == torneio.GameType.ChanceMode.DETERMINISTIC
    assert kind.information == torneio.GameType.Information.IMPERFECT_INFORMATION
    assert kind.reward_model == torneio.GameType.RewardModel.TERMINAL
    assert kind.utility == torneio.GameType.Utility.ZERO_SUM
    assert four.get_type().utility == torneio.GameType.Utility.GENERAL_SUM
    assert (kind.min_num_players, kind.max_num_players) == (2, 4)
    assert kind.provides_information_state_string and kind.provides_observation_tensor
    assert two.utility_sum() == 0.0
    with pytest.raises(RuntimeError):
        four.utility_sum()
    assert two.observation_tensor_size() == two.observation_tensor_shape()[0] == 655
    assert two.information_state_tensor_size() == two.information_state_tensor_shape()[0]
    assert two.max_history_length() == two.max_game_length()
    assert [s.history() for s in two.new_initial_states()] == [[]]
    assert two.max_chance_outcomes() == 0


def test_a_set_up_is_small_decisions_and_stays_private():
    """No decision offers more than a few hundred actions; a seat's steps show in its own
    information state and in no other seat's."""
    for seats in (2, 3, 4):
        state = torneio.load_game(f"torneio(players={seats})").new_initial_state()
        rng = random.Random(seats)
        widest = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            widest = max(widest, len(legal))
            if state.move_number() == 2:  # seat 1 placed its king and a warrior
                assert "placing king " in state.information_state_string(0)
                assert "placing" not in state.information_state_string(1)
                before = state.information_state_string(1)
                other = state.clone()
                other.undo_action(0, state.history()[-1])
                other.apply_action([a for a in other.legal_actions()
                                    if a != state.history()[-1]][0])
                assert other.information_state_string(1) == before
                assert other.information_state_string(0) != state.information_state_string(0)
                assert other.observation_tensor(0) != state.observation_tensor(0)
            state.apply_action(rng.choice(legal))
        assert widest <= 300, widest


def test_state_calls_of_openspiel():
    state = torneio.load_game("torneio(players=3)").new_initial_state()
    rng = random.Random(4)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_simultaneous_node() and not state.is_mean_field_node()
    assert not state.is_chance_node() and state.chance_outcomes() == []
    assert state.history_str() == ", ".join(map(str, state.history()))
    full = state.full_history()
    assert [p.action for p in full] == state.history() and state.move_number() == len(full) == 40
    assert [p.player for p in full[:6]] == [0] * 6  # seat 1's set-up: six steps
    action = state.legal_actions()[0]
    child = state.child(action)
    assert child.history() == state.history() + [action] and len(state.history()) == 40
    child.undo_action(state.current_player(), action)
    assert child.serialize() == state.serialize()
    with pytest.raises(ValueError):
        child.undo_action(state.current_player(), action)  # not the last action
    p = state.current_player()
    assert state.information_state_string() == state.information_state_string(p)
    assert state.observation_tensor() == state.observation_tensor(p)
    assert state.information_state_tensor(p) == state.observation_tensor(p)
    assert state.observation_string() == state.observation_string(p)
    assert state.observation_string(p).startswith(f"seat {p + 1} round ")
    with pytest.raises(ValueError):
        torneio.State(2).undo_action(0, 452)
    play_random(state)
    assert [state.player_return(q) for q in range(3)] == state.returns()
    with pytest.raises(RuntimeError):
        state.information_state_string()  # no player to default to at the end


class _Sampler:
    """pyspiel.UniformProbabilitySampler's shape: a callable giving floats in [0, 1)."""

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def __call__(self):
        return self.rng.random()


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_resample_keeps_the_information_state_at_every_decision(seats):
    """OpenSpiel's contract (ismcts.py asserts it after each resample): the sampled state gives
    the player the same information state string and observation tensor; set-ups in progress,
    turns and the decisions inside a combat (orders, withdrawals, rewards) included."""
    state = torneio.load_game(f"torneio(players={seats})").new_initial_state()
    rng = random.Random(seats)
    requests = set()
    checked = 0
    while not state.is_terminal() and state.move_number() < 500:
        p = state.current_player()
        requests.add(state.request().split()[1])
        sampler = _Sampler(checked) if checked % 2 else checked
        sample = state.resample_from_infostate(p, sampler)
        assert sample.information_state_string(p) == state.information_state_string(p)
        assert sample.observation_tensor(p) == state.observation_tensor(p)
        assert sample.legal_actions() == state.legal_actions()
        assert sample.current_player() == p
        # The sampled world plays on.
        sample.apply_action(rng.choice(sample.legal_actions()))
        checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 100 and {"setup", "turn"} <= requests


def test_resample_hides_what_the_player_could_not_see():
    state = torneio.State(3, 21)
    for _ in range(80):
        state.apply(state.random_action())
    p = state.current_player()
    sample = state.resample_from_infostate(p, 3)
    for q in range(3):
        if q != p and state.pieces(q + 1):
            lines = sample.view(q + 1)
            private = [line for line in lines if line.split()[1] in ("setup", "move", "withdraw",
                                                                      "placed")]
            assert private == []  # its real private past is gone
            assert [line for line in lines if line.startswith("event position ")]
    with pytest.raises(RuntimeError):
        sample.serialize()  # no history of the other seats' decisions to write
    assert state.resample_from_infostate(p, 3).pieces(1) == sample.pieces(1)  # a seed repeats
    assert state.resample_from_infostate(p, seed=3).view(2) == sample.view(2)  # by name too
    with pytest.raises(TypeError):
        state.resample_from_infostate(p, 3, seed=3)
    for bad in [True, "x", 1.5, -1, 2 ** 64, lambda: "x", lambda: float("nan")]:
        assert _refused(state.resample_from_infostate, p, bad)


def test_type_stubs_match_the_module():
    """python/torneio.pyi, installed beside the extension, names what the module has."""
    import ast
    import enum
    stub = os.path.join(os.path.dirname(torneio.__file__), "torneio.pyi")
    with open(stub, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            cls = getattr(torneio, node.name)
            if issubclass(cls, enum.Enum):  # Python's own: its members are the stub's
                assert {m.name for m in cls} == {n.targets[0].id for n in node.body
                                                 if isinstance(n, ast.Assign)}, node.name
                continue
            stubbed = {n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
            public = {n for n in dir(cls) if not n.startswith("_")}
            assert public == {n for n in stubbed if not n.startswith("_")}, node.name
        elif isinstance(node, ast.FunctionDef):
            assert callable(getattr(torneio, node.name))
    module = {n for n in dir(torneio) if not n.startswith("_")}
    names = {n.name for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef))}
    names |= {n.target.id for n in tree.body if isinstance(n, ast.AnnAssign)}
    assert module == names


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
