#!/usr/bin/env bash
# Installs what is missing, builds, and runs the whole test suite with ctest:
#   1. portable Release build (-DLASCA_NATIVE=OFF, as the package is made, without link-time
#      optimisation: the same code and node counts, built in about half the time): every test
#      except the `slow` label (deep perft, long matches), the Debian package's test among them
#      (install.package: tests/install/package_test.py on this build folder: lintian, the
#      maintainer scripts, stripped programs, the unpacked programs run, also on a CPU without
#      AVX under qemu-x86_64 -cpu Nehalem), and the browser tests with axe-core's accessibility
#      checks (axe-core from the npm registry, pinned by tests/web/a11y/package-lock.json);
#   2. a short soak run on the Release build (scripts/soak.sh: 100 self-play games at 2000 nodes
#      per move, 2 threads each; any crash, hang, illegal move or lost game fails; by node count,
#      so a slow or busy machine cannot fail it);
#   3. build with AddressSanitizer + UndefinedBehaviorSanitizer (-O1): the tests of step 1 but
#      the browser tests (whose server's C++ the live-server tests drive under ASan) and three
#      long endgame-table checks (smaller tests of the same code run), and every libFuzzer
#      harness built with a replay main and run over its seed corpus (fuzz.<name>.seeds): a
#      harness that no longer builds, or a seed that crashes, fails the run;
#   4. build with ThreadSanitizer: the tests that run threads (the search tests; the protocol
#      tests, which drive a TSan build of the engine; the shared job pool; the Torneio referee's
#      matches, whose games run on worker threads);
#   5. with --fuzz only: the libFuzzer harnesses built with clang (build-fuzz/, scripts/fuzz.sh),
#      each run over its seeds and 500 fuzzed inputs. The long runs stay manual
#      (scripts/fuzz.sh SECONDS).
# Flags: --slow also runs the `slow` label; --fuzz step 5; --no-sanitize skips steps 3, 4, 5.
# Each step's start is printed with the time ("== step N ... at HH:MM:SS") on stderr.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

slow=0
sanitize=1
fuzz=0
for arg in "$@"; do
    case "$arg" in
        --slow) slow=1 ;;
        --no-sanitize) sanitize=0 ;;
        --fuzz) fuzz=1 ;;
        *) echo "test.sh: unknown flag $arg (use --slow, --fuzz, --no-sanitize)" >&2; exit 2 ;;
    esac
done

lasca_install_dependencies --test
lasca_install_axe
jobs=$(nproc)
label_args=(-LE slow)
[ "$slow" -eq 1 ] && label_args=()

step() { echo "== step $1 at $(date +%T)" >&2; }

step "1: portable Release build and its tests"
lasca_build build Release -DLASCA_NATIVE=OFF -DLASCA_LTO=OFF -DLASCA_BUILD_TESTS=ON \
    -DLASCA_BUILD_BENCHMARKS=ON
(cd "$LASCA_ROOT/build" && ctest --output-on-failure -j "$jobs" "${label_args[@]}")
step "2: soak"
"$LASCA_ROOT/scripts/soak.sh" --games 100 --nodes 2000 --no-build --out "$LASCA_ROOT/build/soak-ci"


# Under ASan these take minutes each; their code is checked there by the smaller tests.
asan_skip='^egtb[.](EgtbConsistency[.]TwoAgainstOneOfFivePiecesIsConsistent|Pieces/EgtbTrioBruteForce[.]EveryPositionAgrees/4|EgtbSearch[.]TwoAgainstOneAgreesOnASample)$'

if [ "$sanitize" -eq 1 ]; then
    step "3: ASan and UBSan build and tests"
    lasca_build build-asan Debug -DLASCA_SANITIZE=ON -DLASCA_NATIVE=OFF -DLASCA_BUILD_TESTS=ON \
        -DLASCA_BUILD_BENCHMARKS=OFF -DLASCA_FUZZ_SEEDS=ON
    (cd "$LASCA_ROOT/build-asan" &&
        ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
        ctest --output-on-failure -j "$jobs" -LE "slow|browser" -E "$asan_skip")

    step "4: TSan build and tests"
    cmake -S "$LASCA_ROOT" -B "$LASCA_ROOT/build-tsan" -DCMAKE_BUILD_TYPE=Debug -DLASCA_TSAN=ON \
        -DLASCA_NATIVE=OFF -DLASCA_BUILD_TESTS=ON -DLASCA_BUILD_BENCHMARKS=OFF >&2
    cmake --build "$LASCA_ROOT/build-tsan" -j "$jobs" --target lasca lasca_tests \
        lasca_protocol_tests lasca_protocol_sessions_tests common_tests torneio \
        torneio-referee torneio_hostile_player torneio_program_tests >&2
    (cd "$LASCA_ROOT/build-tsan" &&
        TSAN_OPTIONS="suppressions=$LASCA_ROOT/scripts/tsan.supp halt_on_error=1 exitcode=66" \
        ctest --output-on-failure -j "$jobs" \
            -R '^(Search[.]|protocol[.]|Jobs[.]|torneio[.](Match|Cli|Referee|Seats)[.])')

    if [ "$fuzz" -eq 1 ]; then
        step "5: fuzz smoke"
        "$LASCA_ROOT/scripts/fuzz.sh" --smoke 500
    fi
fi
step "done"
