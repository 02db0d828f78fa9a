"""The Lasca engine as a child process over its UCI protocol (protocol.md).

    with lasca.Engine("build/lasca") as engine:
        lines = engine.analyse(lasca.Position(), depth=6, multipv=3)
        move = engine.play(lasca.Position(), nodes=20000)

or in python-chess's shape (SimpleEngine, Limit, PovScore, below):

    with lasca.SimpleEngine.popen_uci("build/lasca") as engine:
        info = engine.analyse(lasca.Position(), lasca.Limit(depth=6))
        move = engine.play(lasca.Position(), lasca.Limit(nodes=20000)).move

Every read from the engine has a deadline: a search that overruns its timeout is stopped
(``stop``), and an engine that does not answer even then is killed and EngineError raised.
Positions are checked by the rules core before they are sent, so the engine only ever sees
legal input; an error line it still writes becomes an EngineError. The engine's lines are read
by the core's reply parser (lasca/engine/replies.h), as lasca-match and the web tables read
them.
"""
import functools
import queue
import subprocess
import threading
import time
import weakref

from ._lasca import (Game, Position, parse_best_move, parse_id, parse_info, parse_info_string,
                     parse_option)

__all__ = ["Engine", "EngineError", "SimpleEngine", "Limit", "PlayResult", "AnalysisResult",
           "PovScore", "Score", "Cp", "Mate", "WHITE", "BLACK"]

# Limits of `go` as protocol.md states them; checked here so that bad input is a ValueError.
_DEPTH_RANGE = (1, 100)
_NODES_RANGE = (1, 2 ** 50)
_MOVETIME_RANGE = (1, 1_000_000_000)
_MULTIPV_RANGE = (1, 64)
# Seconds the engine gets to stop and answer after a search's own timeout ran out.
_STOP_GRACE = 5.0


class EngineError(RuntimeError):
    """The engine died, timed out or wrote an error line."""


def _checked_int(name, value, bounds):
    """value when it is an int within bounds (inclusive), else ValueError."""
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in {low}..{high}, got {value}")
    return value


def _checked_seconds(name, value):
    """value as a float when it is a positive, finite number of seconds, else ValueError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not 0 < value < float("inf"):
        raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
    return float(value)


def _position_command(position):
    """The `position ...` line for a Position, a Game (with its moves, for T1/T2) or an LFEN."""
    if isinstance(position, Game):
        moves = position.moves()
        line = "position fen " + position.start().lfen()
        return line + (" moves " + " ".join(moves) if moves else "")
    if isinstance(position, Position):
        return "position fen " + position.lfen()
    if isinstance(position, str):
        return "position fen " + Position(position).lfen()  # ValueError when not an LFEN
    raise TypeError(f"position must be a lasca.Position, lasca.Game or LFEN string, "
                    f"got {type(position).__name__}")


def _go_command(nodes, depth, movetime):
    """The `go ...` line for the limits given; at least one is required."""
    parts = []
    if nodes is not None:
        parts.append(f"nodes {_checked_int('nodes', nodes, _NODES_RANGE)}")
    if depth is not None:
        parts.append(f"depth {_checked_int('depth', depth, _DEPTH_RANGE)}")
    if movetime is not None:
        parts.append(f"movetime {_checked_int('movetime', movetime, _MOVETIME_RANGE)}")
    if not parts:
        raise ValueError("give a limit: nodes=, depth= or movetime=")
    return "go " + " ".join(parts)


def _parse_info(line):
    """An `info depth ...` line as a dict: "multipv" (1 when the line has none), the fields the
    line gave, in its order ("depth", "seldepth", "multipv", "score" as {"cp": n} or
    {"mate": n}, "nodes", "nps", "time", "hashfull"), then "pv" (move texts). None for other
    lines, for a line that does not start with depth, and for aspiration bounds
    (lowerbound/upperbound are not final)."""
    reply = parse_info(line)
    if reply is None or reply.bounded or not reply.fields or reply.fields[0] != "depth":
        return None
    info = {"multipv": 1}
    for field in reply.fields:
        if field == "score":
            info["score"] = {"mate" if reply.mate else "cp": reply.score}
        else:
            info[field] = getattr(reply, field)
    info["pv"] = list(reply.pv)
    return info


def _engine_error(line):
    """The EngineError of an `info string error...` line, or None for any other line."""
    text = parse_info_string(line)
    if text is None or not text.startswith("error"):
        return None
    return EngineError(text)


class _Search:
    """One running search: iterating gives each final `info depth ...` line as a dict (see
    _parse_info) as the engine writes it, until `bestmove`. The whole search has a deadline
    (timeout seconds): past it the engine is sent `stop`, and killed (EngineError) if even then
    no `bestmove` comes within _STOP_GRACE seconds.
        lines     the last info dict of each multipv rank
        bestmove  the bestmove text once read, else None"""

    def __init__(self, engine, timeout):
        self._engine = engine
        self._timeout = timeout
        self._deadline = time.monotonic() + timeout
        self._stopping = False
        self.lines = {}
        self.bestmove = None

    def __iter__(self):
        return self

    def __next__(self):
        while self.bestmove is None:
            line = self._read()
            error = _engine_error(line)
            if error is not None:
                raise error
            best = parse_best_move(line)
            if best is not None:
                self.bestmove = best.move or "0000"
                break
            info = _parse_info(line)
            if info is not None:
                self.lines[info["multipv"]] = info  # a later line of a rank replaces the earlier
                return info
        raise StopIteration

    def _read(self):
        try:
            return self._engine._next_line(self._deadline)
        except TimeoutError:
            if not self._stopping:  # overran its timeout: stop it
                self.stop()
                return self._read()
            self._engine._kill()  # it will not stop
            raise EngineError(f"engine did not finish its search within {self._timeout:g} s") \
                from None

    def stop(self):
        """Sends `stop` (once); the engine then owes its bestmove within _STOP_GRACE s."""
        if self.bestmove is None and not self._stopping:
            self._stopping = True
            self._engine._send("stop")
            self._deadline = min(self._deadline, time.monotonic() + _STOP_GRACE)

    def finish(self):
        """Reads to the end of the search; returns the bestmove text."""
        for _ in self:
            pass
        return self.bestmove


def _read_lines(stdout, lines):
    """The engine's output lines into the queue `lines`, then None at its end."""
    try:
        for line in stdout:
            lines.put(line.rstrip("\r\n"))
    except (OSError, ValueError):
        pass
    lines.put(None)  # end of output


