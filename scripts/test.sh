#!/usr/bin/env bash
# The test command of README.md: installs what the tests need on a fresh
# machine, then runs the whole test suite, optimised (perft and the endgame
# databases are too slow unoptimised).
set -euo pipefail
cd "$(dirname "$0")/.."

# The browser tests drive a real headless Chromium through chromedriver
# (Debian's packages). Installed only when missing.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    echo "scripts/test.sh: installing chromium and chromedriver for the browser tests" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi

# Some browser tests read or set a row of the test server's games file
# with the sqlite3 program (Debian's package). Installed only when missing.
if ! command -v sqlite3 >/dev/null 2>&1; then
    echo "scripts/test.sh: installing sqlite3 for the browser tests" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq sqlite3 >/dev/null
fi

# The accessibility tests inject axe-core (the npm package, its version
# pinned in crates/awale/tests/axe/package-lock.json) into the page. Needs
# npm (Debian's package); installed only when missing.
if ! command -v npm >/dev/null 2>&1; then
    echo "scripts/test.sh: installing npm for the accessibility tests" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq npm >/dev/null
fi
if [ ! -f crates/awale/tests/axe/node_modules/axe-core/axe.min.js ]; then
    npm ci --no-audit --no-fund --prefix crates/awale/tests/axe >/dev/null
fi

# The build on several processes (`awale db build --mpi`) is tested under a
# real mpirun: Open MPI, and libclang for the bindings of the `mpi` crate
# (Debian's packages). Installed only when missing.
if ! dpkg -s openmpi-bin libopenmpi-dev libclang-dev clang >/dev/null 2>&1; then
    echo "scripts/test.sh: installing Open MPI and libclang for the MPI tests" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
        openmpi-bin libopenmpi-dev libclang-dev clang >/dev/null
fi

# The PostgreSQL store's tests start a throwaway cluster of their own
# (initdb in a temporary folder): PostgreSQL's programs are needed, not a
# running server (Debian's package). Installed only when missing.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
    echo "scripts/test.sh: installing postgresql for the PostgreSQL store's tests" >&2
    SUDO=""
    if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
fi

cargo test --workspace --profile fast "$@"
# The same binary with the `mpi` feature, against mpirun (the tests allow
# Open MPI to run as root, as CI does).
cargo test -p awale --profile fast --features mpi --test mpi "$@"
