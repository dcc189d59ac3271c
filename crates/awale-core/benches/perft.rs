//! Perft from the start position: the speed of move generation and sowing.
//! `cargo bench -p awale-core --bench perft`; figures in docs/BENCHMARKS.md.

use awale_core::{perft, Position, Rules};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (name, rules) in [("awale", Rules::AWALE), ("abapa", Rules::ABAPA)] {
        for depth in [9u32, 11] {
            let leaves = perft(&Position::START, depth, &rules);
            group.throughput(Throughput::Elements(leaves));
            group.bench_function(format!("{name}/{depth}"), |b| {
                b.iter(|| perft(std::hint::black_box(&Position::START), depth, &rules))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
