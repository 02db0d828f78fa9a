#!/usr/bin/env bash
# Calibration of the web page's levels: each level (a node budget per move, the
# kLevels of include/web/lasca_tables/lasca_table.h) plays the reference players of lasca-reference and its
# neighbouring levels with lasca-match, node-limited, over data/openings-1000.txt. A level is
# the engine behind a two-line wrapper that turns every `go ...` into `go nodes N` (lasca-match
# has one limit for both sides); 8 MB hash as the web server sets. Games go to
# <out>/<first>-vs-<second>.pdn, reports to <out>/<first>-vs-<second>.txt; docs/strength.md
# ("Levels of the web page") chains them into an Elo ladder with scripts/levels_elo.py. A level
# with a random share (Starter) runs behind scripts/level_engine.py, which replaces that share of
# the engine's moves by legal moves as the server does.
#   scripts/levels.sh [--build DIR] [--out DIR] [--games N] [--resume] [PAIRING...]
# --resume keeps the games already in a pairing's PDN (a longer run of a pairing adds games).
# A PAIRING is FIRST:SECOND:GAMES (GAMES optional, default --games), each side a level name
# (starter beginner novice casual club strong master, or nN for N nodes) or random, greedy, abD.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

build="$root/build"
out="$root/levels"
games=100
resume=()
pairings=()
while [ $# -gt 0 ]; do
    case "$1" in
        --build) build=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --games) games=$2; shift 2 ;;
        --resume) resume=(--resume); shift ;;
        -*) echo "levels.sh: unknown flag $1" >&2; exit 2 ;;
        *) pairings+=("$1"); shift ;;
    esac
done
[ ${#pairings[@]} -eq 0 ] && pairings=(
    greedy:random starter:random starter:greedy beginner:starter beginner:random beginner:greedy novice:greedy novice:beginner
    casual:novice casual:ab4 club:casual club:ab6 strong:club master:strong:30)

build=$(cd "$build" && pwd)
mkdir -p "$out/bin"
# Node budgets of the page's levels (keep in step with kLevels in include/web/lasca_tables/lasca_table.h).
declare -A nodes=([starter]=20 [beginner]=20 [novice]=150 [casual]=1000 [club]=8000
                  [strong]=60000 [master]=400000)
declare -A random_percent=([starter]=50)

# spec NAME: the lasca-match engine spec of one side.
spec() {
    local name=$1 n=""
    case "$name" in
        random|greedy) echo "name=$name,cmd=$build/lasca-reference,option.Player=$name"; return ;;
        ab[0-9]*) echo "name=$name,cmd=$build/lasca-reference,option.Player=alphabeta,option.Depth=${name#ab}"; return ;;
        n[0-9]*) n=${name#n} ;;
        *) n=${nodes[$name]:-} ;;
    esac
    [ -z "$n" ] && { echo "levels.sh: unknown player $name" >&2; exit 2; }
    local wrapper="$out/bin/$name.sh" percent=${random_percent[$name]:-0}
    if [ "$percent" -gt 0 ]; then
        printf '#!/bin/sh\nexec python3 "%s" "%s" %s %s\n' "$root/scripts/level_engine.py" \
            "$build/lasca" "$n" "$percent" > "$wrapper"
    else
        printf '#!/bin/sh\nsed -u "s/^go .*/go nodes %s/" | exec "%s"\n' "$n" "$build/lasca" > "$wrapper"
    fi
    chmod +x "$wrapper"
    echo "name=$name,cmd=$wrapper,option.Hash=8"
}

for p in "${pairings[@]}"; do
    IFS=: read -r first second g <<< "$p"
    g=${g:-$games}
    a=$(spec "$first")
    b=$(spec "$second")
    base="$out/$first-vs-$second"
    [ ${#resume[@]} -eq 0 ] && rm -f "$base.pdn"
    echo "== $first vs $second: $g games" >&2
    # --nodes only reaches lasca-reference (which ignores it); the wrappers set each level's.
    "$build/lasca-match" --engine "$a" --engine "$b" --games "$g" --nodes 1000 \
        --concurrency 1 --openings "$root/data/openings-1000.txt" --log-dir '' \
        --pdn "$base.pdn" "${resume[@]}" | tee "$base.txt"
done
