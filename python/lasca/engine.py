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
import collections
import enum
import functools
import queue
import subprocess
import threading
import time
import weakref

from ._lasca import (Game, Move, Position, parse_best_move, parse_id, parse_info, parse_info_string,
                     parse_option)

__all__ = ["Engine", "EngineError", "EngineTerminatedError", "AnalysisComplete", "SimpleEngine",
           "Limit", "PlayResult", "AnalysisResult", "PovScore", "Score", "Cp", "Mate", "WHITE",
           "BLACK", "Info", "INFO_NONE", "INFO_BASIC", "INFO_SCORE", "INFO_PV", "INFO_REFUTATION",
           "INFO_CURRLINE", "INFO_ALL"]

# Limits of `go` as protocol.md states them; checked here so that bad input is a ValueError.
_DEPTH_RANGE = (1, 100)
_NODES_RANGE = (1, 2 ** 50)
_MOVETIME_RANGE = (1, 1_000_000_000)
_MULTIPV_RANGE = (1, 64)
_MATE_RANGE = (1, 64)
# Seconds the engine gets to stop and answer after a search's own timeout ran out.
_STOP_GRACE = 5.0


class EngineError(RuntimeError):
    """The engine died, timed out or wrote an error line."""


class EngineTerminatedError(EngineError):
    """The engine's program ended (or was closed) while it owed an answer, or a command was
    given after quit() or close()."""


class AnalysisComplete(Exception):
    """AnalysisResult.get() after the search's last info was taken."""


_START_ERRORS = {}


def _start_error(path, error):
    """The OSError of a program that does not start (FileNotFoundError, PermissionError...), as
    python-chess raises it, in a class that is also an EngineError (what this module raised
    before)."""
    kind = type(error)
    if kind not in _START_ERRORS:
        _START_ERRORS[kind] = type(kind.__name__, (EngineError, kind), {"__module__": __name__})
    raised = _START_ERRORS[kind](f"cannot start engine {path!r}: {error}")
    raised.errno, raised.strerror, raised.filename = error.errno, error.strerror, path
    return raised


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


