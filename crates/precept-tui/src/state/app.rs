//! The workbench's state. Everything the screen shows is derived from here;
//! `update` changes it, `render` only reads it.

use crate::input::editor::Editor;
use crate::input::keymap::Keymap;
use crate::state::examples::bears_on_examples;
use crate::style::highlight::Highlighter;
use crate::style::theme::Theme;
use precept_engine::model::drafts::Drafts;
use precept_engine::model::{CompiledModel, LogicTest, Project};
use precept_engine::workspace::JobId;
use precept_engine::workspace::Workspace;
use ratatui_textarea::TextArea;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Screen {
    Rules,
    Variables,
    Tests,
    Verify,
    Vetting,
    Formalize,
    /// Testing a chatbot with questions whose answers are proved.
    Probe,
}

impl Screen {
    pub const ALL: [Screen; 7] = [
        Screen::Rules,
        Screen::Variables,
        Screen::Tests,
        Screen::Verify,
        Screen::Vetting,
        Screen::Formalize,
        Screen::Probe,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Screen::Rules => "Rules",
            Screen::Variables => "Variables",
            Screen::Tests => "Tests",
            Screen::Verify => "Verify",
            Screen::Vetting => "Vetting",
            Screen::Formalize => "Formalize",
            Screen::Probe => "Probe",
        }
    }
}

/// The pane that has the keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Document,
    Rules,
    Variables,
    Tests,
    /// The evidence rules of the selected test.
    Evidence,
    /// The premise and claim inputs of the verify screen.
    VerifyInput,
    /// The verify screen's result (so plain keys work again).
    VerifyResult,
    /// The lint diagnostics of the vetting screen.
    Diagnostics,
    /// The rules of the selected diagnostic (enter goes to the one chosen).
    DiagnosticRules,
    /// The formalize screen's spans.
    FormalizeSpans,
    /// The formalize screen's clusters of unit variables.
    Clusters,
    /// The tests screen's natural-language tests.
    AnswerTests,
    /// The probe screen: the chatbot, the run and its rates.
    ProbeRun,
    /// The probe screen's failure being looked at.
    ProbeFailure,
}

pub use crate::state::list_cursor::ListCursor;
pub use crate::state::screens::{
    AnswerPane, CoverageState, GenerationState, LintState, VerifyMode, VerifyPane,
};

pub use precept_engine::workspace::{QuestionSymbols, build_graph};

pub use precept_engine::workspace::{FindingChange, Flip, TestState};

/// An overlay over the screen.
pub enum Overlay {
    Editor(Box<Editor>),
    Palette(Picker),
    Search(Picker),
    /// Filtering the variables list.
    Filter(TextArea<'static>),
    Help {
        offset: usize,
    },
    /// Choosing the expected finding for a verify question saved as a test.
    ExpectPrompt,
    /// Choosing the finding the expert expected instead of a generated test's proved one.
    RejectPrompt {
        test_index: usize,
    },
    /// Accepting a test proved IMPOSSIBLE: what it means, y to confirm.
    ConfirmAcceptImpossible {
        test_index: usize,
        warning: String,
    },
    /// Repair from feedback: the expert's words, then the proposed edits.
    Repair(Box<crate::state::repair::RepairState>),
    /// A one-line name prompt (rename or merge a cluster's variable).
    Name(crate::state::name_prompt::NamePrompt),
    /// Choosing one of a diagnostic's fixes, each with the tests it flips.
    FixChoice(Box<FixChoice>),
    /// Why a test has its finding, or why a value is forced: the chain.
    Why(Box<crate::state::why::WhyState>),
    /// The semantic diff of the draft against the version it started from.
    VersionDiff(Box<crate::state::version_diff::VersionDiffState>),
}

/// The fixes of one diagnostic to choose from (`x` on the vetting screen).
pub struct FixChoice {
    pub job: JobId,
    /// What the diagnostic says, for the overlay's title.
    pub title: String,
    pub fixes: Vec<precept_engine::lint::Fix>,
    /// Per fix: the tests it would flip, once the solver has worked it out.
    pub flips: Vec<
        Option<
            Result<
                Vec<precept_engine::test_runner::flips::TestFlip>,
                crate::state::job_error::JobError,
            >,
        >,
    >,
    pub selected: usize,
}

/// A text box with a filtered list below (palette and search).
pub struct Picker {
    pub query: TextArea<'static>,
    pub cursor: ListCursor,
}

impl Picker {
    pub fn new(placeholder: &str) -> Picker {
        let mut query = TextArea::default();
        query.set_placeholder_text(placeholder);
        Picker {
            query,
            cursor: ListCursor::default(),
        }
    }

