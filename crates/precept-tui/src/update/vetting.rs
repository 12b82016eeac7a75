//! The vetting screen: lint runs (syntactic checks at once, or beside the
//! solver checks after an edit; solver checks in the background with
//! progress) and one-keystroke fixes.

use crate::state::msg::Msg;
use crate::state::task::{Task, TaskContext};
use crossterm::event::{KeyCode, KeyEvent};
use precept_engine::workspace::Stamp;

use super::lint_rows::retriage;
use super::model_change::finish_declaration_edit;
use crate::state::app::{App, Screen, TestState};
use crate::state::app::{FixChoice, Overlay};
use crate::state::freshness::Basis;
use crate::state::msg::Effect;
use precept_engine::lint::{Fix, ModelEdit, syntactic};
use precept_engine::model::TestStatus;
use precept_engine::solve::FindingKind;
use precept_engine::solve::lint_checks::LintEvent;
use precept_engine::test_runner::flips::TestFlip;
use precept_engine::workspace::Reads;
use std::collections::HashMap;

/// Starts a lint run, replacing any older one.
pub fn start_lint(app: &mut App) -> Vec<Effect> {
    app.lint.cursor = Default::default();
    lint_run(app, true)
}

/// Lints again after an edit, keeping the cursor where it was, quietly:
/// the pane shows the progress and the status line keeps the edit's news.
pub fn relint(app: &mut App) -> Vec<Effect> {
    lint_run(app, false)
}

/// A lint run. The expert's own (`announce`) redoes the syntactic checks
/// at once; an edit's redoes them in the background while the solver
/// checks run (on a 1,500-rule model they take about 60 ms, as long as the
/// edited group's solver checks). Meanwhile the last model's are shown,
/// but none that names a rule the edits changed or removed.
fn lint_run(app: &mut App, announce: bool) -> Vec<Effect> {
    app.lint.announce = announce;
    let stamp = app.ws.stamp();
    app.lint.basis = Basis::new(stamp.revision, Reads::Model);
    app.lint.job = stamp.job;
    app.lint.running = true;
    app.lint.ran = true;
    app.lint.progress = None;
    app.lint.solver_finished = None;
    let mut effects = vec![Effect::Lint {
        stamp,
        model: Box::new(app.ws.compiled.clone()),
    }];
    match announce {
        true => {
            set_syntactic(app, syntactic::check(&app.ws.model, &app.ws.compiled));
            app.lint.syntactic_pending = false;
            app.status.job = Some("linting".into());
        }
        false => {
            let now: HashMap<&str, &str> = app
                .ws
                .model
                .rules
                .iter()
                .map(|r| (r.id.as_str(), r.expression.as_str()))
                .collect();
            let was = &app.lint.syntactic_of;
            let unchanged =
                |id: &String| was.get(id).map(String::as_str) == now.get(id.as_str()).copied();
            app.lint
                .diagnostics
                .retain(|d| !d.code.is_solver_backed() && d.rules.iter().all(unchanged));
            app.lint.syntactic_pending = true;
            let (model, compiled) = (app.ws.model.clone(), app.ws.compiled.clone());
            effects.push(Effect::Background(Task::new(
                "syntactic lint",
                stamp,
                move |_, send| {
                    send(Msg::SyntacticLint {
                        stamp,
                        diagnostics: syntactic::check(&model, &compiled),
                    })
                },
            )));
        }
    }
    retriage(app);
    effects
}

/// The syntactic checks of an edit's lint run, in place of the last
/// model's.
pub fn syntactic_found(
    app: &mut App,
    stamp: Stamp,
    diagnostics: Vec<precept_engine::lint::Diagnostic>,
) -> Vec<Effect> {
    if stamp.job != app.lint.job || !app.lint.syntactic_pending {
        return Vec::new();
    }
    app.lint.syntactic_pending = false;
    app.lint.diagnostics.retain(|d| d.code.is_solver_backed());
    app.lint.diagnostics.extend(diagnostics);
    app.lint.syntactic_of = expressions(&app.ws.model);
    app.lint.untriaged = true;
    match app.lint.solver_finished {
        Some(undecided) => finish(app, undecided),
        None => Vec::new(),
    }
}

