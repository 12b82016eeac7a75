//! The pooled mutation analysis (mutant schemata, cone tests only, shared
//! over several solver workers) must give the very report of the plain
//! single-worker analysis (one mutant swapped in at a time, a full question
//! per test): on every sample, on the synthetic 1,500-rule model, and on
//! random small models.

use crate::support;

use crate::synthetic;

use precept::model::{CompiledModel, LogicTest, Project, compile};
use precept::scheduler::Scheduler;
use precept::solve::SolverWorker;
use precept::testgen::equivalence_cache::{
    EQUIVALENT_MUTANTS_FILE, EquivalenceCache, mutant_key, rule_context,
};
use precept::testgen::mutation::{MutationReport, mutants, mutation_score, spread};
use precept::testgen::mutation_pool::{
    MutationProgress, mutation_score_cached, mutation_score_pooled,
};
use proptest::prelude::*;
use serde_json::{Value, json};
use std::sync::Mutex;
use std::time::Duration;
use support::{sample, worker};

const TIMEOUT: Duration = Duration::from_secs(10);

fn pooled(jobs: usize, model: &CompiledModel, tests: &[LogicTest], limit: usize) -> MutationReport {
    let pool = Scheduler::new(jobs, TIMEOUT);
    pool.load(model).unwrap();
    let all = mutants(model);
    let generated = all.len();
    let seen = Mutex::new(Vec::new());
    let report = mutation_score_pooled(
        pool.workers(),
        model,
        tests,
        spread(all, limit),
        generated,
        &|p: MutationProgress| seen.lock().unwrap().push(p),
    );
    let seen = seen.into_inner().unwrap();
    // Progress only grows and ends at the number of mutants evaluated.
    assert!(seen.windows(2).all(|w| w[0].done < w[1].done));
    assert_eq!(seen.last().map(|p| p.done), Some(report.evaluated));
    report
}

fn single(model: &CompiledModel, tests: &[LogicTest], limit: usize) -> MutationReport {
    let solver: SolverWorker = worker(model, TIMEOUT);
    let all = mutants(model);
    let generated = all.len();
    mutation_score(&solver, model, tests, spread(all, limit), generated)
}

fn assert_same(model: &CompiledModel, tests: &[LogicTest], limit: usize, what: &str) {
    let reference = single(model, tests, limit);
    assert!(reference.evaluated > 0, "{what}: no mutants");
    for jobs in [1, 2] {
        let report = pooled(jobs, model, tests, limit);
        assert_eq!(report, reference, "{what} with {jobs} workers");
    }
}

#[test]
fn pooled_mutation_equals_single_worker_mutation_on_every_sample() {
    for name in ["airline-refunds", "benefit-eligibility", "park-admission"] {
        let project = Project::load(&sample(name)).unwrap();
        let model = project.compile_strict().unwrap();
        assert_same(&model, &project.tests.tests, usize::MAX, name);
    }
}

#[test]
fn pooled_mutation_equals_single_worker_mutation_on_the_synthetic_model() {
    let (policy, suite) = synthetic::synthetic();
    let model = compile(&policy);
    // Mutants spread over all twenty sections, some of them killed.
    let reference = single(&model, &suite.tests, 80);
    assert!(reference.killed > 0 && reference.survived > 0);
    for jobs in [1, 2] {
        assert_eq!(
            pooled(jobs, &model, &suite.tests, 80),
            reference,
            "{jobs} workers"
        );
    }
}

#[test]
fn progress_estimates_the_time_left_from_the_pace_so_far() {
    let progress = MutationProgress {
        done: 1_500,
        total: 6_000,
        elapsed: Duration::from_secs(10),
    };
    assert_eq!(progress.eta(), Some(Duration::from_secs(30)));
    assert_eq!(progress.text(), "1,500 of 6,000 mutants, about 30 s left");
    let start = MutationProgress {
        done: 0,
        ..progress
    };
    assert_eq!(start.eta(), None);
    assert_eq!(start.text(), "0 of 6,000 mutants");
}

/// An Int literal as SMT-LIB writes it (`(- 2)` for -2).
fn int(c: i8) -> String {
    if c < 0 {
        format!("(- {})", -i16::from(c))
    } else {
        c.to_string()
    }
}

