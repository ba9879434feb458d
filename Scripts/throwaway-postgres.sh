#!/usr/bin/env bash
# A PostgreSQL cluster for a benchmark or a try-out, in a folder of its own, on a free loopback
# port, trusting local connections; as root, it runs as the postgres user.
#   Scripts/throwaway-postgres.sh start DIR   prints postgres://bk@127.0.0.1:PORT/bench
#   Scripts/throwaway-postgres.sh stop DIR    stops it and removes DIR
set -euo pipefail
command=${1:?start or stop}
folder=${2:?a folder}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[[ -n "$bin" ]] || { echo "throwaway-postgres: PostgreSQL is not installed (Scripts/bootstrap.sh --oracles)" >&2; exit 1; }
as_owner=()
[[ $(id -u) -eq 0 ]] && as_owner=(runuser -u postgres --)
case "$command" in
  start)
    # The server outlives this script: it must not hold the caller's pipes open.
    for fd in $(ls /proc/$$/fd); do [[ "$fd" -gt 2 ]] && eval "exec $fd>&-"; done
    mkdir -p "$folder"
    [[ $(id -u) -eq 0 ]] && chown postgres "$folder"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "${as_owner[@]}" "$bin/initdb" -D "$folder/data" -U bk --auth=trust -E UTF8 --locale=C.UTF-8 -N >/dev/null
    "${as_owner[@]}" "$bin/pg_ctl" -D "$folder/data" -l "$folder/log" -w \
      -o "-p $port -k $folder -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=512MB" start >/dev/null 2>&1
    psql -X -q -h 127.0.0.1 -p "$port" -U bk -d postgres -c "CREATE DATABASE bench" >/dev/null
    echo "postgres://bk@127.0.0.1:$port/bench"
    ;;
  stop)
    "${as_owner[@]}" "$bin/pg_ctl" -D "$folder/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$folder"
    ;;
  *) echo "throwaway-postgres: start or stop" >&2; exit 2 ;;
esac
