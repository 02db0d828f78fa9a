#!/usr/bin/python3
"""packaging/haproxy-lasca.cfg as shipped, its ports changed: HAProxy checks it (haproxy -c), then
fronts a lasca-web that trusts it (--trusted-proxy 127.0.0.1): a page and /health are served
through it (HAProxy's own health checks with their PROXY header among the requests), and a
connection from the front's address without the header is closed. The limits per address behind
a front are tested in C++ (web.Attacks.BehindATrustedFrontEachClientMeetsItsOwnLimit).

Usage: haproxy_test.py --web BUILD/lasca-web --engine BUILD/lasca --static WEB --config CFG
Exit 0 when every check passed, 1 with a FAIL line otherwise.
"""
import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

HANG_GUARD = 60  # seconds: a hang guard, never a measure


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(port, path):
    """(status, body) of GET path on 127.0.0.1:port; (0, '') when nothing answers."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()
    except OSError:
        return 0, ""


def main():
    parser = argparse.ArgumentParser()
    for name in ("--web", "--engine", "--static", "--config"):
        parser.add_argument(name, required=True)
    args = parser.parse_args()
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    if not os.path.exists(haproxy):
        print("FAIL: haproxy is not installed (scripts/test.sh installs Debian's haproxy)")
        return 1
    root = tempfile.mkdtemp(prefix="lasca-haproxy-")
    front, back = free_port(), free_port()
    with open(args.config) as f:
        text = f.read()
    if "127.0.0.1:8443" not in text or "127.0.0.1:8080" not in text:
        print("FAIL: the example no longer binds 127.0.0.1:8443 and serves 127.0.0.1:8080")
        return 1
    config = os.path.join(root, "haproxy.cfg")
    with open(config, "w") as f:
        f.write(text.replace("127.0.0.1:8443", f"127.0.0.1:{front}")
                .replace("127.0.0.1:8080", f"127.0.0.1:{back}"))
    procs = []
    try:
        check = subprocess.run([haproxy, "-c", "-f", config], capture_output=True, text=True)
        if check.returncode != 0:
            print(f"FAIL: haproxy -c: {check.stdout}{check.stderr}")
            return 1
        print("ok: haproxy -c accepts the example")
        procs.append(subprocess.Popen(
            [args.web, "--port", str(back), "--db", "", "--engine", args.engine, "--static",
             args.static, "--trusted-proxy", "127.0.0.1", "--public-origin",
             f"http://127.0.0.1:{front}", "--log-level", "off"], stdout=subprocess.PIPE, text=True))
        line = procs[0].stdout.readline()
        if "listening" not in line:
            print(f"FAIL: lasca-web did not start: {line!r}")
            return 1
        procs.append(subprocess.Popen([haproxy, "-db", "-f", config],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        # Straight to lasca-web from the trusted address without a PROXY header: closed.
        if fetch(back, "/")[0] != 0:
            print("FAIL: a connection from the trusted front without a PROXY header was answered")
            return 1
        print("ok: lasca-web closes the front's connection that has no PROXY header")
        until = time.monotonic() + HANG_GUARD
        status, body = 0, ""
        while status != 200 and time.monotonic() < until:
            status, body = fetch(front, "/")
            if status != 200:
                time.sleep(0.2)
        if status != 200 or "<html" not in body:
            print(f"FAIL: the page through the front: {status}")
            return 1
        print("ok: the page is served through the front")
        status, body = fetch(front, "/health")
        health = json.loads(body) if status == 200 else {}
        if health.get("status") != "ok" or health.get("store", {}).get("backend") != "sqlite":
            print(f"FAIL: /health through the front: {status} {body!r}")
            return 1
        print(f"ok: /health through the front: {body.strip()}")
        return 0
    finally:
        for p in reversed(procs):
            p.terminate()
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
