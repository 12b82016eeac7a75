//! The semantic diff of two models: the text of the change, its behaviour
//! decided by the solver, and every test whose finding differs between the
//! two sides. The JSON form keeps the field names of the issue
//! (`equivalent`, `a_allows_not_b`, `b_allows_not_a`, `rules`,
//! `tests_flipped`).

use super::LifecycleError;
use super::behaviour::{Behaviour, Relation, compare_with_progress};
use super::reference::ModelRef;
use super::text_diff::{ChangedName, ChangedRuleText, TextDiff, text_diff};
use crate::core::model::finding::Scenario;
use crate::core::model::{CompiledModel, LogicTest, Project};
use crate::core::solve::{FindingKind, SolverWorker};
use crate::core::test_runner::run_tests;
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

/// A test whose finding differs between A and B (None: it does not run on
/// that side, e.g. a variable it names is missing there).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FlippedTest {
    pub id: String,
    pub name: String,
    pub expected: FindingKind,
    pub a: Option<FindingKind>,
    pub b: Option<FindingKind>,
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

/// One side of a diff, loaded.
pub struct Side {
    pub label: String,
    pub project: Project,
    pub compiled: CompiledModel,
}

impl Side {
    pub fn load(reference: &ModelRef) -> Result<Side, LifecycleError> {
        let folder = reference.resolve()?;
        let project = Project::load(&folder)?;
        let compiled = project.compile_strict()?;
        Ok(Side {
            label: reference.label(),
            project,
            compiled,
        })
    }
}

/// Diffs two loaded models.
pub fn diff(a: &Side, b: &Side) -> ModelDiff {
    diff_with_progress(a, b, &|_| {})
}

/// [`diff`], telling `progress` each step as it starts (the solver's
/// questions, the changed rules, the tests).
pub fn diff_with_progress(a: &Side, b: &Side, progress: &dyn Fn(&str)) -> ModelDiff {
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
    let tests_flipped = flipped_tests(a, b, timeout);
    let mut result = assemble(a, b, text, behaviour, tests_flipped);
    if let Some(note) = natural_language_note(a, b) {
        result.notes.push(note);
    }
    result
}

/// Natural-language tests are not re-decided: a test stores its question
/// and answer, not the premise/claim pairs an LLM translated them into
/// (those depend on each side's vocabulary and are made afresh by
/// `precept test`), so comparing them needs an LLM on each side. The diff
/// says so, naming them.
fn natural_language_note(a: &Side, b: &Side) -> Option<String> {
    let mut ids: Vec<&str> = b
        .project
        .tests
        .nl_tests
        .iter()
        .map(|t| t.id.as_str())
        .collect();
    for test in &a.project.tests.nl_tests {
        if !ids.contains(&test.id.as_str()) {
            ids.push(&test.id);
        }
    }
    if ids.is_empty() {
        return None;
    }
    Some(format!(
        "{} natural-language test(s) not compared ({}): their premise/claim pairs are \
         translated by an LLM when they run and are not stored, so run `precept test` on each \
         side to compare them",
        ids.len(),
        ids.join(", ")
    ))
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
    let on_a = run(a, tests.iter().map(|(x, _)| x.clone()).collect());
    let on_b = run(b, tests.iter().map(|(_, y)| y.clone()).collect());
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
        })
        .collect()
}
