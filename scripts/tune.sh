#!/usr/bin/env bash
# The evaluation tuning pipeline (docs/tuning.md), end to end:
#   1. openings: random positions PLIES plies from the start (lasca-match openings);
#   2. self-play: the current engine against itself at a fixed node count (lasca-match), PDN;
#   3. extract: the quiet positions of those games, labelled with their results (lasca-tune);
#   4. fit: Texel's logistic fit of the weights (lasca-tune), written to src/lasca/eval/eval_weights.inc;
#   5. rebuild, so that the engine carries the new weights.
# Everything it makes goes to --out (default tune/); src/lasca/eval/eval_weights.inc is overwritten (review
# it with git diff, then prove it with an SPRT: docs/strength.md).
#   scripts/tune.sh [--games N] [--nodes N] [--plies N] [--seed S] [--epochs N] [--rate R]
#                   [--start tuned|material] [--out DIR] [--no-build]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

games=4000
nodes=3000
plies=10
seed=7
epochs=3000
rate=0.5
start=tuned
out="$LASCA_ROOT/tune"
build=1
while [ $# -gt 0 ]; do
    case "$1" in
        --games) games=$2; shift 2 ;;
        --nodes) nodes=$2; shift 2 ;;
        --plies) plies=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --epochs) epochs=$2; shift 2 ;;
        --rate) rate=$2; shift 2 ;;
        --start) start=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        *) echo "tune.sh: unknown flag $1" >&2; exit 2 ;;
    esac
done

if [ "$build" -eq 1 ]; then
    lasca_install_dependencies --test
    lasca_build build Release
fi
bin="$LASCA_ROOT/build"
mkdir -p "$out"
began=$(date +%s)

echo "tune: $((games / 2)) openings of $plies plies (seed $seed)" >&2
"$bin/lasca-match" openings --plies "$plies" --count $((games / 2)) --seed "$seed" > "$out/openings.txt"

echo "tune: $games self-play games at $nodes nodes per move" >&2
rm -f "$out/games.pdn"
"$bin/lasca-match" --engine "name=lasca,cmd=$bin/lasca,option.Hash=16" --games "$games" \
    --nodes "$nodes" --openings "$out/openings.txt" --max-plies 400 --log-dir '' \
    --pdn "$out/games.pdn" > "$out/selfplay.txt"

"$bin/lasca-tune" extract --pdn "$out/games.pdn" --out "$out/positions.txt"
"$bin/lasca-tune" fit --positions "$out/positions.txt" --out "$LASCA_ROOT/src/lasca/eval_weights.inc" \
    --epochs "$epochs" --rate "$rate" --start "$start"

if [ "$build" -eq 1 ]; then
    cmake --build "$bin" -j "$(nproc)" --target lasca >&2
fi
echo "tune: done in $(( $(date +%s) - began )) s; data in $out, weights in src/lasca/eval/eval_weights.inc" >&2
