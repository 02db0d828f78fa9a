#!/usr/bin/env bash
# Installs the Debian packages the build needs, if any is missing. Sourced by run.sh and
# test.sh; safe to run again (it installs nothing when everything is there).
set -euo pipefail

# What building and running need (scripts/run.sh): compilers, libraries (libpq for the web
# store's PostgreSQL back end), pybind11 for the Python modules, help2man for the manual pages.
LASCA_PACKAGES=(build-essential cmake libboost-program-options-dev libboost-dev libspdlog-dev
                nlohmann-json3-dev libsodium-dev pkg-config libsqlite3-dev libsqlitecpp-dev
                libpq-dev pybind11-dev python3-dev help2man)
# What only the tests need (scripts/test.sh): GoogleTest, Google Benchmark, pytest, the browser
# and its driver, the tools of the soak run, lintian for the Debian package, qemu-user to run
# the package's programs on an older CPU (the baseline check of tests/install/package_test.py),
# clang with its runtime libraries (libFuzzer and the sanitizers) for the fuzz harnesses
# (scripts/fuzz.sh), PostgreSQL's server for the store's tests on PostgreSQL (ctest label
# postgres: scripts/pg-cluster.sh starts a throwaway cluster of it), and HAProxy for the front's
# example (install.haproxy: tests/install/haproxy_test.py) and the cluster's test (web.pg.cluster,
# which speaks WebSocket with python3-websocket).
LASCA_TEST_PACKAGES=(libgtest-dev libbenchmark-dev python3-pytest chromium chromium-driver
                     python3-selenium time tmux lintian qemu-user clang libclang-rt-14-dev
                     postgresql haproxy python3-websocket)

# lasca_missing_packages [--test]: the packages not installed yet (with --test, the tests' too).
lasca_missing_packages() {
    local missing=() wanted=("${LASCA_PACKAGES[@]}")
    [ "${1:-}" = "--test" ] && wanted+=("${LASCA_TEST_PACKAGES[@]}")
    for p in "${wanted[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$p")
    done
    echo "${missing[@]:-}"
}

# lasca_install_dependencies [--test]: installs what is missing (with --test, for the tests too).
lasca_install_dependencies() {
    local missing
    missing=$(lasca_missing_packages "${1:-}")
    [ -z "$missing" ] && return 0
    echo "Installing missing packages: $missing" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq >&2
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >&2
}

# lasca_install_axe: axe-core for the browser tests' accessibility checks, from the npm registry
# at the version tests/web/a11y/package-lock.json pins, into tests/web/a11y/node_modules (npm
# from Debian when the machine has none).
lasca_install_axe() {
    if ! command -v npm >/dev/null; then
        local sudo=""
        [ "$(id -u)" -ne 0 ] && sudo="sudo"
        $sudo apt-get update -qq >&2
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq npm >&2
    fi
    (cd "$LASCA_ROOT/tests/web/a11y" && npm ci --no-audit --no-fund --silent >&2)
}

# lasca_build DIR BUILD_TYPE [extra cmake args...]
lasca_build() {
    local dir=$1 type=$2
    shift 2
    cmake -S "$LASCA_ROOT" -B "$LASCA_ROOT/$dir" -DCMAKE_BUILD_TYPE="$type" "$@" >&2
    cmake --build "$LASCA_ROOT/$dir" -j "$(nproc)" >&2
}

LASCA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export LASCA_ROOT
