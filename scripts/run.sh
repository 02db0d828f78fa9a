#!/usr/bin/env bash
# Installs what is missing, builds the Release engine, and starts it. Arguments go to the
# engine: `scripts/run.sh` starts the protocol loop, `scripts/run.sh perft --depth 13` runs perft.
# Build output goes to stderr, so stdout carries only the engine's own lines.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
lasca_install_dependencies
lasca_build build Release -DLASCA_BUILD_TESTS=OFF -DLASCA_BUILD_BENCHMARKS=OFF
exec "$LASCA_ROOT/build/lasca" "$@"
