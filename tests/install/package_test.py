#!/usr/bin/python3
"""The Debian package: cpack makes lasca_<version>_<arch>.deb with its dependencies
computed; lintian finds no error in it (checked when lintian is installed); its postinst and
prerm byte-compile the Python files and clean them away (py3compile, py3clean), and with postrm
handle the systemd unit lasca-web.service as dh_installsystemd --no-enable --no-start does; the
unit in /usr/lib/systemd/system has its hardening settings and passes systemd-analyze verify
(systemd_unit_test.py's checks, verify when systemd-analyze is installed); its programs and
Python extensions are stripped and its manual pages compressed, none naming a path of the
build machine (the source or build folder, $HOME). Unpacked into a scratch folder
(dpkg-deb -x), every program answers --version, each has a manual page, the engine plays a UCI
session, the programs and the Python modules of a portable package run on a CPU without AVX
(qemu-x86_64 -cpu Nehalem, when qemu-user is installed: the baseline check), and lasca-web
serves its page from the unpacked share/lasca/web with the engine beside it. Writes only inside its own temporary folder; installs nothing.

A package for other machines comes from a -DLASCA_NATIVE=OFF build. From a native build folder
the test checks that cpack refuses, then makes the package with LASCA_PACKAGE_NATIVE=1 (for
this machine only) and checks the rest; --portable makes a native build folder a failure.

Usage: package_test.py --build BUILD_DIR [--version VERSION] [--portable]
Exit codes: 0 passed, 1 failed, 77 skipped (no dpkg-deb). A check whose tool is missing (lintian,
qemu-x86_64) prints a SKIP line and the others run.
"""
import argparse
import glob
import gzip
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request

import systemd_unit_test  # beside this file

PROGRAMS = ["lasca", "lasca-match", "lasca-tune", "lasca-reference", "lasca-web", "torneio",
            "torneio-referee", "torneio-ai-eval", "torneio-bench"]
GUARD = 300  # seconds: only a guard against hangs


class Failure(Exception):
    pass


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, timeout=GUARD, **kw)


def cache_value(build, name):
    """A variable of the build folder's CMakeCache.txt, or None."""
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            key, _, value = line.rstrip("\n").partition("=")
            if key.split(":")[0] == name:
                return value
    return None


def is_native(build):
    return (cache_value(build, "LASCA_NATIVE") or "").upper() in ("ON", "1", "TRUE", "YES")


def cpack(build, out, env=None):
    return run(["cpack", "--config", os.path.join(build, "CPackConfig.cmake"), "-G", "DEB",
                "-B", out], env=env)


def check_native_refused(build, out):
    """cpack in a -march=native build folder refuses, and says why."""
    env = {k: v for k, v in os.environ.items() if k != "LASCA_PACKAGE_NATIVE"}
    made = cpack(build, out, env)
    said = made.stdout + made.stderr
    if made.returncode == 0 or glob.glob(os.path.join(out, "*.deb")) or "-DLASCA_NATIVE=OFF" not in said:
        raise Failure(f"cpack packaged a native build without LASCA_PACKAGE_NATIVE=1: {said[-1500:]}")
    shutil.rmtree(out, ignore_errors=True)
    print("ok: cpack refuses the -march=native build folder (LASCA_NATIVE=ON) and says why")


def make_package(build, out, native):
    env = dict(os.environ, LASCA_PACKAGE_NATIVE="1") if native else None
    made = cpack(build, out, env)
    if made.returncode != 0:
        raise Failure(f"cpack failed: {made.stdout[-2000:]} {made.stderr[-2000:]}")
    debs = glob.glob(os.path.join(out, "*.deb"))
    if len(debs) != 1:
        raise Failure(f"expected one .deb in {out}: {debs}")
    return debs[0]


