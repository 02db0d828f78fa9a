"""The Lasca engine as a child process over its UCI protocol (protocol.md).

    with lasca.Engine("build/lasca") as engine:
        lines = engine.analyse(lasca.Position(), depth=6, multipv=3)
        move = engine.play(lasca.Position(), nodes=20000)

Every read from the engine has a deadline: a search that overruns its timeout is stopped
(``stop``), and an engine that does not answer even then is killed and EngineError raised.
Positions are checked by the rules core before they are sent, so the engine only ever sees
legal input; an error line it still writes becomes an EngineError.
"""
import queue
import subprocess
import threading
import time

from ._lasca import Game, Position

__all__ = ["Engine", "EngineError"]

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
    """An `info depth ...` line as a dict (multipv, depth, score, nodes, pv), or None for
    other info lines and for aspiration bounds (lowerbound/upperbound are not final)."""
    tokens = line.split()
    if len(tokens) < 3 or tokens[1] != "depth" or "pv" not in tokens:
        return None
    if "lowerbound" in tokens or "upperbound" in tokens:
        return None
    info = {"multipv": 1}
    i = 1
    while i < len(tokens):
        key = tokens[i]
        if key == "pv":
            info["pv"] = tokens[i + 1:]
            break
        if key == "score" and i + 2 < len(tokens):
            info["score"] = {tokens[i + 1]: int(tokens[i + 2])}
            i += 3
            continue
        if key in ("depth", "seldepth", "multipv", "nodes", "nps", "time", "hashfull") \
                and i + 1 < len(tokens):
            info[key] = int(tokens[i + 1])
            i += 2
            continue
        i += 1
    return info if "score" in info else None


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
        self._lines = queue.Queue()
        try:
            self._process = subprocess.Popen([str(path), *map(str, args)], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                             text=True, bufsize=1)
        except OSError as error:
            raise EngineError(f"cannot start engine {path!r}: {error}") from error
        self._reader = threading.Thread(target=self._read_lines, daemon=True)
        self._reader.start()
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

    def __del__(self):
        process = getattr(self, "_process", None)
        if process is not None and process.poll() is None:
            self._kill()

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
    def _read_lines(self):
        try:
            for line in self._process.stdout:
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self._lines.put(None)  # end of output

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
            if line.startswith("info string error"):
                raise EngineError(line[len("info string "):])
            if line == wanted or line.startswith(wanted + " "):
                return line
            if on_line is not None:
                on_line(line)

    def _handshake(self, options):
        def take(line):
            if line.startswith("id name "):
                self.name = line[len("id name "):]
            elif line.startswith("option name "):
                name = line[len("option name "):].split(" type ")[0]
                self.options[name] = line
        self._send("uci")
        self._wait_for("uciok", self.timeout, take)
        for name, value in options.items():
            self.configure(name, value)
        self._sync()

    def _sync(self):
        self._send("isready")
        self._wait_for("readyok", self.timeout)

    # ---- commands --------------------------------------------------------------------------
    def configure(self, name, value):
        """setoption name <name> value <value>; EngineError when the engine refuses it."""
        if not isinstance(name, str) or not name or "\n" in name or "\r" in name:
            raise ValueError(f"bad option name {name!r}")
        text = str(value).lower() if isinstance(value, bool) else str(value)
        if "\n" in text or "\r" in text:
            raise ValueError(f"bad option value {value!r}")
        self._send(f"setoption name {name} value {text}")
        self._sync()  # an error line arrives before readyok
        if name.lower() == "multipv":
            self._multipv = int(text)

    def new_game(self):
        """ucinewgame: clears the hash, so that the same search gives the same result."""
        self._send("ucinewgame")
        self._sync()

    def _search(self, position, nodes, depth, movetime, multipv, timeout):
        """Runs one search; returns (final info per multipv rank, bestmove text)."""
        command = _position_command(position)
        go = _go_command(nodes, depth, movetime)
        multipv = _checked_int("multipv", multipv, _MULTIPV_RANGE)
        if timeout is None:
            timeout = self.timeout + (movetime or 0) / 1000.0
        else:
            timeout = _checked_seconds("timeout", timeout)
        if multipv != self._multipv:
            self.configure("MultiPV", multipv)
        self._send(command)
        self._sync()
        lines = {}

        def take(line):
            info = _parse_info(line) if line.startswith("info ") else None
            if info is not None:
                lines[info["multipv"]] = info  # a later line of a rank replaces the earlier

        self._send(go)
        try:
            best = self._wait_for("bestmove", timeout, take)
        except EngineError as error:
            if "within" not in str(error):
                raise
            self._send("stop")  # overran its timeout: stop it, and kill it if it will not stop
            try:
                best = self._wait_for("bestmove", _STOP_GRACE, take)
            except EngineError:
                self._kill()
                raise EngineError(f"engine did not finish its search within {timeout:g} s")
        return [lines[k] for k in sorted(lines)], best.split()[1]

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
