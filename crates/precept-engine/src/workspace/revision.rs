//! Which state of the project a result was computed for. Every result a
//! front end gets from the background carries the [`Stamp`] of its request:
//! the job it answers and the [`Revision`] it was asked on. One rule decides
//! whether to show it: it is current while the parts of the revision it
//! read are the workspace's now (`Revision::covers`).
//!
//! A revision numbers the project's meaning, not its edits: what the solver
//! reads of the model (types, variables with their descriptions, rules) and
//! the questions the tests ask. An edit that changes either gets a new
//! number; an undo back to an earlier state gets that state's number again,
//! so a result computed on it is current again. Review marks and notes
//! change neither number.

use crate::model::{PolicyModel, TestSuite};
use std::collections::HashMap;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

pub use crate::scheduler::JobId;

/// The model's and the tests' numbers (see the module's text).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Revision {
    pub model: u64,
    pub tests: u64,
}

/// What a result read, and so which part of the revision it depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    /// The model alone (lint, a question, an answer check, a probe).
    Model,
    /// The model and the tests' questions (coverage, the mutation score).
    ModelAndTests,
}

impl Revision {
    /// Whether a result that read `reads` on revision `self` still
    /// describes the project at revision `now`.
    pub fn covers(self, now: Revision, reads: Reads) -> bool {
        match reads {
            Reads::Model => self.model == now.model,
            Reads::ModelAndTests => self == now,
        }
    }
}

/// The request a result answers (a screen waits for the newest job it
/// asked for and drops the answers of the ones it gave up on) and the
/// revision it was asked on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Stamp {
    pub job: JobId,
    pub revision: Revision,
}

/// Gives each state of the model and of the tests its number, the same
/// number each time the same state comes back.
#[derive(Debug, Default)]
pub(super) struct Revisions {
    models: HashMap<u64, u64>,
    suites: HashMap<u64, u64>,
}

impl Revisions {
    pub(super) fn of(&mut self, model: &PolicyModel, tests: &TestSuite) -> Revision {
        let numbered = |seen: &mut HashMap<u64, u64>, print: u64| {
            let next = seen.len() as u64 + 1;
            *seen.entry(print).or_insert(next)
        };
        Revision {
            model: numbered(&mut self.models, model_print(model)),
            tests: numbered(&mut self.suites, questions_print(tests)),
        }
    }
}

/// What lint and the solver read of the model: types, variables (with
/// descriptions, which the L1xx checks read) and rules.
fn model_print(model: &PolicyModel) -> u64 {
    let mut hasher = DefaultHasher::new();
    for t in &model.types {
        (&t.name, &t.description).hash(&mut hasher);
        for v in &t.values {
            (&v.value, &v.description).hash(&mut hasher);
        }
    }
    0xfeu8.hash(&mut hasher);
    for v in &model.variables {
        (&v.name, &v.sort, &v.description).hash(&mut hasher);
    }
    0xfeu8.hash(&mut hasher);
    for r in &model.rules {
        (&r.id, &r.expression).hash(&mut hasher);
    }
    hasher.finish()
}

/// The questions the tests ask, with what each expects and whether it counts.
fn questions_print(tests: &TestSuite) -> u64 {
    let mut hasher = DefaultHasher::new();
    for t in &tests.tests {
        (
            &t.id,
            &t.premise,
            &t.claim,
            t.expected.name(),
            t.status.counts(),
        )
            .hash(&mut hasher);
    }
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ReviewStatus, Rule};

    fn model(expression: &str, review: ReviewStatus) -> PolicyModel {
        let mut model = PolicyModel::default();
        model.rules.push(Rule {
            id: "R1".into(),
            expression: expression.into(),
            source_span: None,
            also_from: Vec::new(),
            review,
            note: String::new(),
        });
        model
    }

    #[test]
    fn a_change_of_meaning_gets_a_new_number_and_undo_gets_the_old_one_back() {
        let mut revisions = Revisions::default();
        let tests = TestSuite::default();
        let first = revisions.of(&model("(=> a b)", ReviewStatus::Unreviewed), &tests);
        let marked = revisions.of(&model("(=> a b)", ReviewStatus::Approved), &tests);
        assert_eq!(first, marked, "a review mark changes nothing read");
        let edited = revisions.of(&model("(=> a (not b))", ReviewStatus::Unreviewed), &tests);
        assert_ne!(edited.model, first.model);
        assert!(!first.covers(edited, Reads::Model));
        let undone = revisions.of(&model("(=> a b)", ReviewStatus::Unreviewed), &tests);
        assert_eq!(undone, first);
        assert!(first.covers(undone, Reads::ModelAndTests));
    }
}
