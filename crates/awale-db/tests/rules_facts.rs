//! The database against the facts of docs/RULES.md ("Facts for endgame
//! databases"): counts of won, drawn and lost boards and the sum of values.

use awale_core::Rules;
use awale_db::manifest::Manifest;
use awale_db::{build, Database, LevelStats};

#[test]
fn awale_levels_match_the_counts_of_rules_md() {
    let dir = tempfile::tempdir().unwrap();
    let summaries = build(dir.path(), &Rules::AWALE, 10, 2).unwrap();
    // seeds, positions, won, drawn, lost, sum of values
    let facts: [(u8, u64, u64, u64, u64, i64); 4] = [
        (4, 1_239, 577, 143, 519, 122),
        (6, 11_914, 5_692, 1_543, 4_679, 6_428),
        (8, 74_295, 37_755, 8_343, 28_197, 72_463),
        (10, 349_713, 157_700, 93_737, 98_276, 424_825),
    ];
    for (seeds, positions, won, drawn, lost, sum) in facts {
        let s: LevelStats = summaries[usize::from(seeds)].stats;
        assert_eq!(
            (s.playable, s.won, s.drawn, s.lost, s.sum_values),
            (positions, won, drawn, lost, sum),
            "level {seeds}"
        );
    }
    let db = Database::open(dir.path(), &Rules::AWALE).unwrap();
    assert_eq!(db.max_seeds(), 10);
    // The build recorded every level in the folder's manifest, with the
    // same counts.
    let variant = awale_db::Variant::of(&Rules::AWALE);
    let manifest = Manifest::read(&dir.path().join(variant.name()), variant);
    for s in &summaries {
        let level = manifest
            .level(s.stats.seeds)
            .unwrap_or_else(|| panic!("level {} missing from the manifest", s.stats.seeds));
        assert_eq!(level.stats.playable, s.stats.playable);
        assert!(
            level.build.is_some(),
            "level {}: no build figures",
            s.stats.seeds
        );
    }
}
