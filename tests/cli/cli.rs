//! The command line as users and scripts rely on it: exact forms, exit
//! codes (0 ok, 1 failing test or check, 2 bad input or usage), JSON shapes
//! and error messages that name the file, position and what was expected.

use crate::support;

use std::fs;
use support::{copy_sample, precept, sample, stderr, stdout};

const PARK: &str = "park-admission";

#[test]
fn verify_json_carries_the_finding_rules_and_scenarios() {
    let out = precept(&[
        "verify",
        sample(PARK).to_str().unwrap(),
        "--premise",
        "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4))",
        "--claim",
        "(not isEntryAllowed)",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["finding"], "SATISFIABLE");
    // The paper's example: entry needs 3 units of 5 credits; without credits it is refused.
    assert_eq!(json["claims_false_scenario"]["creditUnits"], "3");
    assert_eq!(json["claims_false_scenario"]["totalExpense"], "35.3375");
    assert_eq!(json["claims_true_scenario"]["creditUnits"], "0");
    assert_eq!(json["claims_true_scenario"]["isEntryAllowed"], false);
    assert!(json["supporting_rules"].as_array().unwrap().is_empty());
}

#[test]
fn verify_text_shows_rules_in_smtlib_and_english() {
    let out = precept(&[
        "verify",
        sample(PARK).to_str().unwrap(),
        "--premise",
        "(and isLowSeason (= seasonalFee 50.0))",
        "--claim",
        "(= finalAdmissionFee 50.0)",
    ]);
    let text = stdout(&out);
    assert!(text.starts_with("IMPOSSIBLE"), "{text}");
    assert!(
        text.contains("R2: (=> isLowSeason (= seasonalFee (* 0.75 baseFee)))"),
        "{text}"
    );
    assert!(
        text.contains("If the visit falls in the low season, then"),
        "{text}"
    );
    assert!(
        text.contains("no: the premise is what conflicts with the rules"),
        "{text}"
    );
}

#[test]
fn verify_with_expect_exits_one_on_a_different_finding() {
    let dir = sample(PARK);
    let ok = precept(&[
        "verify",
        dir.to_str().unwrap(),
        "--claim",
        "(>= baseFee 50)",
        "--expect",
        "valid",
    ]);
    assert_eq!(ok.status.code(), Some(0), "{}", stderr(&ok));
    let bad = precept(&[
        "verify",
        dir.to_str().unwrap(),
        "--claim",
        "(>= baseFee 60)",
        "--expect",
        "VALID",
    ]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        stderr(&bad).contains("expected VALID, got INVALID"),
        "{}",
        stderr(&bad)
    );
}

#[test]
fn a_malformed_premise_is_bad_input_with_its_position() {
    let out = precept(&[
        "verify",
        sample(PARK).to_str().unwrap(),
        "--premise",
        "(and isLowSeason\n  (> baseFe 3))",
        "--claim",
        "true",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).trim(),
        "precept: --premise: 2:6: expected a declared variable or enum value, found the unknown name 'baseFe'; did you mean baseFee?"
    );
}

#[test]
fn unknown_names_suggest_the_nearest_declared_names() {
    let out = precept(&[
        "verify",
        sample(PARK).to_str().unwrap(),
        "--premise",
        "(> customerCredit 3)",
        "--claim",
        "isEntryAlowed",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).trim(),
        "precept: --premise: 1:4: expected a declared variable or enum value, found the unknown name 'customerCredit'; did you mean customerCredits?"
    );
    let out = precept(&[
        "verify",
        sample(PARK).to_str().unwrap(),
        "--premise",
        "true",
        "--claim",
        "(and isEntryAlowed (> totalFund 0))",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out).trim(),
        "precept: --claim: 1:6: expected a declared variable or enum value, found the unknown name 'isEntryAlowed'; did you mean isEntryAllowed?"
    );
}

#[test]
fn usage_errors_exit_two_and_help_exits_zero() {
    assert_eq!(precept(&["verify"]).status.code(), Some(2));
    assert_eq!(precept(&["frobnicate"]).status.code(), Some(2));
    let help = precept(&["verify", "--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("--premise"));
    let missing = precept(&["show", "/nonexistent/project"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("/nonexistent/project"),
        "{}",
        stderr(&missing)
    );
}

#[test]
fn test_command_passes_the_samples_and_writes_junit() {
    let scratch = tempfile::tempdir().unwrap();
    let junit = scratch.path().join("report.xml");
    let out = precept(&[
        "test",
        sample(PARK).to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let summary = stdout(&out);
    assert!(
        summary.trim_end().ends_with("18 passed, 0 failed"),
        "{summary}"
    );
    let xml = fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("tests=\"18\" failures=\"0\""), "{xml}");
    assert_eq!(xml.matches("<testcase ").count(), 18);
}

#[test]
fn each_passing_test_line_says_its_verdict_in_plain_words() {
    let out = precept(&["test", sample(PARK).to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    let text = stdout(&out);
    let line = |id: &str| {
        text.lines()
            .find(|l| l.starts_with(&format!("PASS {id} ")))
            .unwrap_or_else(|| panic!("no line for {id} in {text}"))
            .to_string()
    };
    assert_eq!(
        line("T6"),
        "PASS T6 Adult with $40 in the high season can enter: INVALID: No: under these rules, \
         in this situation it is always true that the visitor may not enter the park \
         (R1, R3, R7, R8, R10, R11, R13, R14, R15, R16, R17)."
    );
    // No finding's name stands alone at the end of a line.
    for l in text.lines().filter(|l| l.starts_with("PASS")) {
        for kind in ["VALID", "INVALID", "SATISFIABLE", "IMPOSSIBLE"] {
            assert!(!l.ends_with(&format!(": {kind}")), "{l}");
        }
    }
}

#[test]
fn a_failing_test_exits_one_and_shows_its_evidence() {
    let project = copy_sample(PARK);
    let tests_path = project.path().join("tests.json");
    let text = fs::read_to_string(&tests_path).unwrap();
    // Expect the wrong finding for T5 (the adult in high season owes $50: VALID).
    let edited = text.replacen(
        "\"claim\": \"(= finalAdmissionFee 50.0)\", \"expected\": \"VALID\"",
        "\"claim\": \"(= finalAdmissionFee 50.0)\", \"expected\": \"INVALID\"",
        1,
    );
    assert_ne!(edited, text);
    fs::write(&tests_path, edited).unwrap();
    let out = precept(&["test", project.path().to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["failed"], 1);
    let failed: Vec<&serde_json::Value> = json["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["passed"] == false)
        .collect();
    assert_eq!(failed[0]["id"], "T5");
    assert_eq!(failed[0]["finding"]["finding"], "VALID");
    assert!(
        !failed[0]["finding"]["supporting_rules"]
            .as_array()
            .unwrap()
            .is_empty()
    );
}

#[test]
fn show_prints_smtlib_and_english() {
    let dir = sample(PARK);
    let english = stdout(&precept(&["show", dir.to_str().unwrap(), "--english"]));
    assert!(english.contains("R2: If the visit falls in the low season, then the admission fee in dollars after the seasonal adjustment, before discounts equals 75% of the standard admission fee in dollars."), "{english}");
    let smtlib = stdout(&precept(&["show", dir.to_str().unwrap(), "--smtlib"]));
    assert!(
        smtlib.contains("(declare-datatypes ((AgeClass 0)) (((CHILD) (ADULT) (SENIOR))))"),
        "{smtlib}"
    );
    assert!(
        smtlib.contains("(assert (! (= customerCredits (to_real (* 5 creditUnits))) :named R12)")
            || smtlib.contains(":named R12"),
        "{smtlib}"
    );
    let summary = stdout(&precept(&["show", dir.to_str().unwrap()]));
    assert!(
        summary.contains("Variables")
            && summary.contains("Rules")
            && summary.contains("creditUnits"),
        "{summary}"
    );
}

#[test]
fn import_rejects_text_outside_the_fragment_with_file_and_position() {
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("bad.smt2");
    fs::write(
        &file,
        "(declare-const x Int)\n(assert (forall ((y Int)) (> x y)))\n",
    )
    .unwrap();
    let out = precept(&[
        "import",
        file.to_str().unwrap(),
        "--out",
        scratch.path().join("p").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert!(message.contains("bad.smt2:2:10: expected a quantifier-free, let-free term of the fragment, found 'forall'"), "{message}");
    assert!(
        !scratch.path().join("p").exists(),
        "a failed import must not leave a project behind"
    );
}

#[test]
fn import_refuses_to_overwrite_an_existing_project() {
    let project = copy_sample(PARK);
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("ok.smt2");
    fs::write(&file, "(declare-const x Int)(assert (> x 1))").unwrap();
    let before = fs::read(project.path().join("model.json")).unwrap();
    let out = precept(&[
        "import",
        file.to_str().unwrap(),
        "--out",
        project.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(fs::read(project.path().join("model.json")).unwrap(), before);
}

#[test]
fn binary_and_malformed_input_files_are_reported_not_panicked_on() {
    let scratch = tempfile::tempdir().unwrap();
    let binary = scratch.path().join("blob.smt2");
    fs::write(&binary, [0u8, 159, 146, 150, 0, 1]).unwrap();
    let out = precept(&[
        "import",
        binary.to_str().unwrap(),
        "--out",
        scratch.path().join("p").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("binary file"), "{}", stderr(&out));
    let unbalanced = scratch.path().join("open.smt2");
    fs::write(&unbalanced, "(declare-const x Int)\n(assert (> x 1)").unwrap();
    let out = precept(&[
        "import",
        unbalanced.to_str().unwrap(),
        "--out",
        scratch.path().join("q").to_str().unwrap(),
    ]);
    assert!(
        stderr(&out).contains("open.smt2:2:16: expected ')' to close the '(' at 2:1"),
        "{}",
        stderr(&out)
    );
}

/// `precept show DIR | head` (and any other command whose reader goes
/// away) ends quietly, as Unix tools do: no panic, no backtrace.
#[test]
fn a_closed_pipe_ends_a_command_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    // Big enough to overflow the pipe's buffer once the reader is gone.
    let mut smtlib = String::new();
    for i in 0..3000 {
        smtlib.push_str(&format!(
            "(declare-const applicantHasDocumentNumber{i} Bool)\n"
        ));
    }
    for i in 0..3000 {
        smtlib.push_str(&format!(
            "(assert (=> applicantHasDocumentNumber{i} (not applicantHasDocumentNumber{})))\n",
            (i + 1) % 3000
        ));
    }
    let file = dir.path().join("big.smt2");
    fs::write(&file, smtlib).unwrap();
    let project = dir.path().join("big");
    let imported = precept(&[
        "import",
        file.to_str().unwrap(),
        "--out",
        project.to_str().unwrap(),
    ]);
    assert!(imported.status.success(), "{}", stderr(&imported));
    for args in [
        vec!["show"],
        vec!["show", "--smtlib"],
        vec!["show", "--english"],
        // Every command prints through the same stdout: a table and JSON.
        vec!["coverage", "--no-mutation"],
        vec!["coverage", "--no-mutation", "--json"],
    ] {
        let mut child = support::precept_command()
            .args(&args)
            .arg(&project)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut reader = child.stdout.take().unwrap();
        let mut first = [0u8; 16];
        reader.read_exact(&mut first).unwrap();
        drop(reader);
        let output = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert!(
            !err.contains("panicked") && !err.contains("Broken pipe"),
            "{args:?}: {err}"
        );
        assert_ne!(output.status.code(), Some(101), "{args:?} panicked");
    }
}

/// On the LLM-formalized CBT page, `precept lint` reads like the vetting
/// screen: groups first under one line naming their members (every gap,
/// then the conflicts deciding needsToTakeCbt), ranked by reach, notes last
/// (with `--all`, every diagnostic).
#[test]
fn lint_text_groups_and_ranks_the_cbt_diagnostics() {
    let scratch = support::copy_test_data("lab/cbt-llm-model");
    let out = precept(&["lint", scratch.path().to_str().unwrap(), "--all"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let headers: Vec<&str> = text.lines().filter(|l| l.starts_with("── ")).collect();
    assert_eq!(
        headers[..2],
        [
            "── L207 gap · 19 outputs undecided for some inputs: canRideMoped, \
             canRideMotorcycleAfterCbt, hasPassedCarDrivingTest, isExemptFromCbt, … (15 more)",
            // The rules that deny needsToTakeCbt where R41 and R42 conclude
            // it are one finding (conflict_groups.rs), not 11 pairs.
            "── L206 conflicting-overlap · 2 conflicts deciding needsToTakeCbt: \
             R40 ↔ R42, 7 rules (R9, R10, R11, … (4 more))",
        ],
        "{text}"
    );
    assert!(text.starts_with(headers[0]), "{text}");
    // Every diagnostic is printed once; the notes come after the warnings.
    let severities: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once(" L").map(|(s, _)| s))
        .filter(|s| ["error", "warning", "note"].contains(s))
        .collect();
    assert_eq!(severities.len(), 40, "{text}");
    let first_note = severities.iter().position(|s| *s == "note").unwrap();
    assert!(
        severities[first_note..].iter().all(|s| *s == "note"),
        "{text}"
    );
    assert_eq!(text.lines().last(), Some("0 errors, 29 warnings, 11 notes"));
}

/// `precept lint --strict` is a CI gate: rules that conflict fail it, while
/// plain `precept lint` fails only on errors. The summary line counts every
/// severity.
#[test]
fn lint_strict_fails_on_conflicting_rules() {
    let dir = tempfile::tempdir().unwrap();
    support::overlap_project(dir.path());
    let path = dir.path().to_str().unwrap();
    let plain = precept(&["lint", path]);
    let text = stdout(&plain);
    assert!(
        text.contains("L206") || text.contains("L209"),
        "the project has a conflict: {text}"
    );
    let summary = text.lines().last().unwrap_or_default();
    assert!(
        summary.contains(" error") && summary.contains(" warning") && summary.contains(" note"),
        "{summary}"
    );
    assert_eq!(plain.status.code(), Some(0), "{text}");
    let strict = precept(&["lint", path, "--strict"]);
    assert_eq!(strict.status.code(), Some(1), "{}", stdout(&strict));
    assert!(
        stdout(&strict).contains("--strict: "),
        "{}",
        stdout(&strict)
    );
}

/// A lint budget stops the solver checks cleanly and says what it left
/// unchecked, per kind of check with its rules: never a partial lint read
/// as complete. `--strict` fails on what was skipped and names it; the
/// project's `budget_s.lint` is the default; a budget that is no positive
/// number is refused.
#[test]
fn a_lint_budget_reports_what_it_left_unchecked() {
    let project = copy_sample("airline-refunds");
    let dir = project.path().to_str().unwrap();
    let full = precept(&["lint", dir, "--all"]);
    assert_eq!(full.status.code(), Some(0), "{}", stderr(&full));
    assert!(!stdout(&full).contains("lint budget"), "{}", stdout(&full));

    let cut = precept(&["lint", dir, "--all", "--budget-s", "0.001"]);
    let text = stdout(&cut);
    assert_eq!(cut.status.code(), Some(0), "{text}");
    assert!(
        text.contains(
            "Not checked within the lint budget of 0.001 s: conflicting overlaps (L206) on"
        ),
        "{text}"
    );
    assert!(text.contains("skipped, not passed"), "{text}");
    assert!(!text.contains("L206 conflicting-overlap:"), "{text}");

    let strict = precept(&["lint", dir, "--budget-s", "0.001", "--strict"]);
    let text = stdout(&strict);
    assert_eq!(strict.status.code(), Some(1), "{text}");
    assert!(
        text.contains("--strict: the budget left checks undone: conflicting overlaps (L206), impossible situations (L210), gaps (L207)"),
        "{text}"
    );

    // The project's default, and the flag over it.
    let settings = project.path().join("precept.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&settings).unwrap()).unwrap();
    json["budget_s"] = serde_json::json!({"lint": 0.001});
    fs::write(&settings, json.to_string()).unwrap();
    let by_default = precept(&["lint", dir, "--json"]);
    let found: serde_json::Value = serde_json::from_str(&stdout(&by_default)).unwrap();
    assert!(
        found
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "L299" && d["message"].as_str().unwrap().contains("lint budget")),
        "{found:#}"
    );
    // A budget that is not reached changes nothing.
    let generous = precept(&["lint", dir, "--all", "--budget-s", "600"]);
    assert_eq!(stdout(&generous), stdout(&full));

    let refused = precept(&["lint", dir, "--budget-s", "0"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("expected a positive number of seconds, found '0'"),
        "{}",
        stderr(&refused)
    );
}

#[test]
fn gen_tests_and_coverage_budgets_report_what_they_left() {
    let project = copy_sample("airline-refunds");
    let dir = project.path().to_str().unwrap();

    // gen-tests: a budget that runs out says how many questions it left,
    // and --strict fails on it; --json stays an array.
    let full = precept(&["gen-tests", dir, "--max", "10"]);
    assert_eq!(full.status.code(), Some(0), "{}", stderr(&full));
    assert!(!stdout(&full).contains("budget"), "{}", stdout(&full));
    let cut = precept(&["gen-tests", dir, "--max", "10", "--budget-s", "0.001"]);
    let text = stdout(&cut);
    assert_eq!(cut.status.code(), Some(0), "{text}");
    assert!(
        text.contains("Not asked within the gen-tests budget of 0.001 s:")
            && text.contains("question(s) left unanswered")
            && text.contains("skipped, not passed"),
        "{text}"
    );
    let strict = precept(&[
        "gen-tests",
        dir,
        "--max",
        "10",
        "--budget-s",
        "0.001",
        "--strict",
        "--json",
    ]);
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));
    assert!(
        serde_json::from_str::<serde_json::Value>(&stdout(&strict))
            .unwrap()
            .is_array()
    );
    assert!(
        stderr(&strict).contains("--strict: the budget left"),
        "{}",
        stderr(&strict)
    );
    let generous = precept(&["gen-tests", dir, "--max", "10", "--budget-s", "600"]);
    assert_eq!(stdout(&generous), stdout(&full));

    // coverage: the mutants the budget left are counted, not scored.
    let whole = precept(&["coverage", dir, "--json"]);
    assert_eq!(whole.status.code(), Some(0), "{}", stderr(&whole));
    let whole: serde_json::Value = serde_json::from_str(&stdout(&whole)).unwrap();
    assert_eq!(whole["mutation"]["over_budget"], 0);
    let settings = project.path().join("precept.json");
    let mut json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&settings).unwrap()).unwrap();
    json["budget_s"] = serde_json::json!({"coverage": 0.001});
    fs::write(&settings, json.to_string()).unwrap();
    let cut = precept(&["coverage", dir]);
    let text = stdout(&cut);
    assert_eq!(cut.status.code(), Some(0), "{text}");
    assert!(
        text.contains("the budget ran out before the other") && text.contains("not passed"),
        "{text}"
    );
    // The rule coverage too: the tests whose checks had not started are
    // listed, and their rules are not counted for them.
    assert!(
        stderr(&cut).contains("Not evaluated within the coverage budget of 0.001 s")
            && stderr(&cut).contains("(skipped, not passed)"),
        "{}",
        stderr(&cut)
    );
    let cut = precept(&["coverage", dir, "--json"]);
    let cut: serde_json::Value = serde_json::from_str(&stdout(&cut)).unwrap();
    let left = cut["coverage"]["over_budget"]
        .as_array()
        .expect("the tests left are listed");
    assert_eq!(left, whole["coverage"]["tests_used"].as_array().unwrap());
    assert_eq!(cut["coverage"]["totals"]["touched"], 0);
    assert!(whole["coverage"].get("over_budget").is_none());
    assert!(whole["coverage"]["totals"]["touched"].as_u64().unwrap() > 0);
    let strict = precept(&["coverage", dir, "--strict"]);
    assert_eq!(strict.status.code(), Some(1), "{}", stdout(&strict));
    assert!(
        stdout(&strict).contains("--strict: the budget left"),
        "{}",
        stdout(&strict)
    );
    let generous = precept(&["coverage", dir, "--json", "--budget-s", "600"]);
    let generous: serde_json::Value = serde_json::from_str(&stdout(&generous)).unwrap();
    assert_eq!(
        generous["mutation"]["score_text"],
        whole["mutation"]["score_text"]
    );
    assert_eq!(generous["coverage"], whole["coverage"]);
}

#[test]
fn a_report_budget_shows_what_the_figures_left_and_keeps_none_of_them() {
    let project = copy_sample("airline-refunds");
    let dir = project.path().to_str().unwrap();
    let out = project.path().join("cut.html");
    let cut = precept(&[
        "report",
        dir,
        "--recompute",
        "--budget-s",
        "0.001",
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = stderr(&cut);
    assert_eq!(cut.status.code(), Some(0), "{err}");
    assert!(
        err.contains("report: the budget of 0.001 s ran out: lint: conflicting overlaps (L206) on"),
        "{err}"
    );
    assert!(
        err.contains("ran out: mutation score:") && err.contains("mutants not evaluated"),
        "{err}"
    );
    assert!(
        err.contains("ran out: rule coverage:") && err.contains("tests not evaluated"),
        "{err}"
    );
    let html = fs::read_to_string(&out).unwrap();
    assert!(
        html.contains("Not evaluated within the budget: the coverage checks of"),
        "the report says it"
    );
    assert!(
        html.contains("Not checked within the lint budget"),
        "the report says it"
    );
    assert!(
        html.contains("the budget ran out before the other"),
        "the report says it"
    );

    // Nothing cut short was kept: a report without a budget computes both.
    let whole = precept(&["report", dir, "--out", out.to_str().unwrap()]);
    let err = stderr(&whole);
    assert_eq!(whole.status.code(), Some(0), "{err}");
    assert!(!err.contains("lint: reused"), "{err}");
    assert!(!err.contains("ran out"), "{err}");
    let html = fs::read_to_string(&out).unwrap();
    assert!(!html.contains("Not checked within the lint budget"));

    let strict = precept(&[
        "report",
        dir,
        "--recompute",
        "--budget-s",
        "0.001",
        "--strict",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(strict.status.code(), Some(1), "{}", stderr(&strict));
    assert!(stderr(&strict).contains("--strict: the budget left figures incomplete"));
}
