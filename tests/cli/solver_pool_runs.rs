//! Lint and logic test runs shared out over a solver pool (groups of rules
//! and cones taken from a common queue) must find exactly what one worker
//! finds: on every sample, on the synthetic 1,500-rule model and on random
//! models of several groups; and a check that runs out of time stays "not
//! decided" on the pool too.

use crate::support;

use crate::synthetic;

use precept::model::diagnostic::{Diagnostic, LintCode};
use precept::model::finding::KnownSides;
use precept::model::{CompiledModel, LogicTest, Project, compile};
use precept::scheduler::{JobId, Scheduler};
use precept::solve::lint_checks::LintEvent;
use precept::solve::{FindingKind, SolverWorker};
use precept::test_runner::carry_over::{RuleChange, known_sides, still_proved};
use precept::test_runner::shares::model_graph;
use precept::test_runner::{
    TestOutcome, check_test, run_tests, run_tests_knowing, run_tests_pooled,
};
use proptest::prelude::*;
use serde_json::{Value, json};
use std::time::Duration;
use support::random_groups::{random_model, random_questions, random_rules, random_tests};
use support::{model, sample, worker};

const TIMEOUT: Duration = Duration::from_secs(10);
const SAMPLES: [&str; 3] = ["airline-refunds", "benefit-eligibility", "park-admission"];

/// What a lint run reported: the diagnostics in order, and the counts of
/// its `Finished` event.
fn drain(received: std::sync::mpsc::Receiver<LintEvent>) -> (Vec<Diagnostic>, (usize, usize)) {
    let mut found = Vec::new();
    for event in received.iter() {
        match event {
            LintEvent::Found(d) => found.push(*d),
            LintEvent::Progress { .. } => {}
            LintEvent::Finished {
                checks, undecided, ..
            } => return (found, (checks, undecided)),
        }
    }
    panic!("the lint run ended without Finished");
}

fn single_lint(model: &CompiledModel, timeout: Duration) -> (Vec<Diagnostic>, (usize, usize)) {
    let worker = SolverWorker::spawn(timeout);
    let (events, received) = std::sync::mpsc::channel();
    worker.lint(model.clone(), events);
    drain(received)
}

fn pooled_lint(
    model: &CompiledModel,
    jobs: usize,
    timeout: Duration,
) -> (Vec<Diagnostic>, (usize, usize)) {
    let pool = Scheduler::new(jobs, timeout);
    let (events, received) = std::sync::mpsc::channel();
    pool.lint(JobId::next(), model.clone(), events);
    drain(received)
}

/// A test outcome without the time it took and without its scenarios'
/// values (only whether each scenario is there).
fn verdicts(outcomes: &[TestOutcome]) -> Vec<Value> {
    decided(outcomes)
        .into_iter()
        .map(|mut outcome| {
            if let Some(finding) = outcome.get_mut("finding").and_then(Value::as_object_mut) {
                for key in ["claims_true_scenario", "claims_false_scenario"] {
                    if let Some(scenario) = finding.get_mut(key) {
                        *scenario = Value::Bool(!scenario.is_null());
                    }
                }
            }
            outcome
        })
        .collect()
}

/// Whether each scenario of `outcome` satisfies the premise, the claim (or
/// its negation, for the claim-false scenario) and every rule of `model`
/// whose variables it gives, by exact evaluation.
fn scenarios_are_evidence(outcome: &TestOutcome, test: &LogicTest, model: &CompiledModel) -> bool {
    let Some(finding) = &outcome.finding else {
        return true;
    };
    let Ok((premise, claim)) = check_test(model, test) else {
        return false;
    };
    support::evidence::scenarios_are_evidence(finding, &premise, &claim, model)
}

/// A test outcome without the time it took.
fn decided(outcomes: &[TestOutcome]) -> Vec<Value> {
    outcomes
        .iter()
        .map(|o| {
            json!({
                "id": o.id,
                "finding": o.finding,
                "error": o.error,
                "passed": o.passed,
            })
        })
        .collect()
}

fn pooled_tests(model: &CompiledModel, tests: &[LogicTest], jobs: usize) -> Vec<Value> {
    let pool = Scheduler::new(jobs, TIMEOUT);
    pool.load(model).unwrap();
    decided(&run_tests_pooled(pool.workers(), model, tests))
}

