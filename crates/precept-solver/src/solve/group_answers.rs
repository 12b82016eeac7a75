//! Whether groups of rules are satisfiable alone, kept by what the rules
//! say (each rule's formula and the sorts of its variables, see
//! `SolverSession::rule_content`) and shared by the workers of one pool:
//! after an edit, a group that one worker proved satisfiable is not checked
//! again by the others. A key holds the rules' text itself, not a hash of
//! it, so two different groups never share an answer. Only decided answers
//! are kept.

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// At most this many groups are kept; past it the answers start over (a
/// model of 1,500 rules in 20 groups, edited all day, stays far below).
const MAX_GROUPS_KEPT: usize = 4_096;

/// A group's content: its rules' contents, in the group's order.
pub(super) type GroupContent = Vec<Arc<str>>;

#[derive(Default)]
pub(super) struct GroupAnswers {
    known: Mutex<HashMap<GroupContent, bool>>,
    /// How many sessions have joined, to alternate their walking order.
    joined: AtomicUsize,
}

/// One worker's share in a pool's answers, given to each model it loads.
#[derive(Clone)]
pub(super) struct SharedAnswers {
    pub(super) answers: Arc<GroupAnswers>,
    /// Walk the groups from the last: every other worker that joins does,
    /// so two workers checking a model's groups at once (as the first
    /// questions of a test run do) meet halfway instead of both checking
    /// every group.
    pub(super) backwards: bool,
}

impl GroupAnswers {
    pub(super) fn new() -> GroupAnswers {
        GroupAnswers::default()
    }

    /// A worker's share in these answers (its sessions walk the groups
    /// backwards when it joined second, fourth…).
    pub(super) fn join(self: &Arc<Self>) -> SharedAnswers {
        SharedAnswers {
            answers: Arc::clone(self),
            backwards: self.joined.fetch_add(1, Ordering::Relaxed) % 2 == 1,
        }
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<GroupContent, bool>> {
        self.known.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether the group of this content is satisfiable, when a worker
    /// decided it.
    pub(super) fn get(&self, group: &[Arc<str>]) -> Option<bool> {
        self.lock().get(group).copied()
    }

    pub(super) fn keep(&self, group: GroupContent, consistent: bool) {
        let mut known = self.lock();
        if known.len() >= MAX_GROUPS_KEPT {
            known.clear();
        }
        known.insert(group, consistent);
    }

    /// How many groups are kept.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.lock().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn content(texts: &[&str]) -> GroupContent {
        texts.iter().map(|t| Arc::from(*t)).collect()
    }

    #[test]
    fn an_answer_is_found_only_by_the_same_content() {
        let answers = GroupAnswers::new();
        answers.keep(content(&["(> x 1)\nx Int", "(< x 5)\nx Int"]), true);
        assert_eq!(
            answers.get(&content(&["(> x 1)\nx Int", "(< x 5)\nx Int"])),
            Some(true)
        );
        assert_eq!(
            answers.get(&content(&["(> x 1)\nx Real", "(< x 5)\nx Int"])),
            None
        );
        assert_eq!(answers.get(&content(&["(> x 1)\nx Int"])), None);
    }

    #[test]
    fn a_full_memo_starts_over_rather_than_growing() {
        let answers = GroupAnswers::new();
        for k in 0..MAX_GROUPS_KEPT + 3 {
            answers.keep(content(&[&format!("(> x {k})")]), true);
        }
        assert!(answers.len() <= MAX_GROUPS_KEPT);
        assert_eq!(answers.get(&content(&["(> x 0)"])), None);
    }
}
