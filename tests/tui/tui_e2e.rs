//! End to end: the real binary in a real terminal (tmux), driven by key
//! presses, checked by what the screen shows and what lands on disk. Each
//! test has its own tmux server and its own config folder; the server is
//! killed when the test ends, pass or fail.

use crate::support;

use precept::model::PolicyModel;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::workbench::{Open, Workbench};
use support::{copy_sample, sample};

const BIN: &str = env!("CARGO_BIN_EXE_precept");
const WAIT: Duration = Duration::from_secs(10);
const R16: &str = "(= totalExpense (* 1.1 (+ cashPayment creditCost)))";
const R16_TAXED_MORE: &str = "(= totalExpense (* 1.2 (+ cashPayment creditCost)))";

/// The workbench on `dir` in a 100×30 pane (`exec`: the pane's process is
/// precept itself, for kill -9).
fn open(name: &str, dir: &Path, exec: bool) -> Workbench {
    let how = Open {
        exec,
        wait: WAIT,
        ..Open::default()
    };
    Workbench::open(&format!("e2e-{name}"), dir, how)
}

fn model_on_disk(dir: &Path) -> PolicyModel {
    let text = fs::read_to_string(dir.join("model.json")).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("model.json is not valid: {e}\n{text}"))
}

fn r16_on_disk(dir: &Path) -> String {
    model_on_disk(dir).rule("R16").unwrap().expression.clone()
}

fn drafts_on_disk(dir: &Path) -> serde_json::Value {
    let path: PathBuf = dir.join("drafts.json");
    let text = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("drafts.json is not valid: {e}\n{text}"))
}

/// Selects R16 (last but one) and opens the editor on it with an empty line.
fn edit_r16(session: &Workbench) {
    session.keys(&["1", "G", "k"]);
    session.wait_for(&["Rules 16/17", "R16 · "]);
    session.keys(&["e"]);
    session.wait_for(&["Edit rule R16"]);
    // The rule fits on one line: to its start, then delete to its end. (Keys
    // arrive in order, so what is typed next lands on the empty line.)
    session.keys(&["C-a", "C-k"]);
}

#[test]
fn an_edit_that_breaks_tests_is_shown_stepped_through_and_undone() {
    let dir = copy_sample("park-admission");
    let original = model_on_disk(dir.path());
    let session = open("edit-undo", dir.path(), false);
    session.wait_for(&["18 passed, 0 failed"]);

    edit_r16(&session);
    session.type_text(R16_TAXED_MORE);
    session.wait_for(&[R16_TAXED_MORE, "✓ checks"]);
    session.keys(&["C-s"]);
    session.wait_for(&[
        "16 passed, 2 failed",
        "2 failed",
        "flipped: 2 passed→failed",
    ]);
    // Saved at once, while the app is still open.
    assert_eq!(r16_on_disk(dir.path()), R16_TAXED_MORE);

    session.keys(&["n"]);
    let screen = session.wait_for(&["failing test 1 of 2", "Tests · 16 pass · 2 fail"]);
    assert!(screen.contains("│✗↓T1 "), "{screen}");
    assert!(screen.contains("│✗↓T2 "), "{screen}");
    let verdict = screen
        .lines()
        .find(|l| l.contains("Expected "))
        .unwrap_or_else(|| panic!("{screen}"));
    assert!(
        verdict.contains("Expected SATISFIABLE · actual VALID ✗ fail"),
        "{verdict}"
    );

    session.keys(&["u"]);
    session.wait_for(&["18 passed, 0 failed", "Tests · 18 pass · 0 fail"]);
    session.keys(&["q"]);
    session.wait_for(&["EXITED 0"]);

    assert_eq!(r16_on_disk(dir.path()), R16);
    assert_eq!(model_on_disk(dir.path()), original);
    assert!(!dir.path().join("drafts.json").exists());
}