/// The syntactic diagnostics of the model as it is now.
pub fn set_syntactic(app: &mut App, diagnostics: Vec<precept_engine::lint::Diagnostic>) {
    app.lint.diagnostics = diagnostics;
    app.lint.syntactic_of = expressions(&app.ws.model);
}

fn expressions(model: &precept_engine::model::PolicyModel) -> HashMap<String, String> {
    model
        .rules
        .iter()
        .map(|r| (r.id.clone(), r.expression.clone()))
        .collect()
}

pub fn lint_event(app: &mut App, stamp: Stamp, event: LintEvent) -> Vec<Effect> {
    if stamp.job != app.lint.job {
        return Vec::new();
    }
    match event {
        LintEvent::Progress { done, total, stage } => {
            app.lint.progress = Some((done, total, stage));
            if std::mem::take(&mut app.lint.untriaged) {
                app.lint.diagnostics.sort_by_key(|d| (d.severity, d.code));
                retriage(app);
            }
            if app.lint.announce {
                app.status.job = Some(format!("linting: {stage} {done}/{total}"));
            }
        }
        LintEvent::Found(diagnostic) => {
            app.lint.diagnostics.push(*diagnostic);
            app.lint.untriaged = true;
        }
        LintEvent::Finished { undecided, .. } => {
            app.lint.solver_finished = Some(undecided);
            app.lint.finished_once = true;
            if !app.lint.syntactic_pending {
                return finish(app, undecided);
            }
        }
    }
    Vec::new()
}

/// The run is over: its findings sorted and folded, and announced when the
/// expert asked for it.
fn finish(app: &mut App, undecided: usize) -> Vec<Effect> {
    app.lint.running = false;
    app.lint.untriaged = false;
    app.lint.progress = None;
    // As `precept lint` reports them: rules that repeat one
    // another are one finding.
    let mut found = std::mem::take(&mut app.lint.diagnostics);
    found.sort_by_key(|d| (d.severity, d.code));
    app.lint.diagnostics = precept_engine::lint::full::once_per_rule_set(found);
    retriage(app);
    if !app.lint.announce {
        return Vec::new();
    }
    app.status.job = None;
    let counts = precept_engine::lint::LintCounts::of(&app.lint.diagnostics);
    let mut message = format!("lint: {counts}");
    if undecided > 0 {
        message.push_str(&format!(", {undecided} checks not decided in time"));
    }
    if app.lint.triage.folded_notes > 0 {
        message.push_str(" (notes folded away: f shows them)");
    }
    app.status.message = Some(message);
    Vec::new()
}

/// `x`: applies the selected diagnostic's fix as an ordinary edit (undo
/// takes it back), then lints again. A diagnostic with several fixes (an
/// exception fix can go either way), or a row of several diagnostics,
/// opens a choice instead, each fix shown with the tests it would flip.
pub fn apply_fix(app: &mut App) -> Vec<Effect> {
    if app.screen != Screen::Vetting {
        return Vec::new();
    }
    let members = app.lint.selected_members();
    if members.is_empty() {
        return Vec::new();
    }
    let fixes: Vec<Fix> = members
        .iter()
        .flat_map(|d| d.fix.iter().chain(d.alternatives.iter()).cloned())
        .collect();
    let title = if members.len() == 1 {
        members[0].message.clone()
    } else {
        app.lint
            .selected_group()
            .map(|g| format!("{} {}", g.code.code(), g.subject))
            .unwrap_or_default()
    };
    match fixes.len() {
        0 => {
            app.status.message = Some("this diagnostic has no automatic fix".into());
            Vec::new()
        }
        1 => apply_chosen_fix(app, fixes.into_iter().next().expect("one fix")),
        _ => open_fix_choice(app, title, fixes),
    }
}