def check_control(deb, version):
    arch = run(["dpkg", "--print-architecture"]).stdout.strip()
    if os.path.basename(deb) != f"lasca_{version}_{arch}.deb":
        raise Failure(f"package named {os.path.basename(deb)}, not lasca_{version}_{arch}.deb")
    control = run(["dpkg-deb", "--field", deb, "Package", "Version", "Depends"]).stdout
    depends = next((l for l in control.splitlines() if l.startswith("Depends:")), "")
    for library in ("libc6", "libstdc++6", "libsqlite3", "libsodium"):
        if library not in depends:
            raise Failure(f"Depends lacks {library} (shlibdeps): {depends!r}")
    print(f"ok: {os.path.basename(deb)}, {depends}")


def check_scripts(deb, scratch):
    """postinst byte-compiles the package's Python files, prerm removes them (dh_python3's way)."""
    control = os.path.join(scratch, "control")
    subprocess.run(["dpkg-deb", "--control", deb, control], check=True, timeout=GUARD)
    unit = "lasca-web.service"
    for script, commands in (
            ("postinst", ["py3compile -p lasca", f"deb-systemd-helper update-state {unit}",
                          "systemctl --system daemon-reload",
                          f"deb-systemd-invoke try-restart {unit}"]),
            ("prerm", ["py3clean -p lasca", f"deb-systemd-invoke stop {unit}"]),
            ("postrm", ["systemctl --system daemon-reload", f"deb-systemd-helper purge {unit}"])):
        path = os.path.join(control, script)
        if not os.path.exists(path):
            raise Failure(f"the package has no {script}")
        if not os.access(path, os.X_OK):
            raise Failure(f"{script} is not executable")
        with open(path) as f:
            text = f.read()
        for command in commands:
            if not text.startswith("#!/bin/sh") or "set -e" not in text or command not in text:
                raise Failure(f"{script} does not run '{command}' under #!/bin/sh with set -e:\n{text}")
        enables = [l for l in text.splitlines() if " enable " in l or " start " in l]
        if enables:
            raise Failure(f"{script} enables or starts the service: {enables}")
    print("ok: postinst runs py3compile -p lasca, prerm runs py3clean -p lasca; postinst, prerm "
          f"and postrm handle {unit} (state, daemon-reload, try-restart, stop, purge) and "
          "neither enable nor start it")


def check_lintian(deb):
    """No lintian error; the warnings are printed."""
    if not shutil.which("lintian"):
        print("SKIP (lintian check only): lintian is not installed (apt-get install lintian; "
              "scripts/test.sh installs it)")
        return
    said = run(["lintian", "--no-tag-display-limit", deb])
    lines = said.stdout.splitlines()
    errors = [l for l in lines if l.startswith("E: ")]
    warnings = [l for l in lines if l.startswith("W: ")]
    if errors or said.returncode not in (0, 1) or "internal error" in said.stderr.lower():
        raise Failure(f"lintian: {len(errors)} errors (exit {said.returncode}):\n"
                      + "\n".join(errors) + said.stderr[-1500:])
    for warning in warnings:
        print(f"  lintian {warning}")
    print(f"ok: lintian finds no error ({len(warnings)} warnings)")


def check_files(root):
    """Manual pages compressed with gzip; programs and Python extensions stripped."""
    pages = glob.glob(os.path.join(root, "usr", "share", "man", "**", "*"), recursive=True)
    pages = [p for p in pages if os.path.isfile(p)]
    loose = [p for p in pages if not p.endswith(".gz")]
    if loose:
        raise Failure(f"manual pages not compressed: {loose}")
    for page in pages:
        with open(page, "rb") as f:
            if f.read(2) != b"\x1f\x8b":
                raise Failure(f"{page} is not gzip data")
    elves = [os.path.join(root, "usr", "bin", p) for p in PROGRAMS]
    elves += glob.glob(os.path.join(root, "usr", "lib", "**", "*.so"), recursive=True)
    if len(elves) < len(PROGRAMS) + 2:
        raise Failure(f"expected {len(PROGRAMS)} programs and 2 Python extensions: {elves}")
    for elf in elves:
        sections = run(["readelf", "--section-headers", "--wide", elf])
        if sections.returncode != 0:
            raise Failure(f"readelf {elf}: {sections.stderr}")
        if " .symtab " in sections.stdout or " .debug_info " in sections.stdout:
            raise Failure(f"{os.path.relpath(elf, root)} is not stripped (.symtab or .debug_info)")
    print(f"ok: {len(pages)} manual pages gzip-compressed, {len(elves)} programs and extensions stripped")


