#!/usr/bin/python3
"""Load test of lasca-web's lobby: a crowded lobby where seeks are made and taken.

Starts lasca-web on a free 127.0.0.1 port (its database a temporary file) and:
  1. opens --people N lobby tabs (/ws/lobby; each reads its lobby.hello) and keeps them open,
     every one of them read all along by one selector loop (each seek event goes to every tab);
  2. makes --seeks S open casual seeks (seek.create, 3+2 minutes) from S of those tabs, one after
     another, each awaited until every tab has its lobby.seek;
  3. has S other tabs accept them (seek.accept), --parallel P at once (default 1), and measures
     for each the time from sending seek.accept to both boards shown: both tabs' lobby.start
     received, and for each seat a /ws tab opened, lasca.join sent with the seat's token and the
     table's `state` received (the page's steps on following the lobby.start link).
Every person comes from a loopback address of their own (127.1.x.y, bound as the source
address; the whole 127/8 is local on Linux), as people of a real lobby do: the lobby lets one
address hold at most 20 open offers. The seats' /ws tabs come from their person's address.

Reports: the server's RSS before the tabs, with the N tabs open and per tab; the broadcast of a
new seek (from seek.create to the last of the N tabs holding its lobby.seek) and the server's
CPU per seek made; the accept latency (median, p95, max, in ms); the server's CPU time (user +
system from /proc, its own threads) over the whole accept phase and per accepted seek (and this
client's own CPU time in each phase, as it shares the machine); the games started; that every tab got every lobby.seek, lobby.seekGone and lobby.game and none was
closed by the server. Any error message, a tab closed, a game not started or a count short
fails the run (exit code 1). Latencies are measured by this one Python thread, which also reads
all N tabs: they include its own work, which it keeps small by reading the tabs of the games
being started first.

  scripts/lobby-load.py [--people 1000] [--seeks 100] [--parallel 1]
                        [--server build/lasca-web] [--server-arg ARG]...

The WebSocket client and the /proc helpers are those of scripts/web-load.py.
"""
import argparse
import importlib.util
import json
import os
import re
import selectors
import socket
import struct
import subprocess
import sys
import tempfile
import time

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("web_load", os.path.join(_here, "web-load.py"))
web_load = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(web_load)
cpu_seconds, rss_kb, percentile = web_load.cpu_seconds, web_load.rss_kb, web_load.percentile


class _SourceBoundSocket:
    """Stands for the socket module inside web-load.py: its WebSocket's create_connection binds
    the connection to `source` (a loopback address), when set."""
    source = None

    def __getattr__(self, name):
        return getattr(socket, name)

    def create_connection(self, address, timeout=None):
        bind = (self.source, 0) if self.source else None
        return socket.create_connection(address, timeout=timeout, source_address=bind)


web_load.socket = _SourceBoundSocket()

TYPE = re.compile(rb'"type":"([A-Za-z.]+)"')


def person_address(i):
    """The loopback address of person i: 127.1.x.y, y in 1..200."""
    return f"127.1.{i // 200}.{i % 200 + 1}"


def open_tab(host, port, path, address, timeout):
    web_load.socket.source = address
    try:
        return web_load.WebSocket(host, port, path=path, timeout=timeout)
    finally:
        web_load.socket.source = None


