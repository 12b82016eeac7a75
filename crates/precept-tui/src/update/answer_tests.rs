//! The natural-language tests on the tests screen: run through the answer
//! verifier on request (`r` on their pane) and again after each edit once
//! they have run (their translations are cached, so an edit to the rules
//! costs only solver time); each outcome says what is at fault.

use crate::state::app::App;
use crate::state::msg::Effect;
use precept_engine::answer::AnswerTestOutcome;
use precept_engine::workspace::Stamp;

/// Runs every natural-language test (replacing a run in progress).
pub fn start(app: &mut App) -> Vec<Effect> {
    if app.ws.tests.nl_tests.is_empty() {
        app.status.message = Some(
            "no natural-language tests yet: check an answer on the verify screen (ctrl-t) and \
             save it with ctrl-s"
                .into(),
        );
        return Vec::new();
    }
    let stamp = app.ws.stamp();
    app.answer_tests.job = stamp.job;
    app.answer_tests.running = true;
    app.answer_tests.done = 0;
    app.answer_tests.total = app.ws.tests.nl_tests.len();
    app.answer_tests.ran_on = Some(app.ws.model.clone());
    app.status.job = Some(format!(
        "natural-language tests: 0/{} (translations come from the cache when they can)",
        app.answer_tests.total
    ));
    vec![Effect::RunAnswerTests {
        stamp,
        model: Box::new(app.ws.model.clone()),
        compiled: Box::new(app.ws.compiled.clone()),
        tests: app.ws.tests.nl_tests.clone(),
        redundancy: crate::state::msg::Redundancy {
            translations: app.ws.answer_translations,
            threshold: app.ws.answer_threshold,
        },
    }]
}

/// After a logic run: natural-language tests that ran on an older model
/// run again.
pub fn rerun_if_stale(app: &mut App) -> Vec<Effect> {
    let stale = app
        .answer_tests
        .ran_on
        .as_ref()
        .is_some_and(|model| *model != app.ws.model);
    if stale && !app.answer_tests.running {
        start(app)
    } else {
        Vec::new()
    }
}

pub fn test_done(app: &mut App, stamp: Stamp, outcome: AnswerTestOutcome) -> Vec<Effect> {
    if stamp.job != app.answer_tests.job {
        return Vec::new();
    }
    app.answer_tests.done += 1;
    app.answer_tests
        .outcomes
        .insert(outcome.id.clone(), outcome);
    app.status.job = Some(format!(
        "natural-language tests: {}/{}",
        app.answer_tests.done, app.answer_tests.total
    ));
    Vec::new()
}

pub fn finished(app: &mut App, stamp: Stamp) -> Vec<Effect> {
    if stamp.job != app.answer_tests.job {
        return Vec::new();
    }
    app.answer_tests.running = false;
    app.status.job = None;
    let (passed, failed) = crate::state::queries::answer_test_counts(app);
    app.status.message = Some(format!(
        "natural-language tests: {passed} passed, {failed} failed"
    ));
    Vec::new()
}

/// `d` on the pane: delete the selected natural-language test (undoable).
pub fn delete_selected(app: &mut App) -> Vec<Effect> {
    let Some(test) = app
        .ws
        .tests
        .nl_tests
        .get(app.answer_tests.cursor.selected)
        .cloned()
    else {
        return Vec::new();
    };
    let before = app.snapshot();
    app.ws.tests.delete(&test.id);
    app.answer_tests.outcomes.remove(&test.id);
    app.ws
        .history
        .record(format!("delete natural-language test {}", test.id), before);
    let len = app.ws.tests.nl_tests.len();
    app.answer_tests.cursor.step(0, len, usize::MAX / 2);
    app.status.message = Some(format!("deleted {} (u to undo)", test.id));
    vec![Effect::SaveTests(Box::new(app.ws.tests.clone()))]
}