fn open_fix_choice(app: &mut App, title: String, fixes: Vec<Fix>) -> Vec<Effect> {
    let stamp = app.ws.stamp();
    let edited: Vec<_> = fixes
        .iter()
        .map(|fix| {
            let mut model = app.ws.model.clone();
            // A fix whose target is gone shows its error when chosen.
            let _ = fix.edit.apply(&mut model);
            model
        })
        .collect();
    app.overlay = Some(Overlay::FixChoice(Box::new(FixChoice {
        job: stamp.job,
        title,
        flips: vec![None; fixes.len()],
        fixes,
        selected: 0,
    })));
    vec![super::previews::preview(
        "PreviewFixes",
        stamp,
        app.ws.model.clone(),
        app.ws.tests.tests.clone(),
        edited,
        |stamp, index, flips| Msg::FixPreviewed {
            stamp,
            index,
            flips,
        },
    )]
}

/// The flips of one fix of the open choice have been worked out.
pub fn fix_previewed(
    app: &mut App,
    stamp: Stamp,
    index: usize,
    flips: Result<Vec<TestFlip>, crate::state::job_error::JobError>,
) -> Vec<Effect> {
    if let Some(Overlay::FixChoice(choice)) = &mut app.overlay
        && choice.job == stamp.job
        && let Some(slot) = choice.flips.get_mut(index)
    {
        *slot = Some(flips);
    }
    Vec::new()
}

/// Keys of the fix choice: ↑/↓ or a digit selects, enter applies, esc
/// closes without a change.
pub fn fix_choice_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    let Some(Overlay::FixChoice(choice)) = &mut app.overlay else {
        return Vec::new();
    };
    match key.code {
        KeyCode::Esc => {
            app.overlay = None;
            app.status.message = Some("no fix applied".into());
        }
        KeyCode::Up | KeyCode::Char('k') => choice.selected = choice.selected.saturating_sub(1),
        KeyCode::Down | KeyCode::Char('j') => {
            choice.selected = (choice.selected + 1).min(choice.fixes.len().saturating_sub(1))
        }
        KeyCode::Char(c) if c.is_ascii_digit() => {
            let n = c.to_digit(10).unwrap_or(0) as usize;
            if (1..=choice.fixes.len()).contains(&n) {
                choice.selected = n - 1;
            }
        }
        KeyCode::Enter => {
            let fix = choice.fixes[choice.selected].clone();
            app.overlay = None;
            return apply_chosen_fix(app, fix);
        }
        _ => {}
    }
    Vec::new()
}

fn apply_chosen_fix(app: &mut App, fix: Fix) -> Vec<Effect> {
    let before = app.snapshot();
    if let Err(error) = fix.edit.apply(&mut app.ws.model) {
        app.status.last_error = Some(format!("fix not applied: {error}"));
        return Vec::new();
    }
    if let ModelEdit::DeleteRule { id, .. } | ModelEdit::ReplaceRule { id, .. } = &fix.edit {
        app.ws.drafts.rules.remove(id);
    }
    let rewrites = super::approval::check_rewrites(app, &before.model);
    app.ws.history.record(fix.description.clone(), before);
    let mut effects =
        finish_declaration_edit(app, format!("fixed: {} (u to undo)", fix.description), true);
    effects.extend(relint(app));
    effects.extend(rewrites);
    effects
}

/// Starts measuring coverage and the mutation score, replacing an older run.
pub fn start_coverage(app: &mut App) -> Vec<Effect> {
    let stamp = app.ws.stamp();
    app.coverage.basis = Basis::new(stamp.revision, Reads::ModelAndTests);
    app.coverage.job = stamp.job;
    app.coverage.running = true;
    app.status.job = Some("measuring coverage and mutation score".into());
    let (model, tests) = (app.ws.compiled.clone(), app.ws.tests.tests.clone());
    vec![Effect::Background(Task::new(
        "Coverage",
        stamp,
        move |context, send| measure_coverage(context, stamp, &model, &tests, send),
    ))]
}

