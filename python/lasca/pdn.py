"""A PDN game as a tree, in the shape of python-chess's chess.pgn: the game is the root node,
each node holds the move that led to it, its comment and its variations (variations[0] the
main continuation, the others the lines played instead of it).

    tree = lasca.read_pdn(text)[0].tree()
    for node in tree.mainline():
        print(node.move, node.comment, [str(v.move) for v in node.parent.variations[1:]])
    print(tree.headers["Event"], str(tree))      # str(tree): the game as PDN text

The tree is built in Python over the C++ reader's lines (PdnGame.moves, comments, variations)
and written back through them (tree.pdn(), then the C++ writer), so reading and writing stay
the core's. Moves are Move values read from their text (Move.from_text: legality is checked by
board() or PdnGame.replay(), not when the tree is built).
"""
import collections.abc
import weakref

from ._lasca import (Move, PdnGame, PdnLine, PdnReader, PdnVariation, Position, START_LFEN,
                     write_pdn)

__all__ = ["PdnNode", "PdnTree", "Headers", "read_game", "SEVEN_TAG_ROSTER"]

# The Seven Tag Roster, in its order, with the values of a game that has none (PDN, as PGN).
SEVEN_TAG_ROSTER = {"Event": "?", "Site": "?", "Date": "????.??.??", "Round": "?", "White": "?",
                    "Black": "?", "Result": "*"}


class Headers(collections.abc.MutableMapping):
    """A PdnGame's tags as an ordered dict that writes through to pdn.tags (a new tag goes to
    the end, a changed one stays in its place)."""

    def __init__(self, pdn):
        self._pdn = pdn

    def __getitem__(self, name):
        for key, value in self._pdn.tags:
            if key == name:
                return value
        raise KeyError(name)

    def __setitem__(self, name, value):
        if not isinstance(name, str) or not isinstance(value, str):
            raise TypeError("a tag's name and value are strings")
        tags = self._pdn.tags
        for i, (key, _) in enumerate(tags):
            if key == name:
                tags[i] = (name, value)
                break
        else:
            tags.append((name, value))
        self._pdn.tags = tags

    def __delitem__(self, name):
        tags = [(k, v) for k, v in self._pdn.tags if k != name]
        if len(tags) == len(self._pdn.tags):
            raise KeyError(name)
        self._pdn.tags = tags

    def __iter__(self):
        return iter([key for key, _ in self._pdn.tags])

    def __len__(self):
        return len(self._pdn.tags)

    def __repr__(self):
        return f"Headers({dict(self)!r})"


