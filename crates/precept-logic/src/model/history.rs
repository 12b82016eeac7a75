//! Undo and redo over whole-project snapshots. The workbench snapshots the
//! model, the tests and the formalization record; a snapshot of even a large
//! model is a few hundred kilobytes, and whole snapshots make undo exact
//! whatever the edit was. The history does not look inside a snapshot, so
//! it is generic over what one holds.

#[derive(Debug, Clone)]
struct Entry<S> {
    /// What the edit did, e.g. "edit rule R4".
    label: String,
    before: S,
}

/// The edit history: undo returns to the snapshot before the last edit.
#[derive(Debug, Clone)]
pub struct History<S> {
    undo: Vec<Entry<S>>,
    redo: Vec<(String, S)>,
    /// How many edits, undos and redos have happened (what watches for
    /// change compares it with the count it last saw).
    changes: u64,
    /// What the latest edit, undo or redo did, e.g. "undo edit rule R4".
    last_change: Option<String>,
}

impl<S> Default for History<S> {
    fn default() -> Self {
        History {
            undo: Vec::new(),
            redo: Vec::new(),
            changes: 0,
            last_change: None,
        }
    }
}

const MAX_UNDO: usize = 200;

impl<S> History<S> {
    /// Records that an edit labelled `label` is about to change `before`.
    pub fn record(&mut self, label: impl Into<String>, before: S) {
        let label = label.into();
        self.changed(label.clone());
        self.undo.push(Entry { label, before });
        if self.undo.len() > MAX_UNDO {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// Undoes the last edit: returns its label and the snapshot to restore,
    /// remembering `current` for redo.
    pub fn undo(&mut self, current: S) -> Option<(String, S)> {
        let entry = self.undo.pop()?;
        self.changed(format!("undo {}", entry.label));
        self.redo.push((entry.label.clone(), current));
        Some((entry.label, entry.before))
    }

    /// Redoes the last undone edit.
    pub fn redo(&mut self, current: S) -> Option<(String, S)> {
        let (label, after) = self.redo.pop()?;
        self.changed(format!("redo {label}"));
        self.undo.push(Entry {
            label: label.clone(),
            before: current,
        });
        Some((label, after))
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    fn changed(&mut self, what: String) {
        self.changes += 1;
        self.last_change = Some(what);
    }

    /// How many edits, undos and redos there have been.
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// What the latest edit, undo or redo did ("edit rule R4", "undo edit rule R4").
    pub fn last_change(&self) -> Option<&str> {
        self.last_change.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::PolicyModel;

    #[derive(Debug, Clone, PartialEq)]
    struct Snapshot {
        model: PolicyModel,
    }

    fn snapshot(title: &str) -> Snapshot {
        Snapshot {
            model: PolicyModel {
                title: title.into(),
                ..PolicyModel::default()
            },
        }
    }

    #[test]
    fn undo_and_redo_walk_the_edits() {
        let mut history = History::default();
        history.record("first", snapshot("a"));
        history.record("second", snapshot("b"));
        let (label, restored) = history.undo(snapshot("c")).unwrap();
        assert_eq!(
            (label.as_str(), restored.model.title.as_str()),
            ("second", "b")
        );
        let (_, restored) = history.undo(restored).unwrap();
        assert_eq!(restored.model.title, "a");
        assert!(history.undo(restored.clone()).is_none());
        let (label, again) = history.redo(restored).unwrap();
        assert_eq!((label.as_str(), again.model.title.as_str()), ("first", "b"));
        history.record("new", again);
        assert!(
            history.redo(snapshot("x")).is_none(),
            "a new edit clears redo"
        );
    }
}