def _end_process(process):
    """Kills the program of an engine that was dropped without quit() (weakref.finalize)."""
    if process.poll() is None:
        process.kill()
        process.wait()
    for pipe in (process.stdin, process.stdout):
        try:
            pipe.close()
        except OSError:
            pass


class Engine:
    """The engine program at `path` on pipes; use it as a context manager.

    options: {name: value} sent as setoption at start (e.g. {"Hash": 16, "Threads": 1}).
    timeout: seconds allowed for the handshake and for each answer the engine owes.
    """

    def __init__(self, path, options=None, timeout=10.0, args=()):
        self.timeout = _checked_seconds("timeout", timeout)
        self.name = None
        self.options = {}
        self._multipv = 1
        self._search_running = None  # the last search begun, until its bestmove is read
        self._lines = queue.Queue()
        try:
            self._process = subprocess.Popen([str(path), *map(str, args)], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                             text=True, bufsize=1)
        except OSError as error:
            raise EngineError(f"cannot start engine {path!r}: {error}") from error
        # Neither the reader thread nor the finalizer holds the engine: an engine dropped without
        # quit() ends its program when it is collected, as python-chess's transports do.
        self._reader = threading.Thread(target=_read_lines, args=(self._process.stdout, self._lines),
                                        daemon=True)
        self._reader.start()
        self._finalizer = weakref.finalize(self, _end_process, self._process)
        try:
            self._handshake(options or {})
        except BaseException:
            self._kill()
            raise

    # ---- context manager and shutdown ---------------------------------------------------
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.quit()
        return False

    def quit(self):
        """Sends quit and waits for the program to end (killed after the timeout)."""
        if self._process.poll() is None:
            try:
                self._send("quit")
                self._process.wait(timeout=self.timeout)
            except (EngineError, subprocess.TimeoutExpired):
                self._kill()
        self._close_pipes()

    def _kill(self):
        if self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._close_pipes()

    def _close_pipes(self):
        for pipe in (self._process.stdin, self._process.stdout):
            try:
                pipe.close()
            except OSError:
                pass

    # ---- lines ---------------------------------------------------------------------------
    def _send(self, line):
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except (OSError, ValueError) as error:
            raise EngineError(f"engine closed its input: {error}") from error

    def _next_line(self, deadline):
        """The next line, None at end of output, or TimeoutError past the deadline."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        try:
            line = self._lines.get(timeout=remaining)
        except queue.Empty:
            raise TimeoutError from None
        if line is None:
            self._lines.put(None)  # stay at the end for later reads
            raise EngineError(f"engine ended (exit code {self._process.poll()})")
        return line

    def _wait_for(self, wanted, timeout, on_line=None):
        """Reads until a line starting with `wanted`; returns it. Error lines raise."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._next_line(deadline)
            except TimeoutError:
                raise EngineError(f"no '{wanted}' from the engine within {timeout:g} s") from None
            error = _engine_error(line)
            if error is not None:
                raise error
            if line == wanted or line.startswith(wanted + " "):
                return line
            if on_line is not None:
                on_line(line)

    def _handshake(self, options):
        def take(line):
            identity = parse_id(line)
            if identity is not None and identity.field == "name":
                self.name = identity.value
            option = parse_option(line)
            if option is not None:
                self.options[option.name] = line
        self._send("uci")
        self._wait_for("uciok", self.timeout, take)
        for name, value in options.items():
            self.configure(name, value)
        self._sync()

    def _sync(self):
        self._send("isready")
        self._wait_for("readyok", self.timeout)

    # ---- commands --------------------------------------------------------------------------
    def _end_search(self):
        """A new command ends the search before it, as python-chess does: an analysis left
        unfinished is stopped and its lines read to its bestmove, never taken for the new
        command's."""
        search, self._search_running = self._search_running, None
        if search is not None and search.bestmove is None:
            search.stop()
            search.finish()

    def configure(self, name, value):
        """setoption name <name> value <value>; EngineError when the engine refuses it."""
        self._end_search()
        if not isinstance(name, str) or not name or "\n" in name or "\r" in name:
            raise ValueError(f"bad option name {name!r}")
        text = str(value).lower() if isinstance(value, bool) else str(value)
        if "\n" in text or "\r" in text:
            raise ValueError(f"bad option value {value!r}")
        self._send(f"setoption name {name} value {text}")
        self._sync()  # an error line arrives before readyok
        if name.lower() == "multipv" and text.isdigit():
            self._multipv = int(text)

    def new_game(self):
        """ucinewgame: clears the hash, so that the same search gives the same result."""
        self._end_search()
        self._send("ucinewgame")
        self._sync()

    def _begin(self, position, nodes, depth, movetime, multipv, timeout):
        """Sends one search; returns the _Search that reads its lines."""
        self._end_search()
        command = _position_command(position)
        go = _go_command(nodes, depth, movetime)
        multipv = _checked_int("multipv", multipv, _MULTIPV_RANGE)
        if timeout is None:
            timeout = self.timeout + (movetime or 0) / 1000.0
        else:
            timeout = _checked_seconds("timeout", timeout)
        if multipv != self._multipv:
            Engine.configure(self, "MultiPV", multipv)
        self._send(command)
        self._sync()
        self._send(go)
        self._search_running = _Search(self, timeout)
        return self._search_running

    def _search(self, position, nodes, depth, movetime, multipv, timeout):
        """Runs one search; returns (final info per multipv rank, bestmove text)."""
        search = self._begin(position, nodes, depth, movetime, multipv, timeout)
        best = search.finish()
        return [search.lines[k] for k in sorted(search.lines)], best

    def analyse(self, position, nodes=None, depth=None, movetime=None, multipv=1, timeout=None):
        """One dict per principal variation, best first:
        {"score": {"cp": n} or {"mate": n}, "depth": n, "pv": [move texts], "multipv": k,
         "nodes": n, ...}. An empty list when the side to move has no legal move (R9).
        Limits: nodes (1..2^50), depth (1..100), movetime (ms); multipv 1..64; timeout: seconds
        (a positive number) before the search is stopped, by default the engine's timeout plus
        movetime."""
        lines, _ = self._search(position, nodes, depth, movetime, multipv, timeout)
        return lines

    def play(self, position, nodes=None, depth=None, movetime=None, timeout=None):
        """The engine's move (text), or None when the side to move has no legal move."""
        _, best = self._search(position, nodes, depth, movetime, 1, timeout)
        return None if best == "0000" else best


