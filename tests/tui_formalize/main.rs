//! The workbench's formalization, cluster corrections and repair from
//! feedback, through `update` alone: keys and job messages in, effects out.
//! The jobs' messages are built here from the scripted park replies, so the
//! flow is checked without a network (tests/tui_e2e_llm.rs runs the real
//! binary against the scripted server).

#[path = "../support/mod.rs"]
mod support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use precept::formalize::span_runs::{FormalizeEvent, SpanCounts};
use precept::formalize::span_task::plan_spans;
use precept::model::ModelEdit;
use precept::model::drafts::Drafts;
use precept::model::{Project, ReviewStatus};
use precept::repair::{ProposedEdit, RepairProposal};
use precept::solve::FindingKind;
use precept::test_runner::flips::TestFlip;
use precept::tui::input::keymap::Keymap;
use precept::tui::state::app::{App, Overlay, Pane, Screen};
use precept::tui::state::formalization::{ClusterRow, SpanProgress, cluster_rows};
use precept::tui::state::msg::{Effect, Formalized, Msg};
use precept::tui::state::repair::RepairStage;
use precept::tui::style::theme::Theme;
use precept::tui::update::update;

fn open_park() -> (tempfile::TempDir, App) {
    let dir = support::copy_sample("park-admission");
    let app = App::new(
        Project::load_unchecked(dir.path()).unwrap(),
        Drafts::load(dir.path()).unwrap(),
        Keymap::default(),
        Theme::built_in("dark").unwrap(),
        (100, 30),
    );
    (dir, app)
}

fn key(app: &mut App, code: KeyCode) -> Vec<Effect> {
    update(app, Msg::Key(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn press(app: &mut App, c: char) -> Vec<Effect> {
    key(app, KeyCode::Char(c))
}

fn ctrl(app: &mut App, c: char) -> Vec<Effect> {
    update(
        app,
        Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL)),
    )
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, c);
    }
}

fn names(effects: &[Effect]) -> Vec<&'static str> {
    effects
        .iter()
        .map(|e| match e {
            Effect::SaveModel(_) => "SaveModel",
            Effect::SaveTests(_) => "SaveTests",
            Effect::LoadSolver(_) => "LoadSolver",
            Effect::RunTests { .. } => "RunTests",
            Effect::Formalize { .. } => "Formalize",
            Effect::CancelFormalize => "CancelFormalize",
            Effect::SaveRecord(_) => "SaveRecord",
            Effect::RemoveRecord => "RemoveRecord",
            Effect::ProposeRepair { .. } => "ProposeRepair",
            Effect::PreviewRepair { .. } => "PreviewRepair",
            _ => "other",
        })
        .collect()
}

/// What a formalization of the park document returns, composed from the
/// scripted replies of tests/data/formalize.
fn park_formalized(app: &App) -> Formalized {
    let (model, record) =
        support::park_formalization::park_formalization(app.document.as_deref().unwrap());
    Formalized { model, record }
}

fn start_formalizing(app: &mut App) -> u64 {
    press(app, '6');
    assert_eq!(app.screen, Screen::Formalize);
    // The park model has rules: the first F asks, the second starts.
    assert!(press(app, 'F').is_empty());
    assert!(
        app.status
            .message
            .as_deref()
            .unwrap()
            .contains("press F again"),
        "{:?}",
        app.status.message
    );
    let effects = press(app, 'F');
    let Some(Effect::Formalize {
        generation,
        document,
        document_name,
    }) = effects.first()
    else {
        panic!("expected a Formalize effect, got {:?}", names(&effects));
    };
    assert!(document.contains("Riverside Nature Park"));
    assert_eq!(document_name, "policy.md");
    *generation
}

mod clusters_and_repair;
mod runs;
