#!/bin/bash
# Compare the search speed of two engine set-ups on a shared machine: for each repetition run
# `bench DEPTH` with both (the order alternating), measure the CPU time each used (perf stat's
# task-clock, steadier than the wall clock when other jobs run), and print the medians of the
# nodes per CPU-second and of the ratio B/A.
#   scripts/bench-pair.sh [--reps N] [--depth D] "BIN_A UseNNUE_A" "BIN_B UseNNUE_B"
# e.g. scripts/bench-pair.sh "build/lasca false" "build/lasca true"   (the network's share)
set -euo pipefail
reps=6
depth=16
while [[ $# -gt 2 ]]; do
  case "$1" in
    --reps) reps=$2; shift 2 ;;
    --depth) depth=$2; shift 2 ;;
    *) echo "error: unknown option $1" >&2; exit 2 ;;
  esac
done
[[ $# -eq 2 ]] || { echo "usage: $0 [--reps N] [--depth D] \"BIN_A true|false\" \"BIN_B true|false\"" >&2; exit 2; }
[[ $reps =~ ^[0-9]+$ && $reps -ge 1 && $reps -le 1000 ]] || { echo "error: --reps must be 1..1000" >&2; exit 2; }
[[ $depth =~ ^[0-9]+$ && $depth -ge 1 && $depth -le 30 ]] || { echo "error: --depth must be 1..30" >&2; exit 2; }
command -v perf > /dev/null || { echo "error: perf is needed (apt-get install linux-perf)" >&2; exit 2; }

speed() {  # "BIN NNUE" -> nodes per CPU-second
  local bin nnue out ms nodes
  read -r bin nnue <<< "$1"
  out=$(printf "setoption name UseNNUE value %s\nbench %s\nquit\n" "$nnue" "$depth" |
        perf stat -x, -e task-clock "$bin" 2> "$tmp/stat")
  nodes=$(awk '/Nodes searched/ {print $3}' <<< "$out")
  ms=$(awk -F, '/task-clock/ {print $1}' "$tmp/stat")
  awk -v n="$nodes" -v ms="$ms" 'BEGIN {printf "%.0f\n", n * 1000 / ms}'
}
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((i = 1; i <= reps; ++i)); do
  if ((i % 2)); then a=$(speed "$1"); b=$(speed "$2"); else b=$(speed "$2"); a=$(speed "$1"); fi
  echo "$a $b" >> "$tmp/pairs"
  awk -v a="$a" -v b="$b" 'BEGIN {printf "%.4f\n", b / a}' >> "$tmp/ratios"
done
echo "A: $(awk '{print $1}' "$tmp/pairs" | median) nodes per CPU-second ($1)"
echo "B: $(awk '{print $2}' "$tmp/pairs" | median) nodes per CPU-second ($2)"
echo "B/A: median $(median < "$tmp/ratios") (each pair: $(sort -g "$tmp/ratios" | tr '\n' ' '))"
