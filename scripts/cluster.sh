#!/usr/bin/env bash
# Several lasca-web instances behind HAProxy on one PostgreSQL database, all on loopback, for
# tests, figures and trying it out (docs/design.md, "Spreading the server over several
# machines"). The database is a throwaway cluster (scripts/pg-cluster.sh); HAProxy runs the
# shipped packaging/haproxy-lasca-cluster.cfg with its ports changed.
#
#   cluster.sh start DIR BINDIR [--instances N] [--lease-ms MS] [--watch PID]
#       PostgreSQL, N instances (1..3, default 3: web1..webN, lasca-web and lasca from BINDIR)
#       and HAProxy, each instance's log DIR/webN.log; returns once the front answers through
#       every instance, and prints the front's URL (http://127.0.0.1:PORT/). --watch PID: when
#       process PID ends, everything is stopped and DIR removed (a test that dies leaves nothing).
#   cluster.sh kill DIR N             kill -9 instance N (webN)
#   cluster.sh start-instance DIR N   starts webN again on its port (after a kill)
#   cluster.sh freeze DIR N / thaw DIR N   SIGSTOP / SIGCONT webN (an instance that is late)
#   cluster.sh url DIR | db DIR | port DIR N   the front's URL, the database's, webN's port
#   cluster.sh stop DIR               stops everything and removes DIR
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
die() {
    echo "cluster.sh: $*" >&2
    exit 1
}

# Free loopback ports, one per line.
free_ports() {
    /usr/bin/python3 - "$1" <<'PY'
import socket, sys
held = []
for _ in range(int(sys.argv[1])):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    held.append(s)
    print(s.getsockname()[1])
PY
}

# Waits until `url` answers 200 (a front or an instance), at most 60 s.
wait_health() {
    local url=$1 i
    for i in $(seq 600); do
        if /usr/bin/python3 - "$url" <<'PY' 2>/dev/null; then return 0; fi
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=2) as r:
    sys.exit(0 if r.status == 200 else 1)
PY
        sleep 0.1
    done
    return 1
}

start_instance() {
    local dir=$1 n=$2 port
    port=$(sed -n "${n}p" "$dir/ports")
    # An earlier life's log kept beside (the wait below reads this life's).
    [ -f "$dir/web$n.log" ] && cat "$dir/web$n.log" >>"$dir/web$n.earlier.log" && rm "$dir/web$n.log"
    "$(cat "$dir/bindir")/lasca-web" --db "$(cat "$dir/db")" --instance "web$n" \
        --port "$port" --trusted-proxy 127.0.0.1 \
        --public-origin "http://127.0.0.1:$(cat "$dir/front")" \
        --max-engines 1 --lease-ms "$(cat "$dir/lease")" --log-level info \
        >>"$dir/web$n.log" 2>&1 &
    echo $! >"$dir/web$n.pid"
    local i
    for i in $(seq 600); do
        grep -q "listening on" "$dir/web$n.log" 2>/dev/null && return 0
        kill -0 "$(cat "$dir/web$n.pid")" 2>/dev/null || die "web$n did not start: $(tail -n 3 "$dir/web$n.log")"
        sleep 0.1
    done
    die "web$n did not start within 60 s"
}

pid_of() { cat "$1/web$2.pid"; }

[ $# -ge 2 ] || die "usage: cluster.sh start|kill|start-instance|freeze|thaw|url|db|port|stop DIR ..."
command=$1
dir=$2
case $command in
start)
    [ $# -ge 3 ] || die "usage: cluster.sh start DIR BINDIR [--instances N] [--lease-ms MS]"
    bindir=$(cd "$3" && pwd)
    shift 3
    instances=3 lease=5000 watch=""
    while [ $# -gt 0 ]; do
        case $1 in
        --instances) instances=$2; shift 2 ;;
        --lease-ms) lease=$2; shift 2 ;;
        --watch) watch=$2; shift 2 ;;
        *) die "unknown option $1" ;;
        esac
    done
    [[ $instances =~ ^[1-3]$ ]] || die "--instances must be 1..3"
    [ -x "$bindir/lasca-web" ] || die "no lasca-web in $bindir"
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    echo "$bindir" >"$dir/bindir"
    echo "$lease" >"$dir/lease"
    echo "$instances" >"$dir/instances"
    # The database: fast and throwaway (a test's cluster, not a club's).
    "$here/pg-cluster.sh" start "$dir/pg" fsync=off synchronous_commit=off >/dev/null
    "$here/pg-cluster.sh" createdb "$dir/pg" lasca >"$dir/db"
    mapfile -t ports < <(free_ports 4)
    echo "${ports[0]}" >"$dir/front"
    printf '%s\n' "${ports[@]:1}" >"$dir/ports"
    # The shipped front, its ports changed, without the instances not started.
    sed -e "s/127\.0\.0\.1:8443/127.0.0.1:${ports[0]}/g" \
        -e "s/127\.0\.0\.1:8081/127.0.0.1:${ports[1]}/" \
        -e "s/127\.0\.0\.1:8082/127.0.0.1:${ports[2]}/" \
        -e "s/127\.0\.0\.1:8083/127.0.0.1:${ports[3]}/" \
        -e "s/^    log stdout format raw local0$/    log stderr format raw local0/" \
        "$here/../packaging/haproxy-lasca-cluster.cfg" >"$dir/haproxy.cfg"
    for n in 1 2 3; do
        [ "$n" -le "$instances" ] || sed -i "/web$n/d" "$dir/haproxy.cfg"
    done
    for n in $(seq "$instances"); do start_instance "$dir" "$n"; done
    haproxy -c -q -f "$dir/haproxy.cfg" || die "haproxy refuses $dir/haproxy.cfg"
    haproxy -f "$dir/haproxy.cfg" -D -p "$dir/haproxy.pid" 2>"$dir/haproxy.log" ||
        die "haproxy did not start: $(tail -n 3 "$dir/haproxy.log")"
    wait_health "http://127.0.0.1:${ports[0]}/health" || die "the front does not answer"
    if [ -n "$watch" ]; then
        # shellcheck disable=SC2016  # the watcher's own arguments, expanded by its shell
        setsid bash -c 'while kill -0 "$1" 2>/dev/null; do sleep 1; done; "$2" stop "$3"' \
            watch "$watch" "$here/cluster.sh" "$dir" </dev/null >/dev/null 2>&1 &
    fi
    # Each instance up in the front's eyes (two checks: rise 2).
    sleep 2.5
    echo "http://127.0.0.1:${ports[0]}/"
    ;;
kill) kill -9 "$(pid_of "$dir" "$3")" ;;
freeze) kill -STOP "$(pid_of "$dir" "$3")" ;;
thaw) kill -CONT "$(pid_of "$dir" "$3")" ;;
start-instance) start_instance "$dir" "$3" ;;
url) echo "http://127.0.0.1:$(cat "$dir/front")/" ;;
db) cat "$dir/db" ;;
port) sed -n "${3}p" "$dir/ports" ;;
stop)
    [ -d "$dir" ] || exit 0
    for pidfile in "$dir"/web*.pid "$dir/haproxy.pid"; do
        [ -f "$pidfile" ] || continue
        kill -CONT "$(cat "$pidfile")" 2>/dev/null || true
        kill -9 "$(cat "$pidfile")" 2>/dev/null || true
    done
    [ -d "$dir/pg" ] && "$here/pg-cluster.sh" stop "$dir/pg" || true
    rm -rf "$dir"
    ;;
*) die "unknown command $command" ;;
esac
