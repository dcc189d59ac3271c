#!/usr/bin/env bash
# The test command of README.md: installs what the tests need on a fresh
# machine, then runs the whole test suite, optimised (perft and the endgame
# databases are too slow unoptimised).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --workspace --profile fast "$@"