#[test]
fn a_typo_is_kept_as_a_draft_across_sessions() {
    let dir = copy_sample("park-admission");
    let model_before = fs::read(dir.path().join("model.json")).unwrap();
    let typo = "(= totalExpense (* 1.2 (+ cashPaymnt creditCost)))";
    {
        let session = open("draft", dir.path(), false);
        session.wait_for(&["18 passed, 0 failed"]);
        edit_r16(&session);
        session.type_text(typo);
        // The error wraps onto a second row, which suggests the declared name.
        session.wait_for(&[
            "▲ 1:27: expected a declared variable or enum value, found the unknown name",
            "'cashPaymnt'; did you mean cashPayment?",
        ]);
        session.keys(&["C-s"]);
        session.wait_for(&["R16 kept as a draft, not applied"]);
        assert_eq!(drafts_on_disk(dir.path())["rules"]["R16"], typo);
        assert_eq!(
            fs::read(dir.path().join("model.json")).unwrap(),
            model_before
        );

        session.keys(&["Escape"]);
        session.wait_gone("Edit rule R16");
        session.keys(&["q"]);
        session.wait_for(&["EXITED 0"]);
    }
    assert_eq!(
        fs::read(dir.path().join("model.json")).unwrap(),
        model_before
    );
    assert_eq!(drafts_on_disk(dir.path())["rules"]["R16"], typo);

    let session = open("draft-reopen", dir.path(), false);
    session.wait_for(&["18 passed, 0 failed"]);
    session.keys(&["G", "k"]);
    let screen = session.wait_for(&["Rules 16/17", "Draft (not applied"]);
    assert!(screen.contains("✎  R16"), "{screen}");
    assert!(screen.contains("cashPaymnt"), "{screen}");
    // e continues from the draft.
    session.keys(&["e"]);
    session.wait_for(&["Edit rule R16", typo]);
    // (Esc and q sent together would read as alt-q.)
    session.keys(&["Escape"]);
    session.wait_gone("Edit rule R16");
    session.keys(&["q"]);
    session.wait_for(&["EXITED 0"]);
    // Opening and closing the editor on the draft changed nothing.
    assert_eq!(
        fs::read(dir.path().join("model.json")).unwrap(),
        model_before
    );
    assert_eq!(drafts_on_disk(dir.path())["rules"]["R16"], typo);
}

