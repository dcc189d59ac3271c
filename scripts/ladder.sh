#!/usr/bin/env bash
# The level ladder of docs/BENCHMARKS.md: each level plays the one below it
# with `awale match`, and one line per pair is printed for the table.
#
#   bash scripts/ladder.sh [GAMES] [FIRST_LEVEL] [LAST_LEVEL] [EXTRA MATCH FLAGS...]
#
# GAMES per pair (default 100), levels FIRST..LAST (default 1..18). The
# games of each pair go to target/ladder/levelN-vs-levelM.ogn.
set -euo pipefail
cd "$(dirname "$0")/.."

games=${1:-100}
first=${2:-1}
last=${3:-18}
shift $(( $# < 3 ? $# : 3 ))

cargo build --release --quiet -p awale
mkdir -p target/ladder
echo "| pair | score of the stronger | Elo difference (95%) | games | command |"
echo "|---|---|---|---|---|"
for (( low = first; low < last; low++ )); do
    high=$(( low + 1 ))
    records="target/ladder/level$high-vs-level$low.ogn"
    command="awale match level=$high level=$low --games $games --concurrency 2 $*"
    out=$(target/release/awale match "level=$high" "level=$low" --games "$games" \
        --concurrency 2 --quiet --records "$records" "$@")
    tally=$(grep -o '[0-9]* wins, [0-9]* draws, [0-9]* losses in [0-9]* games' <<<"$out" | head -1)
    score=$(grep '^Score of' <<<"$out" | sed 's/^Score of [^:]*: //')
    elo=$(grep '^Elo difference' <<<"$out" | sed 's/^Elo difference: //')
    played=$(sed 's/.* in \([0-9]*\) games/\1/' <<<"$tally")
    echo "| $high vs $low | $score ($tally) | $elo | $played | \`$command\` |"
done
