//! Test runs and verify questions: what to run, and what the results mean
//! (flips, stale results, the consistency check).

use crate::state::app::{App, FindingChange, Flip, Overlay, Pane, TestState};
use crate::state::msg::{Effect, TestJob};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use precept_engine::smt::Expr;
use precept_engine::solve::{Defaults, Reading};
use precept_engine::test_runner::{TestOutcome, check_test};
use precept_engine::workspace::Stamp;
use std::collections::HashSet;

/// Reruns every test.
pub fn start_full_run(app: &mut App) -> Effect {
    let ids: Vec<String> = app.ws.tests.tests.iter().map(|t| t.id.clone()).collect();
    start_run(app, &ids, false, false)
}

/// Starts run `generation + 1` over `ids`. A newer run replaces any older
/// one: the runtime cancels what is still queued, and results of older runs
/// are dropped when they arrive.
pub fn start_run(app: &mut App, ids: &[String], check_consistency: bool, partial: bool) -> Effect {
    let stamp = app.ws.stamp();
    app.ws.run.job = stamp.job;
    app.ws.run.flips.clear();
    // A run started while handling an edit, undo or redo is that change's rerun.
    app.ws.run.run_cause = (app.ws.history.changes() != app.seen_changes)
        .then(|| app.ws.history.last_change().map(str::to_string))
        .flatten();
    let asked: HashSet<&str> = ids.iter().map(String::as_str).collect();
    let mut jobs = Vec::new();
    for test in app
        .ws
        .tests
        .tests
        .iter()
        .filter(|t| asked.contains(t.id.as_str()))
    {
        jobs.push(TestJob {
            test: test.clone(),
            formulas: check_test(&app.ws.compiled, test),
            known: Default::default(),
        });
    }
    // Tests left over from an unfinished older run must not stay "running".
    for (id, state) in app.ws.run.results.iter_mut() {
        if *state == TestState::Running && !asked.contains(id.as_str()) {
            *state = TestState::NotRun;
        }
    }
    for job in &jobs {
        // A test still running from a replaced run keeps the result it had before that run.
        let previous = match app.ws.run.results.get(&job.test.id) {
            Some(TestState::Running) => app
                .ws
                .run
                .previous_pass
                .get(&job.test.id)
                .copied()
                .flatten(),
            other => other.and_then(TestState::passed),
        };
        app.ws
            .run
            .previous_pass
            .insert(job.test.id.clone(), previous);
        if let Some(TestState::Done(outcome)) = app.ws.run.results.get(&job.test.id)
            && let Some(kind) = outcome.actual()
        {
            app.ws
                .run
                .previous_finding
                .insert(job.test.id.clone(), kind);
        }
        app.ws
            .run
            .results
            .insert(job.test.id.clone(), TestState::Running);
    }
    app.ws.run.pending = jobs.len();
    app.ws.run.run_size = jobs.len();
    app.ws.run.run_kept = 0;
    app.ws.run.run_was_partial = partial;
    app.status.job = if jobs.is_empty() {
        None
    } else {
        Some(format!(
            "running {} test{}",
            jobs.len(),
            if jobs.len() == 1 { "" } else { "s" }
        ))
    };
    Effect::RunTests {
        stamp,
        jobs,
        check_consistency,
        shared_out: partial,
    }
}

pub fn test_finished(app: &mut App, stamp: Stamp, outcome: TestOutcome) -> Vec<Effect> {
    if stamp.job != app.ws.run.job {
        return Vec::new();
    }
    let id = outcome.id.clone();
    let now_passes = outcome.passed;
    if let Some(Some(before)) = app.ws.run.previous_pass.remove(&id)
        && before != now_passes
    {
        app.ws.run.flips.push(Flip {
            test_id: id.clone(),
            now_passes,
        });
    }
    if let (Some(from), Some(to)) = (app.ws.run.previous_finding.remove(&id), outcome.actual())
        && from != to
    {
        let edit = app
            .ws
            .run
            .run_cause
            .clone()
            .unwrap_or_else(|| "a rerun with no edit".into());
        app.ws
            .run
            .finding_changes
            .insert(id.clone(), FindingChange { edit, from, to });
    }
    app.ws
        .run
        .results
        .insert(id, TestState::Done(Box::new(outcome)));
    app.ws.run.pending = app.ws.run.pending.saturating_sub(1);
    if app.ws.run.pending == 0 {
        app.status.job = None;
        app.ws.run.previous_finding.clear();
        let mut message = app.standing();
        if app.ws.run.run_was_partial {
            message = format!("reran {} affected: {message}", app.ws.run.run_size);
        }
        if !app.ws.run.flips.is_empty() {
            message.push_str(&format!("; {}", flips_summary(&app.ws.run.flips)));
        }
        // Last, as the line is cut on a narrow terminal: said in full when
        // the rerun started.
        if app.ws.run.run_was_partial && app.ws.run.run_kept > 0 {
            message.push_str(&format!("; {} more kept", app.ws.run.run_kept));
        }
        if let Some(note) = app.ws.run.run_note.take() {
            message = format!("{note} · {message}");
        }
        app.status.message = Some(message);
    } else {
        app.status.job = Some(format!("running tests: {} to go", app.ws.run.pending));
    }
    Vec::new()
}