def frames(ws):
    """The complete text messages now in ws.buffer (raw payload bytes), removed from it; raises
    ConnectionError on a close frame. Control frames are skipped; fragments joined."""
    out = []
    buf = ws.buffer
    pos = 0
    partial = getattr(ws, "partial", None)
    while True:
        if len(buf) - pos < 2:
            break
        b0, b1 = buf[pos], buf[pos + 1]
        length, head = b1 & 0x7F, 2
        if length == 126:
            if len(buf) - pos < 4:
                break
            length, head = struct.unpack(">H", buf[pos + 2:pos + 4])[0], 4
        elif length == 127:
            if len(buf) - pos < 10:
                break
            length, head = struct.unpack(">Q", buf[pos + 2:pos + 10])[0], 10
        if len(buf) - pos < head + length:
            break
        payload = buf[pos + head:pos + head + length]
        pos += head + length
        opcode, final = b0 & 0x0F, bool(b0 & 0x80)
        if opcode == 8:
            ws.buffer = buf[pos:]
            raise ConnectionError("closed by the server")
        if opcode == 1:
            partial = payload
        elif opcode == 0 and partial is not None:
            partial += payload
        else:
            continue
        if final:
            out.append(partial)
            partial = None
    ws.buffer = buf[pos:]
    ws.partial = partial
    return out


class Tab:
    """A tab: its socket, the counts of the message types it got, and, while it is `hot` (a
    tab of a game being started), its messages parsed and kept in `inbox`."""

    def __init__(self, ws, index, kind):
        self.ws, self.index, self.kind = ws, index, kind
        self.counts = {}
        self.hot = False
        self.inbox = []
        self.closed = None


