"""`torneio` driven the way OpenSpiel's Python algorithms drive a pyspiel game (issue 54).

OpenSpiel's open_spiel/python/algorithms/mcts.py (MCTSBot with RandomRolloutEvaluator),
ismcts.py (ISMCTSBot), evaluate_bots.py and get_all_states.py take a game from
`pyspiel.load_game` and call only the State and Game methods of OpenSpiel's API. This file holds
short implementations of the four, written for this test (not copied), that make the same calls
into the game and its states, in the same order, with the same assertions: IS-MCTS keys its
nodes by (current_player(), information_state_string()) and asserts that every resampled root
has the root's key, and it looks up `prior_map[action]` without a fallback, so two states
sharing a key but not their legal actions would raise KeyError, as OpenSpiel's bot would with
allow_inconsistent_action_sets=False.

`pyspiel` here is a stand-in module holding only constants, enums and small helpers, taken from
`torneio` where OpenSpiel's come from the C++ library: anything else the algorithms use goes
through the game and state objects `torneio.load_game` returns.

numpy (which OpenSpiel's algorithms use for their RandomState) is used when installed; without
it a small RandomState with the same four methods over `random.Random` stands in, so the test
runs on a machine without numpy too. Every game is seeded; nothing depends on the machine's
speed. Run by ctest as python.openspiel (python/CMakeLists.txt)."""
import math
import random
import sys
import types

import pytest

import torneio

try:
    import numpy as np
except ImportError:  # the test's own RandomState below
    np = None


# ---- the stand-in `pyspiel` ------------------------------------------------------------------
class _Bot:
    """pyspiel.Bot's place: a base class with nothing in it."""

    def __init__(self):
        pass


class _UniformProbabilitySampler:
    """pyspiel.UniformProbabilitySampler: a callable giving floats uniform in [min, max)."""

    def __init__(self, min=0., max=1.):  # noqa: A002 (OpenSpiel's parameter names)
        self._low, self._high = min, max
        self._random = random.Random(random.getrandbits(64))

    def __call__(self):
        return self._low + (self._high - self._low) * self._random.random()


pyspiel = types.ModuleType("pyspiel")
pyspiel.GameType = torneio.GameType
pyspiel.PlayerId = torneio.PlayerId
pyspiel.INVALID_ACTION = torneio.INVALID_ACTION
pyspiel.Bot = _Bot
pyspiel.SpielError = RuntimeError
pyspiel.UniformProbabilitySampler = _UniformProbabilitySampler
pyspiel.load_game = torneio.load_game
sys.modules["pyspiel"] = pyspiel


# ---- a seeded RandomState ----------------------------------------------------------------------
class _FallbackRandomState:
    """The four numpy.random.RandomState methods the algorithms use, over random.Random."""

    def __init__(self, seed):
        self._random = random.Random(seed)

    def uniform(self):
        return self._random.random()

    def randint(self, n):
        return self._random.randrange(n)

    def shuffle(self, items):
        self._random.shuffle(items)

    def choice(self, items, p=None):
        items = list(items)
        if p is None:
            return items[self._random.randrange(len(items))]
        return self._random.choices(items, weights=p)[0]


def random_state(seed):
    return np.random.RandomState(seed) if np is not None else _FallbackRandomState(seed)


def _add(total, values):
    values = [float(v) for v in values]
    return values if total is None else [a + b for a, b in zip(total, values)]


# ---- MCTS with random rollouts (as mcts.py) --------------------------------------------------
class RolloutEvaluator:
    """Plays random actions to the end; the mean returns over n_rollouts games."""

    def __init__(self, n_rollouts=1, rng=None):
        self.n_rollouts = n_rollouts
        self.rng = rng or random_state(None)

    def evaluate(self, state):
        total = None
        for _ in range(self.n_rollouts):
            game = state.clone()
            while not game.is_terminal():
                if game.is_chance_node():
                    actions, probs = zip(*game.chance_outcomes())
                    action = self.rng.choice(actions, p=probs)
                else:
                    action = self.rng.choice(game.legal_actions())
                game.apply_action(action)
            total = _add(total, game.returns())
        return [v / self.n_rollouts for v in total]

    def prior(self, state):
        if state.is_chance_node():
            return state.chance_outcomes()
        actions = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(actions)) for a in actions]


