#!/usr/bin/env bash
# The build on several processes (MPI) against the threaded build, on the
# same levels: levels 0..BASE are built once, then levels BASE+1..MAX by the
# threaded build (2 threads) and by `mpirun` with 1 (2 threads), 2 and 4
# processes (1 thread each), over TCP on the loopback interface. Prints the
# load average, wall and CPU time, the peak memory of each process, and per
# level (from each manifest) the time, passes and bytes sent.
#   cargo build --release --features mpi -p awale
#   scripts/mpi-bench.sh 15 18 target/release/awale
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:-15}
max=${2:-18}
bin=$(realpath "${3:-target/release/awale}")
work=${TMPDIR:-/tmp}/awale-mpi-bench
rm -rf "$work"
mkdir -p "$work"
"$bin" db build --quiet --max-seeds "$base" --dir "$work/base" >/dev/null
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
mpi=(mpirun --oversubscribe --mca btl tcp,self --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo)
peak=$(realpath scripts/peak-memory.sh)
run() {
    local name=$1
    shift
    cp -r "$work/base" "$work/$name"
    echo "== $name, load average $(cut -d' ' -f1-3 /proc/loadavg): $*"
    /usr/bin/time -f "$name: %e s wall, %U s user, %S s system" \
        "$@" --quiet --max-seeds "$max" --dir "$work/$name" >"$work/$name.log"
    python3 - "$work/$name/forbidden-nobody/manifest.json" "$base" <<'PY'
import json, sys
levels = json.load(open(sys.argv[1]))["levels"]
for l in levels:
    if l["seeds"] <= int(sys.argv[2]):
        continue
    passes = l["passes_values"] + l["passes_distances"]
    sent = l.get("bytes_sent", 0)
    print(f'  level {l["seeds"]}: {l["seconds"]:.1f} s, passes {l["passes_values"]}+{l["passes_distances"]}, '
          f'{sent / 1e6:.1f} MB sent, {sent / passes / 1e3:.1f} kB a pass')
PY
}
run threads "$peak" "$bin" db build --threads 2
run mpi1 "${mpi[@]}" -np 1 "$peak" "$bin" db build --mpi --threads 2
run mpi2 "${mpi[@]}" -np 2 "$peak" "$bin" db build --mpi --threads 1
run mpi4 "${mpi[@]}" -np 4 "$peak" "$bin" db build --mpi --threads 1
for name in mpi1 mpi2 mpi4; do
    for seeds in $(seq 0 "$max"); do
        cmp -s "$work/threads/forbidden-nobody/level-$(printf %02d "$seeds").awdb" \
            "$work/$name/forbidden-nobody/level-$(printf %02d "$seeds").awdb" ||
            echo "$name: level $seeds differs from the threaded build's"
    done
done
echo "done; files in $work"
