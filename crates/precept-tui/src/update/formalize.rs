//! The formalize screen: starting and cancelling a formalization of the
//! document, following its progress, adopting its model (one undoable
//! edit), and the expert's corrections to the clusters (merge, split,
//! rename), each an ordinary undoable edit.

use crate::state::app::{App, Overlay, Pane, Screen};
use crate::state::formalization::{ClusterRow, FormalizeRun, SpanProgress, cluster_rows};
use crate::state::msg::Effect;
use crate::state::name_prompt::{NamePrompt, NamePurpose};
use crossterm::event::{KeyCode, KeyEvent};
use precept_engine::compose::cluster_edit;
use precept_engine::compose::document_run::FormalizedDocument;
use precept_engine::compose::record::FormalizationRecord;
use precept_engine::formalize::span_runs::FormalizeEvent;
use precept_engine::model::PolicyModel;
use precept_engine::workspace::Stamp;

/// `F`: formalize the project's document. On a model with rules the first
/// press asks, the second replaces them (undo brings them back).
pub fn start(app: &mut App) -> Vec<Effect> {
    super::navigation::show_screen(app, Screen::Formalize);
    let Some(document) = app.ws.document.clone() else {
        app.status.last_error =
            Some("this project has no document to formalize (precept.json names none)".into());
        return Vec::new();
    };
    if app.formalization.run.is_some() {
        app.status.message = Some("a formalization is running (esc stops it)".into());
        return Vec::new();
    }
    if !app.ws.model.rules.is_empty() && !app.formalization.confirm_replace {
        app.formalization.confirm_replace = true;
        app.status.message = Some(format!(
            "press F again to replace the {} rules with a new formalization (u undoes it)",
            app.ws.model.rules.len()
        ));
        return Vec::new();
    }
    app.formalization.confirm_replace = false;
    app.formalization.error = None;
    let stamp = app.ws.stamp();
    app.formalization.job = stamp.job;
    app.formalization.run = Some(FormalizeRun {
        job: stamp.job,
        spans: Vec::new(),
        progress: Vec::new(),
    });
    app.status.job = Some("formalizing: splitting the document".into());
    let document_name = app
        .ws
        .document_name
        .clone()
        .unwrap_or_else(|| "policy.md".into());
    vec![Effect::Formalize {
        stamp,
        document,
        document_name,
    }]
}

/// Esc on the formalize screen: stop the run (the model stays as it was).
pub fn cancel(app: &mut App) -> Vec<Effect> {
    if app.formalization.run.take().is_none() {
        return Vec::new();
    }
    // Whatever the stopped run still sends is dropped.
    app.formalization.job = precept_engine::workspace::JobId::default();
    app.status.job = None;
    app.status.message = Some("formalization stopped; the model is unchanged".into());
    vec![Effect::CancelFormalize]
}

pub fn event(app: &mut App, stamp: Stamp, event: FormalizeEvent) -> Vec<Effect> {
    let Some(run) = app
        .formalization
        .run
        .as_mut()
        .filter(|r| r.job == stamp.job)
    else {
        return Vec::new();
    };
    match event {
        FormalizeEvent::Planned { spans } => {
            run.progress = vec![SpanProgress::Waiting; spans.len()];
            run.spans = spans
                .into_iter()
                .map(|t| (t.id, t.text.chars().take(60).collect()))
                .collect();
        }
        FormalizeEvent::Started { span } => {
            if let Some(p) = run.progress.get_mut(span) {
                *p = SpanProgress::Asking { round: 1 };
            }
        }
        FormalizeEvent::Retrying { span, round, .. } => {
            if let Some(p) = run.progress.get_mut(span) {
                *p = SpanProgress::Asking { round };
            }
        }
        FormalizeEvent::Finished { span, counts } => {
            if let Some(p) = run.progress.get_mut(span) {
                *p = SpanProgress::Done(counts);
            }
        }
        FormalizeEvent::Vocabulary {
            sections,
            variables,
            types,
        } => {
            app.status.message = Some(format!(
                "shared vocabulary: {variables} variables, {types} types from {sections} section part(s)"
            ));
            app.status.job = Some("formalizing the spans against the shared vocabulary".into());
            return Vec::new();
        }
    }
    let (finished, failed, _, _) = run.totals();
    app.status.job = Some(format!(
        "formalizing: {finished}/{} spans done, {failed} failed",
        run.progress.len()
    ));
    Vec::new()
}

pub fn done(
    app: &mut App,
    stamp: Stamp,
    result: Result<Box<FormalizedDocument>, crate::state::job_error::JobError>,
) -> Vec<Effect> {
    if app.formalization.job != stamp.job {
        return Vec::new();
    }
    app.formalization.run = None;
    app.status.job = None;
    match result {
        Err(error) => {
            // The status line has one row; the screen shows all of it.
            let error = error.to_string();
            let first = error.lines().next().unwrap_or_default();
            app.status.last_error = Some(format!("formalization: {first}"));
            app.formalization.error = Some(error);
            Vec::new()
        }
        Ok(formalized) => {
            let FormalizedDocument { model, mut record } = *formalized;
            let failed = record.failed_spans();
            let spans = record.spans.len();
            if let Some(name) = &app.ws.document_name {
                record.document = name.clone();
            }
            let mut model = model;
            model.title = app.ws.model.title.clone();
            let defined = match record.definitions.len() {
                0 => String::new(),
                n => format!(", {n} decision(s) joined in one definition each"),
            };
            let label = format!(
                "formalized {} of {spans} spans: {} rules, {} variables{defined} (all unreviewed)",
                spans - failed,
                model.rules.len(),
                model.variables.len()
            );
            app.formalization.span_cursor = Default::default();
            app.formalization.cluster_cursor = Default::default();
            let effects = replace_model_and_record(app, "formalize the document", model, record);
            app.status.message = Some(label);
            effects
        }
    }
}

