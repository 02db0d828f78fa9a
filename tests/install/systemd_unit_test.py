#!/usr/bin/python3
"""The systemd unit packaging/lasca-web.service (the package's /usr/lib/systemd/system): it runs
/usr/bin/lasca-web as a user of its own (DynamicUser) with the games under StateDirectory and
the hardening options README's "The web page" promises, listening on lasca-web's default
(127.0.0.1:8080); `systemd-analyze verify` finds nothing wrong with it (checked when
systemd-analyze is installed, in a scratch root that holds the unit, lasca-web and the host's
units); with --lasca-web, the unit's command line (its --db in a scratch folder, --port 0 as
LASCA_WEB_OPTIONS) starts that lasca-web, which serves its page. package_test.py runs the same
checks on the unit the package holds. With --template, the unit is packaging/lasca-web@.service,
one of several instances on one PostgreSQL database: the same hardening, `--instance %i` and the
database's URL from its EnvironmentFile, verified as lasca-web@web1.service.

Usage: systemd_unit_test.py [--unit FILE] [--template] [--lasca-web PROGRAM]
Exit codes: 0 passed, 1 failed. A check whose tool is missing (systemd-analyze) prints a SKIP
line and the others run.
"""
import argparse
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
UNIT = os.path.join(HERE, "..", "..", "packaging", "lasca-web.service")
GUARD = 120  # seconds: only a guard against hangs

# [Service] settings the unit must have, value for value (issue 52: defence in depth).
HARDENING = {
    "DynamicUser": "yes",
    "StateDirectory": "lasca",
    "NoNewPrivileges": "yes",
    "CapabilityBoundingSet": "",
    "ProtectSystem": "strict",
    "ProtectHome": "yes",
    "PrivateTmp": "yes",
    "PrivateDevices": "yes",
    "ProtectKernelTunables": "yes",
    "ProtectKernelModules": "yes",
    "ProtectControlGroups": "yes",
    "RestrictAddressFamilies": "AF_INET AF_INET6 AF_UNIX",
    "RestrictNamespaces": "yes",
    "RestrictSUIDSGID": "yes",
    "LockPersonality": "yes",
    "MemoryDenyWriteExecute": "yes",
    "SystemCallArchitectures": "native",
}
# lasca-web keeps 2,000 connections by default, beside a reserve of 256 + 4 per engine.
MIN_OPEN_FILES = 4096


class Failure(Exception):
    pass


def parse_unit(path):
    """{section: [(key, value), ...]} of a unit file: comments skipped, a line ending in a
    backslash continued on the next."""
    sections = {}
    current = None
    with open(path) as f:
        lines = f.read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        while line.endswith("\\") and i < len(lines):
            line = line[:-1] + " " + lines[i].strip()
            i += 1
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], [])
            continue
        if current is None or "=" not in line:
            raise Failure(f"{path}: not a unit file line: {line!r}")
        key, _, value = line.partition("=")
        current.append((key.strip(), value.strip()))
    return sections


def values(sections, section, key):
    return [v for k, v in sections.get(section, []) if k == key]


def last(sections, section, key):
    found = values(sections, section, key)
    return found[-1] if found else None


def command_line(sections):
    """ExecStart's words, LASCA_WEB_OPTIONS' default expanded as systemd does ($VAR: one word a
    whitespace-separated piece, none when empty)."""
    starts = values(sections, "Service", "ExecStart")
    if len(starts) != 1:
        raise Failure(f"expected one ExecStart: {starts}")
    env = {}
    for assignment in values(sections, "Service", "Environment"):
        for word in shlex.split(assignment):
            name, _, value = word.partition("=")
            env[name] = value
    words = []
    for word in shlex.split(starts[0]):
        if word.startswith("$") and not word.startswith("${"):
            words += env.get(word[1:], "").split()
        else:
            words.append(word)
    return words


def check_unit(path, template=False):
    """The settings: raises Failure naming what is missing or wrong."""
    sections = parse_unit(path)
    problems = []
    for key, wanted in HARDENING.items():
        found = last(sections, "Service", key)
        if found != wanted:
            problems.append(f"{key}={wanted} (found {key}={found})" if found is not None
                            else f"{key}={wanted} missing")
    if "@system-service" not in " ".join(values(sections, "Service", "SystemCallFilter")).split():
        problems.append("SystemCallFilter=@system-service missing")
    for key in ("User", "Group", "ReadWritePaths", "PrivateNetwork"):
        if values(sections, "Service", key):
            problems.append(f"{key}= set: the unit runs as a user of its own (DynamicUser), "
                            "writes only its StateDirectory and needs the network")
    limit = last(sections, "Service", "LimitNOFILE") or ""
    if not limit.isdigit() or int(limit) < MIN_OPEN_FILES:
        problems.append(f"LimitNOFILE={limit}: lasca-web needs {MIN_OPEN_FILES} or more")
    words = command_line(sections)
    if words[0] != "/usr/bin/lasca-web":
        problems.append(f"ExecStart runs {words[0]}, not /usr/bin/lasca-web")
    db = words[words.index("--db") + 1] if "--db" in words[:-1] else None
    if template:
        if db != "${LASCA_WEB_DB}":
            problems.append(f"--db {db}: an instance's database is LASCA_WEB_DB's URL")
        if "--instance" not in words[:-1] or words[words.index("--instance") + 1] != "%i":
            problems.append("--instance %i missing: the instance is named by the unit's name")
        if "/etc/lasca/web-cluster.conf" not in values(sections, "Service", "EnvironmentFile"):
            problems.append("EnvironmentFile=/etc/lasca/web-cluster.conf missing")
    elif db is None or not db.startswith("/var/lib/lasca/"):
        problems.append(f"--db {db}: the database belongs in StateDirectory (/var/lib/lasca/)")
    for option in ("--listen", "--static", "--engine"):
        if option in words:
            problems.append(f"ExecStart sets {option}: lasca-web's defaults are 127.0.0.1, "
                            "/usr/share/lasca/web and /usr/bin/lasca beside it")
    if "man:lasca-web(1)" not in " ".join(values(sections, "Unit", "Documentation")).split():
        problems.append("Documentation=man:lasca-web(1) missing")
    if values(sections, "Install", "WantedBy") != ["multi-user.target"]:
        problems.append("WantedBy=multi-user.target missing")
    if problems:
        raise Failure(f"{path}:\n  " + "\n  ".join(problems))
    print(f"ok: {os.path.basename(path)} runs /usr/bin/lasca-web --db {db} as a DynamicUser "
          f"with {len(HARDENING)} hardening settings, SystemCallFilter=@system-service and "
          f"LimitNOFILE={limit}")
    return words


