//! Rule coverage and mutation score with the real solver: exact results on
//! small hand-made projects, a cross-check of the mutation shortcuts against
//! a plain rerun of every test, and `precept coverage` on a sample.

use crate::support;

use precept::model::{CompiledModel, LogicTest, Project};
use precept::smt::parse_expr;
use precept::test_runner::run_tests;
use precept::testgen::coverage::rule_coverage;
use precept::testgen::mutation::{MutantStatus, MutationKind, mutants, mutation_score, spread};
use serde_json::{Value, json};
use std::path::Path;
use std::time::Duration;
use support::{precept, sample, stderr, stdout, worker};

const TIMEOUT: Duration = Duration::from_secs(10);

/// Writes a project (model.json, tests.json) into a fresh temporary directory.
fn project(variables: Value, rules: &[(&str, &str)], tests: Value) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let rules: Vec<Value> = rules
        .iter()
        .map(|(id, expression)| json!({ "id": id, "expression": expression }))
        .collect();
    let model = json!({ "schema_version": 1, "variables": variables, "rules": rules });
    let suite = json!({ "schema_version": 1, "tests": tests });
    std::fs::write(dir.path().join("model.json"), model.to_string()).unwrap();
    std::fs::write(dir.path().join("tests.json"), suite.to_string()).unwrap();
    dir
}

fn load(dir: &Path) -> (Vec<LogicTest>, CompiledModel) {
    let project = Project::load(dir).unwrap();
    let compiled = project.compile_strict().unwrap();
    (project.tests.tests, compiled)
}

