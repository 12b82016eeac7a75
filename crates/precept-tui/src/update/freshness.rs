//! What every edit, undo or redo does to results computed before it: the
//! status line's error about an earlier attempt goes, and lint, coverage,
//! the mutation score, the verify screen's answer check and the probe's
//! report are checked against the model they describe. Lint reruns at once
//! when that is cheap; otherwise its cheap syntactic part is redone and the
//! solver checks are marked stale, naming the edit; the others are marked
//! stale, naming the edit, until an undo returns to their model.
//!
//! A lint after an edit is cheap: the scheduler's lint remembers each
//! group of rules' findings by its content (the islands that share no
//! variables), and a large group's answer to each question with its
//! evidence, so only what the edit may have changed is checked again, in
//! the background, and the pane updates in place.

use super::vetting;
use crate::state::app::App;
use crate::state::msg::Effect;
use precept_engine::lint::syntactic;

/// Models whose groups of rules have at most this many rules each are
/// linted again after every edit (the edited group in the background, a
/// few hundred milliseconds at most); a model with a larger group (a policy
/// whose rules all share variables) once a lint of it has finished, whose
/// answers the next run reuses, and on request (`L`) before that.
pub const RELINT_AT_ONCE_RULES: usize = 300;

/// Reacts to the edits, undos and redos the last message made, if any.
pub fn react_to_changes(app: &mut App) -> Vec<Effect> {
    let changes = app.ws.history.changes();
    if changes == app.seen_changes {
        return Vec::new();
    }
    app.seen_changes = changes;
    let change = app
        .ws
        .history
        .last_change()
        .unwrap_or("an edit")
        .to_string();
    // The change went through: an error about an earlier attempt (a rule
    // kept as a draft, a fix that did not apply) no longer describes anything.
    app.status.last_error = None;
    // One revision for every result: working it out reads the whole model.
    let now = app.ws.revision();
    let mut effects = Vec::new();
    if app.lint.ran {
        app.lint.basis.observe(now, &change);
        if app.lint.basis.stale_since().is_some() {
            let largest = app.ws.graph.groups().iter().map(Vec::len).max();
            if largest.unwrap_or(0) <= RELINT_AT_ONCE_RULES || app.lint.finished_once {
                effects.extend(vetting::relint(app));
            } else {
                refresh_syntactic(app);
            }
        }
    }
    effects.extend(reask_verify(app, &change, now.model));
    // The answer check and the probe asked an LLM: too dear to redo on
    // every edit, so they say after which edit they stopped being current.
    let qa = &mut app.verify.qa;
    if qa.running || qa.report.is_some() {
        qa.basis.observe(now, &change);
    }
    if app.probe.running.is_some() || app.probe.report.is_some() {
        app.probe.basis.observe(now, &change);
    }
    if app.coverage.running || app.coverage.coverage.is_some() {
        app.coverage.basis.observe(now, &change);
    }
    effects
}

/// The verify screen's finding (or the one on its way) answers the question
/// on the model before the change: the question is asked again (one solver
/// question), and the screen says after which change. A question that no
/// longer checks (a variable it names was deleted) loses its finding and
/// says why.
fn reask_verify(app: &mut App, change: &str, now: u64) -> Vec<Effect> {
    let Some((premise_text, claim_text)) = app.verify.asked.clone() else {
        return Vec::new();
    };
    if (app.verify.finding.is_none() && !app.verify.running) || app.verify.asked_on == now {
        return Vec::new();
    }
    app.verify.asked_on = now;
    let checked = app
        .ws
        .compiled
        .check_formula(&premise_text)
        .map_err(|e| format!("premise: {e}"))
        .and_then(|(_, premise)| {
            app.ws
                .compiled
                .check_formula(&claim_text)
                .map(|(_, claim)| (premise, claim))
                .map_err(|e| format!("claim: {e}"))
        });
    app.verify.finding = None;
    match checked {
        Ok((premise, claim)) => {
            app.verify.error = None;
            app.verify.job = precept_engine::workspace::JobId::next();
            app.verify.running = true;
            app.verify.asked_again_after = Some(change.to_string());
            vec![super::runs::verify_question(app, premise, claim)]
        }
        Err(e) => {
            app.verify.running = false;
            app.verify.error = Some(format!(
                "The last question no longer checks after {change}, so its finding is gone: {e}"
            ));
            Vec::new()
        }
    }
}

/// Redoes the syntactic checks (milliseconds) and keeps the solver checks'
/// diagnostics, which the vetting screen marks stale.
fn refresh_syntactic(app: &mut App) {
    let solver_found: Vec<_> = app
        .lint
        .diagnostics
        .drain(..)
        .filter(|d| d.code.is_solver_backed())
        .collect();
    let mut diagnostics = syntactic::check(&app.ws.model, &app.ws.compiled);
    diagnostics.extend(solver_found);
    diagnostics.sort_by_key(|d| (d.severity, d.code));
    vetting::set_syntactic(app, diagnostics);
    super::lint_rows::retriage(app);
}
