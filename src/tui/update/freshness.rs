//! What every edit, undo or redo does to results computed before it: the
//! status line's error about an earlier attempt goes, and lint, coverage
//! and the mutation score are checked against the model they describe.
//! Lint reruns at once when that is cheap; otherwise its cheap syntactic
//! part is redone and the solver checks are marked stale, naming the edit.

use super::vetting;
use crate::core::lint::syntactic;
use crate::tui::state::app::App;
use crate::tui::state::freshness::{model_fingerprint, suite_fingerprint};
use crate::tui::state::msg::Effect;

/// Models up to this many rules are linted again after every edit (a few
/// hundred milliseconds in the background); larger ones on request (`L`).
pub const RELINT_AT_ONCE_RULES: usize = 300;

/// Reacts to the edits, undos and redos the last message made, if any.
pub fn react_to_changes(app: &mut App) -> Vec<Effect> {
    let changes = app.history.changes();
    if changes == app.seen_changes {
        return Vec::new();
    }
    app.seen_changes = changes;
    let change = app.history.last_change().unwrap_or("an edit").to_string();
    // The change went through: an error about an earlier attempt (a rule
    // kept as a draft, a fix that did not apply) no longer describes anything.
    app.status.last_error = None;
    let mut effects = Vec::new();
    if app.lint.ran {
        app.lint
            .basis
            .observe(model_fingerprint(&app.model), &change);
        if app.lint.basis.stale_since().is_some() {
            if app.compiled.rules.len() <= RELINT_AT_ONCE_RULES {
                effects.extend(vetting::relint(app));
            } else {
                refresh_syntactic(app);
            }
        }
    }
    if app.coverage.running || app.coverage.coverage.is_some() {
        app.coverage
            .basis
            .observe(suite_fingerprint(&app.model, &app.tests), &change);
    }
    effects
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
    let mut diagnostics = syntactic::check(&app.model, &app.compiled);
    diagnostics.extend(solver_found);
    diagnostics.sort_by_key(|d| (d.severity, d.code));
    app.lint.diagnostics = diagnostics;
    super::lint_rows::retriage(app);
}