class PdnNode:
    """A node of the game tree: `move` (the Move that led here; None at the root), `comment`
    (the text after the move), `starting_comment` (the text before the move, kept where a
    variation begins), `nags` (the set of glyphs after the move, 0..255: 1 "!", 2 "?", 3 "!!",
    4 "??", 5 "!?", 6 "?!"), `variations` (the moves that may follow, the main one first),
    `parent` (None at the root)."""

    def __init__(self, move=None, comment="", parent=None, starting_comment="", nags=()):
        self.move = move
        self.comment = comment
        self.starting_comment = starting_comment
        self.nags = set(nags)
        self.variations = []
        self.parent = parent

    def add_variation(self, move, comment="", starting_comment="", nags=()):
        """Adds a line after this node (a Move or its text), last; returns its node."""
        node = PdnNode(_move(move), comment, self, starting_comment, nags)
        self.variations.append(node)
        return node

    def add_main_variation(self, move, comment="", starting_comment="", nags=()):
        """Adds a line after this node as the main one (first); returns its node."""
        node = PdnNode(_move(move), comment, self, starting_comment, nags)
        self.variations.insert(0, node)
        return node

    def next(self):
        """The main continuation, or None at the end of the line."""
        return self.variations[0] if self.variations else None

    def root(self):
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def ply(self):
        """The number of moves from the root to this node."""
        count, node = 0, self
        while node.parent is not None:
            count, node = count + 1, node.parent
        return count

    def is_mainline(self):
        """Whether every move from the root to this node is the main continuation."""
        node = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def mainline(self):
        """The nodes of the main continuation after this node, in order."""
        node = self.next()
        while node is not None:
            yield node
            node = node.next()

    def mainline_moves(self):
        """The moves of the main continuation after this node."""
        return [node.move for node in self.mainline()]

    def end(self):
        """The last node of the main continuation from this node (this node at a line's end)."""
        node = self
        while node.variations:
            node = node.variations[0]
        return node

    def is_end(self):
        """Whether no move follows this node."""
        return not self.variations

    def turn(self):
        """The side to move after this node: lasca.WHITE (True) or lasca.BLACK (False); every
        move, a chain of jumps included, passes the turn."""
        return self.root().board().turn == (self.ply() % 2 == 0)

    def starts_variation(self):
        """Whether this node begins a line other than its parent's main continuation (where a
        starting_comment is kept); False for the root and for main continuations."""
        return self.parent is not None and self.parent.variations[0] is not self

    def variation(self, move):
        """The child node for a move (a Move or its text), a child node, or an index into
        variations; KeyError when there is no such child."""
        if isinstance(move, PdnNode):
            for node in self.variations:
                if node is move:
                    return node
        elif isinstance(move, int) and not isinstance(move, bool):
            if 0 <= move < len(self.variations):
                return self.variations[move]
        elif isinstance(move, (Move, str)):
            wanted = _move(move)
            for node in self.variations:
                if node.move == wanted:
                    return node
        else:
            raise TypeError(f"a variation is named by a lasca.Move, its text, a node or an "
                            f"index, got {type(move).__name__}")
        raise KeyError(f"no variation {move!r} after this node")

    def has_variation(self, move):
        """Whether variation(move) finds a child."""
        try:
            self.variation(move)
        except KeyError:
            return False
        return True

    def promote_to_main(self, move):
        """Makes the variation of `move` (see variation()) the main continuation."""
        node = self.variation(move)
        self.variations.remove(node)
        self.variations.insert(0, node)

    def promote(self, move):
        """Moves the variation of `move` one place up."""
        node = self.variation(move)
        i = self.variations.index(node)
        if i > 0:
            self.variations[i - 1], self.variations[i] = node, self.variations[i - 1]

    def demote(self, move):
        """Moves the variation of `move` one place down."""
        node = self.variation(move)
        i = self.variations.index(node)
        if i < len(self.variations) - 1:
            self.variations[i + 1], self.variations[i] = node, self.variations[i + 1]

    def remove_variation(self, move):
        """Removes the variation of `move` (see variation()) and everything after it."""
        node = self.variation(move)
        self.variations.remove(node)
        node.parent = None

    def add_line(self, moves, *, comment="", starting_comment="", nags=()):
        """Adds the moves (Moves or texts) one after the other from this node, each the last
        variation of the node before; starting_comment goes to the first, comment and nags to
        the last, which is returned."""
        moves = list(moves)
        for move in moves:
            _move(move)  # TypeError, ValueError before anything is added
        node = self
        for move in moves:
            node = node.add_variation(move, starting_comment=starting_comment)
            starting_comment = ""
        node.comment = comment if moves else node.comment
        if moves:
            node.nags.update(nags)
        return node

    def board(self):
        """The Position after this node's move, replayed from the game's start; ValueError
        when a move on the way is not legal."""
        moves, node = [], self
        while node.parent is not None:
            moves.append(node.move)
            node = node.parent
        position = Position(getattr(node, "start_lfen", START_LFEN))
        for move in reversed(moves):
            position.push(move)
        return position

    def __repr__(self):
        return f"PdnNode({str(self.move) if self.move else 'root'}, " \
               f"{len(self.variations)} variations)"


