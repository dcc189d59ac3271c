#!/usr/bin/env bash
# The test command of README.md: installs what the tests need on a fresh
# machine, then runs the whole test suite, optimised (perft and the endgame
# databases are too slow unoptimised).
set -euo pipefail
cd "$(dirname "$0")/.."

# Installs Debian's packages named after `what` (what they are for).
apt_install() {
    local what="$1"
    shift
    echo "scripts/test.sh: installing $* for $what" >&2
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null
}

# Each of these is installed only when missing.
# The browser tests drive a real headless Chromium through chromedriver.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    apt_install "the browser tests" chromium chromium-driver
fi
# Some browser tests read or set a row of the test server's games file
# with the sqlite3 program.
if ! command -v sqlite3 >/dev/null 2>&1; then
    apt_install "the browser tests" sqlite3
fi
# The accessibility tests inject axe-core (the npm package, its version
# pinned in crates/awale/tests/axe/package-lock.json) into the page.
if ! command -v npm >/dev/null 2>&1; then
    apt_install "the accessibility tests" npm
fi
if [ ! -f crates/awale/tests/axe/node_modules/axe-core/axe.min.js ]; then
    npm ci --no-audit --no-fund --prefix crates/awale/tests/axe >/dev/null
fi
# The build on several processes (`awale db build --mpi`) is tested under a
# real mpirun: Open MPI, and libclang for the bindings of the `mpi` crate.
if ! dpkg -s openmpi-bin libopenmpi-dev libclang-dev clang >/dev/null 2>&1; then
    apt_install "the MPI tests" openmpi-bin libopenmpi-dev libclang-dev clang
fi
# The PostgreSQL store's tests start a throwaway cluster of their own
# (initdb in a temporary folder): PostgreSQL's programs are needed, not a
# running server.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
    apt_install "the PostgreSQL store's tests" postgresql
fi

cargo test --workspace --profile fast "$@"
# The same binary with the `mpi` feature, against mpirun (the tests allow
# Open MPI to run as root, as CI does); the whole workspace named, so that
# the dependencies keep the features of the run above and are not built
# again.
cargo test --workspace --profile fast --features awale/mpi --test mpi "$@"