/// How the status line says that `kept` tests of an edit's cone kept
/// their findings because their evidence still holds.
pub fn kept_note(kept: usize) -> String {
    match kept {
        0 => String::new(),
        1 => " (1 more kept its finding: its evidence still holds)".into(),
        n => format!(" ({n} more kept their findings: their evidence still holds)"),
    }
}

/// The most flipped tests the status line names in each direction.
const FLIPS_NAMED: usize = 6;

/// The flips of a run, counted and named: "flipped: 1 passed→failed (T3),
/// 2 failed→passed (T7, T9) · J jumps to them".
pub fn flips_summary(flips: &[Flip]) -> String {
    let group = |now_passes: bool| {
        let ids: Vec<&str> = flips
            .iter()
            .filter(|f| f.now_passes == now_passes)
            .map(|f| f.test_id.as_str())
            .collect();
        if ids.is_empty() {
            return (0, String::new());
        }
        let mut named = ids
            .iter()
            .take(FLIPS_NAMED)
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        if ids.len() > FLIPS_NAMED {
            named.push_str(&format!(" and {} more", ids.len() - FLIPS_NAMED));
        }
        (ids.len(), format!(" ({named})"))
    };
    let (broke, broke_named) = group(false);
    let (fixed, fixed_named) = group(true);
    format!(
        "flipped: {broke} passed→failed{broke_named}, {fixed} failed→passed{fixed_named} · J jumps to them"
    )
}

/// The probe that accompanies a partial rerun: if the edit made the policy
/// inconsistent, every test may have changed, so all are rerun.
pub fn consistency_checked(app: &mut App, stamp: Stamp, consistent: bool) -> Vec<Effect> {
    if stamp.job != app.ws.run.job {
        return Vec::new();
    }
    if consistent {
        // Results proved while the rules contradicted each other are
        // IMPOSSIBLE for that reason alone: once an edit made the policy
        // consistent again, the tests the partial rerun left alone are
        // stale, so every test is asked again.
        let stale = app.ws.run.results.values().any(|state| {
            matches!(state, TestState::Done(outcome)
                if outcome.finding.as_ref().is_some_and(|f| f.policy_inconsistent == Some(true)))
        });
        if app.status.last_error.as_deref() == Some(POLICY_CONTRADICTS_ITSELF) {
            app.status.last_error = None;
        }
        if app.ws.run.run_was_partial && stale {
            return vec![full_run_keeping_flips(app)];
        }
        return Vec::new();
    }
    app.status.last_error = Some(POLICY_CONTRADICTS_ITSELF.into());
    if app.ws.run.run_was_partial {
        return vec![full_run_keeping_flips(app)];
    }
    Vec::new()
}

/// What the status line says while the rules contradict each other.
const POLICY_CONTRADICTS_ITSELF: &str =
    "the rules contradict each other: every question is IMPOSSIBLE until that is fixed";

/// Every test run again, the flips the partial rerun found so far kept.
fn full_run_keeping_flips(app: &mut App) -> Effect {
    let flips_so_far = std::mem::take(&mut app.ws.run.flips);
    let effect = start_full_run(app);
    app.ws.run.flips = flips_so_far;
    effect
}