class TreeNode:
    __slots__ = ("action", "player", "prior", "visits", "reward", "outcome", "children")

    def __init__(self, action, player, prior):
        self.action, self.player, self.prior = action, player, prior
        self.visits, self.reward = 0, 0.0
        self.outcome = None
        self.children = []

    def uct(self, parent_visits, c):
        if self.outcome is not None:
            return self.outcome[self.player]
        if self.visits == 0:
            return float("inf")
        return self.reward / self.visits + c * math.sqrt(math.log(parent_visits) / self.visits)

    def rank(self):
        proven = 0 if self.outcome is None else self.outcome[self.player]
        return (proven, self.visits, self.reward)


class MctsBot(pyspiel.Bot):
    def __init__(self, game, uct_c, max_simulations, evaluator, solve=True, rng=None,
                 verbose=False):
        pyspiel.Bot.__init__(self)
        kind = game.get_type()
        if kind.reward_model != pyspiel.GameType.RewardModel.TERMINAL:
            raise ValueError("MCTS needs terminal rewards")
        if kind.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise ValueError("MCTS needs sequential turns")
        self.uct_c, self.max_simulations, self.evaluator = uct_c, max_simulations, evaluator
        self.solve, self.verbose = solve, verbose
        self.max_utility = game.max_utility()
        self.rng = rng or random_state(None)
        self.searches = 0
        self.descriptions = []

    def restart_at(self, state):
        pass

    def inform_action(self, state, player, action):
        pass

    def step_with_policy(self, state):
        root = self.search(state)
        best = max(root.children, key=TreeNode.rank)
        if self.verbose:  # mcts.py's verbose print: the children by name
            self.descriptions.append([
                state.action_to_string(state.current_player(), c.action)
                for c in sorted(root.children, key=TreeNode.rank, reverse=True)])
        policy = [(a, 1.0 if a == best.action else 0.0)
                  for a in state.legal_actions(state.current_player())]
        return policy, best.action

    def step(self, state):
        return self.step_with_policy(state)[1]

    def _descend(self, root, state):
        path = [root]
        game = state.clone()
        node = root
        while not game.is_terminal() and node.visits > 0:
            if not node.children:
                prior = self.evaluator.prior(game)
                self.rng.shuffle(prior)
                mover = game.current_player()
                node.children = [TreeNode(a, mover, p) for a, p in prior]
            if game.is_chance_node():
                actions, probs = zip(*game.chance_outcomes())
                drawn = self.rng.choice(actions, p=probs)
                node = next(c for c in node.children if c.action == drawn)
            else:
                parent = node
                node = max(parent.children, key=lambda c: c.uct(parent.visits, self.uct_c))
            game.apply_action(node.action)
            path.append(node)
        return path, game

    def search(self, state):
        self.searches += 1
        root = TreeNode(None, state.current_player(), 1)
        for _ in range(self.max_simulations):
            path, game = self._descend(root, state)
            if game.is_terminal():
                returns = game.returns()
                path[-1].outcome = returns
                solved = self.solve
            else:
                returns = self.evaluator.evaluate(game)
                solved = False
            while path:
                decider = -1
                while path[decider].player == pyspiel.PlayerId.CHANCE:
                    decider -= 1
                target = returns[path[decider].player]
                node = path.pop()
                node.reward += target
                node.visits += 1
                if solved and node.children:
                    solved = self._back_up_proof(node)
            if root.outcome is not None:
                break
        return root

    def _back_up_proof(self, node):
        mover = node.children[0].player
        if mover == pyspiel.PlayerId.CHANCE:
            first = node.children[0].outcome
            if first is not None and all(list(c.outcome or []) == list(first)
                                         for c in node.children):
                node.outcome = first
                return True
            return False
        best, every_child_proven = None, True
        for child in node.children:
            if child.outcome is None:
                every_child_proven = False
            elif best is None or child.outcome[mover] > best.outcome[mover]:
                best = child
        if best is not None and (every_child_proven or
                                 best.outcome[mover] == self.max_utility):
            node.outcome = best.outcome
            return True
        return False


