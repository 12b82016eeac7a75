//! The draft against its versions: which version it started from and
//! whether it changed since (the status line's "v3 · changed"), and the
//! semantic diff against that version as the workbench shows it (the
//! distinguishing scenarios as tables), as lines of plain text.

use crate::core::lifecycle::behaviour::Relation;
use crate::core::lifecycle::diff::ModelDiff;
use crate::core::lifecycle::versions::draft_state;
use crate::core::model::finding::Scenario;
use std::path::Path;

/// The version the draft started from (the newest one) and whether its
/// files differ from it now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DraftVersion {
    pub base: Option<u32>,
    pub changed: bool,
}

impl DraftVersion {
    /// Reads where the draft in `dir` stands (no version, or versions that
    /// cannot be read: no base).
    pub fn read(dir: &Path) -> DraftVersion {
        match draft_state(dir) {
            Ok(state) => DraftVersion {
                base: state.base,
                changed: !state.changed.is_empty(),
            },
            Err(_) => DraftVersion::default(),
        }
    }

    /// "v3 · changed" or "v3"; None before the first version.
    pub fn label(&self) -> Option<String> {
        self.base.map(|n| {
            if self.changed {
                format!("v{n} · changed")
            } else {
                format!("v{n}")
            }
        })
    }
}

/// The diff overlay: running (with the step it is on), done, or failed.
#[derive(Debug, Clone, PartialEq)]
pub enum DiffView {
    Running(String),
    Ready(Box<ModelDiff>),
    Failed(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct VersionDiffState {
    /// Answers to older requests are dropped.
    pub ticket: u64,
    pub base: u32,
    pub view: DiffView,
    /// Lines scrolled past.
    pub offset: usize,
}

/// How a line of the diff is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    Heading,
    Good,
    Bad,
    Text,
    Table,
}

fn table(scenario: &Scenario, out: &mut Vec<(LineKind, String)>) {
    let width = scenario
        .values
        .iter()
        .map(|(n, _)| n.chars().count())
        .chain(std::iter::once("variable".len()))
        .max()
        .unwrap_or(0);
    out.push((LineKind::Table, format!("  {:<width$} │ value", "variable")));
    out.push((
        LineKind::Table,
        format!("  {}─┼─{}", "─".repeat(width), "─".repeat(12)),
    ));
    for (name, value) in &scenario.values {
        out.push((LineKind::Table, format!("  {name:<width$} │ {value}")));
    }
}

/// The diff of version `base` (A) against the draft (B) as lines.
pub fn diff_lines(base: u32, d: &ModelDiff) -> Vec<(LineKind, String)> {
    let mut out = Vec::new();
    let (kind, relation) = match d.relation {
        Relation::Equivalent => (
            LineKind::Good,
            format!("Equivalent: v{base} and the draft allow the same scenarios"),
        ),
        Relation::AStronger => (
            LineKind::Bad,
            format!("The draft allows more than v{base} (v{base} is strictly stronger)"),
        ),
        Relation::BStronger => (
            LineKind::Bad,
            format!("The draft allows less than v{base} (the draft is strictly stronger)"),
        ),
        Relation::DifferBothWays => (
            LineKind::Bad,
            format!("The draft and v{base} differ both ways"),
        ),
        Relation::Unknown => (LineKind::Text, "Behaviour not decided".to_string()),
    };
    out.push((kind, relation));
    for note in &d.notes {
        out.push((LineKind::Text, format!("note: {note}")));
    }
    for (title, scenario) in [
        (
            format!("Allowed by v{base}, not by the draft"),
            &d.a_allows_not_b,
        ),
        (
            format!("Allowed by the draft, not by v{base}"),
            &d.b_allows_not_a,
        ),
    ] {
        if let Some(scenario) = scenario {
            out.push((LineKind::Text, String::new()));
            out.push((LineKind::Heading, title));
            table(scenario, &mut out);
        }
    }
    let r = &d.rules;
    out.push((LineKind::Text, String::new()));
    out.push((LineKind::Heading, "Rules".to_string()));
    if r.added.is_empty() && r.removed.is_empty() && r.changed.is_empty() {
        out.push((LineKind::Text, "  none added, removed or changed".into()));
    }
    if !r.added.is_empty() {
        out.push((LineKind::Text, format!("  added: {}", r.added.join(", "))));
    }
    if !r.removed.is_empty() {
        out.push((
            LineKind::Text,
            format!("  removed: {}", r.removed.join(", ")),
        ));
    }
    for c in &r.changed {
        let (kind, verdict) = match c.meaning_changed {
            Some(true) => (LineKind::Bad, "meaning changed"),
            Some(false) => (LineKind::Good, "rewrite, same meaning"),
            None => (LineKind::Text, "not decided"),
        };
        out.push((kind, format!("  {}: {verdict}", c.text.id)));
        out.push((LineKind::Text, format!("    v{base}   {}", c.text.a_smtlib)));
        out.push((LineKind::Text, format!("    draft {}", c.text.b_smtlib)));
    }
    out.push((LineKind::Text, String::new()));
    out.push((LineKind::Heading, "Tests whose finding changes".to_string()));
    if d.tests_flipped.is_empty() {
        out.push((LineKind::Text, "  none".into()));
    }
    for t in &d.tests_flipped {
        let kind =
            |k: Option<crate::core::solve::FindingKind>| k.map_or("does not run", |k| k.name());
        out.push((
            LineKind::Text,
            format!(
                "  {} {}: {} → {} (expected {})",
                t.id,
                t.name,
                kind(t.a),
                kind(t.b),
                t.expected.name()
            ),
        ));
    }
    out
}
