//! The workbench's formalization, cluster corrections and repair from
//! feedback, through `update` alone: keys and job messages in, effects out.
//! The jobs' messages are built here from the scripted park replies, so the
//! flow is checked without a network (tests/tui/tui_e2e_llm.rs runs the real
//! binary against the scripted server).

use crate::another_job;
use crate::support;
use precept::llm::LlmError;
use precept::tui::state::job_error::JobError;
use precept::workspace::Stamp;

use crossterm::event::KeyCode;
use precept::compose::document_run::FormalizedDocument as Formalized;
use precept::formalize::span_runs::{FormalizeEvent, SpanCounts};
use precept::formalize::span_task::plan_spans;
use precept::model::ModelEdit;
use precept::model::ReviewStatus;
use precept::repair::{ProposedEdit, RepairProposal};
use precept::solve::FindingKind;
use precept::test_runner::flips::TestFlip;
use precept::tui::state::app::{App, Overlay, Pane, Screen};
use precept::tui::state::formalization::{ClusterRow, SpanProgress, cluster_rows};
use precept::tui::state::msg::{Effect, Msg};
use precept::tui::state::repair::RepairStage;
use precept::tui::update::update;

use support::keys::{code as key, ctrl, park as open_park, press, type_text};

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
            Effect::Background(task) => task.name,
            _ => "other",
        })
        .collect()
}

/// What a formalization of the park document returns, composed from the
/// scripted replies of tests/data/formalize.
fn park_formalized(app: &App) -> Formalized {
    let (model, record) =
        support::park_formalization::park_formalization(app.ws.document.as_deref().unwrap());
    Formalized { model, record }
}

fn start_formalizing(app: &mut App) -> Stamp {
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
        stamp,
        document,
        document_name,
    }) = effects.first()
    else {
        panic!("expected a Formalize effect, got {:?}", names(&effects));
    };
    assert!(document.contains("Riverside Nature Park"));
    assert_eq!(document_name, "policy.md");
    *stamp
}

mod clusters_and_repair;
mod runs;