def check_manual_pages(root, build):
    """No manual page names the build machine: its source folder, its build folder or the home
    of whoever built it (help2man runs the programs with LASCA_MANUAL_PAGE=1, and lasca-web's
    --help then says how an installed program finds its defaults)."""
    places = {
        "the source folder": cache_value(build, "CMAKE_HOME_DIRECTORY"),
        "the build folder": os.path.realpath(build),
        "the build folder as given": os.path.abspath(build),
        "$HOME": os.environ.get("HOME"),
        "the home folder": os.path.expanduser("~"),
    }
    # A folder as short as "/" would be found everywhere; a path is looked for as a path.
    places = {what: path.rstrip("/") for what, path in places.items() if path and path.rstrip("/")}
    pages = glob.glob(os.path.join(root, "usr", "share", "man", "**", "*.gz"), recursive=True)
    if not pages:
        raise Failure("no manual pages in the package")
    for page in pages:
        with gzip.open(page, "rt", encoding="utf-8", errors="replace") as f:
            text = f.read()
        # troff writes a '-' as '\-' (and help2man so writes every one): read it back.
        plain = text.replace("\\-", "-")
        for what, path in places.items():
            if path in text or path in plain:
                line = next(l for l in plain.splitlines() if path in l)
                raise Failure(f"{os.path.relpath(page, root)} names {what} ({path}): {line!r}")
    print(f"ok: {len(pages)} manual pages name no build path ({', '.join(sorted(set(places.values())))})")


def check_programs(root, version):
    for program in PROGRAMS:
        path = os.path.join(root, "usr", "bin", program)
        answer = run([path, "--version"], stdin=subprocess.DEVNULL)
        first = answer.stdout.splitlines()[0] if answer.stdout else ""
        if answer.returncode != 0 or version not in first:
            raise Failure(f"{program} --version: exit {answer.returncode}, {answer.stdout!r} {answer.stderr!r}")
        page = glob.glob(os.path.join(root, "usr", "share", "man", "man1", program + ".1*"))
        if not page:
            raise Failure(f"no manual page for {program}")
    for doc in ("README.md", "protocol.md", "lasca-rules.md", "torneio-rules.md", "benchmarks.md"):
        if not os.path.exists(os.path.join(root, "usr", "share", "doc", "lasca", doc)):
            raise Failure(f"share/doc/lasca/{doc} missing")
    print(f"ok: {len(PROGRAMS)} programs answer --version {version}, each with a manual page; docs and rules")


def check_unit(root):
    """The systemd unit in /usr/lib/systemd/system: its settings, its manual page, and
    systemd-analyze verify with the unpacked lasca-web (systemd_unit_test.py)."""
    unit = os.path.join(root, "usr", "lib", "systemd", "system", "lasca-web.service")
    if not os.path.exists(unit):
        raise Failure("no usr/lib/systemd/system/lasca-web.service in the package")
    try:
        systemd_unit_test.check_unit(unit)
        systemd_unit_test.check_verify(unit, os.path.join(root, "usr", "bin", "lasca-web"))
    except systemd_unit_test.Failure as e:
        raise Failure(f"the systemd unit: {e}") from e


