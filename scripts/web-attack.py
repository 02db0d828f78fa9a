#!/usr/bin/env python3
"""Holds half-sent requests against lasca-web, as issue 52's attacker did, and says what held.

Starts lasca-web (its default limits, or --server-arg ones) on a free 127.0.0.1 port; opens
--held sockets from 127.0.0.1, each sending half a request; counts those answered 503; then asks
for the page from 127.0.0.2 and reads the server's CPU time over --watch seconds
(/proc/PID/stat). Prints one line. docs/robustness.md, "Attacks tried".
  scripts/web-attack.py --held 1300 [--server build/lasca-web] [--engine build/lasca]
"""
import argparse
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--held", type=int, default=1300, help="half-sent requests held, 1..3000")
    p.add_argument("--watch", type=float, default=3, help="seconds the server's CPU is read, 0.1..60")
    p.add_argument("--server", default=os.path.join(root, "build", "lasca-web"))
    p.add_argument("--engine", default=os.path.join(root, "build", "lasca"))
    p.add_argument("--server-arg", action="append", default=[], help="an argument for lasca-web")
    args = p.parse_args()
    if not (1 <= args.held <= 3000 and 0.1 <= args.watch <= 60):
        sys.exit("--held 1..3000, --watch 0.1..60")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = args.held + 64
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen([args.server, "--port", "0", "--db", os.path.join(folder, "web.db"),
                                   "--engine", args.engine, "--log-level", "off"] + args.server_arg,
                                  stdout=subprocess.PIPE, text=True)
        try:
            port = int(server.stdout.readline().strip().rsplit(":", 1)[1].rstrip("/"))
            half = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode()
            held = []
            for _ in range(args.held):
                s = socket.create_connection(("127.0.0.1", port), timeout=10)
                s.sendall(half)
                held.append(s)
            time.sleep(1)
            refused = 0
            for s in held:
                s.settimeout(0.05)
                try:
                    refused += s.recv(64).startswith(b"HTTP/1.1 503")
                except OSError:
                    pass
            before = cpu_seconds(server.pid)
            start = time.monotonic()
            other = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=("127.0.0.2", 0))
            other.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
            reply = b""
            while chunk := other.recv(65536):
                reply += chunk
            took = (time.monotonic() - start) * 1000
            time.sleep(args.watch)
            used = cpu_seconds(server.pid) - before
            status = reply.split(b"\r\n", 1)[0].decode(errors="replace")
            print(f"held {args.held} from 127.0.0.1: {refused} answered 503; the page for 127.0.0.2: "
                  f"'{status}' in {took:.1f} ms; the server's CPU over {args.watch:g} s: {used:.2f} s")
            for s in held:
                s.close()
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
