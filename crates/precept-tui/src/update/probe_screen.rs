//! The Probe screen (7): pick the chatbot to test (j/k over the profiles
//! of `llm.toml`), `r` starts a run, esc stops it, `n`/`N` step through the
//! answers that were not right, and `a` saves the one shown as a
//! natural-language test, so the model keeps being checked against it.

use crate::state::app::{App, Pane};
use crate::state::freshness::Basis;
use crate::state::msg::Effect;
use crate::state::probe_screen::{ProbeScreen, WORKBENCH_QUESTIONS};
use precept_engine::model::AnswerTest;
use precept_engine::probe::run::ProbeEvent;
use precept_engine::solve::FindingKind;
use precept_engine::workspace::Reads;
use precept_engine::workspace::Stamp;

/// The profiles of `llm.toml` arrived: every one but the translator's.
pub fn targets(
    app: &mut App,
    names: Vec<String>,
    translator: Option<String>,
    error: Option<String>,
) {
    let probe = &mut app.probe;
    let chosen = probe.target().map(str::to_string);
    probe.profiles = names
        .into_iter()
        .filter(|n| Some(n) != translator.as_ref())
        .collect();
    probe.translator = translator;
    probe.profiles_error = error;
    probe.profile_cursor = chosen
        .and_then(|c| probe.profiles.iter().position(|p| *p == c))
        .unwrap_or(0);
}

/// `r`: tests the chosen chatbot.
pub fn start(app: &mut App) -> Vec<Effect> {
    if app.probe.running.is_some() {
        app.status.message = Some("a probe is running; esc stops it".into());
        return Vec::new();
    }
    let Some(target) = app.probe.target().map(str::to_string) else {
        app.status.last_error = Some(no_target(&app.probe));
        return Vec::new();
    };
    let probe = &mut app.probe;
    let stamp = app.ws.stamp();
    probe.job = stamp.job;
    probe.running = Some(probe.job);
    probe.planned = 0;
    probe.done = 0;
    probe.discarded = 0;
    probe.results.clear();
    probe.report = None;
    probe.error = None;
    probe.failure_cursor = 0;
    probe.basis = Basis::new(stamp.revision, Reads::Model);
    app.status.message = Some(format!("probing {target}: asking the questions…"));
    vec![Effect::StartProbe {
        stamp,
        target,
        questions: WORKBENCH_QUESTIONS,
        model: Box::new(app.ws.model.clone()),
        compiled: Box::new(app.ws.compiled.clone()),
        document: app.ws.document.clone(),
    }]
}

fn no_target(probe: &ProbeScreen) -> String {
    match (&probe.profiles_error, &probe.translator) {
        (Some(error), _) => format!("the profiles cannot be read: {error}"),
        (None, Some(translator)) => format!(
            "no chatbot to test: llm.toml has only the translator's profile ({translator}); add a \
             [[profile]] for the chatbot"
        ),
        (None, None) => "no chatbot to test: add a [[profile]] for it to llm.toml in the \
                         configuration folder"
            .into(),
    }
}

/// esc: stops the run after the questions in flight.
pub fn cancel(app: &mut App) -> Vec<Effect> {
    if app.probe.running.is_none() {
        return Vec::new();
    }
    app.status.message = Some("stopping the probe after the questions in flight…".into());
    vec![Effect::CancelProbe]
}

/// Progress of the run.
pub fn probed(app: &mut App, stamp: Stamp, event: ProbeEvent) {
    let probe = &mut app.probe;
    if probe.running != Some(stamp.job) {
        return;
    }
    match event {
        ProbeEvent::Planned { questions } => probe.planned = questions,
        ProbeEvent::Discarded { .. } => probe.discarded += 1,
        ProbeEvent::Answered {
            result,
            done,
            total,
        } => {
            probe.results.push(*result);
            probe.done = done;
            probe.planned = total;
        }
        ProbeEvent::Stopped { reason } => {
            app.status.message = Some(format!("the probe stops: {reason}"));
        }
    }
}