def check_uci(root):
    session = "uci\nisready\nposition startpos moves c3-d4\ngo depth 4\nquit\n"
    answer = run([os.path.join(root, "usr", "bin", "lasca")], input=session)
    lines = answer.stdout.splitlines()
    for expected in ("uciok", "readyok"):
        if expected not in lines:
            raise Failure(f"the engine did not answer {expected}: {answer.stdout[-500:]!r}")
    best = [l for l in lines if l.startswith("bestmove ")]
    if len(best) != 1 or best[0].split()[1] not in ("e5xc3",):
        raise Failure(f"not the forced capture e5xc3: {best}")
    print("ok: a UCI session of the unpacked engine (bestmove e5xc3, Black's only move)")


# The oldest CPU the portable build is made for (LASCA_PORTABLE_ARCH, x86-64-v2: SSE4.2 and
# POPCNT, no AVX): qemu's user-mode emulation of it raises an illegal instruction at the first
# AVX or AVX-512 instruction the programs execute.
BASELINE_CPU = "Nehalem"
BENCH_NODES = "317534"  # `lasca bench`, pinned by Search.BenchNodeCountIsPinned


def check_baseline(root):
    """The unpacked programs and Python extensions run on a CPU without AVX (under qemu-x86_64):
    every program answers --version; the engine's bench chooses the network's plain path and
    counts its pinned nodes; a perft through the Python module gives the engine's count."""
    qemu = shutil.which("qemu-x86_64")
    if not qemu:
        print(f"SKIP (baseline check only): qemu-x86_64 is not installed, the programs were not run "
              f"on a {BASELINE_CPU} CPU (apt-get install qemu-user; scripts/test.sh installs it)")
        return
    for program in PROGRAMS:
        answer = run([qemu, "-cpu", BASELINE_CPU, os.path.join(root, "usr", "bin", program),
                      "--version"], stdin=subprocess.DEVNULL)
        if answer.returncode != 0:
            raise Failure(f"{program} --version on a {BASELINE_CPU} CPU (qemu): exit "
                          f"{answer.returncode}, {answer.stderr[-500:]!r}")
    engine = os.path.join(root, "usr", "bin", "lasca")
    answer = run([qemu, "-cpu", BASELINE_CPU, engine, "bench"], stdin=subprocess.DEVNULL)
    lines = answer.stdout.splitlines()
    if (answer.returncode != 0 or f"Nodes searched: {BENCH_NODES}" not in lines
            or "Network SIMD path: plain" not in lines):
        raise Failure(f"lasca bench on a {BASELINE_CPU} CPU (qemu): exit {answer.returncode}, "
                      f"{answer.stdout[-500:]!r} {answer.stderr[-500:]!r}")
    folder = os.path.join(root, "usr", "lib", "python3", "dist-packages")
    code = "import lasca, torneio; print(lasca.Position().perft(9)); torneio.State(2, 1)"
    perft = run([os.path.join(root, "usr", "bin", "lasca"), "perft", "--depth", "9"],
                stdin=subprocess.DEVNULL).stdout.splitlines()[-1].split()[-1]
    python = run([qemu, "-cpu", BASELINE_CPU, "/usr/bin/python3", "-c", code],
                 env=dict(os.environ, PYTHONPATH=folder))
    if python.returncode != 0 or python.stdout.strip() != perft:
        raise Failure(f"the Python modules on a {BASELINE_CPU} CPU (qemu): exit "
                      f"{python.returncode}, {python.stdout[-300:]!r} (perft {perft}) "
                      f"{python.stderr[-800:]!r}")
    print(f"ok: on a {BASELINE_CPU} CPU (qemu-x86_64, no AVX) every program answers --version, "
          f"lasca bench counts {BENCH_NODES} nodes on the plain path, and the Python modules' "
          f"perft(9) is {perft}")