# ---- IS-MCTS (as ismcts.py, UCT children, the most visited action, unlimited samples) ------
UNEXPANDED = -1
TIE_TOLERANCE = 1e-5


class InfoNode:
    def __init__(self):
        self.children = {}  # action -> [visits, return sum, prior]
        self.total_visits = UNEXPANDED
        self.prior_map = {}


class IsmctsBot(pyspiel.Bot):
    def __init__(self, game, evaluator, uct_c, max_simulations, rng=None):
        pyspiel.Bot.__init__(self)
        self.evaluator, self.uct_c, self.max_simulations = evaluator, uct_c, max_simulations
        self.rng = rng or random_state(None)
        self.nodes = {}
        self.searches = 0
        self.resamples = 0

    def restart_at(self, state):
        pass

    def inform_action(self, state, player, action):
        pass

    @staticmethod
    def key(state):
        return state.current_player(), state.information_state_string()

    def _new_node(self, state):
        node = InfoNode()
        self.nodes[self.key(state)] = node
        return node

    def search(self, state):
        self.nodes = {}
        kind = state.get_game().get_type()
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        actions = state.legal_actions()
        if len(actions) == 1:
            return [(actions[0], 1.0)]
        self.searches += 1
        root = self._new_node(state)
        root_key = self.key(state)
        for _ in range(self.max_simulations):
            world = state.resample_from_infostate(state.current_player(),
                                                  pyspiel.UniformProbabilitySampler(0., 1.))
            self.resamples += 1
            assert root_key == self.key(world)
            assert world
            self._simulate(world)
        return self._final_policy(state, root)

    def step(self, state):
        actions, probs = zip(*self.search(state))
        return self.rng.choice(actions, p=probs)

    def _final_policy(self, state, node):
        assert node.total_visits > 0
        most = max(visits for visits, _, _ in node.children.values())
        tied = sum(1 for visits, _, _ in node.children.values() if visits == most)
        policy = [(a, 1. / tied if info[0] == most else 0.0) for a, info in node.children.items()]
        legal = state.legal_actions()
        if len(policy) < len(legal):
            policy += [(a, 0.0) for a in legal if a not in node.children]
        return policy

    def _value(self, node, info):
        visits, total, _ = info
        assert visits > 0
        return total / visits + self.uct_c * math.sqrt(math.log(node.total_visits) / visits)

    def _select(self, node):
        values = {a: self._value(node, info) for a, info in node.children.items()}
        best = max(values.values())
        candidates = [a for a, v in values.items() if v > best - TIE_TOLERANCE]
        assert candidates
        return candidates[self.rng.randint(len(candidates))]

    def _unexpanded_action(self, node, legal):
        if len(node.children) == len(legal):
            return pyspiel.INVALID_ACTION
        shuffled = list(legal)
        self.rng.shuffle(shuffled)
        for action in shuffled:
            if action not in node.children:
                return action
        return pyspiel.INVALID_ACTION

    def _simulate(self, state):
        if state.is_terminal():
            return state.returns()
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(self.rng.choice(actions, p=probs))
            return self._simulate(state)
        legal = state.legal_actions()
        mover = state.current_player()
        node = self.nodes.get(self.key(state)) or self._new_node(state)
        if node.total_visits == UNEXPANDED:
            node.total_visits = 0
            for action, prob in self.evaluator.prior(state):
                node.prior_map[action] = prob
            return self.evaluator.evaluate(state)
        chosen = self._unexpanded_action(node, legal)
        if chosen != pyspiel.INVALID_ACTION:
            if chosen not in node.children:
                # KeyError here: a state sharing this key had other legal actions.
                node.children[chosen] = [0, 0.0, node.prior_map[chosen]]
        else:
            chosen = self._select(node)
        assert chosen != pyspiel.INVALID_ACTION
        node.total_visits += 1
        node.children[chosen][0] += 1
        state.apply_action(chosen)
        returns = self._simulate(state)
        node.children[chosen][1] += returns[mover]
        return returns


class RandomBot(pyspiel.Bot):
    def __init__(self, player, rng):
        pyspiel.Bot.__init__(self)
        self.player, self.rng = player, rng

    def restart_at(self, state):
        pass

    def inform_action(self, state, player, action):
        pass

    def step(self, state):
        return self.rng.choice(state.legal_actions(self.player))