/// Rule coverage and the full mutation score on a scheduler of the task's
/// own, the mutation's progress (and time left) reported as it goes.
/// Equivalent mutants are taken from and kept in the project's cache.
fn measure_coverage(
    context: &TaskContext,
    stamp: Stamp,
    model: &precept_engine::model::CompiledModel,
    tests: &[precept_engine::model::LogicTest],
    send: &(dyn Fn(Msg) + Sync),
) {
    use precept_engine::testgen::equivalence_cache::EquivalenceCache;
    use precept_engine::testgen::{coverage, mutation, mutation_pool};
    let scheduler = context.scheduler();
    if let Err(error) = scheduler.load(model) {
        send(Msg::IoFailed {
            error: format!("coverage: the model did not load into the solver: {error}"),
        });
        return;
    }
    let coverage = coverage::rule_coverage_pooled(scheduler.workers(), model, tests);
    let all = mutation::mutants(model);
    let generated = all.len();
    let cache = EquivalenceCache::of_project(&context.project_dir);
    let report = mutation_pool::mutation_score_cached(
        scheduler.workers(),
        model,
        tests,
        all,
        generated,
        &|p: mutation_pool::MutationProgress| {
            send(Msg::CoverageProgress {
                stamp,
                text: p.text(),
            })
        },
        &cache,
    );
    // Only a cache: a failed write costs a later run time, nothing else.
    let _ = cache.save();
    send(Msg::CoverageDone {
        stamp,
        coverage: Box::new(coverage),
        mutation: Box::new(report),
    });
}

/// Shows how far the mutation score of the current coverage run has come.
pub fn coverage_progress(app: &mut App, stamp: Stamp, text: String) -> Vec<Effect> {
    if stamp.job == app.coverage.job && app.coverage.running {
        app.status.job = Some(format!("mutation score: {text}"));
    }
    Vec::new()
}

pub fn coverage_done(
    app: &mut App,
    stamp: Stamp,
    coverage: precept_engine::testgen::coverage::CoverageReport,
    mutation: precept_engine::testgen::mutation::MutationReport,
) -> Vec<Effect> {
    if stamp.job != app.coverage.job {
        return Vec::new();
    }
    app.coverage.running = false;
    app.status.job = None;
    app.status.message = Some(format!(
        "coverage {} of rules both ways; mutation score {}",
        precept_engine::testgen::report_text::percent_text(coverage.totals.covered_percent),
        mutation.summary
    ));
    if let Some(edit) = app.coverage.basis.stale_since() {
        let message = app.status.message.take().unwrap_or_default();
        app.status.message = Some(format!(
            "{message} — measured on the model before {edit}: C to measure again"
        ));
    }
    app.coverage.coverage = Some(coverage);
    app.coverage.mutation = Some(mutation);
    Vec::new()
}

/// The most tests one generation run proposes.
pub const GENERATED_PER_RUN: usize = 50;

/// ctrl-g: generate tests on a solver of their own.
pub fn start_generation(app: &mut App) -> Vec<Effect> {
    let stamp = app.ws.stamp();
    app.generating.job = stamp.job;
    app.generating.running = true;
    app.status.job = Some("generating tests".into());
    let model = app.ws.compiled.clone();
    vec![Effect::Background(Task::new(
        "Generate",
        stamp,
        move |context, send| {
            use precept_engine::testgen::generate::generate_pooled;
            let scheduler = context.scheduler();
            send(match scheduler.load(&model) {
                Ok(()) => Msg::TestsGenerated {
                    stamp,
                    generated: generate_pooled(scheduler.workers(), &model, GENERATED_PER_RUN, 0),
                },
                Err(error) => Msg::IoFailed {
                    error: format!(
                        "test generation: the model did not load into the solver: {error}"
                    ),
                },
            });
        },
    ))]
}

/// Adds the generated tests as proposed (skipping questions already in the
/// suite), saves them and runs them.
pub fn tests_generated(
    app: &mut App,
    stamp: Stamp,
    generated: Vec<precept_engine::testgen::generate::GeneratedTest>,
) -> Vec<Effect> {
    if stamp.job != app.generating.job {
        return Vec::new();
    }
    app.generating.running = false;
    app.status.job = None;
    let before = app.snapshot();
    let mut added = Vec::new();
    for test in &generated {
        let known = app
            .ws
            .tests
            .tests
            .iter()
            .any(|t| t.premise == test.premise && t.claim == test.claim);
        if known {
            continue;
        }
        let id = app.ws.tests.fresh_id();
        app.ws
            .tests
            .tests
            .push(precept_engine::testgen::generate::to_proposed(
                test,
                id.clone(),
            ));
        app.ws
            .run
            .results
            .insert(id.clone(), crate::state::app::TestState::NotRun);
        added.push(id);
    }
    if added.is_empty() {
        app.status.message =
            Some("no new tests: every generated question is already in the suite".into());
        return Vec::new();
    }
    app.ws
        .history
        .record(format!("propose {} generated tests", added.len()), before);
    app.status.message = Some(format!(
        "proposed {} generated tests: y accepts, R rejects",
        added.len()
    ));
    super::navigation::rescroll(app);
    let run = super::runs::start_run(app, &added, false, true);
    vec![Effect::SaveTests(Box::new(app.ws.tests.clone())), run]
}