fn assert_same_runs(model: &CompiledModel, tests: &[LogicTest], what: &str) {
    let lint = single_lint(model, TIMEOUT);
    for jobs in [1, 2] {
        assert_eq!(
            pooled_lint(model, jobs, TIMEOUT),
            lint,
            "{what}: lint, {jobs} workers"
        );
    }
    let reference = decided(&run_tests(&worker(model, TIMEOUT), model, tests));
    for jobs in [1, 2] {
        assert_eq!(
            pooled_tests(model, tests, jobs),
            reference,
            "{what}: tests, {jobs} workers"
        );
    }
}

#[test]
fn pooled_lint_and_test_runs_equal_the_single_worker_on_every_sample() {
    for name in SAMPLES {
        let project = Project::load(&sample(name)).unwrap();
        let model = project.compile_strict().unwrap();
        let (found, _) = single_lint(&model, TIMEOUT);
        assert!(!found.is_empty(), "{name}: the lint found nothing");
        assert_same_runs(&model, &project.tests.tests, name);
    }
}

#[test]
fn pooled_lint_and_test_runs_equal_the_single_worker_on_the_synthetic_model() {
    let (policy, suite) = synthetic::synthetic();
    let model = compile(&policy);
    let two = pooled_lint(&model, 2, TIMEOUT);
    assert_eq!(pooled_lint(&model, 1, TIMEOUT), two);
    let (found, _) = two;
    assert!(
        found.iter().any(|d| d.code == LintCode::DisjointGroups),
        "twenty sections are twenty groups"
    );
    let reference = decided(&run_tests(&worker(&model, TIMEOUT), &model, &suite.tests));
    assert_eq!(reference.len(), 1_000);
    for jobs in [1, 2] {
        assert_eq!(
            pooled_tests(&model, &suite.tests, jobs),
            reference,
            "{jobs} workers"
        );
    }
}

#[test]
fn a_check_that_times_out_on_the_pool_is_not_decided_never_a_pass() {
    let cubes = model(
        "(declare-const x Int)(declare-const y Int)(declare-const z Int)
         (declare-const a Bool)(declare-const b Bool)
         (assert (and (> x 0) (> y 0) (> z 0)))(assert (= (+ (* x x x) (* y y y)) (* z z z)))
         (assert (=> a b))",
    );
    let timeout = Duration::from_millis(300);
    let (found, (_, undecided)) = pooled_lint(&cubes, 2, timeout);
    let not_decided = found
        .iter()
        .filter(|d| d.code == LintCode::NotDecided)
        .count();
    assert!(not_decided > 0, "{found:#?}");
    assert_eq!(undecided, not_decided);
    assert!(!found.iter().any(|d| d.code == LintCode::Inconsistent));

    let pool = Scheduler::new(2, timeout);
    pool.load(&cubes).unwrap();
    let question = LogicTest::new(
        "T1",
        "a cube sum",
        "(> z 10)",
        "(> x 1)",
        FindingKind::Valid,
    );
    let outcomes = run_tests_pooled(pool.workers(), &cubes, &[question]);
    let finding = outcomes[0].finding.as_ref().unwrap();
    assert_eq!(finding.kind, FindingKind::TooComplex, "{finding:?}");
    assert!(!outcomes[0].passed);
}

fn remembering(model: &CompiledModel, scheduler: &Scheduler) -> (Vec<Diagnostic>, (usize, usize)) {
    let (events, received) = std::sync::mpsc::channel();
    scheduler.lint(JobId::next(), model.clone(), events);
    drain(received)
}

/// Two groups of rules with findings in each: R1 makes R2 redundant; R3 and
/// R4 together rule out b.
fn two_groups(first: &str) -> CompiledModel {
    model(&format!(
        "(declare-const a Bool)(declare-const x Int)(declare-const b Bool)(declare-const y Int)
         (assert {first})(assert (=> a (> x 3)))
         (assert (=> b (< y 0)))(assert (=> b (> y 1)))"
    ))
}