fn test(id: &str, premise: &str, claim: &str, expected: &str) -> Value {
    json!({ "id": id, "premise": premise, "claim": claim, "expected": expected })
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn coverage_project() -> tempfile::TempDir {
    let mut proposed = test("T5", "(> x 50)", "big", "VALID");
    proposed["status"] = json!("proposed");
    project(
        json!([
            { "name": "x", "type": "Int" },
            { "name": "big", "type": "Bool" },
            { "name": "flag", "type": "Bool" },
            { "name": "y", "type": "Int" },
        ]),
        &[
            ("R1", "(=> (> x 10) big)"),
            ("R2", "(=> flag (= y 1))"),
            ("R3", "(>= x 0)"),
        ],
        json!([
            // The antecedent of R1 is forced false, and R1 applying would
            // decide the claim: R1 counts with its condition false.
            test("T1", "(= x 5)", "big", "SATISFIABLE"),
            // The antecedent of R1 is forced true; R1 alone proves it.
            test("T2", "(> x 20)", "big", "VALID"),
            // Left open: R1 decides nothing where it applies (the finding
            // is SATISFIABLE), and would where it does not.
            test("T3", "(> x 3)", "big", "SATISFIABLE"),
            // An impossible premise: the conflict is with R3 alone.
            test("T4", "(< x 0)", "big", "IMPOSSIBLE"),
            // Proposed tests do not count.
            proposed,
        ]),
    )
}

#[test]
fn coverage_is_exact_on_a_small_project() {
    let dir = coverage_project();
    let (tests, model) = load(dir.path());
    let solver = worker(&model, TIMEOUT);
    let report = rule_coverage(&solver, &model, &tests);
    assert_eq!(report.tests_used, strings(&["T1", "T2", "T3", "T4"]));
    assert!(report.skipped_tests.is_empty());
    assert_eq!(report.untouched, strings(&["R2"]));

    let r1 = &report.rules[0];
    assert_eq!(r1.id, "R1");
    assert_eq!(r1.antecedent.as_deref(), Some("(> x 10)"));
    // T4 has R1 in its cone, but its conflict is with R3 only.
    assert_eq!(r1.touched_by, strings(&["T1", "T2", "T3"]));
    assert_eq!(r1.antecedent_true_by, strings(&["T2"]));
    assert_eq!(r1.antecedent_false_by, strings(&["T1", "T3"]));
    assert!(r1.undecided_by.is_empty());
    assert!(r1.covered());

    let r2 = &report.rules[1];
    assert!(!r2.touched);
    assert!(r2.antecedent_true_by.is_empty() && r2.antecedent_false_by.is_empty());

    // R3 (x ≥ 0) decides only T4, whose premise contradicts it.
    let r3 = &report.rules[2];
    assert_eq!(r3.antecedent, None);
    assert_eq!(r3.touched_by, strings(&["T4"]));
    assert_eq!(r3.antecedent_true_by, strings(&["T4"]));
    assert!(r3.antecedent_false_by.is_empty());
    assert!(r3.covered());

    let totals = &report.totals;
    assert_eq!((totals.rules, totals.rules_with_antecedent), (3, 2));
    assert_eq!((totals.touched, totals.touched_percent), (2, 66.7));
    assert_eq!(totals.antecedent_true, 2);
    assert_eq!(
        (totals.antecedent_false, totals.antecedent_false_percent),
        (1, 50.0)
    );
    assert_eq!((totals.covered, totals.covered_percent), (2, 66.7));
}

/// A test about a rider aged 15 covers the rule about riding a moped at 16
/// (it would decide the claim if it applied), not the rules about driving a
/// car at 17 or a helmet on a moped, though they share variables with it.
#[test]
fn an_unrelated_rule_is_not_covered_by_a_test_in_its_cone() {
    let dir = project(
        json!([
            { "name": "age", "type": "Int" },
            { "name": "mayRideMoped", "type": "Bool" },
            { "name": "mayDriveCar", "type": "Bool" },
            { "name": "needsHelmet", "type": "Bool" },
        ]),
        &[
            ("R1", "(=> (>= age 16) mayRideMoped)"),
            ("R2", "(=> (>= age 17) mayDriveCar)"),
            ("R3", "(=> mayRideMoped needsHelmet)"),
        ],
        json!([
            test("T1", "(= age 15)", "mayRideMoped", "SATISFIABLE"),
            test("T2", "(= age 20)", "mayRideMoped", "VALID"),
        ]),
    );
    let (tests, model) = load(dir.path());
    let solver = worker(&model, TIMEOUT);
    let report = rule_coverage(&solver, &model, &tests);
    // (rule, touched by, condition true by, condition false by)
    type Row<'a> = (&'a str, Vec<String>, Vec<String>, Vec<String>);
    let by_rule: Vec<Row> = report
        .rules
        .iter()
        .map(|r| {
            (
                r.id.as_str(),
                r.touched_by.clone(),
                r.antecedent_true_by.clone(),
                r.antecedent_false_by.clone(),
            )
        })
        .collect();
    assert_eq!(
        by_rule,
        vec![
            (
                "R1",
                strings(&["T1", "T2"]),
                strings(&["T2"]),
                strings(&["T1"])
            ),
            ("R2", vec![], vec![], vec![]),
            ("R3", vec![], vec![], vec![]),
        ]
    );
    assert_eq!(report.untouched, strings(&["R2", "R3"]));
    assert_eq!(report.totals.covered, 1);
    assert!(report.rules.iter().all(|r| r.undecided_by.is_empty()));
}

#[test]
fn a_forced_false_antecedent_counts_as_false_only() {
    let dir = project(
        json!([{ "name": "x", "type": "Int" }, { "name": "big", "type": "Bool" }]),
        &[("R1", "(=> (> x 10) big)")],
        json!([test("T1", "(= x 5)", "big", "SATISFIABLE")]),
    );
    let (tests, model) = load(dir.path());
    let solver = worker(&model, TIMEOUT);
    let report = rule_coverage(&solver, &model, &tests);
    let r1 = &report.rules[0];
    assert!(r1.touched);
    assert!(r1.antecedent_true_by.is_empty());
    assert_eq!(r1.antecedent_false_by, strings(&["T1"]));
    assert!(!r1.covered());
    assert_eq!(report.totals.covered, 0);
}