/// y: the expert agrees with a generated test's proved finding.
pub fn accept_selected(app: &mut App) -> Vec<Effect> {
    let index = app.cursors.test.selected;
    let Some(test) = app.ws.tests.tests.get(index) else {
        return Vec::new();
    };
    if test.proved.is_none() {
        app.status.message = Some(format!(
            "{} was written by hand; accept applies to generated tests",
            test.id
        ));
        return Vec::new();
    }
    if test.proved == Some(FindingKind::Impossible) && test.status != TestStatus::Accepted {
        // Accepting locks a conflict in as expected behaviour: ask first.
        let rules = match app.ws.run.results.get(&test.id) {
            Some(TestState::Done(outcome)) => outcome
                .finding
                .as_ref()
                .filter(|f| f.kind == FindingKind::Impossible)
                .map(|f| f.contradicting_rules.clone())
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        let warning =
            precept_engine::testgen::generate::accept_impossible_warning(&test.id, &rules);
        app.overlay = Some(Overlay::ConfirmAcceptImpossible {
            test_index: index,
            warning,
        });
        return Vec::new();
    }
    accept_at(app, index)
}

/// The keys of the confirmation before accepting an IMPOSSIBLE test: y
/// accepts, any other key cancels.
pub fn confirm_accept_impossible_key(app: &mut App, key: KeyEvent) -> Vec<Effect> {
    let Some(Overlay::ConfirmAcceptImpossible { test_index, .. }) = app.overlay.take() else {
        return Vec::new();
    };
    if key.code == KeyCode::Char('y') {
        return accept_at(app, test_index);
    }
    app.status.message = Some("not accepted".into());
    Vec::new()
}

/// Accepts the generated test at `index`: a regression test expecting its
/// proved finding.
fn accept_at(app: &mut App, index: usize) -> Vec<Effect> {
    if index >= app.ws.tests.tests.len() {
        return Vec::new();
    }
    let before = app.snapshot();
    let test = &mut app.ws.tests.tests[index];
    precept_engine::testgen::generate::accept(test);
    let id = test.id.clone();
    app.ws.history.record(format!("accept {id}"), before);
    app.status.message = Some(format!("{id} accepted: it is now a regression test"));
    let run = super::runs::start_run(app, std::slice::from_ref(&id), false, true);
    vec![Effect::SaveTests(Box::new(app.ws.tests.clone())), run]
}

/// R: the expert expected another finding; the prompt asks which.
pub fn ask_rejection(app: &mut App) {
    let index = app.cursors.test.selected;
    match app.ws.tests.tests.get(index) {
        Some(test) if test.proved.is_some() => {
            app.overlay = Some(crate::state::app::Overlay::RejectPrompt { test_index: index })
        }
        Some(test) => {
            app.status.message = Some(format!(
                "{} was written by hand; edit its expected finding with e",
                test.id
            ))
        }
        None => {}
    }
}

pub fn reject_with(
    app: &mut App,
    index: usize,
    expected: precept_engine::solve::FindingKind,
) -> Vec<Effect> {
    let before = app.snapshot();
    let Some(test) = app.ws.tests.tests.get_mut(index) else {
        return Vec::new();
    };
    if let Err(error) = precept_engine::testgen::generate::reject(test, expected) {
        app.status.last_error = Some(error.to_string());
        return Vec::new();
    }
    let id = test.id.clone();
    app.ws.history.record(format!("reject {id}"), before);
    app.status.message = Some(format!(
        "{id} rejected: expecting {expected}, it fails until the rules are repaired"
    ));
    let run = super::runs::start_run(app, std::slice::from_ref(&id), false, true);
    vec![Effect::SaveTests(Box::new(app.ws.tests.clone())), run]
}
