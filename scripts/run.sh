#!/usr/bin/env bash
# Installs what is missing, builds the Release programs, and starts one of them.
#   scripts/run.sh [ARGS...]            the Lasca engine with ARGS: `scripts/run.sh` starts the
#                                       protocol loop, `scripts/run.sh perft --depth 13` runs perft
#   scripts/run.sh PROGRAM [ARGS...]    another program of the project with ARGS; PROGRAM is one
#                                       of lasca-match lasca-reference lasca-tune torneio
#                                       torneio-referee torneio-ai-eval torneio-bench
#   scripts/run.sh torneio-play [--opponents N] [--opponent KIND] [--level L] [REFEREE ARGS...]
#                                       a Torneio game at this terminal: you (seat 1) against N
#                                       (1 to 3, default 1) `torneio` players of kind KIND
#                                       (random, heuristic or ai; default heuristic); an ai plays
#                                       at level L: easy, normal or strong (its Level option, the
#                                       web table's levels; default strong); the other
#                                       arguments go to torneio-referee (--seed 7, --params ...)
#   scripts/run.sh web [ARGS...]        the web page (lasca-web): prints the address to open,
#                                       http://127.0.0.1:8080/ by default (--port N, --listen ADDR)
# Build output goes to stderr, so stdout carries only the program's own lines.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"

LASCA_PROGRAMS=(lasca-match lasca-reference lasca-tune torneio torneio-referee torneio-ai-eval
                torneio-bench lasca-web)

# TORNEIO_PLAY: the arguments of torneio-referee for `torneio-play`: the person's seat, the
# opponents, then the other arguments as given (and no log folder unless one is given).
torneio_play_arguments() {
    local opponents=1 kind=heuristic level=strong logs=0 i options=""
    local rest=()
    while [ $# -gt 0 ]; do
        case "$1" in
            --opponents) opponents=${2:-}; shift $(($# > 1 ? 2 : 1)) ;;
            --opponent) kind=${2:-}; shift $(($# > 1 ? 2 : 1)) ;;
            --level) level=${2:-}; shift $(($# > 1 ? 2 : 1)) ;;
            --log-dir*) logs=1; rest+=("$1"); shift ;;
            *) rest+=("$1"); shift ;;
        esac
    done
    case "$opponents" in
        1|2|3) ;;
        *) echo "torneio-play: --opponents must be 1, 2 or 3" >&2; exit 2 ;;
    esac
    case "$kind" in
        random|heuristic|ai) ;;
        *) echo "torneio-play: --opponent must be random, heuristic or ai" >&2; exit 2 ;;
    esac
    case "$level" in
        easy|normal|strong) options=",option.Level=$level" ;;
        *) echo "torneio-play: --level must be easy, normal or strong" >&2; exit 2 ;;
    esac
    [ "$kind" = ai ] || options=""
    TORNEIO_PLAY=(--player "name=you,human")
    for ((i = 1; i <= opponents; i++)); do
        TORNEIO_PLAY+=(--player "name=$kind-$i,cmd=$LASCA_ROOT/build/torneio,option.Player=$kind$options")
    done
    [ "$logs" -eq 1 ] || TORNEIO_PLAY+=(--log-dir '')
    TORNEIO_PLAY+=("${rest[@]}")
}

program=lasca
if [ $# -gt 0 ]; then
    if [ "$1" = torneio-play ]; then
        shift
        torneio_play_arguments "$@"
        set -- "${TORNEIO_PLAY[@]}"
        program=torneio-referee
    elif [ "$1" = web ]; then
        shift
        program=lasca-web
    else
        for p in "${LASCA_PROGRAMS[@]}"; do
            if [ "$1" = "$p" ]; then
                program=$p
                shift
                break
            fi
        done
    fi
fi

lasca_install_dependencies
lasca_build build Release -DLASCA_BUILD_TESTS=OFF -DLASCA_BUILD_BENCHMARKS=OFF
exec "$LASCA_ROOT/build/$program" "$@"
