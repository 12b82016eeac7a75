//! The semantic diff of two models: the text of the change, its behaviour
//! decided by the solver, and every test whose finding differs between the
//! two sides: the logic tests run on both models, and the natural-language
//! tests are decided on both from their stored translations
//! (`diff_answer_tests.rs`). The JSON form keeps the field names of the issue
//! (`equivalent`, `a_allows_not_b`, `b_allows_not_a`, `rules`,
//! `tests_flipped`).

use super::behaviour::{Behaviour, Relation, compare_with_progress};
use super::diff_answer_tests::{AnswerTestComparison, compare_answer_tests};
use super::text_diff::{ChangedName, ChangedRuleText, TextDiff, text_diff};
use crate::model::LogicTest;
use crate::model::finding::Scenario;
use crate::solve::{FindingKind, SolverWorker};
use crate::test_runner::run_tests;
use serde::Serialize;
use std::time::Duration;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChangedRule {
    /// The id and both sides' SMT-LIB and English.
    #[serde(flatten)]
    pub text: ChangedRuleText,
    /// None when the solver could not decide.
    pub meaning_changed: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuleChanges {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<ChangedRule>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NameChanges {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<ChangedName>,
}

pub use super::side::Side;

/// Which suite a flipped test is from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TestKind {
    /// A premise and claim in SMT-LIB (`tests`).
    Logic,
    /// A question and answer, translated by an LLM (`nl_tests`).
    NaturalLanguage,
}

/// A test whose finding differs between A and B (None: it does not run on
/// that side, e.g. a variable it names is missing there).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FlippedTest {
    pub id: String,
    pub name: String,
    pub expected: FindingKind,
    pub a: Option<FindingKind>,
    pub b: Option<FindingKind>,
    pub kind: TestKind,
}

