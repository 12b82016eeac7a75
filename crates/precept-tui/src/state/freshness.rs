//! Whether results computed in the background (lint diagnostics, coverage,
//! the mutation score, an answer check, a probe report) still describe the
//! model on screen. Each result remembers the model (and tests) it was
//! computed from, as a fingerprint of what can change its answer; after
//! every edit, undo or redo the workbench compares the fingerprints. An
//! undo back to the same model makes a result current again.

use precept_engine::model::{PolicyModel, TestSuite};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// A fingerprint of what lint reads: types, variables (with descriptions,
/// which L1xx checks) and rules. Review marks and notes do not count.
pub fn model_fingerprint(model: &PolicyModel) -> u64 {
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

/// A fingerprint of the model and of the questions the tests ask (what
/// coverage and the mutation score read).
pub fn suite_fingerprint(model: &PolicyModel, tests: &TestSuite) -> u64 {
    let mut hasher = DefaultHasher::new();
    model_fingerprint(model).hash(&mut hasher);
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

/// What a background result was computed from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Basis {
    /// The fingerprint of the model (and tests) it describes.
    fingerprint: u64,
    /// Set once the model has moved on: the edit that made it stale.
    stale_since: Option<String>,
}

impl Basis {
    pub fn new(fingerprint: u64) -> Basis {
        Basis {
            fingerprint,
            stale_since: None,
        }
    }

    /// Called after a change labelled `change`, with the fingerprint of the
    /// model now. The first change away from the basis names the staleness;
    /// coming back (undo) clears it.
    pub fn observe(&mut self, now: u64, change: &str) {
        if now == self.fingerprint {
            self.stale_since = None;
        } else if self.stale_since.is_none() {
            self.stale_since = Some(change.to_string());
        }
    }

    /// The edit after which the result no longer describes the model.
    pub fn stale_since(&self) -> Option<&str> {
        self.stale_since.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_change_names_the_staleness_and_undo_clears_it() {
        let mut basis = Basis::new(1);
        basis.observe(1, "mark R1 approved");
        assert_eq!(basis.stale_since(), None);
        basis.observe(2, "edit rule R4");
        basis.observe(3, "delete rule R5");
        assert_eq!(basis.stale_since(), Some("edit rule R4"));
        basis.observe(1, "undo edit rule R4");
        assert_eq!(basis.stale_since(), None);
    }

    #[test]
    fn review_marks_do_not_change_the_fingerprint() {
        let mut model = PolicyModel::default();
        model.rules.push(precept_engine::model::Rule {
            id: "R1".into(),
            expression: "(=> a b)".into(),
            source_span: None,
            review: precept_engine::model::ReviewStatus::Unreviewed,
            note: String::new(),
        });
        let before = model_fingerprint(&model);
        model.rules[0].review = precept_engine::model::ReviewStatus::Approved;
        assert_eq!(model_fingerprint(&model), before);
        model.rules[0].expression = "(=> a (not b))".into();
        assert_ne!(model_fingerprint(&model), before);
    }
}
