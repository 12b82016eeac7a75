//! The rows of the vetting screen's lint list: the diagnostics triaged
//! (grouped, ranked by the rules and tests they reach, notes folded), and
//! `f`, which shows or folds the notes.

use crate::state::app::App;
use crate::state::msg::Effect;
use precept_engine::lint::triage::{test_components, tests_reached, triage};

/// Groups and ranks the diagnostics for the list (notes folded unless
/// shown); a diagnostic's rank counts the tests in its cone.
pub fn retriage(app: &mut App) {
    // Which parts of the graph each test reaches: worked out again only
    // when the model or the tests change, not on every diagnostic found.
    let key = app.ws.revision();
    if app.lint.test_reach.0 != Some(key) {
        app.lint.test_reach = (
            Some(key),
            test_components(&app.ws.graph, &app.ws.tests.tests),
        );
    }
    let graph = &app.ws.graph;
    let components = &app.lint.test_reach.1;
    let known = Default::default();
    let reached = |diagnostic: &precept_engine::lint::Diagnostic| {
        tests_reached(graph, components, &known, diagnostic)
    };
    app.lint.triage = triage(&app.lint.diagnostics, &reached, app.lint.show_notes);
}

/// `f` on the vetting screen: shows the notes, or folds them away again.
pub fn toggle_notes(app: &mut App) -> Vec<Effect> {
    app.lint.show_notes = !app.lint.show_notes;
    retriage(app);
    app.lint.cursor = Default::default();
    app.lint.rule_cursor = Default::default();
    app.status.message = Some(if app.lint.show_notes {
        "notes shown (f folds them away)".into()
    } else {
        format!(
            "{} notes folded away (f shows them)",
            app.lint.triage.folded_notes
        )
    });
    Vec::new()
}
