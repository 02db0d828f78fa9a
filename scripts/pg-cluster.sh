#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and local runs: made with initdb in a folder of its
# own, served by pg_ctl on a Unix socket in that folder only (listen_addresses = '': nothing
# listens on TCP), trust authentication for the `postgres` user (only who can reach the folder
# can connect), and stopped with `pg_ctl stop -m immediate`. Run as root, PostgreSQL's programs
# run as the `postgres` user (runuser) and the folder is made its own; run as anyone else, they
# run as that user.
#
#   pg-cluster.sh start DIR [--watch PID] [NAME=VALUE ...]
#       Makes DIR, initdb's DIR/data and starts the server (its log DIR/server.log); NAME=VALUE
#       settings go to its postgresql.conf (e.g. fsync=off for tests). --watch PID: when process
#       PID ends, the cluster is stopped and DIR removed (a test program that crashes leaves no
#       server behind). Prints the URL of its `postgres` database:
#       postgresql:///postgres?host=DIR&user=postgres
#   pg-cluster.sh createdb DIR NAME     makes database NAME; prints its URL
#   pg-cluster.sh url DIR NAME          prints database NAME's URL
#   pg-cluster.sh stop DIR              stops the server (immediate) and removes DIR
#
# PostgreSQL's programs are taken from /usr/lib/postgresql/<newest version>/bin (LASCA_PG_BIN
# overrides); scripts/test.sh installs them (scripts/setup.sh's test packages).
set -euo pipefail

die() {
    echo "pg-cluster.sh: $*" >&2
    exit 1
}

pg_bin() {
    local dir best
    if [ -n "${LASCA_PG_BIN:-}" ]; then
        best=$LASCA_PG_BIN
        [ -x "$best/initdb" ] && [ -x "$best/pg_ctl" ] || best=""
    else
        # The highest version number (a glob would sort 10 before 9).
        best=$(for dir in /usr/lib/postgresql/*/bin; do
            [ -x "$dir/initdb" ] && [ -x "$dir/pg_ctl" ] && echo "$dir"
        done | sort -t/ -k5,5V | tail -n 1)
    fi
    [ -n "$best" ] || die "PostgreSQL's programs (initdb, pg_ctl) are missing under" \
        "/usr/lib/postgresql/<version>/bin: install Debian's postgresql package" \
        "(scripts/test.sh does, with scripts/setup.sh's test packages)"
    echo "$best"
}

# Runs a PostgreSQL program as the cluster's owner.
as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

url() {
    echo "postgresql:///$2?host=$1&user=postgres"
}

[ $# -ge 2 ] || die "usage: pg-cluster.sh start|createdb|url|stop DIR ..."
command=$1
dir=$2
shift 2
case "$dir" in
    /*) ;;
    *) dir="$(pwd)/$dir" ;;
esac

case "$command" in
    start)
        bin=$(pg_bin)
        watch=""
        settings=()
        while [ $# -gt 0 ]; do
            case "$1" in
                --watch) watch=$2; shift 2 ;;
                *=*) settings+=("$1"); shift ;;
                *) die "unknown argument: $1" ;;
            esac
        done
        # A socket's path is at most 107 bytes: DIR/.s.PGSQL.5432 must fit.
        [ ${#dir} -le 90 ] || die "the folder's path is too long for a socket: $dir"
        mkdir -p "$dir"
        chmod 700 "$dir"
        [ "$(id -u)" = 0 ] && chown postgres: "$dir"
        as_owner "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C \
            --no-sync >"$dir/initdb.log" 2>&1 ||
            die "initdb failed (its output: $dir/initdb.log): $(tail -n 1 "$dir/initdb.log")"
        {
            echo "listen_addresses = ''"
            echo "unix_socket_directories = '$dir'"
            for setting in "${settings[@]}"; do
                echo "${setting%%=*} = '${setting#*=}'"
            done
        } | as_owner tee -a "$dir/data/postgresql.conf" >/dev/null
        as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 -s start ||
            die "the server did not start (its log: $dir/server.log): $(tail -n 2 "$dir/server.log")"
        if [ -n "$watch" ]; then
            script=$(readlink -f "$0")
            # shellcheck disable=SC2016  # the watcher's own arguments, expanded by its shell
            setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; "$2" stop "$3"' \
                watch "$watch" "$script" "$dir" </dev/null >/dev/null 2>&1 &
        fi
        url "$dir" postgres
        ;;
    createdb)
        [ $# -eq 1 ] || die "usage: pg-cluster.sh createdb DIR NAME"
        as_owner "$(pg_bin)/createdb" -h "$dir" -U postgres "$1"
        url "$dir" "$1"
        ;;
    url)
        [ $# -eq 1 ] || die "usage: pg-cluster.sh url DIR NAME"
        url "$dir" "$1"
        ;;
    stop)
        if [ -f "$dir/data/postmaster.pid" ]; then
            as_owner "$(pg_bin)/pg_ctl" -D "$dir/data" -m immediate -s stop >/dev/null 2>&1 || true
        fi
        rm -rf "$dir"
        ;;
    *)
        die "unknown command: $command (start, createdb, url, stop)"
        ;;
esac