# ---- evaluate_bots.py and get_all_states.py ------------------------------------------------
def evaluate_bots(state, bots, rng):
    for bot in bots:
        bot.restart_at(state)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            action = rng.choice(outcomes, p=probs)
            for bot in bots:
                bot.inform_action(state, pyspiel.PlayerId.CHANCE, action)
            state.apply_action(action)
        elif state.is_simultaneous_node():
            joint = [bot.step(state) if state.legal_actions(p) else pyspiel.INVALID_ACTION
                     for p, bot in enumerate(bots)]
            state.apply_actions(joint)
        else:
            mover = state.current_player()
            action = bots[mover].step(state)
            for p, bot in enumerate(bots):
                if p != mover:
                    bot.inform_action(state, mover, action)
            state.apply_action(action)
    return state.returns()


def get_all_states(game, depth_limit=-1, include_terminals=True, include_chance_states=False,
                   to_string=lambda s: s.history_str(), stop_if_encountered=True):
    found = {}

    def walk(state, depth):
        if state.is_terminal():
            if include_terminals and to_string(state) not in found:
                found[to_string(state)] = state.clone()
            return
        if depth > depth_limit >= 0:
            return
        mean_field = state.current_player() == pyspiel.PlayerId.MEAN_FIELD
        assert not mean_field  # Torneio has no mean-field nodes
        if (state.is_chance_node() and include_chance_states) or not state.is_chance_node():
            text = to_string(state)
            if text not in found:
                found[text] = state.clone()
            elif stop_if_encountered:
                return
        for action in state.legal_actions():
            walk(state.child(action), depth + 1)

    walk(game.new_initial_state(), 0)
    if not found:
        raise ValueError("no state found")
    return found


# ---- the tests ------------------------------------------------------------------------------
def load(players, rounds=None):
    """The default game for that many players (200 rounds: a full game of MCTS or IS-MCTS at 4
    simulations a decision against random players takes seconds), or one of fewer rounds."""
    if rounds is None:
        return pyspiel.load_game(f"torneio(players={players})")
    return pyspiel.load_game(f"torneio(players={players},rounds={rounds})")


def check_returns(game, returns):
    assert len(returns) == game.num_players()
    low, high = game.min_utility(), game.max_utility()
    assert all(low <= r <= high for r in returns), returns
    utility = game.get_type().utility
    if utility == pyspiel.GameType.Utility.ZERO_SUM:
        assert sum(returns) == pytest.approx(0.0)
    elif utility == pyspiel.GameType.Utility.CONSTANT_SUM:
        assert sum(returns) == pytest.approx(game.utility_sum())


def test_the_game_reports_what_the_algorithms_check():
    for players in (2, 3, 4):
        game = pyspiel.load_game(f"torneio(players={players})")
        kind = game.get_type()
        assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
        assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert kind.provides_information_state_string
        assert kind.min_num_players <= players <= kind.max_num_players
        assert game.num_players() == players
        assert game.min_utility() < game.max_utility()
        state = game.new_initial_state()
        assert not state.is_chance_node() and not state.is_simultaneous_node()
        assert state.current_player() not in (pyspiel.PlayerId.MEAN_FIELD,
                                              pyspiel.PlayerId.TERMINAL)
        assert 1 < len(state.legal_actions()) <= 1000
    assert pyspiel.PlayerId.MEAN_FIELD == -5 and pyspiel.INVALID_ACTION == -1
    by_dict = pyspiel.load_game("torneio", {"players": 3})
    assert by_dict.num_players() == 3
    assert by_dict.get_parameters() == pyspiel.load_game("torneio(players=3)").get_parameters()


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_mcts_against_random_to_the_end(players, seed):
    game = load(players)
    rng = random_state(seed)
    mcts = MctsBot(game, uct_c=2.0, max_simulations=4,
                   evaluator=RolloutEvaluator(1, random_state(seed + 100)), rng=rng,
                   verbose=True)
    bots = [mcts] + [RandomBot(p, random_state(seed + p)) for p in range(1, players)]
    state = game.new_initial_state()
    returns = evaluate_bots(state, bots, rng)
    assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
    check_returns(game, returns)
    assert mcts.searches > 0 and all(mcts.descriptions)
    assert len(state.history()) > mcts.searches