/// Keys while typing in the verify inputs.
pub fn verify_input_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Esc => app.focus = Pane::VerifyResult,
        KeyCode::Tab | KeyCode::BackTab | KeyCode::Up | KeyCode::Down => {
            app.verify.field = 1 - app.verify.field
        }
        KeyCode::Enter => return run_verify(app),
        KeyCode::Char('s') if ctrl => match &app.verify.finding {
            Some(finding) if follows_from_premise(finding) && !warned(app) => {
                app.verify.warned_trivial = app.verify.asked.clone();
                app.status.last_error = Some(
                    "the claim follows from the premise alone, without any rule: are \
                         premise and claim the wrong way round? ctrl-s again saves it anyway"
                        .into(),
                );
            }
            Some(_) => app.overlay = Some(Overlay::ExpectPrompt),
            None => {
                app.status.message =
                    Some("ask the question first (enter), then save it as a test".into())
            }
        },
        // Clears the field.
        KeyCode::Char('u') if ctrl => {
            let field = if app.verify.field == 0 {
                &mut app.verify.premise
            } else {
                &mut app.verify.claim
            };
            field.move_cursor(ratatui_textarea::CursorMove::Bottom);
            field.move_cursor(ratatui_textarea::CursorMove::End);
            while field.delete_line_by_head() || field.delete_newline() {}
        }
        _ => {
            let field = if app.verify.field == 0 {
                &mut app.verify.premise
            } else {
                &mut app.verify.claim
            };
            field.input(key);
        }
    }
    Vec::new()
}

/// A VALID finding that no rule is needed for: the premise alone implies
/// the claim (a swap of premise and claim, or a tautology).
fn follows_from_premise(finding: &precept_engine::solve::Finding) -> bool {
    finding.kind == precept_engine::solve::FindingKind::Valid && finding.rules().is_empty()
}

/// Whether the question on screen was already warned about.
fn warned(app: &App) -> bool {
    app.verify.warned_trivial.is_some() && app.verify.warned_trivial == app.verify.asked
}

pub fn run_verify(app: &mut App) -> Vec<Effect> {
    let premise_text = non_empty(app.verify.premise.lines().join(" "), "true");
    let claim_text = app.verify.claim.lines().join(" ");
    let premise = match app.ws.compiled.check_formula(&premise_text) {
        Ok((_, formula)) => formula,
        Err(e) => {
            app.verify.error = Some(format!("premise: {e}"));
            return Vec::new();
        }
    };
    let claim = match app.ws.compiled.check_formula(&claim_text) {
        Ok((_, formula)) => formula,
        Err(e) => {
            app.verify.error = Some(format!("claim: {e}"));
            return Vec::new();
        }
    };
    app.verify.error = None;
    app.verify.job = precept_engine::workspace::JobId::next();
    app.verify.running = true;
    app.verify.asked = Some((premise_text, claim_text));
    app.verify.asked_on = app.ws.revision().model;
    app.verify.asked_again_after = None;
    app.status.job = Some("verifying".into());
    vec![verify_question(app, premise, claim)]
}

/// The verify panel's question as an effect, in the panel's reading: by
/// default, exceptions the premise does not mention are assumed absent
/// (the finding lists those it needs); `ctrl-l` switches to the strict
/// reading, where nothing is assumed.
pub(super) fn verify_question(app: &App, premise: Expr, claim: Expr) -> Effect {
    let reading = Reading::strict(app.verify.strict);
    let defaults = (reading == Reading::Default && !app.ws.compiled.exceptions.is_empty())
        .then(|| Defaults::with_graph(&app.ws.compiled, app.ws.graph.clone()))
        .filter(|d| !d.unmentioned(&premise, &claim, reading).is_empty())
        .map(|d| crate::state::msg::Assuming(std::sync::Arc::new(d)));
    Effect::Verify {
        stamp: Stamp {
            job: app.verify.job,
            revision: app.ws.revision(),
        },
        premise,
        claim,
        defaults,
    }
}

/// `ctrl-l` on the Verify screen: the default reading or the strict one;
/// the question on screen is asked again in the new reading.
pub fn toggle_reading(app: &mut App) -> Vec<Effect> {
    app.verify.strict = !app.verify.strict;
    app.status.message = Some(if app.verify.strict {
        "strict reading: nothing is assumed (ctrl-l: the default reading)".into()
    } else {
        "default reading: an exception the premise does not mention is assumed absent (ctrl-l: strict)"
            .into()
    });
    if app.verify.asked.is_some() {
        run_verify(app)
    } else {
        Vec::new()
    }
}

pub(super) fn non_empty(text: String, default: &str) -> String {
    if text.trim().is_empty() {
        default.to_string()
    } else {
        text
    }
}
