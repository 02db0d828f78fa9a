#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang (AddressSanitizer + UndefinedBehaviorSanitizer) in
# build-fuzz/ and runs each for the given number of seconds, starting from its seed corpus in
# tests/<lasca|torneio|web>/fuzz/corpus/<harness without _fuzz>/ (new inputs found are kept in
# build-fuzz/corpus-<harness>/). Any crash, sanitizer report or broken property stops that
# harness and fails the script; the crashing input is left in build-fuzz/ as crash-*.
#   scripts/fuzz.sh [seconds per harness, default 60] [harness ...]
#   scripts/fuzz.sh --build-only [harness ...]   builds them, runs nothing
#   scripts/fuzz.sh --smoke RUNS [harness ...]   builds them, runs every seed once and then RUNS
#                                                fuzzed inputs (fixed seed, new inputs kept in a
#                                                scratch folder): the CI check (scripts/test.sh)
# The harnesses (docs/robustness.md, "Fuzzing (libFuzzer)"):
#   lasca:   lfen_fuzz move_fuzz protocol_fuzz pdn_fuzz datafile_fuzz
#   torneio: torneio_protocol_fuzz
#   web:     web_message_fuzz static_files_fuzz
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
mode=timed
seconds=60
runs=0
case "${1:-}" in
    --build-only) mode=build; shift ;;
    --smoke)
        mode=smoke
        runs=${2:?"fuzz.sh: --smoke needs a number of runs"}
        shift 2
        ;;
    *)
        seconds=${1:-60}
        shift || true
        ;;
esac
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(lfen_fuzz move_fuzz protocol_fuzz pdn_fuzz datafile_fuzz
                                        torneio_protocol_fuzz web_message_fuzz static_files_fuzz)

# The folder of tests/ a harness lives in: lasca, torneio or web.
harness_part() {
    local part
    for part in lasca torneio web; do
        [ -f "$LASCA_ROOT/tests/$part/fuzz/$1.cpp" ] && { echo "$part"; return 0; }
    done
    echo "fuzz.sh: no harness $1" >&2
    return 2
}
for h in "${harnesses[@]}"; do harness_part "$h" >/dev/null; done

lasca_install_dependencies --test
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ is needed (apt-get install clang)" >&2; exit 2; }
CXX=clang++ cmake -S "$LASCA_ROOT" -B "$LASCA_ROOT/build-fuzz" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DLASCA_FUZZ=ON -DLASCA_NATIVE=OFF -DLASCA_BUILD_TESTS=OFF -DLASCA_BUILD_BENCHMARKS=OFF >&2
cmake --build "$LASCA_ROOT/build-fuzz" -j "$(nproc)" --target "${harnesses[@]}" >&2
[ "$mode" = build ] && exit 0

cd "$LASCA_ROOT/build-fuzz"
for h in "${harnesses[@]}"; do
    part=$(harness_part "$h")
    seeds="$LASCA_ROOT/tests/$part/fuzz/corpus/${h%_fuzz}"
    if [ "$mode" = smoke ]; then
        scratch=$(mktemp -d)
        echo "== $h: the seeds, then $runs runs" >&2
        status=0
        "./tests/$part/fuzz/$h" -runs="$runs" -seed=1 -timeout=60 -rss_limit_mb=4096 \
            "$scratch" "$seeds" >"$scratch.log" 2>&1 || status=$?
        tail -n 3 "$scratch.log" >&2
        [ "$status" -ne 0 ] && { cat "$scratch.log" >&2; rm -rf "$scratch" "$scratch.log"; exit 1; }
        rm -rf "$scratch" "$scratch.log"
        continue
    fi
    mkdir -p "corpus-$h"
    echo "== $h: $seconds s" >&2
    "./tests/$part/fuzz/$h" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
        -print_final_stats=1 "corpus-$h" "$seeds" 2>&1 | tail -n 12 >&2
done