#[test]
fn a_lint_after_an_edit_checks_only_the_edited_group_and_finds_what_a_full_lint_finds() {
    let scheduler = Scheduler::new(2, TIMEOUT);
    let memo = scheduler.lint_memo();
    let before = two_groups("(=> a (> x 5))");
    let first = remembering(&before, &scheduler);
    assert_eq!(first, single_lint(&before, TIMEOUT));
    assert_eq!(memo.len(), 2, "both groups kept");
    let (found, (checks, _)) = &first;
    assert!(
        found.iter().any(|d| d.rules.contains(&"R2".to_string())),
        "{found:#?}"
    );
    assert!(
        found.iter().any(|d| d.rules.contains(&"R3".to_string())),
        "{found:#?}"
    );

    // Nothing changed: nothing is asked, not even the consistency of the
    // rules (each group was found consistent).
    let (again, (again_checks, _)) = remembering(&before, &scheduler);
    assert_eq!(&again, found);
    assert_eq!(again_checks, 0);
    assert!(again_checks < *checks);

    // R1 edited: its group is checked again (its consistency too), b's
    // group is kept; the result is the full lint's of the edited model.
    let after = two_groups("(=> a (> x 7))");
    let edited = remembering(&after, &scheduler);
    let full = single_lint(&after, TIMEOUT);
    assert_eq!(edited.0, full.0);
    assert!(
        edited.1.0 > 1 && edited.1.0 < full.1.0,
        "{:?} vs {:?}",
        edited.1,
        full.1
    );
    assert_eq!(memo.len(), 2, "the old content of R1's group is forgotten");

    // An edit that makes R1's group contradict itself: the whole model is
    // checked, and the lint is the full lint's, the contradiction named.
    let broken = two_groups("(and a (not a))");
    let edited = remembering(&broken, &scheduler);
    assert_eq!(edited.0, single_lint(&broken, TIMEOUT).0);
    assert!(
        edited.0.iter().any(|d| d.code == LintCode::Inconsistent),
        "{:#?}",
        edited.0
    );
}

