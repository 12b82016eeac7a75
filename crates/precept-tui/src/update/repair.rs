//! Repair from feedback in the workbench: the expert marks rules (space) or
//! selects one, says what is wrong (`w`), and decides on each proposed edit
//! after seeing it in SMT-LIB and English with the tests it would flip. An
//! accepted edit is an ordinary undoable edit.

use crate::state::app::{App, Overlay, Pane};
use crate::state::msg::Effect;
use crate::state::repair::{Proposed, RepairStage, RepairState};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use precept_engine::repair::RepairProposal;
use precept_engine::test_runner::flips::TestFlip;
use precept_engine::workspace::Stamp;
use ratatui_textarea::TextArea;

/// Space on the rules list: mark or unmark the selected rule.
pub fn toggle_mark(app: &mut App) {
    if !matches!(app.focus, Pane::Rules | Pane::Document) {
        return;
    }
    let Some(id) = app.selected_rule().map(|r| r.id.clone()) else {
        return;
    };
    if !app.repair_draft.marked.remove(&id) {
        app.repair_draft.marked.insert(id);
    }
    app.status.message = Some(format!(
        "{} rule(s) marked for feedback (w)",
        app.repair_draft.marked.len()
    ));
}

/// `w`: open the feedback box for the marked rules, or the selected one.
pub fn open(app: &mut App) {
    let mut rules: Vec<String> = app
        .repair_draft
        .marked
        .iter()
        .filter(|id| app.ws.model.rule(id).is_some())
        .cloned()
        .collect();
    if rules.is_empty()
        && let Some(rule) = app.selected_rule()
    {
        rules.push(rule.id.clone());
    }
    if rules.is_empty() {
        app.status.message = Some("select a rule first".into());
        return;
    }
    // Feedback typed before and not yet answered with edits is never lost.
    let mut feedback = if app.repair_draft.feedback.is_empty() {
        TextArea::default()
    } else {
        let mut kept = TextArea::new(
            app.repair_draft
                .feedback
                .lines()
                .map(str::to_string)
                .collect(),
        );
        kept.move_cursor(ratatui_textarea::CursorMove::Bottom);
        kept.move_cursor(ratatui_textarea::CursorMove::End);
        kept
    };
    feedback.set_placeholder_text(format!(
        "what {} gets wrong, in your words: a case it misses, a limit or condition the document states otherwise",
        rules.join(", ")
    ));
    let job = precept_engine::workspace::JobId::next();
    app.overlay = Some(Overlay::Repair(Box::new(RepairState {
        rules,
        feedback,
        job,
        stage: RepairStage::Writing,
    })));
}

pub fn key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    let Some(Overlay::Repair(state)) = app.overlay.as_mut() else {
        return Vec::new();
    };
    if key.code == KeyCode::Esc {
        // Whatever the overlay was waiting for is dropped when it arrives,
        // so its progress must not stay in the status line.
        let waiting = match &state.stage {
            RepairStage::Asking => true,
            RepairStage::Proposed(proposed) => proposed.flips.iter().any(Option::is_none),
            RepairStage::Writing | RepairStage::Failed(_) => false,
        };
        if waiting {
            app.status.job = None;
        }
        if !matches!(state.stage, RepairStage::Proposed(_)) {
            app.repair_draft.feedback = state.feedback.lines().join("\n");
            if !app.repair_draft.feedback.trim().is_empty() {
                app.status.message = Some("your feedback is kept: w opens it again".into());
            }
        }
        // The marks were for this feedback: cancelled or answered, they go.
        app.repair_draft.marked.clear();
        app.overlay = None;
        return Vec::new();
    }
    match &mut state.stage {
        RepairStage::Writing => {
            let submit = key.code == KeyCode::Enter && !key.modifiers.contains(KeyModifiers::ALT)
                || key.code == KeyCode::Char('s') && key.modifiers.contains(KeyModifiers::CONTROL);
            if !submit {
                state.feedback.input(key);
                return Vec::new();
            }
            let feedback = state.feedback.lines().join("\n").trim().to_string();
            if feedback.is_empty() {
                return Vec::new();
            }
            state.stage = RepairStage::Asking;
            let stamp = app.ws.stamp();
            state.job = stamp.job;
            app.status.job = Some("asking the LLM for a repair".into());
            vec![Effect::ProposeRepair {
                stamp,
                model: Box::new(app.ws.model.clone()),
                rules: state.rules.clone(),
                feedback,
            }]
        }
        RepairStage::Asking => Vec::new(),
        // After a failure (no LLM configured, an error) any key but esc
        // goes back to the feedback, as typed, to send again.
        RepairStage::Failed(_) => {
            state.stage = RepairStage::Writing;
            Vec::new()
        }
        RepairStage::Proposed(proposed) => match key.code {
            KeyCode::Down | KeyCode::Char('j') => {
                proposed.cursor =
                    (proposed.cursor + 1).min(proposed.decisions.len().saturating_sub(1));
                Vec::new()
            }
            KeyCode::Up | KeyCode::Char('k') => {
                proposed.cursor = proposed.cursor.saturating_sub(1);
                Vec::new()
            }
            KeyCode::Char('n') => {
                let at = proposed.cursor;
                if let Some(decision) = proposed.decisions.get_mut(at)
                    && decision.is_none()
                {
                    *decision = Some(false);
                }
                Vec::new()
            }
            KeyCode::Char('y') => accept(app),
            _ => Vec::new(),
        },
    }
}

