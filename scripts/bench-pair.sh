#!/bin/bash
# Compare the search speed of two engine set-ups on a shared machine: for each repetition run
# `bench DEPTH` with both (the order alternating), measure the CPU time each used (perf stat's
# task-clock, steadier than the wall clock when other jobs run), and print the medians of the
# nodes per CPU-second and of the ratio B/A.
#   scripts/bench-pair.sh [--reps N] [--depth D] "BIN_A UseNNUE_A [NET_A]" "BIN_B UseNNUE_B [NET_B]"
# NET: a network file the engine loads (EvalFile) instead of its embedded one.
# e.g. scripts/bench-pair.sh "build/lasca false" "build/lasca true"   (the network's share)
#      scripts/bench-pair.sh "build/lasca true" "build/lasca true full.nnue"  (another network)
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
[[ $# -eq 2 ]] || { echo "usage: $0 [--reps N] [--depth D] \"BIN_A true|false [NET_A]\" \"BIN_B true|false [NET_B]\"" >&2; exit 2; }
[[ $reps =~ ^[0-9]+$ && $reps -ge 1 && $reps -le 1000 ]] || { echo "error: --reps must be 1..1000" >&2; exit 2; }
[[ $depth =~ ^[0-9]+$ && $depth -ge 1 && $depth -le 30 ]] || { echo "error: --depth must be 1..30" >&2; exit 2; }
command -v perf > /dev/null || { echo "error: perf is needed (apt-get install linux-perf)" >&2; exit 2; }

speed() {  # "BIN NNUE [NET]" -> nodes per CPU-second
  local bin nnue net out ms nodes load=""
  read -r bin nnue net <<< "$1"
  [[ -n $net ]] && load="setoption name EvalFile value $net\n"
  out=$(printf "${load}setoption name UseNNUE value %s\nbench %s\nquit\n" "$nnue" "$depth" |
        perf stat -x, -e task-clock "$bin" 2> "$tmp/stat")
  nodes=$(awk '/Nodes searched/ {print $3}' <<< "$out")
  if [[ -z $nodes ]] || grep -q "info string error" <<< "$out"; then
    echo "error: \"$1\": $(grep -m1 "info string error" <<< "$out" || echo "no bench result")" >&2
    exit 2
  fi
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