/// `precept lint` and `precept test` print the same with one worker and
/// with two.
#[test]
fn lint_and_test_commands_print_the_same_whatever_the_jobs() {
    for name in SAMPLES {
        let dir = sample(name);
        let dir = dir.to_str().unwrap();
        for command in [
            vec!["lint", dir, "--json"],
            vec!["test", dir, "--json", "--skip-nl"],
        ] {
            let run = |jobs: &str| {
                let mut args = command.clone();
                args.extend(["--jobs", jobs]);
                let out = support::precept(&args);
                assert!(
                    out.status.code().is_some_and(|c| c <= 1),
                    "{}",
                    support::stderr(&out)
                );
                support::stdout(&out)
            };
            let one = run("1");
            assert!(one.len() > 2, "{name}: {command:?} printed nothing");
            assert_eq!(run("2"), one, "{name}: {command:?}");
        }
    }
    let park = sample("park-admission");
    let out = support::precept(&["lint", park.to_str().unwrap(), "--jobs", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        support::stderr(&out).contains("--jobs"),
        "{}",
        support::stderr(&out)
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    #[test]
    fn pooled_runs_equal_the_single_worker_on_random_models(
        rules in random_rules(),
        tests in random_questions(),
    ) {
        let model = random_model(&rules);
        let suite = random_tests(&tests);
        let lint = single_lint(&model, TIMEOUT);
        prop_assert_eq!(pooled_lint(&model, 2, TIMEOUT), lint);
        let reference = decided(&run_tests(&worker(&model, TIMEOUT), &model, &suite));
        prop_assert_eq!(pooled_tests(&model, &suite, 2), reference);
    }
}

/// An outcome's verdict without its rule sets (see `rule_sets_hold`).
fn verdicts_without_rules(outcomes: &[TestOutcome]) -> Vec<Value> {
    verdicts(outcomes)
        .into_iter()
        .map(|mut outcome| {
            if let Some(finding) = outcome.get_mut("finding").and_then(Value::as_object_mut) {
                finding.remove("supporting_rules");
                finding.remove("contradicting_rules");
            }
            outcome
        })
        .collect()
}

/// Whether `outcome`'s rule set is the one a run from scratch found
/// (`scratch`), or else a minimal set of rules of `model` that proves the
/// same finding: the model cut down to that set, asked the question in a
/// fresh solver, gives the same finding with that whole set (a minimal
/// set is the only unsatisfiable subset of itself).
fn rule_sets_hold(
    outcome: &TestOutcome,
    scratch: &TestOutcome,
    test: &LogicTest,
    model: &CompiledModel,
) -> bool {
    let (Some(finding), Some(reference)) = (&outcome.finding, &scratch.finding) else {
        return outcome.finding == scratch.finding;
    };
    if finding.rules() == reference.rules() {
        return true;
    }
    let mut cut = model.clone();
    cut.rules.retain(|rule| finding.rules().contains(&rule.id));
    let (premise, claim) = check_test(model, test).unwrap();
    let again = support::worker(&cut, TIMEOUT).verify(premise, claim);
    again.kind == finding.kind && again.rules() == finding.rules()
}

/// What the workbench does after an edit of one rule (`id`): the edit goes
/// to the worker that ran the tests before; of the tests whose cone holds
/// the rule (by its old and new variables), those whose evidence still
/// proves their finding keep it (`carry_over::still_proved`), the others
/// run again on the worker, told what of their evidence still stands
/// (`carry_over::known_sides`); the tests outside the cone keep their
/// outcomes, evidence and all. Every test runs again, knowing nothing, when
/// the policy is inconsistent before or after (every question then
/// changes). Returns how many tests ran again.
fn rerun_after_edit(
    worker: &SolverWorker,
    before: &CompiledModel,
    after: &CompiledModel,
    id: &str,
    tests: &[LogicTest],
    kept: &mut [TestOutcome],
) -> usize {
    let formula = after
        .rules
        .iter()
        .find(|r| r.id == id)
        .map(|r| r.formula.clone());
    worker.replace_rule(id, formula);
    let inconsistent = |model: &CompiledModel| {
        let truth = precept::smt::parse_expr("true").unwrap();
        let w = support::worker(model, TIMEOUT);
        w.verify(truth.clone(), truth).kind == FindingKind::Impossible
    };
    let graph = model_graph(after);
    let mut touched_variables = model_graph(before).variables_of(id);
    touched_variables.extend(graph.variables_of(id));
    let touched = graph.components_of(touched_variables.iter().map(String::as_str));
    let everything = inconsistent(before) || inconsistent(after);
    let change = RuleChange::in_model(id, after);
    let mut known = Vec::new();
    let affected: Vec<usize> = (0..tests.len())
        .filter(|&i| {
            let (premise, claim) = check_test(after, &tests[i]).unwrap();
            let mut symbols = premise.symbols();
            symbols.extend(claim.symbols());
            if everything {
                known.push(KnownSides::default());
                return true;
            }
            if !graph.may_depend(symbols, &touched) {
                return false;
            }
            let finding = kept[i].finding.as_ref();
            if finding.is_some_and(|f| still_proved(f, change, after)) {
                return false;
            }
            known.push(
                finding
                    .map(|f| known_sides(f, change, after))
                    .unwrap_or_default(),
            );
            true
        })
        .collect();
    let subset: Vec<LogicTest> = affected.iter().map(|&i| tests[i].clone()).collect();
    let rerun = run_tests_knowing(worker, after, &subset, &known);
    for (i, outcome) in affected.iter().zip(rerun) {
        kept[*i] = outcome;
    }
    affected.len()
}

/// The kept and rerun outcomes after an edit against a run from scratch
/// on the edited model: the same kinds, warnings, minimality and whether
/// each scenario exists; each rule set the same or proved minimal on its
/// own; each scenario evidence on the edited model. (A scenario's values
/// may differ: Z3 picks among free values by the terms its context made
/// before, and a kept finding keeps the scenario it was proved with.)
fn assert_rerun_finds_what_scratch_finds(
    kept: &[TestOutcome],
    scratch: &[TestOutcome],
    suite: &[LogicTest],
    model: &CompiledModel,
    what: &str,
) {
    assert_eq!(
        verdicts_without_rules(kept),
        verdicts_without_rules(scratch),
        "{what}"
    );
    for ((outcome, reference), test) in kept.iter().zip(scratch).zip(suite) {
        assert!(
            rule_sets_hold(outcome, reference, test, model),
            "{what}: {} has rules {:?}, a run from scratch {:?}",
            test.id,
            outcome.finding.as_ref().map(|f| f.rules()),
            reference.finding.as_ref().map(|f| f.rules()),
        );
        assert!(
            scenarios_are_evidence(outcome, test, model),
            "{what}: {:?}",
            outcome.finding
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10))]
    /// A random sequence of edits (a rule changed in place, or one added):
    /// after each, the outcomes the warm worker keeps and reruns equal those
    /// of a worker that loads the edited model and runs every test.
    #[test]
    fn incremental_reruns_after_random_edits_equal_runs_from_scratch(
        rules in prop::collection::vec((0u8..3, 0u8..2, 0u8..3, 0u8..2, -5i8..6, 0u8..5), 3..9),
        tests in prop::collection::vec((0u8..3, 0u8..3, -3i8..6), 2..9),
        edits in prop::collection::vec(
            (0usize..12, (0u8..3, 0u8..2, 0u8..3, 0u8..2, -5i8..6, 0u8..5)), 1..5),
    ) {
        let mut rules = rules;
        let suite = random_tests(&tests);
        let mut model = random_model(&rules);
        let worker = worker(&model, TIMEOUT);
        let mut kept = run_tests(&worker, &model, &suite);
        for (at, rule) in edits {
            let at = at % (rules.len() + 1);
            if at == rules.len() {
                rules.push(rule);
            } else {
                rules[at] = rule;
            }
            let edited = random_model(&rules);
            let id = format!("R{}", at + 1);
            let rerun = rerun_after_edit(&worker, &model, &edited, &id, &suite, &mut kept);
            prop_assert!(rerun <= suite.len());
            let scratch = run_tests(&support::worker(&edited, TIMEOUT), &edited, &suite);
            assert_rerun_finds_what_scratch_finds(
                &kept,
                &scratch,
                &suite,
                &edited,
                &format!("after editing {id}"),
            );
            model = edited;
        }
    }
}

/// On the synthetic model, a one-rule edit in one section asks again only
/// tests of that section, and only those whose evidence the edit broke;
/// the outcomes it keeps and reruns are those of a run from scratch on the
/// edited model. A weaker rule breaks no scenario: only tests whose rule
/// sets name it are asked again.
#[test]
fn a_one_rule_edit_reruns_its_section_and_finds_what_a_run_from_scratch_finds() {
    let (mut policy, suite) = synthetic::synthetic();
    let before = compile(&policy);
    let worker = worker(&before, TIMEOUT);
    let mut kept = run_tests(&worker, &before, &suite.tests);
    let index = 3 * synthetic::RULES_PER_SECTION + 10;
    let id = policy.rules[index].id.clone();
    let mut model = before;
    for (amount, weaker) in [("4.0", false), ("1.0", true)] {
        policy.rules[index].expression =
            format!("(=> s3_eligible0 (>= s3_amount10 (+ s3_amount9 {amount})))");
        let after = compile(&policy);
        let naming = kept[3 * synthetic::TESTS_PER_SECTION..][..synthetic::TESTS_PER_SECTION]
            .iter()
            .filter(|o| o.finding.as_ref().is_some_and(|f| f.rules().contains(&id)))
            .count();
        let rerun = rerun_after_edit(&worker, &model, &after, &id, &suite.tests, &mut kept);
        assert!(rerun < synthetic::TESTS_PER_SECTION, "{rerun}");
        match weaker {
            false => assert!(rerun > naming, "a stronger rule breaks some scenarios"),
            true => assert_eq!(
                rerun, naming,
                "a weaker rule breaks only rule sets naming it"
            ),
        }
        let scratch = run_tests(&support::worker(&after, TIMEOUT), &after, &suite.tests);
        assert_rerun_finds_what_scratch_finds(&kept, &scratch, &suite.tests, &after, &id);
        model = after;
    }
}

/// A generator of numbers below its argument, from `seed` (xorshift).
fn random_below(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    }
}

