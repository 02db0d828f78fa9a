#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang (AddressSanitizer + UndefinedBehaviorSanitizer) and
# runs each for the given number of seconds, starting from the seed corpora in tests/lasca/fuzz/corpus
# (new inputs found are kept in build-fuzz/corpus-<harness>/). Any crash, sanitizer report or
# broken property stops that harness and fails the script; the crashing input is left in
# build-fuzz/ as crash-*.
#   scripts/fuzz.sh [seconds per harness, default 60] [harness ...]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
seconds=${1:-60}
shift || true
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(lfen_fuzz move_fuzz protocol_fuzz)

lasca_install_dependencies --test
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is needed (apt-get install clang)" >&2; exit 2; }
CXX=clang++ cmake -S "$LASCA_ROOT" -B "$LASCA_ROOT/build-fuzz" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DLASCA_FUZZ=ON -DLASCA_NATIVE=OFF -DLASCA_BUILD_TESTS=OFF -DLASCA_BUILD_BENCHMARKS=OFF >&2
cmake --build "$LASCA_ROOT/build-fuzz" -j "$(nproc)" --target "${harnesses[@]}" >&2

cd "$LASCA_ROOT/build-fuzz"
for h in "${harnesses[@]}"; do
    seeds="$LASCA_ROOT/tests/lasca/fuzz/corpus/${h%_fuzz}"
    mkdir -p "corpus-$h"
    echo "== $h: $seconds s" >&2
    "./tests/lasca/fuzz/$h" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
        -print_final_stats=1 "corpus-$h" "$seeds" 2>&1 | tail -n 12 >&2
done
