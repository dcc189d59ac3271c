//! Fixed-depth searches of a few positions: the speed of the engine's
//! search in nodes per second (see docs/BENCHMARKS.md).

use std::sync::atomic::AtomicBool;

use awale_core::{Game, Rules};
use awale_engine::{Engine, EngineOptions, Limits};
use criterion::{criterion_group, criterion_main, Criterion};

fn search_start(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.bench_function("start_depth_14", |b| {
        b.iter(|| {
            let mut engine = Engine::new(EngineOptions {
                hash_mb: 16,
                threads: 1,
            });
            let game = Game::new(Rules::AWALE);
            let stop = AtomicBool::new(false);
            engine.search(&game, &Limits::depth(14), &stop, &mut |_| {})
        })
    });
    group.finish();
}

criterion_group!(benches, search_start);
criterion_main!(benches);