#[test]
fn without_a_terminal_the_workbench_refuses_with_exit_code_2() {
    let dir = copy_sample("park-admission");
    let config = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .arg("open")
        .arg(dir.path())
        .env("PRECEPT_CONFIG_DIR", config.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", support::stderr(&out));
    let message = support::stderr(&out);
    assert!(message.contains("terminal"), "{message}");
    assert!(message.contains("precept --help"), "{message}");
    assert!(support::stdout(&out).is_empty());
    // Nothing was written.
    assert!(!dir.path().join("drafts.json").exists());
    assert_eq!(
        fs::read(dir.path().join("model.json")).unwrap(),
        fs::read(sample("park-admission").join("model.json")).unwrap()
    );
}

#[test]
fn kill_9_while_typing_loses_neither_the_model_nor_the_text() {
    let dir = copy_sample("park-admission");
    let model_before = fs::read(dir.path().join("model.json")).unwrap();
    let session = open("kill", dir.path(), true);
    session.wait_for(&["18 passed, 0 failed"]);
    let pid = session.pane_pid();
    assert!(
        fs::read_link(format!("/proc/{pid}/exe"))
            .unwrap()
            .ends_with("precept"),
        "the pane runs precept itself"
    );

    edit_r16(&session);
    let typed = "(= totalExpense (* 1.3 (+ cashPayment creditCost)))";
    session.type_text(typed);
    session.wait_for(&[typed]);
    // The text is autosaved about twice a second (and never applied).
    let deadline = Instant::now() + Duration::from_secs(3);
    let autosaved = || {
        fs::read_to_string(dir.path().join("drafts.json"))
            .ok()
            .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
            .is_some_and(|d| d["rules"]["R16"] == typed)
    };
    while !autosaved() {
        assert!(
            Instant::now() < deadline,
            "the typed text was not autosaved within 3 s:\n{}",
            session.screen()
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    let killed = Command::new("kill")
        .args(["-9", &pid.to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(5);
    while Path::new(&format!("/proc/{pid}")).exists()
        && !fs::read_to_string(format!("/proc/{pid}/stat"))
            .unwrap_or_default()
            .contains(") Z ")
    {
        assert!(Instant::now() < deadline, "precept survived kill -9");
        std::thread::sleep(Duration::from_millis(20));
    }

    assert_eq!(
        fs::read(dir.path().join("model.json")).unwrap(),
        model_before
    );
    assert_eq!(r16_on_disk(dir.path()), R16);
    assert_eq!(drafts_on_disk(dir.path())["rules"]["R16"], typed);
}

/// A conflicting overlap fixed in the real binary: `5` lints, `x` opens the
/// choice of exception fixes with the tests each flips, enter applies the
/// first (saved at once, the test passes), `u` takes it back.
#[test]
fn an_exception_fix_is_chosen_applied_and_undone_in_the_workbench() {
    let scratch = tempfile::tempdir().unwrap();
    support::overlap_project(scratch.path());
    let original = model_on_disk(scratch.path());

    let session = open("exception-fix", scratch.path(), false);
    session.wait_for(&["0 passed, 1 failed"]);
    session.keys(&["5"]);
    session.wait_for(&["L206 R1 ↔ R2 deciding refund", "lint: 0 errors"]);
    // Ranked second, after the impossible situation it causes.
    session.keys(&["j", "x"]);
    let screen = session.wait_for(&["Choose a fix", "R2 is the exception", "↑T1"]);
    assert!(screen.contains("R1 is the exception"), "{screen}");
    session.keys(&["Enter"]);
    session.wait_for(&["1 passed, 0 failed"]);
    assert_eq!(
        model_on_disk(scratch.path()).rules[0].expression,
        "(=> (and operated (not travelled) (not deniedBoarding)) (not refund))"
    );
    session.keys(&["u"]);
    session.wait_for(&["0 passed, 1 failed"]);
    session.keys(&["q"]);
    session.wait_for(&["EXITED 0"]);
    assert_eq!(model_on_disk(scratch.path()), original);
}

/// Trust in what the screen says, in the real binary: an approved rule that
/// is edited goes back to review; the tests the edit flipped are named and
/// `J` walks them with the edit that changed them; lint follows the edit and
/// its undo without being asked.
#[test]
fn an_edit_resets_approval_names_its_flips_and_relints() {
    let dir = copy_sample("park-admission");
    let session = open("trust", dir.path(), false);
    session.wait_for(&["18 passed, 0 failed", "17 approved"]);
    session.keys(&["5"]);
    session.wait_for(&["lint: "]);
    let before = session.screen();
    assert!(!before.contains("L120"), "{before}");

    edit_r16(&session);
    session.type_text(R16_TAXED_MORE);
    session.wait_for(&[R16_TAXED_MORE, "✓ checks"]);
    session.keys(&["C-s"]);
    session.wait_for(&["flipped: 2 passed→failed (T1, T2), 0 failed→passed · J"]);
    session.wait_for(&["16 approved"]);
    let on_disk = model_on_disk(dir.path());
    assert_eq!(
        on_disk.rule("R16").unwrap().review,
        precept::model::ReviewStatus::Unreviewed
    );

    session.keys(&["J"]);
    session.wait_for(&[
        "flipped test 1 of 2: T1 passed→failed by edit rule R16",
        "Finding changed from SATISFIABLE to VALID by: edit rule",
    ]);
    session.keys(&["J"]);
    session.wait_for(&["flipped test 2 of 2: T2 passed→failed by edit rule R16"]);

    // A copy of R1 is a duplicate the moment it is added: lint runs again
    // by itself, reports it once (not also as redundant both ways), and
    // undo takes the diagnostic away.
    session.keys(&["1", "a"]);
    session.wait_for(&["New rule R18"]);
    session.type_text("(= baseFee 50.0)");
    session.wait_for(&["✓ checks"]);
    session.keys(&["C-s"]);
    session.keys(&["5"]);
    session.wait_for(&[
        "L120 R18 ↔ R1 · duplicate-rule",
        "Lint · 1 warning, 11 notes",
    ]);
    session.keys(&["u"]);
    session.wait_gone("L120");

    // The same rule in other words: the solver proves it, approval stays.
    session.keys(&["1", "g"]);
    session.wait_for(&["Rules 1/17", "R1 · approved"]);
    session.keys(&["e"]);
    session.wait_for(&["Edit rule R1"]);
    session.keys(&["C-a", "C-k"]);
    session.type_text("(= 50.0 baseFee)");
    session.wait_for(&["(= 50.0 baseFee)", "✓ checks"]);
    session.keys(&["C-s"]);
    session.wait_for(&["R1 rewritten with the same meaning", "R1 · approved"]);
    assert_eq!(
        model_on_disk(dir.path()).rule("R1").unwrap().review,
        precept::model::ReviewStatus::Approved
    );
    session.keys(&["q"]);
    session.wait_for(&["EXITED 0"]);
}

/// The verify inputs hold the keyboard only when they say so: after esc and
/// ctrl-t twice, `5` switches screens instead of landing in the premise.
#[test]
fn keys_go_where_the_screen_says_after_switching_verify_modes() {
    let dir = copy_sample("park-admission");
    let session = open("focus", dir.path(), false);
    session.wait_for(&["18 passed, 0 failed"]);
    session.keys(&["4"]);
    session.wait_for(&["TYPING · esc: keys act again"]);
    session.keys(&["Escape"]);
    session.wait_gone("TYPING");
    session.keys(&["C-t"]);
    session.wait_for(&["question"]);
    session.keys(&["C-t"]);
    session.wait_for(&["premise"]);
    session.keys(&["5"]);
    session.wait_for(&["Lint · "]);
    session.keys(&["4"]);
    let screen = session.wait_for(&["premise"]);
    assert!(!screen.contains("premise 5"), "{screen}");
    session.keys(&["Escape"]);
    session.wait_gone("TYPING");
    session.keys(&["q"]);
    session.wait_for(&["EXITED 0"]);
}

/// The workbench test: consultant mode in the real binary. Three
/// facts force the discount rate; enter shows its chain; removing the
/// credit units fact leaves the rate open again.
#[test]
fn consultant_mode_forces_a_value_shows_its_chain_and_reopens_it() {
    let dir = copy_sample("park-admission");
    let session = open("consultant", dir.path(), false);
    session.wait_for(&["18 passed, 0 failed"]);
    session.keys(&["4"]);
    session.wait_for(&["TYPING"]);
    session.keys(&["C-o"]);
    session.wait_for(&["Consultant · enter set", "nothing yet"]);
    session.wait_gone("TYPING");
    // ageClass: SENIOR, the third of its values.
    session.keys(&["Enter"]);
    session.wait_for(&["ageClass = … · enter set"]);
    session.keys(&["j", "j", "Enter"]);
    session.wait_for(&["● ageClass = SENIOR"]);
    // isLowSeason: toggled true.
    session.keys(&["j", "Enter"]);
    session.wait_for(&["● isLowSeason = true"]);
    // creditUnits: typed.
    session.keys(&["j", "Enter"]);
    session.wait_for(&["creditUnits = … · type a number"]);
    session.type_text("0");
    session.keys(&["Enter"]);
    session.wait_for(&["● creditUnits = 0", "✓ discountRate = 0.4  by R4"]);
    // Once the pane is drawn whole (a capture can catch a redraw halfway),
    // discountRate is no longer listed as open.
    session.wait_gone("Still open: discountRate");
    // The forced values, in declaration order: ageClass, isLowSeason,
    // baseFee, seasonalFee, discountRate.
    session.keys(&["Tab", "j", "j", "j", "j", "Enter"]);
    let chain = session.wait_for(&["Why discountRate is forced", "rule R4"]);
    assert!(chain.contains("derives discountRate = 0.4"), "{chain}");
    session.keys(&["Escape"]);
    session.wait_gone("Why discountRate is forced");
    // Back to the inputs, still on creditUnits: d removes its fact.
    session.keys(&["Tab", "d"]);
    session.wait_for(&["removed the fact on creditUnits"]);
    let screen = session.wait_for(&["Still open: discountRate"]);
    assert!(!screen.contains("✓ discountRate"), "{screen}");
    assert!(!screen.contains("● creditUnits"), "{screen}");
    session.keys(&["q"]);
    session.wait_for(&["EXITED 0"]);
}

/// The draft's diff against its version in the real binary: the changed
/// rule's two sides stand next to each other, wrapped rather than cut, and
/// scrolling to the end shows the flipped tests' whole lines.
#[test]
fn the_diff_overlay_wraps_both_sides_of_a_changed_rule_and_scrolls_to_the_end() {
    let dir = copy_sample("park-admission");
    let out = Command::new(BIN)
        .args(["version", dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", support::stderr(&out));
    let path = dir.path().join("model.json");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, text.replace(R16, R16_TAXED_MORE)).unwrap();
    let session = open("diff-wrap", dir.path(), false);
    session.wait_for(&["16 passed, 2 failed", "v1 · changed"]);

    session.keys(&["D"]);
    let screen = session.wait_for(&["Diff: v1 → draft", "differ both ways"]);
    let row = |screen: &str, needles: &[&str]| {
        screen
            .lines()
            .any(|line| needles.iter().all(|n| line.contains(n)))
    };
    assert!(row(&screen, &["v1 ", "│ draft"]), "{screen}");
    assert!(
        row(
            &screen,
            &["(= totalExpense (* 1.1 (+ ", "│ (= totalExpense (* 1.2 (+"]
        ),
        "{screen}"
    );
    assert!(
        row(
            &screen,
            &["cashPayment creditCost)))", "│ cashPayment creditCost)))"]
        ),
        "the rest of each side on the next row: {screen}"
    );

    session.keys(&["End"]);
    // The last line wraps: its end is on the row below.
    let screen = session.wait_for(&[
        "T2 Using 3 credit units lets that senior in: VALID → INVALID",
        "    VALID)",
    ]);
    assert!(screen.contains("credits used)."), "{screen}");
    session.keys(&["Escape"]);
    session.wait_gone("Diff: v1 → draft");
    session.keys(&["q"]);
    session.wait_for(&["EXITED 0"]);
}

/// A question typed on the Verify screen of the real binary is saved as a
/// test with its premise and claim where they were typed, its finding
/// expected, and a short name from the claim.
#[test]
fn a_question_typed_on_the_verify_screen_is_saved_as_typed() {
    let dir = copy_sample("park-admission");
    let session = open("save-test", dir.path(), false);
    session.wait_for(&["18 passed, 0 failed"]);
    session.keys(&["4"]);
    session.wait_for(&["TYPING", "▸premise"]);
    let premise =
        "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4) (= creditUnits 3))";
    session.type_text(premise);
    session.keys(&["Tab"]);
    session.wait_for(&["▸  claim"]);
    session.type_text("isEntryAllowed");
    session.keys(&["Enter"]);
    session.wait_for(&["VALID"]);
    session.keys(&["C-s"]);
    session.wait_for(&["Save as a test expecting"]);
    session.keys(&["v"]);
    // The name offered: the claim in a few words.
    session.wait_for(&["visitor may enter the park"]);
    session.keys(&["Enter"]);
    session.wait_for(&["saved test T"]);
    session.keys(&["Escape"]);
    session.wait_gone("TYPING");
    session.keys(&["q"]);
    session.wait_for(&["EXITED 0"]);
    let tests: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(dir.path().join("tests.json")).unwrap()).unwrap();
    let saved = tests["tests"].as_array().unwrap().last().unwrap();
    assert_eq!(saved["premise"], premise);
    assert_eq!(saved["claim"], "isEntryAllowed");
    assert_eq!(saved["expected"], "VALID");
    assert!(
        saved["name"].as_str().unwrap().chars().count() <= 48,
        "{saved}"
    );
}
