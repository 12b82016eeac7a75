//! The rows of the vetting screen's lint list: the diagnostics triaged
//! (grouped, ranked by the rules and tests they reach, notes folded), and
//! `f`, which shows or folds the notes.

use crate::core::lint::triage::triage;
use crate::tui::state::app::App;
use crate::tui::state::freshness::suite_fingerprint;
use crate::tui::state::msg::Effect;
use std::collections::BTreeSet;

/// Groups and ranks the diagnostics for the list (notes folded unless
/// shown); a diagnostic's rank counts the tests in its cone.
pub fn retriage(app: &mut App) {
    // Which parts of the graph each test reaches: worked out again only
    // when the model or the tests change, not on every diagnostic found.
    let key = suite_fingerprint(&app.model, &app.tests);
    if app.lint.test_reach.0 != Some(key) {
        app.lint.test_reach = (Some(key), test_components(app));
    }
    let graph = &app.graph;
    let test_components = &app.lint.test_reach.1;
    let reached = |diagnostic: &crate::core::lint::Diagnostic| {
        let mut names = diagnostic.variables.clone();
        for rule in &diagnostic.rules {
            names.extend(graph.variables_of(rule));
        }
        let components = graph.components_of(names.iter().map(String::as_str));
        test_components
            .iter()
            .filter(|c| !c.is_disjoint(&components))
            .count()
    };
    app.lint.triage = triage(&app.lint.diagnostics, &reached, app.lint.show_notes);
}

/// The graph components each test's premise and claim touch.
fn test_components(app: &App) -> Vec<BTreeSet<usize>> {
    let graph = &app.graph;
    app.tests
        .tests
        .iter()
        .map(|test| {
            let names: Vec<String> = [&test.premise, &test.claim]
                .into_iter()
                .filter_map(|text| crate::core::smt::parse_expr(text).ok())
                .flat_map(|e| {
                    e.symbols()
                        .into_iter()
                        .map(str::to_string)
                        .collect::<Vec<_>>()
                })
                .collect();
            graph.components_of(names.iter().map(String::as_str))
        })
        .collect()
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