/// A random small model: Int variables x0..x3, Bool flags b0..b2, rules
/// `(=> flag (op x c))` or `(=> (and flag (op x c)) other-flag)`.
fn random_model(rules: &[(u8, u8, u8, i8, u8)]) -> CompiledModel {
    let ops = ["<", "<=", ">", ">=", "="];
    let mut variables: Vec<Value> = (0..4)
        .map(|i| json!({ "name": format!("x{i}"), "type": "Int" }))
        .collect();
    variables.extend((0..3).map(|i| json!({ "name": format!("b{i}"), "type": "Bool" })));
    let rules: Vec<Value> = rules
        .iter()
        .enumerate()
        .map(|(i, &(shape, flag, x, c, op))| {
            let (flag, x, op, c) = (flag % 3, x % 4, ops[op as usize % ops.len()], int(c));
            let expression = if shape % 2 == 0 {
                format!("(=> b{flag} ({op} x{x} {c}))")
            } else {
                format!("(=> (and b{flag} ({op} x{x} {c})) b{})", (flag + 1) % 3)
            };
            json!({ "id": format!("R{}", i + 1), "expression": expression })
        })
        .collect();
    let model = json!({ "schema_version": 1, "variables": variables, "rules": rules });
    let policy = serde_json::from_value(model).unwrap();
    let compiled = compile(&policy);
    assert!(compiled.issues.is_empty(), "{:?}", compiled.issues);
    compiled
}