/// The first `rules` rules of a bench model, with `edits` random edits
/// (a rule's expression swapped for another's, or a rule deleted) applied
/// one by one: after each, the lint that remembers unchanged groups finds
/// exactly what a lint from scratch finds. On the sectioned model and the
/// dense one (whose rules share one large group).
fn incremental_lint_equals_full_lint(
    mut model: precept::model::PolicyModel,
    rules: usize,
    edits: usize,
) {
    model.rules.truncate(rules);
    let scheduler = Scheduler::new(2, TIMEOUT);
    remembering(&compile(&model), &scheduler);
    let mut next = random_below(0x0ED1_7500);
    for _ in 0..edits {
        let at = next(model.rules.len());
        match next(3) {
            0 => {
                model.rules.remove(at);
            }
            _ => {
                let from = next(model.rules.len());
                model.rules[at].expression = model.rules[from].expression.clone();
            }
        }
        let compiled = compile(&model);
        let (incremental, _) = remembering(&compiled, &scheduler);
        let (full, _) = pooled_lint(&compiled, 2, TIMEOUT);
        assert_eq!(incremental, full, "after an edit of rule {at}");
    }
}

#[test]
fn incremental_lint_after_random_edits_equals_full_lint_on_the_sectioned_model() {
    incremental_lint_equals_full_lint(synthetic::synthetic().0, 150, 4);
}

