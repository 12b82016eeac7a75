//! Whether results computed in the background (lint diagnostics, coverage,
//! the mutation score, an answer check, a probe report) still describe the
//! project on screen: each remembers the workspace's revision it was asked
//! on and what it read (`workspace/revision.rs`); after every edit, undo or
//! redo the workbench compares that revision with the workspace's. An undo
//! back to the same model makes a result current again.

use precept_engine::workspace::{Reads, Revision};

/// What a background result was computed from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Basis {
    /// The revision it was asked on, and what it read.
    revision: Revision,
    reads: Option<Reads>,
    /// Set once the model has moved on: the edit that made it stale.
    stale_since: Option<String>,
}

impl Basis {
    pub fn new(revision: Revision, reads: Reads) -> Basis {
        Basis {
            revision,
            reads: Some(reads),
            stale_since: None,
        }
    }

    /// Called after a change labelled `change`, with the revision now. The
    /// first change away from the basis names the staleness; coming back
    /// (undo) clears it.
    pub fn observe(&mut self, now: Revision, change: &str) {
        let reads = self.reads.unwrap_or(Reads::Model);
        if self.revision.covers(now, reads) {
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

    fn at(model: u64, tests: u64) -> Revision {
        Revision { model, tests }
    }

    #[test]
    fn the_first_change_names_the_staleness_and_undo_clears_it() {
        let mut basis = Basis::new(at(1, 1), Reads::Model);
        basis.observe(at(1, 2), "add test T9");
        assert_eq!(basis.stale_since(), None, "the model did not change");
        basis.observe(at(2, 2), "edit rule R4");
        basis.observe(at(3, 2), "delete rule R5");
        assert_eq!(basis.stale_since(), Some("edit rule R4"));
        basis.observe(at(1, 2), "undo edit rule R4");
        assert_eq!(basis.stale_since(), None);
    }

    #[test]
    fn what_read_the_tests_is_stale_once_they_change() {
        let mut basis = Basis::new(at(1, 1), Reads::ModelAndTests);
        basis.observe(at(1, 2), "add test T9");
        assert_eq!(basis.stale_since(), Some("add test T9"));
    }
}
