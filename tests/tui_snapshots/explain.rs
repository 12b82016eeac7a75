//! Why a test has its finding, and consultant mode.

use super::*;

#[test]
fn why_overlay_on_a_decided_test() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        bench.press('3');
        bench.press('j');
        bench.press('j');
        assert_eq!(bench.app.selected_test().unwrap().id, "T3");
        bench.press('W');
        bench.press('j');
        bench.press('j');
        let screen = bench.screen_text();
        assert!(screen.contains("Why T3 is VALID"), "{screen}");
        assert!(screen.contains("▸ Step 3 · rule R4"), "{screen}");
        insta::assert_snapshot!(name("why", size), screen);
    }
}

#[test]
fn consultant_mode_with_three_facts_and_a_claim() {
    for size in SIZES {
        let mut bench = Bench::open(size);
        bench.press('4');
        bench.key(KeyCode::Tab, KeyModifiers::NONE);
        bench.type_text(CLAIM);
        bench.key(KeyCode::Char('o'), KeyModifiers::CONTROL);
        // ageClass: SENIOR is the third value.
        bench.key(KeyCode::Enter, KeyModifiers::NONE);
        bench.press('j');
        bench.press('j');
        bench.key(KeyCode::Enter, KeyModifiers::NONE);
        // isLowSeason: toggled true.
        bench.press('j');
        bench.key(KeyCode::Enter, KeyModifiers::NONE);
        // totalAdmissionFund: typed.
        bench.press('j');
        bench.press('j');
        bench.key(KeyCode::Enter, KeyModifiers::NONE);
        bench.type_text("35.4");
        bench.key(KeyCode::Enter, KeyModifiers::NONE);
        assert_eq!(bench.app.verify.consultant.facts.len(), 3);
        let screen = bench.screen_text();
        assert!(screen.contains("● totalAdmissionFund = 35.4"), "{screen}");
        assert!(screen.contains("Ask next"), "{screen}");
        insta::assert_snapshot!(name("consultant", size), screen);
    }
}