# ---- python-chess's shape: SimpleEngine, Limit, scores ------------------------------------
WHITE = "white"
BLACK = "black"
_COLOURS = (WHITE, BLACK)
_UNSET = object()


class Limit:
    """When a search stops: after `nodes` nodes, at `depth` plies, or after `time` seconds
    (sent as movetime in ms); at least one is required, several stop at the first reached."""

    def __init__(self, *, time=None, depth=None, nodes=None):
        if time is not None:
            _checked_seconds("time", time)
        for name, value, bounds in (("depth", depth, _DEPTH_RANGE), ("nodes", nodes, _NODES_RANGE)):
            if value is not None:
                _checked_int(name, value, bounds)
        if time is None and depth is None and nodes is None:
            raise ValueError("give a limit: Limit(nodes=...), Limit(depth=...) or Limit(time=...)")
        self.time = time
        self.depth = depth
        self.nodes = nodes

    def _go(self):
        """(nodes, depth, movetime in ms) for Engine._begin."""
        movetime = None if self.time is None else max(1, round(self.time * 1000))
        return self.nodes, self.depth, movetime

    def __eq__(self, other):
        return isinstance(other, Limit) and \
            (self.time, self.depth, self.nodes) == (other.time, other.depth, other.nodes)

    def __repr__(self):
        given = [f"{k}={v!r}" for k, v in (("time", self.time), ("depth", self.depth),
                                           ("nodes", self.nodes)) if v is not None]
        return f"Limit({', '.join(given)})"