def _go_command(nodes, depth, movetime, mate=None, searchmoves=None, infinite=False,
               need_limit=True):
    """The `go ...` line for the limits given; at least one is required unless need_limit is
    False (a plain `go`, which searches until `stop`). searchmoves: the root moves' texts."""
    parts = []
    if nodes is not None:
        parts.append(f"nodes {_checked_int('nodes', nodes, _NODES_RANGE)}")
    if depth is not None:
        parts.append(f"depth {_checked_int('depth', depth, _DEPTH_RANGE)}")
    if movetime is not None:
        parts.append(f"movetime {_checked_int('movetime', movetime, _MOVETIME_RANGE)}")
    if mate is not None:
        parts.append(f"mate {_checked_int('mate', mate, _MATE_RANGE)}")
    if not parts and need_limit:
        raise ValueError("give a limit: nodes=, depth= or movetime=")
    if infinite:
        parts.append("infinite")
    if searchmoves:
        parts.append("searchmoves " + " ".join(searchmoves))
    return " ".join(["go", *parts])


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
        self._timeout = timeout  # None: no deadline (go infinite, until stop())
        self._deadline = None if timeout is None else time.monotonic() + timeout
        self._stopping = False
        self.lines = {}
        self.bestmove = None
        self.ponder = None

    def __iter__(self):
        return self

    def _take(self, line):
        """Reads one line of the search: the info dict of a final `info depth` line, else None
        (a bestmove line ends the search)."""
        error = _engine_error(line)
        if error is not None:
            raise error
        best = parse_best_move(line)
        if best is not None:
            self.bestmove = best.move or "0000"
            self.ponder = best.ponder or None
            return None
        info = _parse_info(line)
        if info is not None:
            self.lines[info["multipv"]] = info  # a later line of a rank replaces the earlier
        return info

    def __next__(self):
        while self.bestmove is None:
            info = self._take(self._read())
            if info is not None:
                return info
        raise StopIteration

    def poll(self):
        """The info dicts of the lines the engine has already written, without waiting."""
        infos = []
        while self.bestmove is None:
            line = self._engine._line_now()
            if line is None:
                break
            info = self._take(line)
            if info is not None:
                infos.append(info)
        return infos

    def _read(self):
        try:
            return self._engine._next_line(self._deadline)
        except TimeoutError:
            if not self._stopping:  # overran its timeout: stop it
                self.stop()
                return self._read()
            self._engine._kill()  # it will not stop
            raise EngineError("engine did not finish its search within "
                              f"{self._timeout or 0:g} s and {_STOP_GRACE:g} s after stop") \
                from None

    def stop(self):
        """Sends `stop` (once); the engine then owes its bestmove within _STOP_GRACE s."""
        if self.bestmove is None and not self._stopping:
            self._stopping = True
            self._engine._send("stop")
            now = time.monotonic()
            if self._deadline is None or self._deadline <= now:  # stopped by its timeout
                self._deadline = now + _STOP_GRACE
            else:
                self._deadline = min(self._deadline, now + _STOP_GRACE)

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

    path: the program, or a list: the program and its arguments (as python-chess's popen_uci).
    options: {name: value} sent as setoption at start (e.g. {"Hash": 16, "Threads": 1}).
    timeout: seconds allowed for the handshake and for each answer the engine owes.
    A program that does not start raises its OSError (FileNotFoundError, PermissionError), in a
    class that is also an EngineError.
    """

    def __init__(self, path, options=None, timeout=10.0, args=()):
        self.timeout = _checked_seconds("timeout", timeout)
        if isinstance(path, (list, tuple)):
            if not path:
                raise ValueError("the engine's command is an empty list")
            path, args = path[0], [*path[1:], *args]
        if not isinstance(path, (str, bytes)) and not hasattr(path, "__fspath__"):
            raise TypeError(f"the engine's command is a path or a list, got {type(path).__name__}")
        self.name = None
        self.id = {}
        self.options = {}
        self._multipv = 1
        self._closed = False
        self._search_running = None  # the last search begun, until its bestmove is read
        self._lines = queue.Queue()
        try:
            self._process = subprocess.Popen([str(path), *map(str, args)], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                             text=True, bufsize=1)
        except OSError as error:
            raise _start_error(path, error) from error
        except ValueError as error:  # a NUL in the path or an argument
            raise ValueError(f"cannot start engine {path!r}: {error}") from error
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
        """Sends quit and waits for the program to end (killed after the timeout). Every later
        command raises EngineTerminatedError."""
        self._closed = True
        if self._process.poll() is None:
            try:
                self._send("quit")
                self._process.wait(timeout=self.timeout)
            except (EngineError, subprocess.TimeoutExpired):
                self._kill()
        self._close_pipes()

    def close(self):
        """python-chess's name: ends the engine (quit, killed after the timeout)."""
        self.quit()

    def _check_open(self):
        if self._closed:
            raise EngineTerminatedError("the engine was closed (quit() or close())")

    def _kill(self):
        self._closed = True
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
            raise EngineTerminatedError(f"engine closed its input: {error}") from error

    def _ended(self):
        """The EngineTerminatedError of an engine whose output ended."""
        self._lines.put(None)  # stay at the end for later reads
        try:
            code = self._process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        return EngineTerminatedError(f"engine ended (exit code {code})")

    def _next_line(self, deadline):
        """The next line, or TimeoutError past the deadline (None: no deadline);
        EngineTerminatedError at the end of the output."""
        if deadline is None:
            line = self._lines.get()
        else:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            try:
                line = self._lines.get(timeout=remaining)
            except queue.Empty:
                raise TimeoutError from None
        if line is None:
            raise self._ended()
        return line

    def _line_now(self):
        """The next line if the engine has written it, else None (never waits)."""
        try:
            line = self._lines.get_nowait()
        except queue.Empty:
            return None
        if line is None:
            raise self._ended()
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
            if identity is not None:
                self.id[identity.field] = identity.value
                if identity.field == "name":
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

    def ping(self):
        """isready, and waits for readyok (EngineError when it does not come within the
        timeout); a running analysis is stopped first, as by any command."""
        self._check_open()
        self._end_search()
        self._sync()

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
        self._check_open()
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
        self._check_open()
        self._end_search()
        self._send("ucinewgame")
        self._sync()

    def _begin(self, position, nodes, depth, movetime, multipv, timeout, mate=None,
               searchmoves=None, infinite=False, need_limit=True):
        """Sends one search; returns the _Search that reads its lines. An infinite search
        without a timeout has no deadline: it runs until stop()."""
        self._check_open()
        self._end_search()
        command = _position_command(position)
        go = _go_command(nodes, depth, movetime, mate, searchmoves, infinite, need_limit)
        multipv = _checked_int("multipv", multipv, _MULTIPV_RANGE)
        if timeout is not None:
            timeout = _checked_seconds("timeout", timeout)
        elif not infinite:
            timeout = self.timeout + (movetime or 0) / 1000.0
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
WHITE = True  # python-chess's colours: lasca.WHITE, lasca.BLACK, Position.turn
BLACK = False
_UNSET = object()


def _colour(value, name="colour"):
    """A colour as python-chess's bool; the older texts "white" and "black" are still taken."""
    if isinstance(value, bool):
        return value
    if value in ("white", "black"):
        return value == "white"
    raise ValueError(f"{name} must be lasca.WHITE (True) or lasca.BLACK (False), got {value!r}")


class Info(enum.IntFlag):
    """Which fields of the engine's info lines to return (python-chess's INFO_* flags): BASIC
    (depth, seldepth, multipv, nodes, nps, time, hashfull: given whenever any flag is), SCORE,
    PV. The engine writes no refutation nor currline lines: those flags add nothing."""
    NONE = 0
    BASIC = 1
    SCORE = 2
    PV = 4
    REFUTATION = 8
    CURRLINE = 16
    ALL = BASIC | SCORE | PV | REFUTATION | CURRLINE


INFO_NONE = Info.NONE
INFO_BASIC = Info.BASIC
INFO_SCORE = Info.SCORE
INFO_PV = Info.PV
INFO_REFUTATION = Info.REFUTATION
INFO_CURRLINE = Info.CURRLINE
INFO_ALL = Info.ALL


def _checked_info(info):
    if isinstance(info, bool) or not isinstance(info, int) or not 0 <= info <= int(INFO_ALL):
        raise ValueError(f"info must be a combination of lasca.INFO_* flags, got {info!r}")
    return Info(info)


class Limit:
    """When a search stops: after `nodes` nodes, at `depth` plies, after `time` seconds (sent
    as movetime in ms), or once a win in at most `mate` moves is proven; several stop at the
    first reached. Limit() has none: play and analyse then search until their timeout (then
    `stop`), analysis until stop()."""

    def __init__(self, *, time=None, depth=None, nodes=None, mate=None):
        if time is not None:
            _checked_seconds("time", time)
        for name, value, bounds in (("depth", depth, _DEPTH_RANGE), ("nodes", nodes, _NODES_RANGE),
                                    ("mate", mate, _MATE_RANGE)):
            if value is not None:
                _checked_int(name, value, bounds)
        self.time = time
        self.depth = depth
        self.nodes = nodes
        self.mate = mate

    def _go(self):
        """(nodes, depth, movetime in ms, mate) for Engine._begin."""
        movetime = None if self.time is None else max(1, round(self.time * 1000))
        return self.nodes, self.depth, movetime, self.mate

    def _fields(self):
        return (("time", self.time), ("depth", self.depth), ("nodes", self.nodes),
                ("mate", self.mate))

    def __eq__(self, other):
        return isinstance(other, Limit) and self._fields() == other._fields()

    __hash__ = None

    def __repr__(self):
        given = [f"{k}={v!r}" for k, v in self._fields() if v is not None]
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
    """The engine's score `relative` to the side to move `turn` (lasca.WHITE True,
    lasca.BLACK False; the texts "white" and "black" are taken too); pov(colour), white() and
    black() give it from either side."""

    def __init__(self, relative, turn):
        if not isinstance(relative, Score):
            raise TypeError(f"relative must be a lasca.Score (Cp or Mate), got "
                            f"{type(relative).__name__}")
        self.relative = relative
        self.turn = _colour(turn, "turn")

    def pov(self, colour):
        return self.relative if _colour(colour) == self.turn else -self.relative

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
        return f"PovScore({self.relative!r}, {'WHITE' if self.turn else 'BLACK'})"

    def __str__(self):
        return str(self.relative)


class PlayResult:
    """The engine's move (a Move, or None when the side to move has none: R9), the move it
    expects in reply (`ponder`, a Move or None) and the info its search gave (as many fields as
    the `info` flags asked for; {} by default for play). draw_offered and resigned are always
    False: the protocol has neither."""

    def __init__(self, move, ponder, info=None, *, draw_offered=False, resigned=False):
        self.move = move
        self.ponder = ponder
        self.info = info or {}
        self.draw_offered = draw_offered
        self.resigned = resigned

    def __repr__(self):
        return f"PlayResult(move={self.move!r}, ponder={self.ponder!r}, info={self.info!r})"


def _current(position):
    """A copy of the position a search starts from (Position, Game or LFEN)."""
    if isinstance(position, Game):
        return position.position()
    if isinstance(position, Position):
        return position.copy(stack=False)
    return Position(position)  # an LFEN; _position_command already checked the type


def _python_info(raw, start, selector=INFO_ALL):
    """An info dict as _parse_info reads it, in python-chess's terms, with the fields the
    selector asks for: {} for INFO_NONE; else the basic fields ("time" in seconds), "score" (a
    PovScore) with INFO_SCORE, "pv" (a list of Move, as far as each is legal) with INFO_PV."""
    if not selector:
        return {}
    info = {k: v for k, v in raw.items() if k not in ("score", "pv")}
    if "time" in info:
        info["time"] = info["time"] / 1000.0
    if selector & INFO_SCORE and "score" in raw:
        score = raw["score"]
        relative = Cp(score["cp"]) if "cp" in score else Mate(score["mate"])
        info["score"] = PovScore(relative, start.turn)
    if selector & INFO_PV:
        pv = []
        walk = start.copy(stack=False)
        for text in raw.get("pv", []):
            try:
                move = walk.parse_move(text)
            except ValueError:
                break
            walk.push(move)
            pv.append(move)
        info["pv"] = pv
    return info


def _root_moves(root_moves, start):
    """The texts of root_moves (Moves or texts), each legal at start; None for None."""
    if root_moves is None:
        return None
    if isinstance(root_moves, (str, Move)):
        raise TypeError("root_moves is a list of moves, not one move")
    texts = []
    for move in root_moves:
        if isinstance(move, str):
            move = start.parse_move(move)  # ValueError when not legal
        elif not isinstance(move, Move):
            raise TypeError(f"a root move is a lasca.Move or its text, got {type(move).__name__}")
        elif not start.is_legal(move):
            raise ValueError(f"root move {move} is not legal in {start.lfen()}")
        texts.append(str(move))
    if not texts:
        raise ValueError("root_moves is empty: give at least one legal move")
    return texts


class AnalysisResult:
    """A search in progress (SimpleEngine.analysis): iterating, get() or next() give each info
    dict as the engine writes it, until the search ends; `info` is the latest of the first line,
    `multipv` the latest of each line. Leaving the with-block stops the search and reads it to
    its end (within the search's deadline)."""

    def __init__(self, search, start, selector=INFO_ALL):
        self._search = search
        self._start = start
        self._selector = selector
        self._infos = {}
        self._pending = collections.deque()

    def _post(self, raw):
        info = _python_info(raw, self._start, self._selector)
        if info:  # nothing asked for (INFO_NONE): nothing to give
            self._infos[raw["multipv"]] = info
            self._pending.append(info)

    def get(self):
        """The next info dict, waiting for the engine to write it; AnalysisComplete once the
        search has ended and every info was taken."""
        while not self._pending:
            try:
                raw = next(self._search)
            except StopIteration:
                raise AnalysisComplete() from None
            self._post(raw)
        return self._pending.popleft()

    def next(self):
        """The next info dict, or None once the search has ended and every info was taken."""
        try:
            return self.get()
        except AnalysisComplete:
            return None

    def empty(self):
        """Whether every info the engine has written so far was taken (never waits): when
        False, get() returns at once."""
        for raw in self._search.poll():
            self._post(raw)
        return not self._pending

    def would_block(self):
        """Whether get() would have to wait for the engine."""
        return self.empty() and self._search.bestmove is None

    def __iter__(self):
        return self

    def __next__(self):
        try:
            return self.get()
        except AnalysisComplete:
            raise StopIteration from None

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
        """Reads the search to its end; returns its PlayResult (move, ponder, info)."""
        for _ in self:
            pass
        best = self._search.bestmove
        move = ponder = None
        if best != "0000":
            move = self._start.parse_move(best)
            if self._search.ponder:
                after = self._start.copy(stack=False)
                after.push(move)
                try:
                    ponder = after.parse_move(self._search.ponder)
                except ValueError:
                    ponder = None  # not a legal reply: python-chess drops it too
        return PlayResult(move, ponder, self.info)

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
        """Starts the engine program `command` (a path, or a list: the path and its arguments)
        and completes the UCI handshake. FileNotFoundError when there is no such program."""
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

    def _start_search(self, position, limit, multipv, timeout, info, root_moves,
                      analysis=False):
        """(the _Search begun, its start position, the info selector). Without a limit an
        analysis is `go infinite` (no deadline unless timeout), a play or analyse a plain `go`
        stopped at its timeout."""
        if limit is None and analysis:
            limit = Limit()
        if not isinstance(limit, Limit):
            raise TypeError(f"limit must be a lasca.Limit, got {type(limit).__name__}")
        selector = _checked_info(info)
        nodes, depth, movetime, mate = limit._go()
        unlimited = (nodes, depth, movetime, mate) == (None, None, None, None)
        _position_command(position)  # TypeError, ValueError before anything is sent
        start = _current(position)
        searchmoves = _root_moves(root_moves, start)
        search = self._begin(position, nodes, depth, movetime, multipv, timeout, mate=mate,
                             searchmoves=searchmoves, infinite=analysis and unlimited,
                             need_limit=False)
        return search, start, selector

    def play(self, position, limit, *, timeout=None, info=INFO_NONE, root_moves=None):
        """The engine's move as a PlayResult: move (None when there is none: R9), ponder (its
        expected reply), info (the fields `info` asks for: none by default). root_moves: the
        moves to choose from. Limit() searches until the timeout, then stops."""
        search, start, selector = self._start_search(position, limit, 1, timeout, info, root_moves)
        return AnalysisResult(search, start, selector).wait()

    def analyse(self, position, limit, *, multipv=None, timeout=None, info=INFO_ALL,
                root_moves=None):
        """The info dict of the search's final line: "score" (a PovScore), "pv" (Moves),
        "depth", "seldepth", "nodes", "nps", "time" (s), "multipv", "hashfull" (as many as
        `info` asks for). With multipv=k a list of k such dicts, best first. {} (or []) when
        the side to move has no move. root_moves: the moves to search."""
        search, start, selector = self._start_search(
            position, limit, 1 if multipv is None else multipv, timeout, info, root_moves)
        analysis = AnalysisResult(search, start, selector)
        analysis.wait()
        return analysis.multipv if multipv is not None else analysis.info

    def analysis(self, position, limit=None, *, multipv=None, timeout=None, info=INFO_ALL,
                 root_moves=None):
        """The search as an AnalysisResult to iterate while it runs (a context manager).
        Without a limit (None or Limit()) it is `go infinite`: it runs until stop() or the end
        of the with-block (or `timeout` seconds, when given)."""
        search, start, selector = self._start_search(
            position, limit, 1 if multipv is None else multipv, timeout, info, root_moves,
            analysis=True)
        return AnalysisResult(search, start, selector)