#[test]
fn incremental_lint_after_random_edits_equals_full_lint_on_the_dense_model() {
    incremental_lint_equals_full_lint(crate::dense_model::dense(), 60, 4);
}

/// On a group of rules large enough for near checks (`near.rs`), the lint
/// finds what it finds asking every question of the whole group: the same
/// findings about the same subjects, and every gap's scenario satisfies
/// every rule by exact evaluation.
#[test]
fn near_checks_find_what_the_whole_group_finds_on_the_dense_model() {
    use precept::solve::lint_checks::{LintShare, share_out};
    let mut model = crate::dense_model::dense();
    // Its largest group has about 260 rules: well over the 200 from which
    // near checks are tried (201 with the first 260 rules).
    model.rules.truncate(300);
    let compiled = compile(&model);
    let lint = |near: bool| {
        let pool = Scheduler::new(2, TIMEOUT);
        let (events, received) = std::sync::mpsc::channel();
        let share = LintShare::new(compiled.clone(), 2, events);
        let share = match near {
            true => share,
            false => share.without_near_checks(),
        };
        let _tickets = share_out(share, pool.workers());
        drain(received).0
    };
    let near = lint(true);
    let whole = lint(false);
    assert!(
        near.iter().any(|d| d.code == LintCode::Gap),
        "the model has gaps"
    );
    assert_eq!(subjects(&near), subjects(&whole));
    for gap in near.iter().filter(|d| d.code == LintCode::Gap) {
        assert!(gap.scenario.is_some(), "a gap shows its scenario");
    }
    assert_no_rule_false_in_a_scenario(&compiled, &near);
}

/// What each finding is about, sorted: its code, the variables it names
/// (or its first rule), and for L205 the value, for L206 the two rules.
fn subjects(found: &[Diagnostic]) -> Vec<String> {
    let mut subjects: Vec<String> = found
        .iter()
        .map(|d| {
            let about = match d.variables.is_empty() {
                true => d.rules.first().cloned().unwrap_or_default(),
                false => d.variables.join(","),
            };
            let value = match d.code {
                LintCode::UnreachableEnumValue => d.message.clone(),
                LintCode::ConflictingOverlap => d.rules.join(","),
                _ => String::new(),
            };
            format!(
                "{} {about} {}",
                d.code.code(),
                value.split(':').next().unwrap_or("")
            )
        })
        .collect();
    subjects.sort();
    subjects
}

/// No rule of `model` is false, by exact evaluation, in the scenario of
/// any finding of `found` (a scenario shows some variables: a rule that
/// needs others is not told).
fn assert_no_rule_false_in_a_scenario(model: &CompiledModel, found: &[Diagnostic]) {
    let enum_value = |name: &str| {
        model
            .enums
            .iter()
            .any(|(_, values)| values.iter().any(|v| v == name))
    };
    for finding in found {
        let Some(scenario) = &finding.scenario else {
            continue;
        };
        let lookup = |name: &str| {
            scenario
                .get(name)
                .and_then(precept::model::evaluate::Known::of)
                .or_else(|| {
                    enum_value(name).then(|| precept::model::evaluate::Known::Enum(name.into()))
                })
        };
        for rule in &model.rules {
            assert_ne!(
                precept::model::evaluate::holds(&rule.formula, &lookup),
                Some(false),
                "{}: {} is false in its scenario",
                finding.message,
                rule.id
            );
        }
    }
}