    pub fn text(&self) -> String {
        self.query.lines().join(" ")
    }
}

/// What the status line shows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Status {
    /// The job in progress, e.g. "running 12 tests".
    pub job: Option<String>,
    pub message: Option<String>,
    pub last_error: Option<String>,
}

pub use precept_engine::workspace::Snapshot;

pub struct App {
    /// The open project: the model, tests and document, and what is kept
    /// in step with them.
    pub ws: Workspace,

    /// The history's change count the workbench last reacted to.
    pub seen_changes: u64,

    pub screen: Screen,
    pub focus: Pane,
    pub cursors: crate::state::list_cursor::Cursors,
    pub variable_filter: String,
    /// Rows the detail pane is scrolled down (reset when the selection changes).
    pub detail_scroll: u16,

    pub overlay: Option<Overlay>,
    pub verify: VerifyPane,
    pub lint: LintState,
    pub coverage: CoverageState,
    pub generating: GenerationState,
    pub formalization: crate::state::formalization::FormalizeState,
    pub answer_tests: crate::state::answer_tests::AnswerTestsState,
    /// What a repair from feedback starts from: the rules marked with
    /// space and the feedback a repair did not take.
    pub repair_draft: crate::state::repair::RepairDraft,
    /// The version the draft started from and whether it changed since.
    pub version: crate::state::version_diff::DraftVersion,
    pub status: Status,
    pub keymap: Keymap,
    pub theme: Theme,
    pub highlighter: Highlighter,
    pub size: (u16, u16),
    pub tick: u64,
    pub quit: bool,
    /// Editor text not yet saved as a draft (autosaved on the next tick).
    pub draft_dirty: bool,
    /// The rules screen's document pane: its filter and not-policy marks.
    pub document_pane: crate::state::document_pane::DocumentPane,
    /// The probe screen: a chatbot tested against the model.
    pub probe: crate::state::probe_screen::ProbeScreen,
}

impl App {
    /// The index of the consolidation proposal the cursor is on (Formalize
    /// screen, clusters pane), if it is on one.
    pub fn selected_proposal(&self) -> Option<usize> {
        if self.screen != Screen::Formalize || self.focus != Pane::Clusters {
            return None;
        }
        let clusters = self
            .formalization
            .record
            .as_ref()
            .map(|r| r.clusters.as_slice())
            .unwrap_or_default();
        match crate::state::formalization::cluster_rows(
            clusters,
            self.formalization.proposals.len(),
        )
        .get(self.formalization.cluster_cursor.selected)
        {
            Some(crate::state::formalization::ClusterRow::Proposal(i)) => Some(*i),
            _ => None,
        }
    }

    pub fn new(
        project: Project,
        drafts: Drafts,
        keymap: Keymap,
        theme: Theme,
        size: (u16, u16),
    ) -> App {
        let version = crate::state::version_diff::DraftVersion::read(&project.dir);
        let not_policy = project.settings.not_policy.clone();
        let mut app = App {
            ws: Workspace::open(project, drafts),
            seen_changes: 0,
            screen: Screen::Rules,
            focus: Pane::Rules,
            cursors: Default::default(),
            variable_filter: String::new(),
            detail_scroll: 0,
            overlay: None,
            verify: VerifyPane::default(),
            lint: LintState::default(),
            coverage: CoverageState::default(),
            generating: GenerationState::default(),
            formalization: crate::state::formalization::FormalizeState::default(),
            probe: Default::default(),
            answer_tests: crate::state::answer_tests::AnswerTestsState::default(),
            repair_draft: Default::default(),
            version,
            status: Status::default(),
            keymap,
            theme,
            highlighter: Highlighter::new(),
            size,
            tick: 0,
            quit: false,
            draft_dirty: false,
            document_pane: crate::state::document_pane::DocumentPane::new(&not_policy),
        };
        app.refresh_examples();
        app
    }

    /// Recompiles the model after an edit (`Workspace::recompile`) and
    /// picks the verify examples again.
    pub fn recompile(&mut self) {
        self.ws.recompile();
        self.refresh_examples();
    }

    /// After an edit of rule `id` alone (`Workspace::recompile_rule`); the
    /// verify examples are picked again only when the rule bears on them.
    pub fn recompile_rule(&mut self, id: &str) {
        let on_examples = |compiled: &CompiledModel| {
            compiled
                .rule(id)
                .is_some_and(|rule| bears_on_examples(compiled, &rule.written))
        };
        let examples_before = on_examples(&self.ws.compiled);
        self.ws.recompile_rule(id);
        if examples_before || on_examples(&self.ws.compiled) {
            self.refresh_examples();
        }
    }