class Loop:
    """One selector over every open tab. pump() reads what is ready: the hot tabs first, then at
    most `batch` of the others while some game is being started (all of them otherwise)."""

    def __init__(self):
        self.sel = selectors.DefaultSelector()
        self.tabs = []
        self.errors = []
        self.hot_count = 0

    def add(self, tab):
        self.tabs.append(tab)
        self.sel.register(tab.ws.sock, selectors.EVENT_READ, tab)
        # Whatever the handshake read past its head (a hello, a state) is handled now.
        self._handle(tab, b"")

    def set_hot(self, tab, hot):
        if tab.hot != hot:
            self.hot_count += 1 if hot else -1
        tab.hot = hot

    def _handle(self, tab, data):
        tab.ws.buffer += data
        try:
            messages = frames(tab.ws)
        except ConnectionError as e:
            self._close(tab, str(e))
            return
        for payload in messages:
            if tab.hot:
                m = json.loads(payload)
                kind = m.get("type", "")
                tab.inbox.append((time.monotonic(), m))
            else:
                found = TYPE.search(payload)
                kind = found.group(1).decode() if found else ""
                m = json.loads(payload) if kind == "error" else None
            tab.counts[kind] = tab.counts.get(kind, 0) + 1
            if kind == "error":
                self.errors.append(f"{tab.kind} tab {tab.index}: error {m.get('message')!r}")

    def _close(self, tab, why):
        if tab.closed is None:
            tab.closed = why
            self.errors.append(f"{tab.kind} tab {tab.index}: {why}")
            self.sel.unregister(tab.ws.sock)

    def pump(self, timeout, batch=64):
        events = self.sel.select(timeout)
        if self.hot_count:
            hot = [key.data for key, _ in events if key.data.hot]
            cold = [key.data for key, _ in events if not key.data.hot][:batch]
        else:
            hot, cold = [], [key.data for key, _ in events]
        for tab in hot + cold:
            if tab.closed is not None:
                continue
            try:
                data = tab.ws.sock.recv(1 << 18)
            except (BlockingIOError, socket.timeout):
                continue
            except OSError as e:
                self._close(tab, f"read failed: {e}")
                continue
            if not data:
                self._close(tab, "connection closed by the server")
                continue
            self._handle(tab, data)

    def drain(self, seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.pump(max(0.0, end - time.monotonic()))

    def close_all(self):
        for tab in self.tabs:
            try:
                tab.ws.close()
            except OSError:
                pass
        self.sel.close()


class Accept:
    """One seek being taken: its accepter's seek.accept sent at `start`, then the seats."""

    def __init__(self, seek, maker, taker, start):
        self.seek, self.maker, self.taker, self.start = seek, maker, taker, start
        self.table = None
        self.starts = {}  # lobby tab -> its lobby.start
        self.seats = {}  # lobby tab -> its seat's /ws Tab
        self.seated = set()  # lobby tabs whose seat's /ws tab got the table's state
        self.done = None
        self.started = None  # when both lobby.start were in


def lines_ms(name, values):
    v = sorted(values)
    if not v:
        return f"{name}: none"
    return (f"{name}: {len(v)}, median {1000 * percentile(v, 0.5):.1f} ms, p95 "
            f"{1000 * percentile(v, 0.95):.1f} ms, max {1000 * v[-1]:.1f} ms")


def settled_rss(pid, seconds=1.0, limit=15.0):
    """The process's RSS once it has not changed for `seconds` (at most `limit` seconds waited):
    on starting, lasca-web briefly holds tens of MB (a first password hash's memory) and gives
    them back."""
    end = time.monotonic() + limit
    last, since = rss_kb(pid), time.monotonic()
    while time.monotonic() < end:
        time.sleep(0.1)
        now = rss_kb(pid)
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= seconds:
            break
    return last


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def run(args, host, port, server_pid):
    """The measure; returns (report lines, failures)."""
    out, failures = [], []
    loop = Loop()
    timeout = args.timeout
    base_rss = settled_rss(server_pid)
    # 1. the people's lobby tabs
    t = time.monotonic()
    lobby = []
    for i in range(args.people):
        try:
            ws = open_tab(host, port, "/ws/lobby", person_address(i), timeout)
        except Exception as e:  # noqa: BLE001
            failures.append(f"lobby tab {i} could not open: {e}")
            break
        tab = Tab(ws, i, "lobby")
        loop.add(tab)
        lobby.append(tab)
        # its hello, the others' reading going on meanwhile
        while not tab.counts.get("lobby.hello") and tab.closed is None and time.monotonic() - t < timeout * 10:
            loop.pump(1.0)
        if tab.closed is not None:
            break
    opened = time.monotonic() - t
    loop.drain(1.0)
    tabs_rss = settled_rss(server_pid)
    out.append(f"lobby tabs: {len(lobby)} of {args.people} open in {opened:.1f} s; server RSS {base_rss} kB "
               f"before, {tabs_rss} kB with them"
               + (f" ({(tabs_rss - base_rss) / len(lobby):.1f} kB per tab)" if lobby else ""))
    if failures or loop.errors or len(lobby) < args.people:
        return out, failures + loop.errors
    # 2. the seeks, one after another, each until every tab holds it
    seeks = []
    spread = []
    cpu, own = cpu_seconds(server_pid), time.process_time()
    t_phase = time.monotonic()
    for k in range(args.seeks):
        maker = lobby[k]
        loop.set_hot(maker, True)
        t0 = time.monotonic()
        maker.ws.send({"type": "seek.create", "clock": {"time": 180000, "increment": 2000}})
        seek_id = None
        while time.monotonic() - t0 < timeout and not loop.errors:
            if seek_id is None:
                for _, m in maker.inbox:
                    if m["type"] == "lobby.seek" and m["seek"].get("mine"):
                        seek_id = m["seek"]["id"]
                maker.inbox.clear()
            if seek_id is not None and all(x.counts.get("lobby.seek", 0) > k for x in lobby if x.closed is None):
                break
            loop.pump(1.0, batch=len(lobby))
        loop.set_hot(maker, False)
        maker.inbox.clear()
        if seek_id is None or loop.errors or not all(x.counts.get("lobby.seek", 0) > k for x in lobby):
            failures.append(f"seek {k}: not made or not seen by every tab within {timeout} s")
            break
        spread.append(time.monotonic() - t0)
        seeks.append((seek_id, maker))
    seek_cpu = cpu_seconds(server_pid) - cpu
    seek_wall = time.monotonic() - t_phase
    out.append(f"seeks: {len(seeks)} of {args.seeks} made in {seek_wall:.2f} s; server CPU {seek_cpu:.2f} s "
               f"({1000 * seek_cpu / max(1, len(seeks)):.2f} ms a seek, its {len(lobby)} lobby.seek messages); "
               f"this client's CPU {time.process_time() - own:.2f} s")
    out.append(lines_ms("seek broadcast, seek.create to the last tab holding it", spread))
    loop.drain(0.5)
    if failures or loop.errors:
        return out, failures + loop.errors
    # 3. the accepts, --parallel at once
    pending = [(seek_id, maker, lobby[args.seeks + k]) for k, (seek_id, maker) in enumerate(seeks)]
    pending.reverse()
    flying, done = [], []
    seat_tabs = []
    rss_peak = tabs_rss
    cpu, own = cpu_seconds(server_pid), time.process_time()
    t_phase = time.monotonic()
    while (pending or flying) and not loop.errors:
        while pending and len(flying) < args.parallel:
            seek_id, maker, taker = pending.pop()
            for x in (maker, taker):
                loop.set_hot(x, True)
                x.inbox.clear()
            a = Accept(seek_id, maker, taker, time.monotonic())
            taker.ws.send({"type": "seek.accept", "seek": seek_id})
            flying.append(a)
        loop.pump(0.05)
        now = time.monotonic()
        for a in list(flying):
            for x in (a.maker, a.taker):
                for _, m in x.inbox:
                    if m["type"] == "lobby.start" and x not in a.starts:
                        a.starts[x] = m
                        a.table = m["table"]
                        if m.get("game") != "lasca" or not m.get("token"):
                            failures.append(f"seek {a.seek}: odd lobby.start {m}")
                        # the page follows the link: a /ws tab, joining the seat
                        try:
                            ws = open_tab(host, port, "/ws", person_address(x.index), timeout)
                        except Exception as e:  # noqa: BLE001
                            failures.append(f"seat tab of lobby tab {x.index} could not open: {e}")
                            continue
                        seat = Tab(ws, x.index, "seat")
                        loop.set_hot(seat, True)
                        seat_tabs.append(seat)
                        loop.add(seat)
                        ws.send({"type": "lasca.join", "table": m["table"], "token": m["token"]})
                        a.seats[x] = seat
                x.inbox.clear()
            if a.started is None and len(a.starts) == 2:
                a.started = time.monotonic()
            for x, seat in a.seats.items():
                for _, m in seat.inbox:
                    if m["type"] == "state" and m.get("table") == a.starts[x]["table"]:
                        a.seated.add(x)
                seat.inbox.clear()
            if len(a.seated) == 2:
                a.done = time.monotonic()
                if a.starts[a.maker]["table"] != a.starts[a.taker]["table"] or \
                        a.starts[a.maker]["colour"] == a.starts[a.taker]["colour"]:
                    failures.append(f"seek {a.seek}: the two lobby.start do not match")
                for x in (a.maker, a.taker):
                    loop.set_hot(x, False)
                for seat in a.seats.values():
                    loop.set_hot(seat, False)
                flying.remove(a)
                done.append(a)
                rss_peak = max(rss_peak, rss_kb(server_pid))
            elif now - a.start > timeout:
                failures.append(f"seek {a.seek}: the game did not start within {timeout} s "
                                f"(lobby.start {len(a.starts)}, seats joined {len(a.seated)})")
                flying.remove(a)
        if failures:
            break
    accept_wall = time.monotonic() - t_phase
    accept_cpu = cpu_seconds(server_pid) - cpu
    own = time.process_time() - own
    latencies = [a.done - a.start for a in done]
    out.append(f"accepts: {len(done)} games started of {len(seeks)} seeks in {accept_wall:.2f} s, "
               f"{args.parallel} at once; server CPU {accept_cpu:.2f} s "
               f"({1000 * accept_cpu / max(1, len(done)):.2f} ms an accepted seek: the accept, its "
               f"{2 * len(lobby)} broadcasts, two /ws tabs opened and joined); this client's CPU {own:.2f} s")
    out.append(lines_ms("accept to both boards shown (both lobby.start, both seats' /ws joined with "
                        "the table's state)", latencies))
    out.append(lines_ms("  of which accept to both lobby.start", [a.started - a.start for a in done]))
    # every tab must have got every event (the last broadcasts may still be on their way)
    expect = {"lobby.seek": len(seeks), "lobby.seekGone": len(done), "lobby.game": min(len(done), 100)}
    end = time.monotonic() + timeout
    while time.monotonic() < end and not all(x.counts.get(k, 0) >= n for x in lobby if x.closed is None
                                             for k, n in expect.items()):
        loop.pump(0.2)
    loop.drain(0.5)
    short = [x.index for x in lobby if any(x.counts.get(k, 0) < n for k, n in expect.items())]
    extra = sorted({k for x in lobby for k in x.counts} - set(expect) - {"lobby.start", "lobby.hello"})
    out.append(f"events: every lobby tab got {expect}" if not short else
               f"events: {len(short)} lobby tabs short of {expect} (first {short[:5]})")
    if extra:
        out.append(f"other messages seen: {extra}")
    if short:
        failures.append(f"{len(short)} lobby tabs missed events")
    rss_end = rss_kb(server_pid)
    out.append(f"server RSS: {rss_end} kB with the {len(lobby)} lobby tabs, {len(seat_tabs)} seat tabs and "
               f"{len(done)} tables (peak seen {max(rss_peak, rss_end)} kB)")
    closed = [x for x in loop.tabs if x.closed is not None]
    out.append(f"tabs closed by the server: {len(closed)}")
    loop.close_all()
    return out, failures + loop.errors


def main():
    root = os.path.dirname(_here)
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--people", type=int, default=1000, help="lobby tabs, 2..5000")
    p.add_argument("--seeks", type=int, default=100, help="seeks made and then accepted, 1..people/2 (at most 1000)")
    p.add_argument("--parallel", type=int, default=1, help="accepts in flight at once, 1..100")
    p.add_argument("--timeout", type=float, default=60, help="seconds a step may take before it fails")
    p.add_argument("--server", default=os.path.join(root, "build", "lasca-web"))
    p.add_argument("--server-arg", action="append", default=[], help="an argument for lasca-web")
    args = p.parse_args()
    if not (2 <= args.people <= 5000 and 1 <= args.seeks <= min(1000, args.people // 2)
            and 1 <= args.parallel <= 100):
        sys.exit("--people 2..5000, --seeks 1..min(1000, people/2), --parallel 1..100")
    try:  # every tab is a socket of this process too
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = args.people + 2 * args.seeks + 256
        if soft < want:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    except (ImportError, ValueError, OSError):
        pass
    folder = tempfile.mkdtemp(prefix="lobby-load-")
    db = os.path.join(folder, "web.db")
    print(f"load average at start: {loadavg()}")
    server = subprocess.Popen([args.server, "--port", "0", "--db", db, "--max-connections", "5000",
                               "--max-connections-per-address", "5000", "--log-level", "off"]
                              + args.server_arg, stdout=subprocess.PIPE, text=True)
    status = 1
    try:
        line = server.stdout.readline()
        port = int(line.strip().rsplit(":", 1)[1].rstrip("/"))
        lines, failures = run(args, "127.0.0.1", port, server.pid)
        for x in lines:
            print(x)
        for f in failures[:10]:
            print(f"failure: {f}")
        if len(failures) > 10:
            print(f"... and {len(failures) - 10} failures more")
        status = 0 if not failures else 1
    finally:
        alive = server.poll() is None
        server.terminate()
        code = server.wait(30)
        print(f"server: {'running until stopped' if alive else 'had exited'}; exit code {code}")
        print(f"load average at end: {loadavg()}")
        for name in os.listdir(folder):
            os.remove(os.path.join(folder, name))
        os.rmdir(folder)
    if code != 0:
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