#[test]
fn mutants_come_in_a_fixed_order() {
    let dir = project(
        json!([
            { "name": "a", "type": "Bool" },
            { "name": "b", "type": "Bool" },
            { "name": "x", "type": "Int" },
        ]),
        &[("R1", "(=> (and a (> x 2)) (not b))")],
        json!([]),
    );
    let (_, model) = load(dir.path());
    let found: Vec<(MutationKind, String)> = mutants(&model)
        .into_iter()
        .map(|m| (m.kind, m.mutated))
        .collect();
    use MutationKind::*;
    let expected = [
        (NegateConsequent, "(=> (and a (> x 2)) b)"),
        (DropConjunct, "(=> (> x 2) (not b))"),
        (DropConjunct, "(=> a (not b))"),
        (SwapAndOr, "(=> (or a (> x 2)) (not b))"),
        (FlipComparison, "(=> (and a (<= x 2)) (not b))"),
        (StepConstant, "(=> (and a (> x 3)) (not b))"),
        (StepConstant, "(=> (and a (> x 1)) (not b))"),
    ];
    let expected: Vec<(MutationKind, String)> =
        expected.iter().map(|(k, m)| (*k, m.to_string())).collect();
    assert_eq!(found, expected);
    // Every mutant parses back to itself.
    for mutant in mutants(&model) {
        assert_eq!(
            parse_expr(&mutant.mutated).unwrap().to_string(),
            mutant.mutated
        );
    }
}

#[test]
fn equality_flips_only_between_numbers_and_decimals_step_by_their_last_place() {
    let dir = project(
        json!([
            { "name": "rate", "type": "Real" },
            { "name": "fee", "type": "Real" },
            { "name": "on", "type": "Bool" },
        ]),
        &[("R1", "(= on (= rate 0.75))"), ("R2", "(= fee 50.0)")],
        json!([]),
    );
    let (_, model) = load(dir.path());
    let found: Vec<String> = mutants(&model).into_iter().map(|m| m.mutated).collect();
    assert_eq!(
        found,
        strings(&[
            "(= on (distinct rate 0.75))",
            "(= on (= rate 0.76))",
            "(= on (= rate 0.74))",
            "(distinct fee 50.0)",
            "(= fee 51.0)",
            "(= fee 49.0)",
        ])
    );
}

fn threshold_project(tests: Value) -> tempfile::TempDir {
    project(
        json!([{ "name": "age", "type": "Int" }, { "name": "adult", "type": "Bool" }]),
        &[("R1", "(= adult (>= age 18))")],
        tests,
    )
}

/// (mutated rule, status, killed by) for every mutant of the project.
fn outcomes(dir: &Path) -> Vec<(String, MutantStatus, Option<String>)> {
    let (tests, model) = load(dir);
    let solver = worker(&model, TIMEOUT);
    let all = mutants(&model);
    let generated = all.len();
    let report = mutation_score(&solver, &model, &tests, all, generated);
    report
        .results
        .into_iter()
        .map(|r| (r.mutant.mutated, r.status, r.killed_by))
        .collect()
}

#[test]
fn a_boundary_test_kills_the_constant_step_mutants() {
    let dir = threshold_project(json!([
        test("T1", "(= age 18)", "adult", "VALID"),
        test("T2", "(= age 17)", "adult", "INVALID"),
    ]));
    use MutantStatus::*;
    assert_eq!(
        outcomes(dir.path()),
        vec![
            ("(= adult (< age 18))".into(), Killed, Some("T1".into())),
            ("(= adult (>= age 19))".into(), Killed, Some("T1".into())),
            ("(= adult (>= age 17))".into(), Killed, Some("T2".into())),
        ]
    );
}

#[test]
fn without_a_boundary_test_the_constant_step_mutants_survive() {
    let dir = threshold_project(json!([
        test("T1", "(= age 30)", "adult", "VALID"),
        test("T2", "(= age 5)", "adult", "INVALID"),
    ]));
    let (tests, model) = load(dir.path());
    let solver = worker(&model, TIMEOUT);
    let all = mutants(&model);
    let report = mutation_score(&solver, &model, &tests, all, 3);
    assert_eq!(
        (report.evaluated, report.killed, report.survived),
        (3, 1, 2)
    );
    assert_eq!(report.score, Some(1.0 / 3.0));
    let survivors: Vec<(&str, MutationKind, &str)> = report
        .survivors()
        .map(|r| {
            (
                r.mutant.rule.as_str(),
                r.mutant.kind,
                r.mutant.mutated.as_str(),
            )
        })
        .collect();
    assert_eq!(
        survivors,
        vec![
            ("R1", MutationKind::StepConstant, "(= adult (>= age 19))"),
            ("R1", MutationKind::StepConstant, "(= adult (>= age 17))"),
        ]
    );
    // The worker is left with the original model.
    let again = run_tests(&solver, &model, &tests);
    assert!(again.iter().all(|o| o.passed));
}

