//! The draft against its base version: the status line and the diff overlay.

use super::*;
use precept::lifecycle::versions::freeze;
use precept::tui::measure::layout::help_area;

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

        // Inside the overlay nothing is cut: long lines wrap, and the two
        // sides of R16 stand next to each other.
        let area = help_area(size);
        let inside = Rect::new(area.x + 1, area.y + 1, area.width - 2, area.height - 2);
        let mut seen = rows(&bench.buffer(), inside);
        assert!(
            seen.iter().all(|row| !row.contains('…')),
            "{}",
            seen.join("\n")
        );
        // Scrolling reaches the end: the flipped test's whole line.
        let words = |rows: &[String]| {
            rows.join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut pages = 0;
        while !words(&seen).contains("(expected SATISFIABLE)") {
            bench.key(KeyCode::PageDown, KeyModifiers::NONE);
            seen = rows(&bench.buffer(), inside);
            pages += 1;
            assert!(pages < 10, "{}", seen.join("\n"));
        }
        assert!(
            seen.iter().all(|row| !row.contains('…')),
            "{}",
            seen.join("\n")
        );
        let end = words(&seen);
        assert!(
            end.contains("T1 Senior with $35.40 in the low season cannot visit:"),
            "{end}"
        );
        insta::assert_snapshot!(name("version_diff_end", size), bench.screen_text());
    }
}
