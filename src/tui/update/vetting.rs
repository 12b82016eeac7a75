//! The vetting screen: lint runs (syntactic at once, solver checks in the
//! background with progress) and one-keystroke fixes.

use super::edits::finish_declaration_edit;
use crate::core::lint::{ModelEdit, syntactic};
use crate::core::solve::lint_checks::LintEvent;
use crate::tui::app::{App, Screen};
use crate::tui::msg::Effect;

/// Starts a lint run, replacing any older one.
pub fn start_lint(app: &mut App) -> Vec<Effect> {
    app.lint.generation += 1;
    app.lint.diagnostics = syntactic::check(&app.model, &app.compiled);
    app.lint.running = true;
    app.lint.ran = true;
    app.lint.progress = None;
    app.lint.cursor = Default::default();
    app.status.job = Some("linting".into());
    vec![Effect::Lint {
        generation: app.lint.generation,
        model: Box::new(app.compiled.clone()),
    }]
}

pub fn lint_event(app: &mut App, generation: u64, event: LintEvent) -> Vec<Effect> {
    if generation != app.lint.generation {
        return Vec::new();
    }
    match event {
        LintEvent::Progress { done, total, stage } => {
            app.lint.progress = Some((done, total, stage));
            app.status.job = Some(format!("linting: {stage} {done}/{total}"));
        }
        LintEvent::Found(diagnostic) => {
            app.lint.diagnostics.push(*diagnostic);
            app.lint.diagnostics.sort_by_key(|d| (d.severity, d.code));
        }
        LintEvent::Finished { undecided, .. } => {
            app.lint.running = false;
            app.lint.progress = None;
            app.status.job = None;
            let count = |severity| {
                app.lint
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == severity)
                    .count()
            };
            let (errors, warnings) = (
                count(crate::core::lint::Severity::Error),
                count(crate::core::lint::Severity::Warning),
            );
            let mut message = format!("lint: {errors} errors, {warnings} warnings");
            if undecided > 0 {
                message.push_str(&format!(", {undecided} checks not decided in time"));
            }
            app.status.message = Some(message);
        }
    }
    Vec::new()
}

/// `x`: applies the selected diagnostic's fix as an ordinary edit (undo
/// takes it back), then lints again.
pub fn apply_fix(app: &mut App) -> Vec<Effect> {
    if app.screen != Screen::Vetting {
        return Vec::new();
    }
    let Some(fix) = app
        .lint
        .diagnostics
        .get(app.lint.cursor.selected)
        .and_then(|d| d.fix.clone())
    else {
        app.status.message = Some("this diagnostic has no automatic fix".into());
        return Vec::new();
    };
    let before = app.snapshot();
    if let Err(error) = fix.edit.apply(&mut app.model) {
        app.status.last_error = Some(format!("fix not applied: {error}"));
        return Vec::new();
    }
    if let ModelEdit::DeleteRule { id } | ModelEdit::ReplaceRule { id, .. } = &fix.edit {
        app.drafts.rules.remove(id);
    }
    app.history.record(fix.description.clone(), before);
    let mut effects =
        finish_declaration_edit(app, format!("fixed: {} (u to undo)", fix.description), true);
    effects.extend(start_lint(app));
    effects
}

/// Starts measuring coverage and the mutation score, replacing an older run.
pub fn start_coverage(app: &mut App) -> Vec<Effect> {
    app.coverage.generation += 1;
    app.coverage.running = true;
    app.status.job = Some("measuring coverage and mutation score".into());
    vec![Effect::Coverage {
        generation: app.coverage.generation,
        model: Box::new(app.compiled.clone()),
        tests: app.tests.tests.clone(),
    }]
}

pub fn coverage_done(
    app: &mut App,
    generation: u64,
    coverage: crate::core::testgen::coverage::CoverageReport,
    mutation: crate::core::testgen::mutation::MutationReport,
) -> Vec<Effect> {
    if generation != app.coverage.generation {
        return Vec::new();
    }
    app.coverage.running = false;
    app.status.job = None;
    let score = mutation
        .score
        .map(|s| format!("{:.0}%", s * 100.0))
        .unwrap_or_else(|| "n/a".into());
    app.status.message = Some(format!(
        "coverage {:.0}% of rules both ways; mutation score {score}, {} survivors",
        coverage.totals.covered_percent, mutation.survived
    ));
    app.coverage.coverage = Some(coverage);
    app.coverage.mutation = Some(mutation);
    Vec::new()
}