/// On a group large enough to keep each question's answer (`answer_memo.rs`
/// in the engine), the lint after an edit asks again only what the edit
/// may have changed: after random edits (a rule deleted, a rule's
/// expression swapped for another's, a rule given a further condition) it
/// finds what a lint from scratch finds, about the same subjects, no rule
/// is false in any scenario it shows, and it asks far fewer checks.
#[test]
fn a_large_group_relinted_after_random_edits_finds_what_a_full_lint_finds() {
    let mut model = crate::dense_model::dense();
    model.rules.truncate(300);
    let scheduler = Scheduler::new(2, TIMEOUT);
    let (_, (first_checks, _)) = remembering(&compile(&model), &scheduler);
    let mut next = random_below(0x1A26_E600);
    for round in 0..4 {
        let at = next(model.rules.len());
        match round % 3 {
            0 => {
                model.rules[at].expression =
                    format!("(=> b{} {})", next(40), model.rules[at].expression)
            }
            1 => {
                let from = next(model.rules.len());
                model.rules[at].expression = model.rules[from].expression.clone();
            }
            _ => {
                model.rules.remove(at);
            }
        }
        let compiled = compile(&model);
        let (incremental, (checks, _)) = remembering(&compiled, &scheduler);
        let (full, (full_checks, _)) = pooled_lint(&compiled, 2, TIMEOUT);
        assert_eq!(
            subjects(&incremental),
            subjects(&full),
            "after edit {round} of rule {at}"
        );
        assert_no_rule_false_in_a_scenario(&compiled, &incremental);
        assert!(
            checks * 4 < full_checks.min(first_checks),
            "after edit {round}: {checks} checks, {full_checks} from scratch"
        );
    }
}

/// A group of 400 rules or more is checked in fixed parts (the checks of
/// the whole group, then slices of its rules and variables) that the
/// workers share: two workers find what one finds, in the same order; the
/// checks of the whole group are reported once, and the slices check the
/// rules at both ends of the group.
#[test]
fn a_large_group_is_shared_by_the_workers_in_fixed_parts() {
    let mut model = crate::dense_model::dense();
    model.rules.truncate(560);
    // Planted: a rule that can never apply (first slice) and a copy of the
    // first dense rule (last slice), each redundant with the other.
    let planted = |id: &str, expression: String| {
        let mut rule = model.rules[0].clone();
        rule.id = id.to_string();
        rule.expression = expression;
        rule
    };
    let never = planted("Never", "(=> (and b1 (not b1)) b2)".to_string());
    let copy = planted("Copy", model.rules[0].expression.clone());
    model.rules.insert(0, never);
    model.rules.push(copy);
    let compiled = compile(&model);
    let first = compiled.rules[1].id.clone();
    let (one, (_, undecided_one)) = pooled_lint(&compiled, 1, TIMEOUT);
    let (two, (_, undecided_two)) = pooled_lint(&compiled, 2, TIMEOUT);
    let shown = |found: &[Diagnostic]| -> Vec<String> {
        found
            .iter()
            .map(|d| format!("{} {}", d.code.code(), d.message))
            .collect()
    };
    assert_eq!(shown(&one), shown(&two));
    assert_eq!(undecided_one, undecided_two);
    let about = |code: LintCode, rule: &str| {
        one.iter()
            .any(|d| d.code == code && d.rules.first().is_some_and(|r| r == rule))
    };
    assert!(about(LintCode::VacuousRule, "Never"), "{:?}", shown(&one));
    assert!(about(LintCode::RedundantRule, "Copy"), "{:?}", shown(&one));
    assert!(about(LintCode::RedundantRule, &first), "{:?}", shown(&one));
    let gaps: Vec<&Diagnostic> = one.iter().filter(|d| d.code == LintCode::Gap).collect();
    assert!(!gaps.is_empty(), "the dense model has gaps");
    let mut distinct: Vec<String> = gaps.iter().map(|d| d.message.clone()).collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(gaps.len(), distinct.len(), "no part reports a gap twice");
}
