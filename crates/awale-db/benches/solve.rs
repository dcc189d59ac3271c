//! Solving one level from the levels below it, in memory (no files): the
//! speed of the retrograde analysis, in positions per second.
//! `cargo bench -p awale-db --bench solve`; figures in docs/BENCHMARKS.md.

use awale_core::Rules;
use awale_db::solve::{solve_level, LowerLevel, SolvedLevel};
use awale_db::{level_size, Silent};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Levels 0..=`max`, solved in order.
fn levels(rules: &Rules, max: u8) -> Vec<SolvedLevel> {
    let mut solved: Vec<SolvedLevel> = Vec::new();
    for seeds in 0..=max {
        let lower = views(&solved, rules);
        let level = solve_level(rules, seeds, &lower, 2, &Silent).expect("distances fit");
        solved.push(level);
    }
    solved
}

fn views<'a>(solved: &'a [SolvedLevel], rules: &Rules) -> Vec<LowerLevel<'a>> {
    solved
        .iter()
        .map(|l| LowerLevel {
            lower: &l.lower,
            upper: if awale_db::solve::is_exact(rules) {
                &l.lower
            } else {
                &l.upper
            },
        })
        .collect()
}

fn bench_solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("solve");
    group.sample_size(10);
    for (name, rules) in [("awale", Rules::AWALE), ("abapa", Rules::ABAPA)] {
        let seeds = 11u8;
        let below = levels(&rules, seeds - 1);
        group.throughput(Throughput::Elements(level_size(seeds)));
        group.bench_function(format!("{name}/{seeds}"), |b| {
            b.iter(|| solve_level(&rules, seeds, &views(&below, &rules), 2, &Silent))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_solve);
criterion_main!(benches);