class PdnTree(PdnNode):
    """The root of a game tree: `headers` (an ordered dict of tags), `comment` (before the first
    move), `result` ("2-0", "0-2", "1-1", "*"), and the moves as nodes. str() is its PDN."""

    def __init__(self, headers=None, result="*", comment=""):
        super().__init__(None, comment, None)
        # A new game gets the Seven Tag Roster ("?" values), as python-chess's Game().
        self.headers = dict(SEVEN_TAG_ROSTER if headers is None else headers)
        self.result = result

    @property
    def start_lfen(self):
        """The LFEN the game starts from: its FEN header, or the start position."""
        return self.headers.get("FEN", START_LFEN)

    @classmethod
    def from_pdn(cls, pdn):
        """The tree of a PdnGame: its main line, comments and variations."""
        tree = cls(dict(pdn.tags), pdn.result, pdn.comment)
        _build(tree, PdnLine(pdn.moves, pdn.comments, pdn.variations, "", pdn.nags))
        return tree

    def pdn(self):
        """The tree as a PdnGame (for write_pdn): the main line, and every other variation in
        parentheses after the move it replaces."""
        line = _line_of(self, self.next(), True) if self.variations else PdnLine()
        pdn = PdnGame(moves=line.moves, tags=list(self.headers.items()), result=self.result)
        pdn.comment = self.comment
        pdn.comments = line.comments
        pdn.variations = line.variations
        pdn.nags = line.nags
        return pdn

    def __str__(self):
        return write_pdn([self.pdn()])

    def __repr__(self):
        return f"PdnTree({len(self.headers)} headers, {len(self.mainline_moves())} moves, " \
               f"result {self.result!r})"


def _move(move):
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.from_text(move)
    raise TypeError(f"a move is a lasca.Move or its text, got {type(move).__name__}")


def _build(parent, line):
    """Hangs a PdnLine's moves under parent, then each variation under the node its first move
    replaces the move of (the parent of that move's node)."""
    parents, node = [], parent
    for i, text in enumerate(line.moves):
        parents.append(node)
        node = node.add_variation(Move.from_text(text),
                                  line.comments[i] if i < len(line.comments) else "",
                                  line.comment if i == 0 else "",
                                  line.nags[i] if i < len(line.nags) else ())
    for variation in line.variations:
        if variation.at >= len(parents):
            raise ValueError(f"a variation replaces move {variation.at + 1} of a line of "
                             f"{len(parents)} moves")
        _build(parents[variation.at], variation.line)


def _line_of(parent, first, is_main):
    """The PdnLine from node `first` (a child of parent) along its main continuation; the
    other children of each node on the way become variations. The alternatives to a
    variation's first move are written by the line it branches from, not again inside it."""
    moves, comments, nags, variations = [], [], [], []
    node, before = first, parent
    while node is not None:
        at = len(moves)
        moves.append(str(node.move))
        comments.append(node.comment)
        nags.append(sorted(node.nags))
        if is_main or at > 0:
            for other in before.variations:
                if other is not node:
                    variations.append(PdnVariation(at, _line_of(before, other, False)))
        before, node = node, node.next()
    while comments and not comments[-1]:
        comments.pop()
    while nags and not nags[-1]:
        nags.pop()
    return PdnLine(moves, comments, variations, "" if is_main else first.starting_comment, nags)


# The reader of each file handle read_game reads from: a line may end more than one game, and
# the reader holds the games it ended until they are asked for.
_READERS = weakref.WeakKeyDictionary()


def read_game(handle):
    """The next game of a PDN file open for reading, as a PdnTree (python-chess's read_game);
    None at the end of the file. The file is read line by line, up to the game's end. A broken
    game raises ValueError naming its line; the next call goes on with the game after it."""
    if not hasattr(handle, "readline"):
        raise TypeError(f"read_game reads a file open for reading, got {type(handle).__name__}")
    try:
        reader = _READERS.get(handle)
    except TypeError:  # a handle without weak references: a reader for this call alone
        reader = None
    if reader is None:
        reader = PdnReader()
        try:
            _READERS[handle] = reader
        except TypeError:
            pass
    while True:
        line = handle.readline()
        if not isinstance(line, str):
            raise TypeError("read_game reads text: open the file in text mode")
        entry = reader.feed(line.rstrip("\r\n")) if line else reader.finish()
        if entry is not None:
            break
        if not line:
            return None
    if entry.game is None:
        raise ValueError(f"PDN game at line {entry.line}: {entry.error}")
    try:
        return PdnTree.from_pdn(entry.game)
    except ValueError as error:  # a move without a move's shape
        raise ValueError(f"PDN game at line {entry.line}: {error}") from None


def _tree(self):
    """The game as a PdnTree (python-chess's game tree): headers, main line, variations."""
    return PdnTree.from_pdn(self)


PdnGame.tree = _tree
PdnGame.headers = property(Headers, doc="The tags as an ordered dict, written through to tags.")