/// Tests asking about a random model, expecting what the model answers (so
/// they pass) or, one in four, VALID (so some fail and do not count).
fn random_tests(model: &CompiledModel, tests: &[(u8, u8, i8, u8)]) -> Vec<LogicTest> {
    use precept::solve::FindingKind;
    let solver = worker(model, TIMEOUT);
    tests
        .iter()
        .enumerate()
        .map(|(i, &(flag, x, c, expect))| {
            let premise = format!("(and b{} (> x{} {}))", flag % 3, x % 4, int(c));
            let claim = format!("b{}", (flag + 1) % 3);
            let actual = solver
                .verify(
                    support::formula(model, &premise),
                    support::formula(model, &claim),
                )
                .kind;
            let expected = match expect % 4 {
                0 => FindingKind::Valid,
                _ => actual,
            };
            LogicTest::new(
                format!("T{}", i + 1),
                format!("random question {i}"),
                premise,
                claim,
                expected,
            )
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]
    #[test]
    fn pooled_mutation_equals_single_worker_mutation_on_random_models(
        rules in prop::collection::vec((0u8..2, 0u8..3, 0u8..4, -5i8..6, 0u8..5), 2..7),
        tests in prop::collection::vec((0u8..3, 0u8..4, -5i8..6, 0u8..4), 1..6),
    ) {
        let model = random_model(&rules);
        let suite = random_tests(&model, &tests);
        let reference = single(&model, &suite, usize::MAX);
        let report = pooled(2, &model, &suite, usize::MAX);
        prop_assert_eq!(report, reference);
    }
}

/// `precept coverage --json` with one worker and with two prints the same
/// mutation report; `--sample N` evaluates N mutants and says so.
#[test]
fn coverage_command_jobs_and_sample() {
    let dir = sample("benefit-eligibility");
    let dir = dir.to_str().unwrap();
    let mutation_of = |args: &[&str]| -> Value {
        let mut all = vec!["coverage", dir, "--json"];
        all.extend_from_slice(args);
        let out = support::precept(&all);
        assert_eq!(out.status.code(), Some(0), "{}", support::stderr(&out));
        let json: Value = serde_json::from_str(&support::stdout(&out)).unwrap();
        json["mutation"].clone()
    };
    let one = mutation_of(&["--jobs", "1"]);
    assert_eq!(one["sampled"], json!(false));
    assert_eq!(one["evaluated"], one["generated"]);
    assert_eq!(mutation_of(&["--jobs", "2"]), one);
    let sampled = mutation_of(&["--sample", "7", "--jobs", "2"]);
    assert_eq!(sampled["evaluated"], json!(7));
    assert_eq!(sampled["sampled"], json!(true));
}

/// A worker count of 0 is bad input, on the command line and in
/// `precept.json`.
#[test]
fn a_worker_count_of_zero_is_refused() {
    let out = support::precept(&[
        "coverage",
        sample("park-admission").to_str().unwrap(),
        "--jobs",
        "0",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", support::stderr(&out));
    let dir = support::copy_sample("park-admission");
    let settings_path = dir.path().join("precept.json");
    let mut settings: Value =
        serde_json::from_str(&std::fs::read_to_string(&settings_path).unwrap()).unwrap();
    settings["solver_jobs"] = json!(0);
    std::fs::write(&settings_path, settings.to_string()).unwrap();
    let out = support::precept(&["coverage", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        support::stderr(&out).contains("solver_jobs"),
        "{}",
        support::stderr(&out)
    );
}

/// When the rules contradict each other the cone argument does not hold, so
/// the schemata settle nothing and every mutant is judged the slow way:
/// the report is still the single-worker one.
#[test]
fn an_inconsistent_policy_falls_back_to_the_plain_path_with_the_same_report() {
    use precept::solve::FindingKind;
    let policy = serde_json::from_value(json!({
        "schema_version": 1,
        "variables": [
            { "name": "x", "type": "Int" },
            { "name": "y", "type": "Int" },
            { "name": "b", "type": "Bool" },
        ],
        "rules": [
            { "id": "R1", "expression": "(> x 5)" },
            { "id": "R2", "expression": "(< x 3)" },
            { "id": "R3", "expression": "(=> b (> y 10))" },
        ],
    }))
    .unwrap();
    let model = compile(&policy);
    assert!(model.issues.is_empty());
    let tests = vec![
        LogicTest::new("T1", "anything", "b", "(> y 10)", FindingKind::Impossible),
        LogicTest::new("T2", "wrong", "b", "(> y 10)", FindingKind::Valid),
    ];
    let reference = single(&model, &tests, usize::MAX);
    assert_eq!(reference.baseline_passing, vec!["T1".to_string()]);
    assert_eq!(reference.evaluated, reference.generated);
    for jobs in [1, 2] {
        assert_eq!(pooled(jobs, &model, &tests, usize::MAX), reference);
    }
}

fn cached_run(
    model: &CompiledModel,
    tests: &[LogicTest],
    cache: &EquivalenceCache,
) -> MutationReport {
    let pool = Scheduler::new(2, TIMEOUT);
    pool.load(model).unwrap();
    let all = mutants(model);
    let generated = all.len();
    mutation_score_cached(pool.workers(), model, tests, all, generated, &|_| {}, cache)
}

/// A second run finds every equivalent mutant in the cache (asking the
/// solver nothing about them) and reports the same.
#[test]
fn equivalent_mutants_are_cached_and_a_rerun_asks_nothing_about_them() {
    let mut with_equivalents = 0;
    for name in ["airline-refunds", "benefit-eligibility", "park-admission"] {
        let project = Project::load(&sample(name)).unwrap();
        let model = project.compile_strict().unwrap();
        let cache = EquivalenceCache::in_memory();
        let first = cached_run(&model, &project.tests.tests, &cache);
        assert_eq!(cache.hits(), 0, "{name}");
        assert!(cache.len() <= first.equivalent, "{name}");
        assert_eq!(cache.is_empty(), first.equivalent == 0, "{name}");
        let second = cached_run(&model, &project.tests.tests, &cache);
        assert_eq!(second, first, "{name}");
        assert_eq!(cache.hits(), first.equivalent, "{name}");
        with_equivalents += usize::from(first.equivalent > 0);
    }
    assert!(with_equivalents > 0, "no sample has an equivalent mutant");
}

/// An entry depends on the rule's group only: an edit to a rule of the
/// group changes it, an edit elsewhere does not.
#[test]
fn an_edited_rule_invalidates_the_entries_of_its_group_only() {
    let model_of = |second: &str, third: &str| {
        support::model(&format!(
            "(declare-const a Bool)(declare-const x Int)(declare-const b Bool)(declare-const y Int)
             (assert (=> a (> x 5)))(assert {second})(assert {third})"
        ))
    };
    let key = |model: &CompiledModel| {
        let graph = precept::testgen::coverage::rule_graph(model);
        mutant_key(&rule_context(model, &graph, "R1"), "(=> a (>= x 5))")
    };
    let before = key(&model_of("(=> a (> x 3))", "(=> b (< y 0))"));
    assert_eq!(before.len(), 64);
    assert_eq!(before, key(&model_of("(=> a (> x 3))", "(=> b (< y 0))")));
    assert_ne!(before, key(&model_of("(=> a (> x 2))", "(=> b (< y 0))")));
    assert_eq!(before, key(&model_of("(=> a (> x 3))", "(=> b (< y 9))")));
}

/// `precept coverage` keeps the equivalent mutants in the project's
/// `.cache/` and reports the same when run again.
#[test]
fn coverage_command_caches_equivalent_mutants_in_the_project() {
    let mut cached_somewhere = false;
    for name in ["airline-refunds", "benefit-eligibility", "park-admission"] {
        let dir = support::copy_sample(name);
        let path = dir.path().to_str().unwrap();
        let mutation = || -> Value {
            let out = support::precept(&["coverage", path, "--json", "--jobs", "2"]);
            assert_eq!(out.status.code(), Some(0), "{}", support::stderr(&out));
            let json: Value = serde_json::from_str(&support::stdout(&out)).unwrap();
            json["mutation"].clone()
        };
        let first = mutation();
        let file = dir.path().join(EQUIVALENT_MUTANTS_FILE);
        let equivalent = first["equivalent"].as_u64().unwrap() as usize;
        if equivalent > 0 {
            let lines = std::fs::read_to_string(&file).unwrap().lines().count();
            assert!(
                lines > 0 && lines <= equivalent,
                "{name}: {lines} of {equivalent}"
            );
            cached_somewhere = true;
        }
        assert_eq!(mutation(), first, "{name}");
    }
    assert!(cached_somewhere);
}