/// `y`: apply the selected edit as an undoable edit.
fn accept(app: &mut App) -> Vec<Effect> {
    let Some(Overlay::Repair(state)) = app.overlay.as_mut() else {
        return Vec::new();
    };
    let RepairStage::Proposed(proposed) = &mut state.stage else {
        return Vec::new();
    };
    let at = proposed.cursor;
    if proposed.decisions.get(at).copied().flatten().is_some() {
        return Vec::new();
    }
    let Some(edit) = proposed.proposal.edits.get(at).map(|e| e.edit.clone()) else {
        return Vec::new();
    };
    proposed.decisions[at] = Some(true);
    // The marks were for this repair; an accepted edit answers them.
    app.repair_draft.marked.clear();
    let mut model = app.ws.model.clone();
    if let Err(error) = edit.apply(&mut model) {
        app.status.message = Some(format!("cannot apply the repair: {error}"));
        return Vec::new();
    }
    let label = format!("repair: {}", edit.title());
    let before = app.ws.model.clone();
    let mut effects = super::formalize::replace_model(app, &label, model);
    effects.extend(super::approval::check_rewrites(app, &before));
    app.status.message = Some(format!("{label} (u to undo)"));
    effects
}

pub fn proposed(
    app: &mut App,
    stamp: Stamp,
    result: Result<RepairProposal, crate::state::job_error::JobError>,
) -> Vec<Effect> {
    let Some(Overlay::Repair(state)) = app.overlay.as_mut() else {
        return Vec::new();
    };
    if state.job != stamp.job {
        return Vec::new();
    }
    app.status.job = None;
    match result {
        Err(error) => {
            app.repair_draft.feedback = state.feedback.lines().join("\n");
            state.stage = RepairStage::Failed(error.to_string());
            Vec::new()
        }
        Ok(proposal) => {
            app.repair_draft.feedback.clear();
            let edits: Vec<_> = proposal.edits.iter().map(|e| e.edit.clone()).collect();
            let count = edits.len();
            state.stage = RepairStage::Proposed(Box::new(Proposed {
                proposal,
                flips: vec![None; count],
                decisions: vec![None; count],
                cursor: 0,
            }));
            if count == 0 {
                return Vec::new();
            }
            app.status.job = Some("working out which tests the edits flip".into());
            let mut edited = Vec::with_capacity(edits.len());
            let mut current = app.ws.model.clone();
            for edit in &edits {
                let _ = edit.apply(&mut current);
                edited.push(current.clone());
            }
            vec![super::previews::preview(
                "PreviewRepair",
                stamp,
                app.ws.model.clone(),
                app.ws.tests.tests.clone(),
                edited,
                |stamp, index, flips| crate::state::msg::Msg::RepairPreviewed {
                    stamp,
                    index,
                    flips,
                },
            )]
        }
    }
}

pub fn previewed(
    app: &mut App,
    stamp: Stamp,
    index: usize,
    flips: Result<Vec<TestFlip>, crate::state::job_error::JobError>,
) -> Vec<Effect> {
    let Some(Overlay::Repair(state)) = app.overlay.as_mut() else {
        return Vec::new();
    };
    if state.job != stamp.job {
        return Vec::new();
    }
    if let RepairStage::Proposed(proposed) = &mut state.stage {
        if let Some(slot) = proposed.flips.get_mut(index) {
            *slot = Some(flips);
        }
        if proposed.flips.iter().all(Option::is_some) {
            app.status.job = None;
        }
    }
    Vec::new()
}
