#!/usr/bin/env bash
# A table sharded over two PostgreSQL servers against one server, on the same rows and tiles:
# starts three throwaway clusters on loopback (a coordinator, which also holds the one-server
# table, and two shards), runs heatmap-bench --only postgres-sharded against them, and stops
# and removes them at the end. Usage: bench/postgres_sharded.sh [OUT.json] [heatmap-bench options]
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench-sharded.json}
shift || true
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
[ -x "$bin/pg_ctl" ] || { echo "postgres_sharded.sh: no PostgreSQL under /usr/lib/postgresql" >&2; exit 1; }
folder=$(mktemp -d /tmp/heatmap-sharded-XXXXXX)
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$folder"
ports=()
stop() {
    for name in coordinator shard1 shard2; do
        [ -f "$folder/$name/postmaster.pid" ] && as_postgres "$bin/pg_ctl" -D "$folder/$name" -m immediate -w stop >"$folder/stop.log" 2>&1 || true
    done
    rm -rf "$folder"
}
trap stop EXIT
for name in coordinator shard1 shard2; do
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    ports+=("$port")
    as_postgres "$bin/initdb" -D "$folder/$name" -U postgres --auth=trust -E UTF8 --no-sync >"$folder/$name.initdb.log"
    as_postgres "$bin/pg_ctl" -D "$folder/$name" -l "$folder/$name.log" -w -t 60 \
        -o "-p $port -k $folder -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=256MB" start >"$folder/$name.start.log"
done
url() { echo "postgresql://postgres@127.0.0.1:$1/postgres"; }
swift build -c release --product heatmap-bench
.build/release/heatmap-bench --only postgres-sharded --repetitions 3 --sizes 1000000 --postgres "$(url "${ports[0]}")" \
    --shard "$(url "${ports[1]}")" --shard "$(url "${ports[2]}")" --json "$out" "$@" >"$folder/report.json"
echo "postgres_sharded.sh: report in $out" >&2
