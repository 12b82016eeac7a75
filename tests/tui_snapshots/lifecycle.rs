//! The draft against its base version: the status line and the diff overlay.

use super::*;
use precept::core::lifecycle::versions::freeze;

/// Version 1 frozen, then R16's tax raised in the draft.
fn edited_since_version_1(dir: &std::path::Path) {
    freeze(dir, "first", "2026-01-01T00:00:00Z").unwrap();
    let path = dir.join("model.json");
    let text = fs::read_to_string(&path).unwrap();
    let edited = text.replace(
        "(= totalExpense (* 1.1 (+ cashPayment creditCost)))",
        "(= totalExpense (* 1.2 (+ cashPayment creditCost)))",
    );
    assert_ne!(text, edited, "R16 is in the sample");
    fs::write(&path, edited).unwrap();
}

#[test]
fn the_diff_against_the_base_version_with_its_scenario_table() {
    for size in SIZES {
        let mut bench = Bench::open_copy(&sample("park-admission"), size, edited_since_version_1);
        let screen = bench.screen_text();
        let status = screen.lines().last().unwrap();
        assert!(status.contains("v1 · changed"), "{status}");
        bench.press('D');
        let screen = bench.screen_text();
        assert!(screen.contains("Diff: v1 → draft"), "{screen}");
        assert!(
            screen.contains("variable"),
            "the scenario as a table: {screen}"
        );
        assert!(screen.contains("│ value"), "{screen}");
        insta::assert_snapshot!(name("version_diff", size), screen);
    }
}
