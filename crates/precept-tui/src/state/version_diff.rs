//! The draft against its versions: which version it started from and
//! whether it changed since (the status line's "v3 · changed"), and the
//! semantic diff against that version as the workbench shows it (the
//! distinguishing scenarios as tables, each changed rule's SMT-LIB and
//! English side by side), as lines of plain text that `measure/diff_rows.rs`
//! wraps to the overlay's width.

use precept_engine::lifecycle::behaviour::Relation;
use precept_engine::lifecycle::diff::ModelDiff;
use precept_engine::lifecycle::versions::draft_state;
use precept_engine::model::finding::Scenario;
use precept_engine::workspace::JobId;
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
    pub job: JobId,
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

/// How wide the left one of two columns is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LeftWidth {
    /// Half the room (v{base} and the draft side by side).
    Half,
    /// As wide as this (a table's names), at most half the room.
    Fixed(usize),
}

/// One line of the diff before it is wrapped to the overlay's width.
#[derive(Debug, Clone, PartialEq)]
pub enum DiffLine {
    /// Text from column `indent`; its continuation rows from `indent + hang`.
    Text {
        kind: LineKind,
        indent: usize,
        hang: usize,
        text: String,
    },
    /// Two columns from column `indent`, each wrapped within its own width,
    /// with `separator` between them on every row.
    Columns {
        kind: LineKind,
        indent: usize,
        left_width: LeftWidth,
        separator: &'static str,
        left: String,
        right: String,
    },
}

fn text(kind: LineKind, indent: usize, hang: usize, text: impl Into<String>) -> DiffLine {
    DiffLine::Text {
        kind,
        indent,
        hang,
        text: text.into(),
    }
}

fn blank() -> DiffLine {
    text(LineKind::Text, 0, 0, "")
}

fn sides(kind: LineKind, left: &str, right: &str) -> DiffLine {
    DiffLine::Columns {
        kind,
        indent: 4,
        left_width: LeftWidth::Half,
        separator: " │ ",
        left: left.to_string(),
        right: right.to_string(),
    }
}

fn table(scenario: &Scenario, out: &mut Vec<DiffLine>) {
    let width = scenario
        .values
        .iter()
        .map(|(n, _)| n.chars().count())
        .chain(std::iter::once("variable".len()))
        .max()
        .unwrap_or(0);
    let row = |left: String, separator, right: String| DiffLine::Columns {
        kind: LineKind::Table,
        indent: 2,
        left_width: LeftWidth::Fixed(width),
        separator,
        left,
        right,
    };
    out.push(row("variable".into(), " │ ", "value".into()));
    out.push(row("─".repeat(width), "─┼─", "─".repeat(12)));
    for (name, value) in &scenario.values {
        out.push(row(name.clone(), " │ ", value.to_string()));
    }
}

/// What the overlay shows in each state, as lines to wrap.
pub fn view_lines(state: &VersionDiffState) -> Vec<DiffLine> {
    match &state.view {
        DiffView::Running(step) => vec![text(LineKind::Text, 0, 2, format!("Deciding… {step}"))],
        DiffView::Failed(error) => vec![text(
            LineKind::Bad,
            0,
            2,
            format!("The diff failed: {error}"),
        )],
        DiffView::Ready(diff) => diff_lines(state.base, diff),
    }
}

/// The diff of version `base` (A) against the draft (B) as lines.
pub fn diff_lines(base: u32, d: &ModelDiff) -> Vec<DiffLine> {
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
    out.push(text(kind, 0, 2, relation));
    if !d.notes.is_empty() {
        // The notes are the diff's own, written for `precept diff A B`.
        out.push(text(
            LineKind::Text,
            0,
            2,
            format!("(in the notes, A is v{base} and B the draft)"),
        ));
    }
    for note in &d.notes {
        out.push(text(LineKind::Text, 0, 6, format!("note: {note}")));
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
            out.push(blank());
            out.push(text(LineKind::Heading, 0, 2, title));
            table(scenario, &mut out);
        }
    }
    rules(base, d, &mut out);
    vocabulary(base, d, &mut out);
    out.push(blank());
    out.push(text(LineKind::Heading, 0, 2, "Tests whose finding changes"));
    if d.tests_flipped.is_empty() {
        out.push(text(LineKind::Text, 2, 2, "none"));
    }
    for t in &d.tests_flipped {
        out.push(text(LineKind::Text, 2, 2, t.line()));
    }
    out
}

/// The rules added, removed and changed; a changed rule's two sides next
/// to each other, SMT-LIB then English.
fn rules(base: u32, d: &ModelDiff, out: &mut Vec<DiffLine>) {
    let r = &d.rules;
    out.push(blank());
    out.push(text(LineKind::Heading, 0, 2, "Rules"));
    if r.added.is_empty() && r.removed.is_empty() && r.changed.is_empty() {
        out.push(text(LineKind::Text, 2, 2, "none added, removed or changed"));
    }
    if !r.added.is_empty() {
        out.push(text(
            LineKind::Text,
            2,
            4,
            format!("added: {}", r.added.join(", ")),
        ));
    }
    if !r.removed.is_empty() {
        out.push(text(
            LineKind::Text,
            2,
            4,
            format!("removed: {}", r.removed.join(", ")),
        ));
    }
    for c in &r.changed {
        let (kind, verdict) = match c.meaning_changed {
            Some(true) => (LineKind::Bad, "meaning changed"),
            Some(false) => (LineKind::Good, "rewrite, same meaning"),
            None => (LineKind::Text, "not decided"),
        };
        out.push(text(kind, 2, 2, format!("{}: {verdict}", c.text.id)));
        out.push(sides(LineKind::Table, &format!("v{base}"), "draft"));
        out.push(sides(LineKind::Text, &c.text.a_smtlib, &c.text.b_smtlib));
        out.push(sides(LineKind::Text, "", ""));
        out.push(sides(LineKind::Text, &c.text.a_english, &c.text.b_english));
    }
}

/// Variables and types added, removed or redescribed (nothing when none).
fn vocabulary(base: u32, d: &ModelDiff, out: &mut Vec<DiffLine>) {
    let groups = [("Variable", &d.variables), ("Type", &d.types)];
    if groups
        .iter()
        .all(|(_, n)| n.added.is_empty() && n.removed.is_empty() && n.changed.is_empty())
    {
        return;
    }
    out.push(blank());
    out.push(text(LineKind::Heading, 0, 2, "Vocabulary"));
    for (what, names) in groups {
        let plural = format!("{}s", what.to_lowercase());
        if !names.added.is_empty() {
            out.push(text(
                LineKind::Text,
                2,
                4,
                format!("{plural} added: {}", names.added.join(", ")),
            ));
        }
        if !names.removed.is_empty() {
            out.push(text(
                LineKind::Text,
                2,
                4,
                format!("{plural} removed: {}", names.removed.join(", ")),
            ));
        }
        for c in &names.changed {
            out.push(text(
                LineKind::Text,
                2,
                2,
                format!("{what} {}: {}", c.name, c.what),
            ));
            out.push(sides(LineKind::Table, &format!("v{base}"), "draft"));
            out.push(sides(LineKind::Text, &c.a, &c.b));
        }
    }
}
