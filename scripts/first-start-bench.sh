#!/bin/bash
# Moves during the first start's database build (docs/BENCHMARKS.md):
# a server on a fresh data folder, paced load tests of 60 s while it builds
# the endgame databases, then one once they are ready; prints when puzzles
# came and each run's figures. Usage: scripts/first-start-bench.sh [AWALE]
set -u
A=${1:-target/release/awale}
PORT=8091
D=$(mktemp -d)
trap 'kill $S 2>/dev/null; rm -rf "$D"' EXIT
XDG_DATA_HOME=$D $A serve --addr 127.0.0.1:$PORT --data "$D" > "$D/log" 2>&1 &
S=$!
t0=$(date +%s.%N)
until curl -s http://127.0.0.1:$PORT/api/study | grep -q '"puzzles":true'; do sleep 0.2; done
echo "puzzles after $(echo "$(date +%s.%N) - $t0" | bc) s"
run() {
    uptime
    echo "$1: $($A loadtest --addr 127.0.0.1:$PORT --games 200 --seconds 60 --think-ms 250 2>/dev/null)"
}
i=1
until grep -q "endgame databases ready" "$D/log"; do
    run "during $i ($(grep -o 'levels up to [0-9]* of [0-9]*' "$D/log" | tail -1))"
    i=$((i + 1))
done
echo "databases ready after $(echo "$(date +%s.%N) - $t0" | bc) s"
run after
