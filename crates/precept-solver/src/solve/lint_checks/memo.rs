//! What lint found in each group of rules, kept by the group's content, so
//! that a lint run after an edit checks only the groups the edit changed
//! (the edited rule's cone) and keeps the others' diagnostics as they were.
//! Only a group checked to the end with every check decided is kept: a
//! check that ran out of time, or a run that was stopped, is asked again.

use super::answer_memo::Answers;
use crate::model::CompiledModel;
use crate::model::diagnostic::Diagnostic;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt::Write;
use std::sync::{Arc, Mutex, MutexGuard};

/// What one piece of a lint run (the whole-model checks, or one group)
/// found.
#[derive(Default, Clone)]
pub(super) struct Part {
    pub(super) found: Vec<Diagnostic>,
    pub(super) checks: usize,
    pub(super) undecided: usize,
    pub(super) situation_budget_ran_out: bool,
    /// The whole-model checks only: the rules are consistent.
    pub(super) consistent: bool,
    /// The work ran to its end (no failure inside the solver).
    pub(super) complete: bool,
    /// What the budget left unchecked.
    pub(super) unchecked: Vec<super::budget::Unchecked>,
}

/// Groups' findings by content, shared by the lint runs of one workbench,
/// and the groups known to be consistent (`share.rs`'s prologue).
#[derive(Default)]
pub struct LintMemo {
    parts: Mutex<HashMap<String, Part>>,
    consistent: Mutex<HashSet<String>>,
    /// The last complete run's answers to large groups' questions.
    answers: Mutex<Arc<Answers>>,
}

impl LintMemo {
    pub fn new() -> LintMemo {
        LintMemo::default()
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Part>> {
        self.parts.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How many groups are kept.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The findings kept for `key`, as a run that asked the solver nothing.
    pub(super) fn get(&self, key: &str) -> Option<Part> {
        self.lock().get(key).map(|part| {
            let mut part = part.clone();
            part.checks = 0;
            part
        })
    }

    fn consistent(&self) -> MutexGuard<'_, HashSet<String>> {
        self.consistent.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether the group of `key` was found consistent.
    pub(super) fn known_consistent(&self, key: &str) -> bool {
        self.consistent().contains(key)
    }

    pub(super) fn keep_consistent(&self, key: String) {
        self.consistent().insert(key);
    }

    pub(super) fn keep(&self, key: String, part: &Part) {
        self.lock().insert(key, part.clone());
    }

    /// The last complete run's answers (`answer_memo.rs`).
    pub(super) fn answers(&self) -> Arc<Answers> {
        Arc::clone(&self.answers.lock().unwrap_or_else(|p| p.into_inner()))
    }

    /// Keeps a complete run's answers in place of the last one's.
    pub(super) fn keep_answers(&self, answers: Answers) {
        *self.answers.lock().unwrap_or_else(|p| p.into_inner()) = Arc::new(answers);
    }

    /// Forgets every group but those of the last run.
    pub(super) fn retain(&self, keys: &HashSet<String>) {
        self.lock().retain(|key, _| keys.contains(key));
        self.consistent().retain(|key| keys.contains(key));
    }
}

/// Everything a group's findings depend on: its rules (ids, formulas, the
/// decision table each is a row of), the declarations of the variables they
/// use, the enumerations, the search budget and the deadline.
pub(super) fn group_key(
    model: &CompiledModel,
    group: &[usize],
    budget: usize,
    timeout_ms: u64,
) -> String {
    let mut key = format!("{timeout_ms} {budget} {:?}\n", model.enums);
    let mut used = BTreeSet::new();
    for &r in group {
        let rule = &model.rules[r];
        let _ = writeln!(
            key,
            "{} {:?} {}",
            rule.id,
            model.tables.table_of(&rule.id),
            rule.formula
        );
        used.extend(rule.formula.symbols());
    }
    for (name, sort) in &model.variables {
        if used.contains(name.as_str()) {
            let described = model.glossary.variables.get(name);
            let _ = writeln!(key, "{name} {sort:?} {described:?}");
        }
    }
    key
}