/// The run ended (or could not start).
pub fn finished(
    app: &mut App,
    stamp: Stamp,
    result: Result<
        Box<precept_engine::probe::report::ProbeReport>,
        crate::state::job_error::JobError,
    >,
) {
    if app.probe.running != Some(stamp.job) {
        return;
    }
    app.probe.running = None;
    match result {
        Ok(report) => {
            let failures = report.failures().len();
            app.status.message = Some(format!(
                "probe done: {} answers judged, {failures} not right{}",
                report.asked,
                if failures > 0 {
                    " (n steps through them)"
                } else {
                    ""
                }
            ));
            app.probe.report = Some(report);
            app.probe.failure_cursor = 0;
        }
        Err(error) => {
            app.status.last_error = Some(format!("the probe did not run: {error}"));
            app.probe.error = Some(error.to_string());
        }
    }
}

/// `n` / `N`: the next or previous answer that was not right.
pub fn step_failure(app: &mut App, direction: isize) {
    let count = app.probe.failures().len();
    if count == 0 {
        app.status.message = Some("no wrong answers to step through".into());
        return;
    }
    let at = app.probe.failure_cursor.min(count - 1) as isize;
    app.probe.failure_cursor = (at + direction).rem_euclid(count as isize) as usize;
    app.detail_scroll = 0;
    app.focus = Pane::ProbeFailure;
}

/// j / k on the run pane: the chatbot to test (not while a run goes on).
pub fn choose_target(app: &mut App, delta: isize) {
    let count = app.probe.profiles.len();
    if count == 0 || app.probe.running.is_some() {
        return;
    }
    let at = app.probe.profile_cursor.min(count - 1) as isize;
    app.probe.profile_cursor = (at + delta).clamp(0, count as isize - 1) as usize;
}

/// `a`: saves the failure shown as a natural-language test expecting the
/// finding its answer got, so a fixed chatbot or a changed model is
/// checked against it from now on.
pub fn save_failure(app: &mut App) -> Vec<Effect> {
    let Some(failure) = app.probe.selected_failure() else {
        app.status.message = Some("no wrong answer to save".into());
        return Vec::new();
    };
    let result = &app.probe.results()[failure.result];
    let (question, answer, finding, verdict) = match failure.follow_up {
        Some(f) => {
            let follow_up = &result.follow_ups[f];
            (
                follow_up.question.clone(),
                follow_up.answer.clone(),
                follow_up.finding.clone(),
                follow_up.verdict,
            )
        }
        None => (
            result.question.clone(),
            result.answer.clone(),
            result.finding.clone(),
            result.verdict,
        ),
    };
    let Some(expected) = finding_kind(&finding) else {
        app.status.last_error = Some(format!(
            "this answer has no finding to expect ({finding}); only answers the verifier \
             translated can become tests"
        ));
        return Vec::new();
    };
    let name = format!("probe {}: {verdict}", result.id);
    let note = format!(
        "from a chatbot probe; the proved answer: {}",
        result.expected
    );
    let before = app.snapshot();
    let id = app.ws.tests.fresh_nl_id();
    app.ws
        .history
        .record(format!("add natural-language test {id}"), before);
    let mut test = AnswerTest::new(id.clone(), question, answer, expected);
    test.name = name;
    test.note = note;
    app.ws.tests.nl_tests.push(test);
    app.status.message = Some(format!(
        "saved natural-language test {id}, expecting {expected} (the Answers pane of 3 runs it)"
    ));
    vec![Effect::SaveTests(Box::new(app.ws.tests.clone()))]
}

/// The finding named at the start of a result's finding text.
fn finding_kind(text: &str) -> Option<FindingKind> {
    let first = text.split_whitespace().next()?;
    [
        FindingKind::Valid,
        FindingKind::Invalid,
        FindingKind::Satisfiable,
        FindingKind::Impossible,
    ]
    .into_iter()
    .find(|kind| kind.name() == first.trim_end_matches([',', ':', ';']))
}