impl FlippedTest {
    /// The one line the CLI and the workbench show for it: "T1 Denied
    /// boarding: IMPOSSIBLE → VALID (expected VALID)".
    pub fn line(&self) -> String {
        let kind = |k: Option<FindingKind>| k.map_or("does not run", |k| k.name());
        let suite = match self.kind {
            TestKind::Logic => "",
            TestKind::NaturalLanguage => ", natural-language",
        };
        format!(
            "{} {}: {} → {} (expected {}{suite})",
            self.id,
            self.name,
            kind(self.a),
            kind(self.b),
            self.expected.name()
        )
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelDiff {
    pub a: String,
    pub b: String,
    /// None when the behaviour could not be decided or compared.
    pub equivalent: Option<bool>,
    pub relation: Relation,
    pub a_allows_not_b: Option<Scenario>,
    pub b_allows_not_a: Option<Scenario>,
    pub rules: RuleChanges,
    pub variables: NameChanges,
    pub types: NameChanges,
    pub tests_flipped: Vec<FlippedTest>,
    pub notes: Vec<String>,
}

/// Diffs two loaded models (natural-language tests with the stored
/// translations of the default LLM profile).
pub fn diff(a: &Side, b: &Side) -> ModelDiff {
    diff_with_progress(a, b, None, &|_| {})
}

/// [`diff`], with the stored translations of the LLM profile `profile`
/// (None: the one `precept test` uses by default), telling `progress` each
/// step as it starts (the solver's questions, the changed rules, the tests).
pub fn diff_with_progress(
    a: &Side,
    b: &Side,
    profile: Option<&str>,
    progress: &dyn Fn(&str),
) -> ModelDiff {
    progress("comparing the text");
    let text = text_diff(&a.project.model, &a.compiled, &b.project.model, &b.compiled);
    let changed: Vec<String> = text.rules_changed.iter().map(|c| c.id.clone()).collect();
    let timeout = a
        .project
        .settings
        .solver_timeout_ms
        .max(b.project.settings.solver_timeout_ms);
    let behaviour = compare_with_progress(
        &a.project.model,
        &b.project.model,
        &changed,
        timeout,
        progress,
    );
    progress("running the tests on both sides");
    let mut tests_flipped = flipped_tests(a, b, timeout);
    if !a.project.tests.nl_tests.is_empty() || !b.project.tests.nl_tests.is_empty() {
        progress("deciding the natural-language tests from their stored translations");
    }
    let nl = compare_answer_tests(a, b, profile, timeout);
    tests_flipped.extend(natural_language_flips(&nl));
    let mut result = assemble(a, b, text, behaviour, tests_flipped);
    result.notes.extend(nl.notes);
    result
}

fn natural_language_flips(nl: &AnswerTestComparison) -> Vec<FlippedTest> {
    nl.flipped
        .iter()
        .map(|flip| FlippedTest {
            id: flip.test.id.clone(),
            name: flip.test.name.clone(),
            expected: flip.test.expected,
            a: Some(flip.a),
            b: Some(flip.b),
            kind: TestKind::NaturalLanguage,
        })
        .collect()
}

fn assemble(
    a: &Side,
    b: &Side,
    text: TextDiff,
    behaviour: Behaviour,
    tests_flipped: Vec<FlippedTest>,
) -> ModelDiff {
    let changed = text
        .rules_changed
        .into_iter()
        .map(|t| ChangedRule {
            meaning_changed: behaviour
                .rules
                .iter()
                .find(|r| r.id == t.id)
                .and_then(|r| r.meaning_changed),
            text: t,
        })
        .collect();
    ModelDiff {
        a: a.label.clone(),
        b: b.label.clone(),
        equivalent: match behaviour.relation {
            Relation::Unknown => None,
            relation => Some(relation == Relation::Equivalent),
        },
        relation: behaviour.relation,
        a_allows_not_b: behaviour.a_allows_not_b,
        b_allows_not_a: behaviour.b_allows_not_a,
        rules: RuleChanges {
            added: text.rules_added,
            removed: text.rules_removed,
            changed,
        },
        variables: NameChanges {
            added: text.variables_added,
            removed: text.variables_removed,
            changed: text.variables_changed,
        },
        types: NameChanges {
            added: text.types_added,
            removed: text.types_removed,
            changed: text.types_changed,
        },
        tests_flipped,
        notes: behaviour.notes,
    }
}

/// Runs the logic tests of both sides (a test of one side only runs on
/// both models too) and keeps those whose finding differs.
fn flipped_tests(a: &Side, b: &Side, timeout_ms: u64) -> Vec<FlippedTest> {
    let mut tests: Vec<(LogicTest, LogicTest)> = Vec::new();
    for test in &b.project.tests.tests {
        let on_a = a
            .project
            .tests
            .tests
            .iter()
            .find(|t| t.id == test.id)
            .unwrap_or(test);
        tests.push((on_a.clone(), test.clone()));
    }
    for test in &a.project.tests.tests {
        if !tests.iter().any(|(x, _)| x.id == test.id) {
            tests.push((test.clone(), test.clone()));
        }
    }
    let run = |side: &Side, suite: Vec<LogicTest>| {
        let worker = SolverWorker::spawn(Duration::from_millis(timeout_ms));
        match worker.load(side.compiled.clone()) {
            Ok(()) => run_tests(&worker, &side.compiled, &suite)
                .into_iter()
                .map(|o| o.actual())
                .collect::<Vec<_>>(),
            Err(_) => vec![None; suite.len()],
        }
    };
    // Each side on a worker of its own, at once.
    let (on_a, on_b) = std::thread::scope(|scope| {
        let on_a = scope.spawn(|| run(a, tests.iter().map(|(x, _)| x.clone()).collect()));
        let on_b = run(b, tests.iter().map(|(_, y)| y.clone()).collect());
        let on_a = on_a
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (on_a, on_b)
    });
    tests
        .into_iter()
        .zip(on_a.into_iter().zip(on_b))
        .filter(|(_, (x, y))| x != y)
        .map(|((_, test), (x, y))| FlippedTest {
            id: test.id,
            name: test.name,
            expected: test.expected,
            a: x,
            b: y,
            kind: TestKind::Logic,
        })
        .collect()
}