@functools.total_ordering
class Score:
    """A score from one side's point of view: Cp(n) centi-soldiers or Mate(n) (a forced win in
    n moves, n > 0, or a forced loss, n < 0). Ordered from worst to best for that side."""

    def is_mate(self):
        return isinstance(self, Mate)

    def _key(self):
        if isinstance(self, Cp):
            return (1, self.cp)
        return (2, -self.moves) if self.moves > 0 else (0, -self.moves)

    def __lt__(self, other):
        if not isinstance(other, Score):
            return NotImplemented
        return self._key() < other._key()

    def __eq__(self, other):
        return isinstance(other, Score) and type(self) is type(other) and \
            self._key() == other._key()

    def __hash__(self):
        return hash(self._key())


class Cp(Score):
    """A score in centi-soldiers (a soldier is about 100)."""

    def __init__(self, cp):
        self.cp = int(cp)

    def score(self, *, mate_score=None):
        return self.cp

    def mate(self):
        return None

    def __neg__(self):
        return Cp(-self.cp)

    def __repr__(self):
        return f"Cp({self.cp:+d})"

    def __str__(self):
        return f"{self.cp:+d}"


class Mate(Score):
    """A forced win in `moves` moves (positive) or loss (negative)."""

    def __init__(self, moves):
        self.moves = int(moves)

    def score(self, *, mate_score=None):
        """None, or with mate_score: mate_score - moves for a win, -mate_score - moves for a
        loss (a nearer win scores higher)."""
        if mate_score is None:
            return None
        return mate_score - self.moves if self.moves > 0 else -mate_score - self.moves

    def mate(self):
        return self.moves

    def __neg__(self):
        return Mate(-self.moves)

    def __repr__(self):
        return f"Mate({self.moves:+d})"

    def __str__(self):
        return f"#{self.moves:+d}"


class PovScore:
    """The engine's score `relative` to the side to move `turn` ("white" or "black");
    pov(colour), white() and black() give it from either side."""

    def __init__(self, relative, turn):
        if turn not in _COLOURS:
            raise ValueError(f"turn must be 'white' or 'black', got {turn!r}")
        self.relative = relative
        self.turn = turn

    def pov(self, colour):
        if colour not in _COLOURS:
            raise ValueError(f"colour must be 'white' or 'black', got {colour!r}")
        return self.relative if colour == self.turn else -self.relative

    def white(self):
        return self.pov(WHITE)

    def black(self):
        return self.pov(BLACK)

    def is_mate(self):
        return self.relative.is_mate()

    def __eq__(self, other):
        return isinstance(other, PovScore) and self.white() == other.white()

    def __hash__(self):
        return hash(self.white())

    def __repr__(self):
        return f"PovScore({self.relative!r}, {self.turn!r})"

    def __str__(self):
        return str(self.relative)


class PlayResult:
    """The engine's move (a Move, or None when the side to move has none: R9) and the info of
    its search's last principal-variation line."""

    def __init__(self, move, info):
        self.move = move
        self.info = info

    def __repr__(self):
        return f"PlayResult(move={self.move!r}, info={self.info!r})"


def _current(position):
    """A copy of the position a search starts from (Position, Game or LFEN)."""
    if isinstance(position, Game):
        return position.position()
    if isinstance(position, Position):
        return position.copy()
    return Position(position)  # an LFEN; _position_command already checked the type


