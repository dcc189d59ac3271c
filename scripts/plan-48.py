#!/usr/bin/env python3
"""The plan for all 48 seeds (docs/DATABASES.md): what the MPI build of
`awale db build --mpi` needs per level and in all, on N nodes of 64 cores,
from the figures measured on this machine (docs/BENCHMARKS.md). Run it to see
the table; change the figures below to plan for other machines.

    python3 scripts/plan-48.py
"""
from math import comb

# Measured here (docs/BENCHMARKS.md).
CORE_US_27 = 1.9  # µs of one core per board, level 27 (idle machine, 2 threads)
GROWTH = 1.03  # per level above 27 (level 24: 1.23 µs, 27: 1.9 µs; slowing)
MPI_FACTOR = 1.5  # CPU of the MPI build over the threaded one (extra passes, exchanges)
ENTRIES = 4.6  # bytes of changed entries per board of a level, all processes together
MARKS = 3.1  # bytes of marks on others' boards per board, 2 processes (x 2(P-1)/P)
PASSES = 270  # passes per level at the top (values ~1.7x 50, distances ~120)
# The machines of the plan.
CORES = 64
NET = 12.5e9  # bytes/s per node (100 Gb/s)
SWEEP = 50e9  # bytes/s of a node's cores sweeping a bit set together
FS = 100e9  # bytes/s of the shared file system, all nodes together
TOP = 28  # levels 0..TOP are built on one machine (2 hours, docs/BENCHMARKS.md)


def level(n):
    return comb(n + 11, 11)


def seconds(n, nodes):
    size = level(n)
    cpu = size * CORE_US_27 * 1e-6 * GROWTH ** (n - 27) * MPI_FACTOR / (nodes * CORES)
    # Each node takes in what the others changed, and the marks they set on
    # its boards (measured with 2 and 4 processes, docs/BENCHMARKS.md).
    received = size * (ENTRIES * (nodes - 1) / nodes + 2 * MARKS * (nodes - 1) / nodes**2)
    net = received / NET
    # Two sweeps of a bit set of the whole level a pass (made, then read for
    # the marks to send), on every core.
    sweeps = PASSES * 2 * size / 8 / SWEEP
    # First pass of each phase: each node reads the levels two and three
    # below (most captures take 2 or 3 seeds), at worst from the shared
    # file system, once per phase.
    lower = 2 * (level(n - 2) + level(n - 3))
    io = max(lower / NET, nodes * lower / FS)
    return cpu, net, sweeps, io


def main():
    print("seeds | boards | memory/node GB (values, +spill) | files GB | cpu/net/sweeps/io s on 16 | on 64 | on 256")
    total = {16: [0.0] * 4, 64: [0.0] * 4, 256: [0.0] * 4}
    for n in range(TOP + 1, 49):
        size = level(n)
        row = []
        for nodes in (16, 64, 256):
            cpu, net, sweeps, io = seconds(n, nodes)
            for i, t in enumerate((cpu, net, sweeps, io)):
                total[nodes][i] += t
            row.append(f"{cpu:.0f}/{net:.0f}/{sweeps:.0f}/{io:.0f}")
        if n % 4 == 0 or n >= 44:
            print(f"{n} | {size:.3e} | {1.375 * size / 1e9:.0f} (+{size / 1e9:.0f}) | {2 * size / 1e9:.0f} | " + " | ".join(row))
    all_boards = sum(level(n) for n in range(49))
    print(f"all levels: {all_boards:.4e} boards, {2 * all_boards / 1e12:.2f} TB of files")
    for nodes, t in total.items():
        parts = ", ".join(f"{x / 3600:.1f}" for x in t)
        print(f"levels {TOP + 1}-48 on {nodes} nodes: {sum(t) / 3600:.1f} h "
              f"(compute, network, sweeps, lower levels: {parts} h); "
              f"level 48: {sum(seconds(48, nodes)) / 60:.0f} min")


if __name__ == "__main__":
    main()
