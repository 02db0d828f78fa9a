#!/usr/bin/env bash
# Strength ladder: lasca at a fixed time per move against the reference players of
# lasca-reference (random mover, greedy one-ply, plain alpha-beta at fixed depth), each over
# colour-swapped pairs of the default openings. Prints each match's report; games go to
# ladder-<opponent>.pdn in the output folder.
#   scripts/ladder.sh [--games N] [--movetime MS] [--depth D] [--out DIR]
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

games=200
movetime=100
depth=6
out="$LASCA_ROOT/ladder"
while [ $# -gt 0 ]; do
    case "$1" in
        --games) games=$2; shift 2 ;;
        --movetime) movetime=$2; shift 2 ;;
        --depth) depth=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        *) echo "ladder.sh: unknown flag $1" >&2; exit 2 ;;
    esac
done

lasca_install_dependencies
lasca_build build Release -DLASCA_BUILD_TESTS=OFF -DLASCA_BUILD_BENCHMARKS=OFF
mkdir -p "$out"
bin="$LASCA_ROOT/build"
for opponent in random greedy alphabeta; do
    spec="name=$opponent,cmd=$bin/lasca-reference,option.Player=$opponent"
    [ "$opponent" = alphabeta ] && spec="name=alphabeta$depth,cmd=$bin/lasca-reference,option.Player=alphabeta,option.Depth=$depth"
    rm -f "$out/ladder-$opponent.pdn"
    echo "== lasca ${movetime} ms/move vs $opponent: $games games"
    "$bin/lasca-match" --engine "name=lasca,cmd=$bin/lasca" --engine "$spec" \
        --games "$games" --movetime "$movetime" --concurrency "$(nproc)" \
        --openings "$LASCA_ROOT/data/openings.txt" --log-dir "$out/logs" \
        --pdn "$out/ladder-$opponent.pdn"
done