def _python_info(raw, start):
    """An info dict as _parse_info reads it, in python-chess's terms: "score" a PovScore,
    "pv" a list of Move (as far as each is legal), "time" in seconds; other keys as read."""
    info = dict(raw)
    score = raw["score"]
    relative = Cp(score["cp"]) if "cp" in score else Mate(score["mate"])
    info["score"] = PovScore(relative, start.side_to_move())
    pv = []
    walk = start.copy()
    for text in raw.get("pv", []):
        try:
            move = walk.parse_move(text)
        except ValueError:
            break
        walk.push(move)
        pv.append(move)
    info["pv"] = pv
    if "time" in info:
        info["time"] = info["time"] / 1000.0
    return info


class AnalysisResult:
    """A search in progress (SimpleEngine.analysis): iterating gives each info dict as the
    engine writes it, until the search ends; `info` is the latest of the first line, `multipv`
    the latest of each line. Leaving the with-block stops the search and reads it to its end
    (within the search's deadline)."""

    def __init__(self, search, start):
        self._search = search
        self._start = start
        self._infos = {}

    def __iter__(self):
        return self

    def __next__(self):
        raw = next(self._search)
        info = _python_info(raw, self._start)
        self._infos[info["multipv"]] = info
        return info

    @property
    def info(self):
        return self._infos.get(1, {})

    @property
    def multipv(self):
        return [self._infos[k] for k in sorted(self._infos)]

    def stop(self):
        """Asks the engine to stop; iteration then ends with its bestmove."""
        self._search.stop()

    def wait(self):
        """Reads the search to its end; returns its PlayResult."""
        for _ in self:
            pass
        best = self._search.bestmove
        move = None if best == "0000" else self._start.parse_move(best)
        return PlayResult(move, self.info)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self._search.bestmove is None:
            self.stop()
            self._search.finish()
        return False


class SimpleEngine(Engine):
    """The engine in the shape of python-chess's chess.engine.SimpleEngine:

        with lasca.SimpleEngine.popen_uci("build/lasca") as engine:
            info = engine.analyse(position, lasca.Limit(nodes=20000))
            result = engine.play(position, lasca.Limit(depth=6))

    Engine's methods with limits as keywords stay available through Engine; here play,
    analyse and analysis take a Limit, and configure a dict as well as (name, value)."""

    @classmethod
    def popen_uci(cls, command, *, timeout=10.0, options=None, args=()):
        """Starts the engine program `command` and completes the UCI handshake."""
        return cls(command, options=options, timeout=timeout, args=args)

    popen = popen_uci

    def configure(self, options, value=_UNSET):
        """configure({"Hash": 16, "Threads": 1}), or configure(name, value) as Engine."""
        if isinstance(options, dict):
            if value is not _UNSET:
                raise TypeError("configure takes a dict, or a name and a value")
            for name, each in options.items():
                Engine.configure(self, name, each)
            return
        if value is _UNSET:
            raise TypeError("configure takes a dict, or a name and a value")
        Engine.configure(self, options, value)

    def _start_search(self, position, limit, multipv, timeout):
        if not isinstance(limit, Limit):
            raise TypeError(f"limit must be a lasca.Limit, got {type(limit).__name__}")
        nodes, depth, movetime = limit._go()
        search = self._begin(position, nodes, depth, movetime, multipv, timeout)
        return search, _current(position)

    def play(self, position, limit, *, timeout=None):
        """The engine's move as a PlayResult (move None when there is none: R9)."""
        search, start = self._start_search(position, limit, 1, timeout)
        return AnalysisResult(search, start).wait()

    def analyse(self, position, limit, *, multipv=None, timeout=None):
        """The info dict of the search's final line: "score" (a PovScore), "pv" (Moves),
        "depth", "seldepth", "nodes", "nps", "time" (s), "multipv", "hashfull". With multipv=k
        a list of k such dicts, best first. {} (or []) when the side to move has no move."""
        search, start = self._start_search(position, limit, 1 if multipv is None else multipv, timeout)
        analysis = AnalysisResult(search, start)
        analysis.wait()
        return analysis.multipv if multipv is not None else analysis.info

    def analysis(self, position, limit, *, multipv=None, timeout=None):
        """The search as an AnalysisResult to iterate while it runs (a context manager)."""
        search, start = self._start_search(position, limit, 1 if multipv is None else multipv, timeout)
        return AnalysisResult(search, start)
