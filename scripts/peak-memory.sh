#!/usr/bin/env bash
# Runs a command and prints the peaks of its resident memory, split as the
# kernel counts it: anonymous (heap: what the program holds) and file-backed
# (pages of mapped files, which the system can drop and read again).
# `/usr/bin/time` gives only their sum. Sampled every 50 ms.
#   scripts/peak-memory.sh ./target/release/awale db build --max-seeds 20
set -euo pipefail
"$@" &
pid=$!
anon=0
file=0
while kill -0 "$pid" 2>/dev/null; do
    if status=$(cat "/proc/$pid/status" 2>/dev/null); then
        a=$(awk '/^RssAnon:/ {print $2}' <<<"$status")
        f=$(awk '/^RssFile:/ {print $2}' <<<"$status")
        ((${a:-0} > anon)) && anon=$a
        ((${f:-0} > file)) && file=$f
    fi
    sleep 0.05
done
wait "$pid" && rc=0 || rc=$?
echo "peak anonymous memory: $((anon / 1024)) MB; peak mapped file pages: $((file / 1024)) MB" >&2
exit "$rc"