def test_mcts_against_mcts_two_players():
    game = load(2, rounds=30)
    bots = [MctsBot(game, 2.0, 3, RolloutEvaluator(1, random_state(10 + p)),
                    rng=random_state(20 + p)) for p in range(2)]
    state = game.new_initial_state()
    check_returns(game, evaluate_bots(state, bots, random_state(5)))
    assert state.is_terminal()
    assert all(bot.searches > 0 for bot in bots)


@pytest.mark.parametrize("players,seed", [(2, 11), (3, 12), (4, 13)])
def test_ismcts_against_random_to_the_end(players, seed):
    random.seed(seed)  # the samplers' draws
    game = load(players)
    rng = random_state(seed)
    searcher = players - 1  # the last seat: its set-up comes after the others'
    ismcts = IsmctsBot(game, RolloutEvaluator(1, random_state(seed + 100)), uct_c=2.0,
                       max_simulations=4, rng=rng)
    bots = [RandomBot(p, random_state(seed + p)) for p in range(players)]
    bots[searcher] = ismcts
    state = game.new_initial_state()
    returns = evaluate_bots(state, bots, rng)
    assert state.is_terminal()
    check_returns(game, returns)
    assert ismcts.searches > 0 and ismcts.resamples == 4 * ismcts.searches


def test_ismcts_against_ismcts_two_players():
    random.seed(21)
    game = load(2, rounds=30)
    bots = [IsmctsBot(game, RolloutEvaluator(1, random_state(30 + p)), 2.0, 3,
                      rng=random_state(40 + p)) for p in range(2)]
    state = game.new_initial_state()
    check_returns(game, evaluate_bots(state, bots, random_state(6)))
    assert all(bot.searches > 0 for bot in bots)


def _count_nodes(state, depth_limit):
    """The nodes of the tree down to depth_limit, counted without keys."""
    if state.is_terminal() or depth_limit == 0:
        return 1
    return 1 + sum(_count_nodes(state.child(a), depth_limit - 1) for a in state.legal_actions())


@pytest.mark.parametrize("players,depth", [(2, 2), (3, 3)])
def test_get_all_states_a_few_levels_deep(players, depth):
    game = load(players)
    found = get_all_states(game, depth_limit=depth)
    assert len(found) > 1
    # Every node of the walk has its own history_str: none was taken for another.
    root = game.new_initial_state()
    assert len(found) == _count_nodes(root, depth)
    for text, state in found.items():
        assert state.history_str() == text
        assert text == ", ".join(str(a) for a in state.history())
        assert len(state.history()) <= depth
    assert root.history() == []  # child() leaves its parent as it was


@pytest.mark.parametrize("players,seed", [(2, 31), (3, 32), (4, 33)])
def test_resampled_states_keep_the_information_state(players, seed):
    random.seed(seed)
    game = load(players, rounds=30)
    chooser = random.Random(seed)
    state = game.new_initial_state()
    checked = differing = 0
    while not state.is_terminal():
        p = state.current_player()
        real_info = state.information_state_string(p)
        real_obs = state.observation_tensor(p)
        worlds = []
        for source in (pyspiel.UniformProbabilitySampler(0., 1.), 7, 8):
            world = state.resample_from_infostate(p, source)
            assert world.current_player() == p
            assert world.information_state_string(p) == real_info
            assert world.information_state_string() == state.information_state_string()
            assert world.observation_tensor(p) == real_obs
            assert world.legal_actions() == state.legal_actions()
            worlds.append([world.information_state_string(o) for o in range(players)])
        # The same int seed draws the same world; another may draw another: the other players'
        # information states hold their own (drawn) pieces.
        again = state.resample_from_infostate(p, 7)
        assert [again.information_state_string(o) for o in range(players)] == worlds[1]
        differing += worlds[1] != worlds[2]
        checked += 1
        state.apply_action(chooser.choice(state.legal_actions()))
    assert checked > 10
    assert differing > 0  # IS-MCTS above searched more than one world
