#!/usr/bin/env bash
# `awale loadtest` against N `awale serve` processes on one PostgreSQL
# database (docs/BENCHMARKS.md, "Several processes"): a throwaway cluster
# in a temporary folder (run as `nobody` when we are root, as the tests
# do), N processes on loopback ports, the load test spread over them; with
# KILL_AFTER=S, one process (the first) is SIGKILLed S seconds into the run.
# Prints the load test's last line (its JSON), then the moves the database
# holds; the processes run with `--db none` (no endgame databases built
# beside the load).
#
#   scripts/loadtest-processes.sh N [loadtest's arguments...]
#   e.g. KILL_AFTER=10 scripts/loadtest-processes.sh 3 --games 100 --seconds 30
#
# AWALE (default target/fast/awale) is the binary; PG_BIN the folder of
# PostgreSQL's programs (default: the newest /usr/lib/postgresql/*/bin).
# PG_SETTINGS adds settings to the cluster (e.g. "-c plan_cache_mode=force_generic_plan").
# STEADY_AFTER=S adds the costs per move from S seconds into the run to a
# second before its end (past the start: the games made and seated).
set -euo pipefail
cd "$(dirname "$0")/.."

n=${1:?"give the number of processes"}
shift
awale=${AWALE:-target/fast/awale}
[ -x "$awale" ] || { echo "no $awale: cargo build --profile fast -p awale" >&2; exit 1; }
awale=$(realpath "$awale")
pg_bin=${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
[ -x "$pg_bin/initdb" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }

dir=$(mktemp -d /tmp/awale-loadpg-XXXXXX)
as_owner=()
if [ "$(id -u)" -eq 0 ]; then
    chown nobody: "$dir"
    as_owner=(setpriv --reuid=65534 --regid=65534 --clear-groups)
fi
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    "${as_owner[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
    # With LOGS=DIR, the processes' logs and PostgreSQL's are kept there.
    if [ -n "${LOGS:-}" ]; then
        mkdir -p "$LOGS" && cp "$dir"/serve*.log "$dir/pg.log" "$LOGS/" 2>/dev/null || true
    fi
    rm -rf "$dir"
}
trap cleanup EXIT

port=$((20000 + RANDOM % 20000))
"${as_owner[@]}" "$pg_bin/initdb" -D "$dir/data" -U awale -A trust >/dev/null
# A real server's settings for durability: fsync on (the default), one WAL
# flush shared by the transactions committing together.
"${as_owner[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/pg.log" -w \
    -o "-k $dir -p $port -c listen_addresses=127.0.0.1 -c max_connections=200 ${PG_SETTINGS:-} ${STATEMENTS:+-c shared_preload_libraries=pg_stat_statements}" start >/dev/null
"$pg_bin/createdb" -h 127.0.0.1 -p "$port" -U awale awale
url="postgres://awale@127.0.0.1:$port/awale"
# With STATEMENTS=1, the statements that took PostgreSQL's time are
# printed at the end (pg_stat_statements, in the database `postgres`: the
# store refuses a database holding another program's tables).
[ -n "${STATEMENTS:-}" ] && "$pg_bin/psql" -h 127.0.0.1 -p "$port" -U awale -d postgres -qc "CREATE EXTENSION pg_stat_statements" >/dev/null

addrs=()
for i in $(seq 1 "$n"); do
    # Each process prints its address once it listens. Its limits per
    # address are the defaults (the load test's clients each come from a
    # loopback address of their own); only the cap on connections in all
    # is raised, for 1,000 games and 5,000 spectators.
    ${THREADS:+env TOKIO_WORKER_THREADS=$THREADS} "$awale" serve --addr 127.0.0.1:0 --store "$url" --db none \
        --max-connections 20000 >"$dir/serve$i.out" 2>"$dir/serve$i.log" &
    pids+=($!)
done
for i in $(seq 1 "$n"); do
    for _ in $(seq 1 100); do
        addr=$(grep -oE '127\.0\.0\.1:[0-9]+' "$dir/serve$i.out" | head -1 || true)
        [ -n "$addr" ] && break
        sleep 0.1
    done
    [ -n "$addr" ] || { echo "process $i did not start: $(cat "$dir/serve$i.log")" >&2; exit 1; }
    addrs+=(--addr "$addr")
done

psql_at() { "$pg_bin/psql" -h 127.0.0.1 -p "$port" -U awale -d awale -Atc "$1"; }
ticks=$(getconf CLK_TCK)
# PostgreSQL's CPU time (server and backends, in ticks) and its commits,
# before the run: the figures per move are the differences.
pm=$(head -1 "$dir/data/postmaster.pid")
pg_ticks() {
    for p in "$pm" $(ps --ppid "$pm" -o pid=); do
        awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || true
    done | awk '{ s += $1 } END { printf "%d", s }'
}
commits() { psql_at "SELECT xact_commit FROM pg_stat_database WHERE datname = 'awale'"; }
ticks_before=$(pg_ticks)
commits_before=$(commits)
# The start, every half second for the first SAMPLE_S seconds (default
# 10): the games made, those with both seats taken, the moves stored.
(
    t0=$(date +%s.%N)
    while :; do
        now=$(date +%s.%N)
        s=$(awk -v a="$t0" -v b="$now" 'BEGIN { printf "%.1f", b - a }')
        awk -v s="$s" -v m="${SAMPLE_S:-10}" 'BEGIN { exit !(s > m) }' && break
        echo "at ${s} s: games, seated, moves: $(psql_at "SELECT (SELECT COUNT(*) FROM games), (SELECT COUNT(*) FROM games WHERE north_player IS NOT NULL AND south_player IS NOT NULL), (SELECT COUNT(*) FROM moves)" 2>/dev/null | tr '|' ' ')" >&2
        sleep 0.5
    done
) &
sampler=$!
pids+=("$sampler")