    /// The verify inputs' examples come from this model's vocabulary.
    fn refresh_examples(&mut self) {
        let (premise, claim) = crate::state::examples::verify_examples(&self.ws.compiled);
        self.verify.premise.set_placeholder_text(match premise {
            Some(example) => format!("premise, e.g. {example} (empty: no facts)"),
            None => "premise in SMT-LIB (empty: no facts)".to_string(),
        });
        self.verify.claim.set_placeholder_text(match claim {
            Some(example) => format!("claim, e.g. {example}"),
            None => "claim in SMT-LIB".to_string(),
        });
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            model: self.ws.model.clone(),
            tests: self.ws.tests.clone(),
            formalization: self.formalization.record.clone(),
            not_policy: self.document_pane.not_policy.clone(),
        }
    }

    /// The byte range of the document span the cursor is on: where a new
    /// rule or definition part comes from.
    pub fn selected_source_span(&self) -> Option<precept_engine::model::SourceSpan> {
        self.ws
            .spans
            .get(self.cursors.span.selected)
            .map(|s| precept_engine::model::SourceSpan {
                start: s.start,
                end: s.end,
            })
    }

    pub fn selected_rule(&self) -> Option<&precept_engine::model::Rule> {
        self.ws.model.rules.get(self.cursors.rule.selected)
    }

    pub fn selected_test(&self) -> Option<&LogicTest> {
        self.ws.tests.tests.get(self.cursors.test.selected)
    }

    pub fn test_state(&self, id: &str) -> &TestState {
        self.ws.run.test_state(id)
    }

    /// Variable and type rows of the variables screen, filtered.
    pub fn variable_rows(&self) -> Vec<VariableRow> {
        let filter = self.variable_filter.to_lowercase();
        let matches = |text: &str, description: &str| {
            filter.is_empty()
                || text.to_lowercase().contains(&filter)
                || description.to_lowercase().contains(&filter)
        };
        let mut rows: Vec<VariableRow> = self
            .ws
            .model
            .variables
            .iter()
            .enumerate()
            .filter(|(_, v)| matches(&v.name, &v.description))
            .map(|(i, _)| VariableRow::Variable(i))
            .collect();
        rows.extend(
            self.ws
                .model
                .types
                .iter()
                .enumerate()
                .filter(|(_, t)| {
                    matches(&t.name, &t.description)
                        || t.values.iter().any(|v| matches(&v.value, &v.description))
                })
                .map(|(i, _)| VariableRow::Type(i)),
        );
        rows
    }

    /// Whether a variable is used by no rule.
    pub fn is_unused_variable(&self, name: &str) -> bool {
        self.ws.graph.rules_using(name).is_empty()
    }

    /// Enum values no rule or variable mentions, and whether a type is used at all.
    pub fn is_unused_type(&self, name: &str) -> bool {
        !self.ws.model.variables.iter().any(|v| v.sort == name)
    }

    pub fn failing_tests(&self) -> Vec<usize> {
        self.ws
            .tests
            .tests
            .iter()
            .enumerate()
            .filter(|(_, t)| t.status.counts() && self.test_state(&t.id).passed() == Some(false))
            .map(|(i, _)| i)
            .collect()
    }

    /// Generated tests still waiting for the expert's verdict: they do not
    /// count in pass/fail until accepted.
    pub fn proposed_count(&self) -> usize {
        self.ws
            .tests
            .tests
            .iter()
            .filter(|t| !t.status.counts())
            .count()
    }

    /// The suite's standing as the status line says it: "14 passed, 0
    /// failed", then "· 36 proposed, not counted" while generated tests wait
    /// for review, so a screen of ✓ proposed tests never reads as 0 passed.
    pub fn standing(&self) -> String {
        let (passed, failed, _) = self.counts();
        let mut text = format!("{passed} passed, {failed} failed");
        let proposed = self.proposed_count();
        if proposed > 0 {
            text.push_str(&format!(" · {proposed} proposed, not counted"));
        }
        text
    }

    /// Passed, failed and not yet finished, over the tests that count
    /// (written by hand, or generated and accepted or rejected).
    pub fn counts(&self) -> (usize, usize, usize) {
        let mut passed = 0;
        let mut failed = 0;
        let mut waiting = 0;
        // Proposed (generated, unreviewed) tests do not count yet.
        for test in self.ws.tests.tests.iter().filter(|t| t.status.counts()) {
            match self.test_state(&test.id).passed() {
                Some(true) => passed += 1,
                Some(false) => failed += 1,
                None => waiting += 1,
            }
        }
        (passed, failed, waiting)
    }
}

/// A row of the variables screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VariableRow {
    Variable(usize),
    Type(usize),
}