#[test]
fn a_mutant_that_makes_the_policy_inconsistent_is_killed_from_outside_its_cone() {
    let dir = project(
        json!([
            { "name": "x", "type": "Int" },
            { "name": "b", "type": "Bool" },
            { "name": "y", "type": "Int" },
        ]),
        &[("R1", "(and (> x 0) (< x 2))"), ("R2", "(=> b (> y 5))")],
        json!([
            test("T1", "b", "(> y 5)", "VALID"),
            test("T2", "b", "(> y 9)", "IMPOSSIBLE"),
        ]),
    );
    let (tests, model) = load(dir.path());
    let solver = worker(&model, TIMEOUT);
    let all = mutants(&model);
    let generated = all.len();
    let report = mutation_score(&solver, &model, &tests, all, generated);
    // T2 fails on the original (it is SATISFIABLE), so only T1 can kill.
    assert_eq!(report.baseline_passing, strings(&["T1"]));
    let by_text = |text: &str| {
        report
            .results
            .iter()
            .find(|r| r.mutant.mutated == text)
            .unwrap_or_else(|| panic!("no mutant {text}"))
    };
    // x must be 1 and also below 1: the rules contradict each other.
    let inconsistent = by_text("(and (> x 0) (< x 1))");
    assert!(inconsistent.makes_policy_inconsistent);
    assert_eq!(inconsistent.status, MutantStatus::Killed);
    assert_eq!(inconsistent.killed_by.as_deref(), Some("T1"));
    assert_eq!(inconsistent.tests_run, 0);
    // Consistent and outside T1's cone: nothing can notice it.
    let unnoticed = by_text("(and (> x 0) (< x 3))");
    assert!(!unnoticed.makes_policy_inconsistent);
    assert_eq!(unnoticed.status, MutantStatus::Survived);
    assert_eq!(unnoticed.tests_run, 0);
    // In T1's cone: dropping the consequent's meaning is caught.
    assert_eq!(by_text("(=> b (<= y 5))").status, MutantStatus::Killed);
}

#[test]
fn survivors_that_mean_the_same_as_the_original_are_marked_equivalent() {
    let dir = project(
        json!([{ "name": "x", "type": "Int" }, { "name": "b", "type": "Bool" }]),
        &[("R1", "(>= x 1)"), ("R2", "(=> b (>= x 0))")],
        json!([test("T1", "b", "(>= x 1)", "VALID")]),
    );
    let (tests, model) = load(dir.path());
    let solver = worker(&model, TIMEOUT);
    let all = mutants(&model);
    let report = mutation_score(&solver, &model, &tests, all, 7);
    let survivors: Vec<(&str, bool)> = report
        .survivors()
        .map(|r| (r.mutant.mutated.as_str(), r.equivalent))
        .collect();
    assert_eq!(
        survivors,
        vec![
            ("(>= x 2)", false),
            ("(=> b (>= x 1))", true),
            ("(=> b (>= x (- 1)))", true),
        ]
    );
    assert_eq!(
        (report.evaluated, report.killed, report.equivalent),
        (7, 4, 2)
    );
    // Equivalent mutants are left out of the score: 4 of the 5 others.
    assert_eq!(report.score, Some(4.0 / 5.0));
    assert_eq!(report.score_without_equivalent, Some(4.0 / 5.0));
    assert_eq!(report.scored, 5);
    assert_eq!(
        report.summary,
        "80.0%: 4 killed, 3 survived (2 proved equivalent, left out)"
    );
}

/// The shortcuts (one worker, cone of influence, consistency check) agree
/// with the plain definition: load each mutated model into a fresh solver
/// and rerun every counting test.
#[test]
fn shortcuts_agree_with_rerunning_every_test_on_park_admission() {
    let (tests, model) = load(&sample("park-admission"));
    let counting: Vec<LogicTest> = tests
        .iter()
        .filter(|t| t.status.counts())
        .cloned()
        .collect();
    let solver = worker(&model, TIMEOUT);
    let baseline = run_tests(&solver, &model, &counting);
    let chosen = spread(mutants(&model), 30);
    assert_eq!(chosen.len(), 30);
    let report = mutation_score(&solver, &model, &tests, chosen.clone(), 30);
    for (mutant, result) in chosen.iter().zip(&report.results) {
        let mut mutated = model.clone();
        let rule = mutated
            .rules
            .iter_mut()
            .find(|r| r.id == mutant.rule)
            .unwrap();
        rule.formula = mutant.formula.clone();
        rule.written = parse_expr(&mutant.mutated).unwrap();
        let fresh = worker(&mutated, TIMEOUT);
        let rerun = run_tests(&fresh, &mutated, &counting);
        let killed = baseline
            .iter()
            .zip(&rerun)
            .any(|(before, after)| before.passed && !after.passed);
        assert_ne!(result.status, MutantStatus::Undecided, "{}", mutant.mutated);
        assert_eq!(
            result.status == MutantStatus::Killed,
            killed,
            "{} {}",
            mutant.rule,
            mutant.mutated
        );
    }
}