def check_web(root, scratch):
    web = os.path.join(root, "usr", "bin", "lasca-web")
    help_text = run([web, "--help"]).stdout
    static = os.path.join(root, "usr", "share", "lasca", "web")
    engine = os.path.join(root, "usr", "bin", "lasca")
    if static not in help_text or engine not in help_text:
        raise Failure(f"lasca-web does not default to its own page and engine:\n{help_text}")
    server = subprocess.Popen([web, "--port", "0", "--db", os.path.join(scratch, "web.db"),
                               "--log-level", "warn"], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        if "listening on" not in line:
            raise Failure(f"lasca-web did not start: {line!r}")
        url = line.strip().split("listening on ")[1]
        page = urllib.request.urlopen(url, timeout=GUARD).read().decode()
        script = urllib.request.urlopen(url + "lasca.js", timeout=GUARD).read().decode()
        with open(os.path.join(static, "index.html")) as f:
            if page != f.read():
                raise Failure("the page served is not the unpacked index.html")
        if "lascaApp" not in script:
            raise Failure("lasca.js not served")
    finally:
        server.terminate()
        server.wait(GUARD)
    print(f"ok: lasca-web serves the unpacked page ({len(page)} bytes) with the engine beside it")


def check_python(root):
    """The Python modules from the package, driving the unpacked engine."""
    folder = os.path.join(root, "usr", "lib", "python3", "dist-packages")
    code = ("import lasca, torneio, sys\n"
            "assert lasca.Position().perft(4) == lasca.Position().perft(4) > 0\n"
            "with lasca.Engine(sys.argv[1]) as e:\n"
            "    line = e.analyse(lasca.Position(), depth=3)[0]\n"
            "assert line['pv'][0] in lasca.Position().legal_moves()\n"
            "s = torneio.State(2, 1)\n"
            "while not s.is_over(): s.apply(s.random_action())\n"
            "print('python ok', line['pv'][0])\n")
    env = dict(os.environ, PYTHONPATH=folder)
    answer = run(["/usr/bin/python3", "-c", code, os.path.join(root, "usr", "bin", "lasca")], env=env)
    if answer.returncode != 0 or "python ok" not in answer.stdout:
        raise Failure(f"the packaged Python modules: {answer.stdout[-500:]} {answer.stderr[-1500:]}")
    print("ok: the packaged Python modules import, analyse with the unpacked engine, play Torneio")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", required=True)
    parser.add_argument("--version", help="the project's version (default: the build folder's)")
    parser.add_argument("--portable", action="store_true",
                        help="fail when the build folder is -march=native (LASCA_NATIVE=ON)")
    args = parser.parse_args()
    if not shutil.which("dpkg-deb") or not shutil.which("cpack"):
        print("SKIP: dpkg-deb or cpack missing")
        return 77
    version = args.version or cache_value(args.build, "CMAKE_PROJECT_VERSION")
    native = is_native(args.build)
    if native and args.portable:
        print(f"FAIL: {args.build} is a -march=native build (LASCA_NATIVE=ON); a package for other "
              "machines is built with -DLASCA_NATIVE=OFF")
        return 1
    scratch = tempfile.mkdtemp(prefix="lasca-package-")
    try:
        out = os.path.join(scratch, "out")
        if native:
            check_native_refused(args.build, out)
            print(f"NOTE: {args.build} is a -march=native build: the package is made with "
                  "LASCA_PACKAGE_NATIVE=1, for this machine only; a package for other machines "
                  "comes from a -DLASCA_NATIVE=OFF build (README, Install)")
        deb = make_package(args.build, out, native)
        check_control(deb, version)
        check_scripts(deb, scratch)
        check_lintian(deb)
        root = os.path.join(scratch, "root")
        subprocess.run(["dpkg-deb", "-x", deb, root], check=True, timeout=GUARD)
        check_files(root)
        check_programs(root, version)
        check_manual_pages(root, args.build)
        check_unit(root)
        check_uci(root)
        if native:
            print("NOTE: no baseline check: the programs of a -march=native build need this CPU")
        else:
            check_baseline(root)
        check_web(root, scratch)
        check_python(root)
        return 0
    except Failure as e:
        print(f"FAIL: {e}")
        return 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