# With STEADY_AFTER=S, the figures at S seconds into the run and a
# second before its end (`--seconds`) are noted: the costs per move
# between, past the start (the games made and seated, whose statements
# are not a move's) and before the end (the games resigned, the check).
procs_ticks() {
    for p in "${pids[@]:0:$n}"; do awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || true; done |
        awk '{ s += $1 } END { printf "%d", s }'
}
figures() { echo "$(psql_at 'SELECT COUNT(*) FROM moves') $(commits) $(pg_ticks) $(procs_ticks)"; }
if [ -n "${STEADY_AFTER:-}" ]; then
    seconds=60 # the load test's default
    args=("$@")
    for i in "${!args[@]}"; do
        [ "${args[$i]}" = --seconds ] && seconds=${args[$((i + 1))]:-60}
    done
    (
        sleep "$STEADY_AFTER"
        figures >"$dir/steady.from"
        sleep $((seconds - STEADY_AFTER - 1))
        figures >"$dir/steady.to"
    ) &
    pids+=("$!")
fi
if [ -n "${KILL_AFTER:-}" ]; then
    (sleep "$KILL_AFTER"; kill -9 "${pids[0]}"; echo "killed process 1 (${addrs[1]}) at ${KILL_AFTER} s" >&2) &
fi
"$awale" loadtest "${addrs[@]}" --store "$url" "$@"
moves=$(psql_at 'SELECT COUNT(*) FROM moves')
echo "moves in the database: $moves" >&2
# PostgreSQL's work during the run, per move stored (the commits counted
# include the few reads of this script's sampler, one each half second).
ticks_after=$(pg_ticks)
commits_after=$(commits)
awk -v m="$moves" -v c=$((commits_after - commits_before)) -v t=$((ticks_after - ticks_before)) -v hz="$ticks" \
    'BEGIN { if (m > 0) printf "postgres per move: %.2f commits, %.2f ms CPU (%d commits, %.1f s CPU)\n", c / m, 1000 * t / hz / m, c, t / hz }' >&2
if [ -s "$dir/steady.from" ] && [ -s "$dir/steady.to" ]; then
    # Four numbers each, else (a figure not read) nothing is said.
    cat "$dir/steady.from" "$dir/steady.to" | awk -v hz="$ticks" -v from="$STEADY_AFTER" -v to=$((seconds - 1)) '
        NF == 4 && $0 ~ /^[0-9 ]+$/ { for (i = 1; i <= 4; i++) f[NR, i] = $i; ok++ }
        END {
            m = f[2, 1] - f[1, 1]
            if (ok == 2 && m > 0)
                printf "from %s s to %s s, per move: postgres %.2f commits, %.2f ms CPU; the processes %.2f ms CPU (%d moves)\n",
                    from, to, (f[2, 2] - f[1, 2]) / m, 1000 * (f[2, 3] - f[1, 3]) / hz / m, 1000 * (f[2, 4] - f[1, 4]) / hz / m, m
        }' >&2
fi
if [ -n "${STATEMENTS:-}" ]; then
    # STATEMENTS=calls: by calls (what runs per move, each kind counted).
    order=total_exec_time
    [ "$STATEMENTS" = calls ] && order=calls
    echo "statements, by $order (calls, total ms, mean ms, rows):" >&2
    "$pg_bin/psql" -h 127.0.0.1 -p "$port" -U awale -d postgres -Atc "SELECT calls, round(total_exec_time::numeric, 1), round(mean_exec_time::numeric, 3), rows, left(regexp_replace(query, '\s+', ' ', 'g'), 110)
             FROM pg_stat_statements ORDER BY $order DESC LIMIT 25" >&2
fi
# CPU time used (user + system, seconds): each process still running, and
# PostgreSQL's server with its backends (the cost model of BENCHMARKS.md).
cpu() { awk -v t="$ticks" '{ printf "%.1f", ($14 + $15) / t }' "/proc/$1/stat" 2>/dev/null || echo gone; }
for i in $(seq 1 "$n"); do
    echo "cpu: process $i: $(cpu "${pids[$((i - 1))]}") s" >&2
done
pg_cpu=$(for p in "$pm" $(ps --ppid "$pm" -o pid=); do
    awk '{ print $14 + $15 }' "/proc/$p/stat" 2>/dev/null || true
done | awk -v t="$ticks" '{ s += $1 } END { printf "%.1f", s / t }')
echo "cpu: postgres: $pg_cpu s" >&2
for i in $(seq 1 "$n"); do
    if grep -q ERROR "$dir/serve$i.log"; then
        echo "process $i logged errors:" >&2
        grep ERROR "$dir/serve$i.log" | head -5 >&2
    fi
done
