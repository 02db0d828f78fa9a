#!/usr/bin/env bash
# Soak run: many fast games of the engine against itself (2 threads each) through lasca-match,
# then a report of everything that must never happen: crashes, hangs, illegal or garbled moves,
# time losses; and the peak memory of any engine process (bounded by Hash plus a constant).
# Exit code 1 when any failure occurred.
#   scripts/soak.sh [--games N] [--tc S+I | --movetime MS | --nodes N] [--threads T] [--hash MB]
#                   [--out DIR] [--no-build]
# Under --tc and --movetime a busy machine can make an engine lose on time through no fault of
# its own: run those on purpose, on a quiet machine. Under --nodes nothing depends on the
# machine's speed (the runner's time-outs are raised to minutes: they only catch hangs), so
# scripts/test.sh (CI) runs a short one that way: 100 games at 2000 nodes per move.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

games=2000
tc="1+0.01"
movetime=""
nodes=""
threads=2
hash=16
out="$LASCA_ROOT/soak"
build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --games) games=$2; shift 2 ;;
        --tc) tc=$2; shift 2 ;;
        --movetime) movetime=$2; shift 2 ;;
        --nodes) nodes=$2; shift 2 ;;
        --threads) threads=$2; shift 2 ;;
        --hash) hash=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        *) echo "soak.sh: unknown flag $1" >&2; exit 2 ;;
    esac
done

if [ "$build" -eq 1 ]; then
    lasca_install_dependencies --test
    lasca_build build Release
fi
bin="$LASCA_ROOT/build"
mkdir -p "$out"
rm -f "$out/soak.pdn"
engine="cmd=$bin/lasca,option.Threads=$threads,option.Hash=$hash"
limit=(--tc "$tc")
control="tc $tc"
if [ -n "$movetime" ]; then
    limit=(--movetime "$movetime")
    control="$movetime ms per move"
fi
if [ -n "$nodes" ]; then
    limit=(--nodes "$nodes" --timeout-start 60000 --timeout-ready 60000 --timeout-search 120000)
    control="$nodes nodes per move"
fi
start=$(date +%s)
# /usr/bin/time -v reports the largest resident set of lasca-match's children: the engines.
/usr/bin/time -v -o "$out/time.txt" "$bin/lasca-match" \
    --engine "name=a,$engine" --engine "name=b,$engine" --games "$games" "${limit[@]}" \
    --concurrency 1 --openings "$LASCA_ROOT/data/openings.txt" --log-dir "$out/logs" \
    --pdn "$out/soak.pdn" > "$out/report.txt" 2> "$out/progress.txt" || true
elapsed=$(( $(date +%s) - start ))

played=$(grep -c '^\[Result ' "$out/soak.pdn" || true)
failures=0
echo "Soak: $played of $games games, $control, $threads threads and $hash MB hash per engine, ${elapsed} s"
for reason in "illegal move" "garbled move" "time forfeit" "crash" "disconnected"; do
    n=$(grep -c "^\[Termination \"$reason\"\]" "$out/soak.pdn" || true)
    echo "  $reason: $n"
    failures=$((failures + n))
done
peak_kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$out/time.txt")
echo "  peak engine memory: $((peak_kb / 1024)) MB (Hash $hash MB)"
grep -E '^(W/D/L|Score|Elo \(pairs\))' "$out/report.txt" | sed 's/^/  /'
if [ "$played" -ne "$games" ]; then
    echo "  games missing: $((games - played))"
    failures=$((failures + games - played))
fi
[ "$failures" -eq 0 ] || { echo "soak: $failures failures" >&2; exit 1; }
