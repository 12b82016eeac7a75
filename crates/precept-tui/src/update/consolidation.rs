//! Consolidation on the Formalize screen: `c` asks for proposals (the
//! merges composition left open, and the LLM's review of the vocabulary),
//! each checked in the background before it is listed; `y` accepts the
//! selected proposal as one undoable edit, `R` rejects it.

use crate::state::app::{App, Pane, Screen};
use crate::state::msg::{Consolidation, Effect};
use precept_engine::compose::consolidate::{ProposalSource, apply};
use precept_engine::workspace::Stamp;

/// `c`: asks for consolidation proposals, replacing an older request.
pub fn start(app: &mut App) -> Vec<Effect> {
    if app.screen != Screen::Formalize {
        return Vec::new();
    }
    let stamp = app.ws.stamp();
    app.formalization.consolidation_job = stamp.job;
    app.formalization.consolidating = true;
    app.status.job = Some("consolidation: asking for proposals and checking them".into());
    vec![Effect::Consolidate {
        stamp,
        model: Box::new(app.ws.model.clone()),
        record: app.formalization.record.clone().map(Box::new),
        tests: app.ws.tests.tests.clone(),
    }]
}

pub fn done(
    app: &mut App,
    stamp: Stamp,
    result: Result<Consolidation, crate::state::job_error::JobError>,
) -> Vec<Effect> {
    if stamp.job != app.formalization.consolidation_job {
        return Vec::new();
    }
    app.formalization.consolidating = false;
    app.status.job = None;
    match result {
        Err(error) => app.status.last_error = Some(format!("consolidation: {error}")),
        Ok(consolidation) => {
            let usable = consolidation
                .proposals
                .iter()
                .filter(|p| p.acceptable())
                .count();
            let mut message = format!(
                "consolidation: {} proposals ({usable} acceptable) · y accepts, R rejects",
                consolidation.proposals.len()
            );
            if let Some(note) = consolidation.notes.first() {
                message.push_str(&format!(" · {note}"));
            }
            app.status.message = Some(message);
            app.formalization.proposals = consolidation.proposals;
            app.formalization.cluster_cursor = Default::default();
            app.focus = Pane::Clusters;
        }
    }
    Vec::new()
}

/// `y` on a proposal: applied as one edit (undo takes it back, with the
/// record). A refused or inconsistent proposal is not applied.
pub fn accept(app: &mut App, index: usize) -> Vec<Effect> {
    let Some(checked) = app.formalization.proposals.get(index).cloned() else {
        return Vec::new();
    };
    let id = checked.proposal.id.clone();
    if let Some(why) = &checked.refused {
        app.status.last_error = Some(format!("{id} is refused: {why}"));
        return Vec::new();
    }
    if checked.inconsistent {
        app.status.last_error = Some(format!(
            "{id} would make the model inconsistent, so it is refused (precept consolidate --apply {id} --force applies it anyway)"
        ));
        return Vec::new();
    }
    // A proposal with a warning is taken only at a second y.
    let warnings = checked.warnings();
    if !warnings.is_empty() && app.formalization.confirm_proposal.as_deref() != Some(&id) {
        app.formalization.confirm_proposal = Some(id.clone());
        app.status.last_error = Some(format!(
            "{id}: {}; y again accepts it anyway",
            warnings.join("; ")
        ));
        return Vec::new();
    }
    app.formalization.confirm_proposal = None;
    let before = app.snapshot();
    if let Err(error) = apply(
        &mut app.ws.model,
        app.formalization.record.as_mut(),
        &checked.proposal,
    ) {
        app.status.last_error = Some(format!(
            "{id} no longer applies: {error} (press c to check again)"
        ));
        return Vec::new();
    }
    app.formalization.proposals.remove(index);
    app.ws
        .history
        .record(format!("consolidation {id}: {}", checked.summary), before);
    let mut effects = super::model_change::finish_declaration_edit(
        app,
        format!(
            "accepted {id}: {} (u to undo; the other proposals were checked before it, c checks them again)",
            checked.proposal.link.describe()
        ),
        true,
    );
    if let Some(record) = &app.formalization.record {
        effects.push(Effect::SaveRecord(Box::new(record.clone())));
    }
    effects
}

/// `R` on a proposal: dropped from the list; an open merge from the
/// composition is also dropped from `formalization.json`, so it does not
/// come back.
pub fn reject(app: &mut App, index: usize) -> Vec<Effect> {
    if index >= app.formalization.proposals.len() {
        return Vec::new();
    }
    let rejected = app.formalization.proposals.remove(index);
    app.status.message = Some(format!("rejected {}", rejected.proposal.id));
    if !matches!(
        rejected.proposal.source,
        ProposalSource::Similarity | ProposalSource::SimilarityConfirmed
    ) {
        return Vec::new();
    }
    let precept_engine::compose::consolidate::Link::SameMeaning { keep, merge } =
        &rejected.proposal.link
    else {
        return Vec::new();
    };
    let Some(record) = app.formalization.record.as_mut() else {
        return Vec::new();
    };
    record
        .merge_proposals
        .retain(|p| !(&p.keep == keep && &p.merge == merge));
    vec![Effect::SaveRecord(Box::new(record.clone()))]
}