def check_verify(path, lasca_web=None, name="lasca-web.service", instance=None):
    """systemd-analyze verify, in a scratch root holding the unit, lasca-web (a stub when none is
    given: verify only checks that ExecStart's program is executable) and the host's units
    (sysinit.target and the rest the unit depends on). Any complaint about the unit fails."""
    analyze = shutil.which("systemd-analyze")
    host_units = next((d for d in ("/usr/lib/systemd/system", "/lib/systemd/system")
                       if os.path.exists(os.path.join(d, "sysinit.target"))), None)
    if not analyze or not host_units:
        print("SKIP (verify only): systemd-analyze or the host's systemd units are not installed "
              "(apt-get install systemd)")
        return
    root = tempfile.mkdtemp(prefix="lasca-unit-")
    try:
        units = os.path.join(root, "usr", "lib", "systemd", "system")
        shutil.copytree(host_units, units, symlinks=True)
        shutil.copy(path, os.path.join(units, name))
        program = os.path.join(root, "usr", "bin", "lasca-web")
        os.makedirs(os.path.dirname(program))
        if lasca_web:
            shutil.copy(lasca_web, program)
        else:
            with open(program, "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(program, 0o755)
        said = subprocess.run([analyze, "verify", f"--root={root}", "--man=no",
                               instance or name], capture_output=True, text=True,
                              timeout=GUARD)
        complaints = [l for l in (said.stdout + said.stderr).splitlines()
                      if "lasca-web" in l and "Failed to parse system call" not in l]
        if said.returncode != 0 or complaints:
            raise Failure(f"systemd-analyze verify (exit {said.returncode}):\n"
                          + said.stdout + said.stderr)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    version = subprocess.run([analyze, "--version"], capture_output=True, text=True,
                             timeout=GUARD).stdout.split("\n")[0]
    print(f"ok: systemd-analyze verify finds nothing wrong ({version})")


def check_runs(words, lasca_web):
    """The unit's command line, with that lasca-web, a scratch --db and LASCA_WEB_OPTIONS="--port
    0", starts and serves the page (outside the sandbox: systemd is not asked to start it)."""
    scratch = tempfile.mkdtemp(prefix="lasca-unit-run-")
    args = list(words[1:])
    args[args.index("--db") + 1] = os.path.join(scratch, "lasca", "web.db")
    server = subprocess.Popen([lasca_web] + args + ["--port", "0"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        if "listening on http://127.0.0.1:" not in line:
            server.terminate()
            raise Failure(f"lasca-web {' '.join(args)} --port 0 did not start on 127.0.0.1: "
                          f"{line!r} {server.communicate(timeout=GUARD)[1][-1000:]!r}")
        url = line.strip().split("listening on ")[1]
        page = urllib.request.urlopen(url, timeout=GUARD).read()
        if b"<html" not in page.lower():
            raise Failure(f"{url} did not serve the page")
    finally:
        if server.poll() is None:
            server.terminate()
        code = server.wait(GUARD)
        shutil.rmtree(scratch, ignore_errors=True)
    if code != 0:
        raise Failure(f"lasca-web exited {code} on SIGTERM, not 0 (the unit's clean stop)")
    print(f"ok: the unit's command line starts {lasca_web} on 127.0.0.1, serves the page and "
          "stops with exit 0 on SIGTERM")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--unit", default=UNIT)
    parser.add_argument("--lasca-web", help="a built lasca-web: run the unit's command line")
    parser.add_argument("--template", action="store_true",
                        help="the unit is lasca-web@.service (an instance of several)")
    args = parser.parse_args()
    if args.template and args.unit == UNIT:
        args.unit = os.path.join(HERE, "..", "..", "packaging", "lasca-web@.service")
    try:
        words = check_unit(args.unit, args.template)
        if args.template:
            check_verify(args.unit, args.lasca_web, "lasca-web@.service", "lasca-web@web1.service")
        else:
            check_verify(args.unit, args.lasca_web)
        if args.lasca_web and not args.template:
            check_runs(words, args.lasca_web)
        return 0
    except Failure as e:
        print(f"FAIL: {e}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
