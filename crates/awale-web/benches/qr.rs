//! What a link's QR code costs the server to draw (the invitation's, asked
//! by each game's maker): see docs/BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn codes(c: &mut Criterion) {
    let mut group = c.benchmark_group("qr");
    group.bench_function("invitation_link", |b| {
        b.iter(|| {
            awale_web::qr_svg(black_box(
                "https://awale.example.org/?join=aB3dE5gH7j&k=Q2rS4tU6vW8xY0zA1bC3d",
            ))
        })
    });
    group.finish();
}

criterion_group!(benches, codes);
criterion_main!(benches);