/// Replaces the model as one undoable edit: saved, reloaded into the
/// solver, and every test rerun.
pub fn replace_model(app: &mut App, label: &str, model: PolicyModel) -> Vec<Effect> {
    let before = app.snapshot();
    app.ws.model = model;
    app.ws.history.record(label, before);
    adopt(app)
}

/// Replaces the model and the formalization record as one undoable edit.
fn replace_model_and_record(
    app: &mut App,
    label: &str,
    model: PolicyModel,
    record: FormalizationRecord,
) -> Vec<Effect> {
    let before = app.snapshot();
    app.ws.model = model;
    app.formalization.record = Some(record.clone());
    app.ws.history.record(label, before);
    let mut effects = adopt(app);
    effects.push(Effect::SaveRecord(Box::new(record)));
    effects
}

/// After the model was replaced: recompile, save, reload, rerun.
fn adopt(app: &mut App) -> Vec<Effect> {
    app.recompile();
    super::navigation::rescroll(app);
    vec![
        Effect::SaveModel(Box::new(app.ws.model.clone())),
        Effect::LoadSolver(Box::new(app.ws.compiled.clone())),
        super::start_full_run(app),
    ]
}

fn selected_cluster_row(app: &App) -> Option<ClusterRow> {
    let record = app.formalization.record.as_ref()?;
    cluster_rows(&record.clusters, app.formalization.proposals.len())
        .get(app.formalization.cluster_cursor.selected)
        .copied()
}

/// The model variable of the selected cluster row.
fn selected_variable(app: &App) -> Option<String> {
    let record = app.formalization.record.as_ref()?;
    match selected_cluster_row(app)? {
        ClusterRow::Cluster(i) | ClusterRow::Member(i, _) => {
            record.clusters.get(i).map(|c| c.name.clone())
        }
        ClusterRow::Proposal(_) => None,
    }
}

/// `e` on a cluster: rename its variable.
pub fn open_rename(app: &mut App) {
    if let Some(variable) = selected_variable(app) {
        app.overlay = Some(Overlay::Name(NamePrompt::new(
            NamePurpose::Rename {
                variable: variable.clone(),
            },
            "the new name",
            &variable,
        )));
    }
}

/// `m` on a cluster: merge its variable into another one.
pub fn open_merge(app: &mut App) {
    if app.focus != Pane::Clusters {
        return;
    }
    if let Some(variable) = selected_variable(app) {
        app.overlay = Some(Overlay::Name(NamePrompt::new(
            NamePurpose::MergeInto { variable },
            "merge into which variable?",
            "",
        )));
    }
}

/// `s` on a unit variable of a cluster: give it a variable of its own.
pub fn split(app: &mut App) -> Vec<Effect> {
    let Some(ClusterRow::Member(cluster, member)) = selected_cluster_row(app) else {
        app.status.message = Some("select one unit variable of a cluster to split it off".into());
        return Vec::new();
    };
    let Some(mut record) = app.formalization.record.clone() else {
        return Vec::new();
    };
    let name = record.clusters[cluster].name.clone();
    let mut model = app.ws.model.clone();
    match cluster_edit::split(&mut model, &mut record, &name, member) {
        Ok(new_name) => {
            finish_cluster_edit(app, &format!("split {new_name} off {name}"), model, record)
        }
        Err(error) => {
            app.status.last_error = Some(error.to_string());
            Vec::new()
        }
    }
}

fn finish_cluster_edit(
    app: &mut App,
    label: &str,
    model: PolicyModel,
    record: FormalizationRecord,
) -> Vec<Effect> {
    let effects = replace_model_and_record(app, label, model, record);
    app.status.message = Some(format!("{label} (u to undo)"));
    effects
}

/// Keys of the name prompt: enter applies, esc closes.
pub fn name_prompt_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    let Some(Overlay::Name(prompt)) = app.overlay.as_mut() else {
        return Vec::new();
    };
    match key.code {
        KeyCode::Esc => {
            app.overlay = None;
            Vec::new()
        }
        KeyCode::Enter => {
            let text = prompt.text();
            let purpose = prompt.purpose.clone();
            let mut model = app.ws.model.clone();
            let mut record = app.formalization.record.clone();
            let (result, label) = match &purpose {
                NamePurpose::Rename { variable } => (
                    cluster_edit::rename(&mut model, record.as_mut(), variable, &text),
                    format!("renamed {variable} to {text}"),
                ),
                NamePurpose::MergeInto { variable } => (
                    cluster_edit::merge(&mut model, record.as_mut(), &text, variable),
                    format!("merged {variable} into {text}"),
                ),
                // Routed to save_test by the overlay's key handler.
                NamePurpose::SaveTest { .. } => return Vec::new(),
            };
            match result {
                Ok(()) => {
                    app.overlay = None;
                    match record {
                        Some(record) => finish_cluster_edit(app, &label, model, record),
                        None => {
                            let effects = replace_model(app, &label, model);
                            app.status.message = Some(format!("{label} (u to undo)"));
                            effects
                        }
                    }
                }
                Err(error) => {
                    if let Some(Overlay::Name(prompt)) = app.overlay.as_mut() {
                        prompt.error = Some(error.to_string());
                    }
                    Vec::new()
                }
            }
        }
        _ => {
            prompt.input.input(key);
            prompt.error = None;
            Vec::new()
        }
    }
}