/// A sample of the mutants is said next to the score, in the one text.
#[test]
fn a_sampled_mutation_score_says_so() {
    let out = precept(&[
        "coverage",
        sample("park-admission").to_str().unwrap(),
        "--max-mutants",
        "40",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("Mutation score: "))
        .unwrap();
    assert!(
        line.ends_with(", on a sample of 40 of 75 mutants"),
        "{line}"
    );
}

#[test]
fn coverage_command_on_park_admission() {
    let started = std::time::Instant::now();
    let out = precept(&[
        "coverage",
        sample("park-admission").to_str().unwrap(),
        "--json",
    ]);
    let elapsed = started.elapsed();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rules = json["coverage"]["rules"].as_array().unwrap();
    assert_eq!(rules.len(), 17);
    for rule in rules {
        assert!(rule["id"].is_string());
        assert!(rule["touched"].is_boolean());
        assert!(rule["antecedent_true_by"].is_array());
        assert!(rule["antecedent_false_by"].is_array());
    }
    assert!(json["coverage"]["untouched"].is_array());
    let totals = &json["coverage"]["totals"];
    for key in [
        "touched_percent",
        "antecedent_true_percent",
        "covered_percent",
    ] {
        let percent = totals[key].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&percent), "{key}: {percent}");
    }
    let mutation = &json["mutation"];
    let score = mutation["score"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&score), "{score}");
    // The one definition, and the one text of it.
    let count = |key: &str| mutation[key].as_u64().unwrap();
    assert_eq!(
        count("scored"),
        count("killed") + count("survived") - count("equivalent")
    );
    assert!((score - count("killed") as f64 / count("scored") as f64).abs() < 1e-12);
    let score_text = format!("{:.1}%", score * 100.0);
    assert_eq!(mutation["score_text"], json!(score_text));
    assert!(
        mutation["summary"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{score_text}: {} killed, ", count("killed"))),
        "{}",
        mutation["summary"]
    );
    assert_eq!(mutation["sampled"], json!(false));
    assert!(mutation["killed"].as_u64().unwrap() >= 1);
    let results = mutation["results"].as_array().unwrap();
    assert_eq!(
        results.len() as u64,
        mutation["evaluated"].as_u64().unwrap()
    );
    for survivor in json["survivors"].as_array().unwrap() {
        for key in ["rule", "kind", "description", "mutated"] {
            assert!(survivor[key].is_string(), "{key} in {survivor}");
        }
        assert_eq!(survivor["status"], "survived");
        assert!(survivor["equivalent"].is_boolean());
    }
    eprintln!("precept coverage samples/park-admission --json took {elapsed:?}");
}

#[test]
fn coverage_command_text_options_and_bad_input() {
    let dir = coverage_project();
    let path = dir.path().to_str().unwrap();
    let out = precept(&["coverage", path]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("Untouched rules: R2"), "{text}");
    assert!(text.contains("Mutation score:"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["R1", "yes", "T2", "T1,", "T3"]),
        "{text}"
    );

    let out = precept(&["coverage", path, "--json", "--no-mutation"]);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(json["mutation"].is_null());
    assert_eq!(json["coverage"]["untouched"], json!(["R2"]));

    let out = precept(&["coverage", path, "--json", "--max-mutants", "2"]);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["mutation"]["evaluated"], 2);
    assert!(json["mutation"]["generated"].as_u64().unwrap() > 2);

    let missing = dir.path().join("nowhere");
    let out = precept(&["coverage", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("nowhere"), "{}", stderr(&out));
}
