#!/usr/bin/env bash
# Installs the Debian packages the build needs, if any is missing. Sourced by run.sh and
# test.sh; safe to run again (it installs nothing when everything is there).
set -euo pipefail

LASCA_PACKAGES=(build-essential cmake libboost-program-options-dev libspdlog-dev libgtest-dev
                libbenchmark-dev nlohmann-json3-dev libsodium-dev pkg-config libsqlite3-dev libsqlitecpp-dev time tmux
                libboost-dev chromium chromium-driver python3-selenium)

lasca_missing_packages() {
    local missing=()
    for p in "${LASCA_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
            missing+=("$p")
    done
    echo "${missing[@]:-}"
}

lasca_install_dependencies() {
    local missing
    missing=$(lasca_missing_packages)
    [ -z "$missing" ] && return 0
    echo "Installing missing packages: $missing" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -qq >&2
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >&2
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
