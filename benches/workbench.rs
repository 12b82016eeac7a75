//! Workbench benchmark on both bench models (`support/bench_models.rs`): a
//! synthetic 1,500-rule / 1,000-test model in 20 independent sections (as
//! a long policy document has), then the dense 1,500-rule model with 300
//! tests, nearly all of its rules in one group. Measures
//! - the time to draw one frame (TestBackend, 120×40) on each screen;
//! - the time from applying a one-rule edit to updated results, when the
//!   edit touches one section (about 5% of the tests; of those, the ones
//!   whose evidence the edit left standing keep their findings, and the
//!   rest are asked again, over every worker), and for a full rerun, with 1
//!   and with 2 solver workers.
//!
//! - the time from a one-rule edit to a current vetting pane (the lint
//!   after the edit: only the edited group of rules is checked again).
//!
//! Targets: render ≤ 16 ms a frame; full test run ≤ 1.2 s; affected rerun
//! ≥ 25× faster than full; lint after a one-rule edit ≤ 200 ms (sectioned)
//! and ≤ 1 s (dense).
//!
//! Run: cargo bench --bench workbench (`PRECEPT_BENCH_JOBS=2` measures only
//! 2 workers; `PRECEPT_BENCH_ONLY_RERUNS=1` leaves out the startup and
//! render figures; `PRECEPT_BENCH_ONLY_LINT=1` leaves out the test reruns
//! too; `PRECEPT_BENCH_MODEL=sectioned` or `=dense` only that model)

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use precept::model::drafts::Drafts;
use precept::model::{Project, Settings};
use precept::tui::effects::runtime::Runtime;
use precept::tui::input::editor::{EditTarget, Editor};
use precept::tui::input::keymap::Keymap;
use precept::tui::state::app::{App, Overlay, Screen};
use precept::tui::state::msg::{Effect, Msg};
use precept::tui::style::theme::Theme;
use precept::tui::update::update;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::time::{Duration, Instant};

#[path = "support/bench_models.rs"]
mod bench_models;
#[path = "support/dense_model.rs"]
mod dense_model;
#[path = "support/scale_model.rs"]
#[allow(unused_imports)]
mod scale_model;
#[path = "support/synthetic.rs"]
mod synthetic;
#[path = "support/usage.rs"]
mod usage;
use bench_models::Shape;
use synthetic::{RULES_PER_SECTION, SECTIONS};

fn key(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

/// Feeds effects to the runtime and its messages back to `update` until
/// the run, and whatever else the runtime has pending, is over.
fn settle(app: &mut App, runtime: &mut Runtime, effects: Vec<Effect>) {
    settle_until(app, runtime, effects, |app, runtime| {
        app.ws.run.pending == 0 && !runtime.has_pending()
    });
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// Opening a sample up to its first frame: load the project, build the app,
/// draw (the solver starts after the first frame).
fn startup_to_first_frame() {
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("samples/park-admission");
    let mut samples = Vec::new();
    for _ in 0..20 {
        let start = Instant::now();
        let project = Project::load_unchecked(&sample).expect("sample");
        let drafts = Drafts::load(&sample).expect("drafts");
        let app = App::new(
            project,
            drafts,
            Keymap::default(),
            Theme::built_in("dark").expect("theme"),
            (120, 40),
        );
        let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
        terminal
            .draw(|frame| precept::tui::view::render(&app, frame))
            .expect("draw");
        samples.push(start.elapsed());
    }
    let m = median(samples);
    println!(
        "startup to first frame (park sample): median {:.1} ms  target < 500 ms  {}",
        m.as_secs_f64() * 1e3,
        if m < Duration::from_millis(500) {
            "PASS"
        } else {
            "MISS"
        }
    );
}

/// The numbers of solver workers to measure: `PRECEPT_BENCH_JOBS` (such as
/// `2` or `1,2`), 1 and 2 by default.
fn worker_counts() -> Vec<usize> {
    std::env::var("PRECEPT_BENCH_JOBS")
        .ok()
        .map(|text| {
            text.split(',')
                .filter_map(|n| n.trim().parse().ok())
                .collect()
        })
        .unwrap_or_else(|| vec![1, 2])
}

fn main() {
    let only_reruns = std::env::var_os("PRECEPT_BENCH_ONLY_RERUNS").is_some();
    if !only_reruns {
        startup_to_first_frame();
    }
    for shape in bench_models::chosen() {
        for jobs in worker_counts() {
            workbench(shape, jobs, only_reruns);
        }
    }
}

/// The figures of one model on `jobs` solver workers.
fn workbench(shape: Shape, jobs: usize, only_reruns: bool) {
    let (model, tests) = bench_models::with_tests(shape);
    let dir = tempfile::tempdir().expect("temp dir");
    let project = Project::create(dir.path(), model, tests, Settings::default()).expect("project");
    let mut app = App::new(
        project,
        Drafts::default(),
        Keymap::default(),
        Theme::built_in("dark").expect("theme"),
        (120, 40),
    );
    let mut runtime =
        Runtime::with_solver_jobs(dir.path().to_path_buf(), None, Duration::from_secs(5), jobs);
    println!(
        "== {} model, {jobs} solver worker(s): {} rules, {} variables, {} tests; the largest group of rules has {} rules",
        shape.name(),
        app.ws.model.rules.len(),
        app.ws.model.variables.len(),
        app.ws.tests.tests.len(),
        app.ws
            .graph
            .groups()
            .iter()
            .map(Vec::len)
            .max()
            .unwrap_or(0)
    );
    let started = Instant::now();
    let first = vec![
        Effect::LoadSolver(Box::new(app.ws.compiled.clone())),
        precept::tui::update::start_full_run(&mut app),
    ];
    settle(&mut app, &mut runtime, first);
    let initial = started.elapsed();
    let (passed, failed, _) = app.counts();
    println!(
        "initial load and full run: {:.0} ms ({passed} passed, {failed} failed)",
        initial.as_secs_f64() * 1e3
    );
    if jobs == 1 && !only_reruns {
        render_figures(&mut app);
    }
    if std::env::var_os("PRECEPT_BENCH_ONLY_LINT").is_none() {
        rerun_figures(&mut app, &mut runtime, jobs, shape);
    }
    lint_after_edit_figures(&mut app, &mut runtime, jobs, shape);
}

/// The one-rule edit of `round`: on the sectioned model rule 20 (for the
/// lint) or 10 (for the tests) of a section, its added constant changed;
/// on the dense model a rule spread over the model, given one more
/// condition (a Bool of its own per round), which keeps the model
/// consistent.
fn one_rule_edit(app: &App, shape: Shape, round: usize, for_lint: bool) -> (usize, String) {
    match shape {
        Shape::Sectioned if for_lint => {
            let section = (round * 7 + 1) % SECTIONS;
            let text = format!(
                "(=> s{section}_eligible0 (>= s{section}_amount20 (+ s{section}_amount19 {}.0)))",
                1 + round % 4
            );
            (section * RULES_PER_SECTION + 20, text)
        }
        Shape::Sectioned => {
            let section = (round * 3) % SECTIONS;
            let text = format!(
                "(=> s{section}_eligible0 (>= s{section}_amount10 (+ s{section}_amount9 {}.0)))",
                2 + round % 5
            );
            (section * RULES_PER_SECTION + 10, text)
        }
        Shape::Dense => {
            let rules = app.ws.model.rules.len();
            let index = (round * 149 + if for_lint { 71 } else { 7 }) % rules;
            let (condition, conclusion) =
                bench_models::implication(&app.ws.model.rules[index].expression);
            let extra = format!("b{}", (round * 37 + 11) % dense_model::BOOLS);
            (
                index,
                format!("(=> (and {condition} {extra}) {conclusion})"),
            )
        }
    }
}

/// Rule `index` rewritten to `text` in the editor and saved (ctrl-s).
fn edit_rule(app: &mut App, index: usize, text: &str) -> Vec<Effect> {
    let id = app.ws.model.rules[index].id.clone();
    app.overlay = Some(Overlay::Editor(Box::new(Editor::new(
        EditTarget::Rule { id, is_new: false },
        text,
    ))));
    update(
        app,
        Msg::Key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
    )
}

/// Feeds effects and messages until `done` holds.
fn settle_until(
    app: &mut App,
    runtime: &mut Runtime,
    effects: Vec<Effect>,
    done: impl Fn(&App, &Runtime) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(600);
    let mut queue: std::collections::VecDeque<Effect> = effects.into();
    loop {
        while let Some(effect) = queue.pop_front() {
            for message in runtime.execute(effect) {
                queue.extend(update(app, message));
            }
        }
        if done(app, runtime) {
            return;
        }
        // Lint events are polled for, as the workbench's loop does.
        let mut messages = runtime.poll();
        if messages.is_empty() {
            messages = runtime.wait(Duration::from_millis(1));
        }
        for message in messages {
            queue.extend(update(app, message));
        }
        assert!(Instant::now() < deadline, "the run did not finish");
    }
}

/// A full lint on the vetting screen, then one-rule edits (ten; three on a
/// model with a large group of rules), each timed from the edit to a
/// vetting pane whose lint is current again.
fn lint_after_edit_figures(app: &mut App, runtime: &mut Runtime, jobs: usize, shape: Shape) {
    let current =
        |app: &App, _: &Runtime| !app.lint.running && app.lint.basis.stale_since().is_none();
    let start = Instant::now();
    let effects = update(app, key(KeyCode::Char('5')));
    settle_until(app, runtime, effects, current);
    let full = start.elapsed();
    let (mut times, mut updates) = (Vec::new(), Vec::new());
    let largest = app.ws.graph.groups().iter().map(Vec::len).max();
    let large = largest.unwrap_or(0) > precept::tui::update::RELINT_AT_ONCE_RULES;
    // Once a lint has finished, every edit is linted again at once.
    let on_request = large && !app.lint.finished_once;
    for round in 0..if large { 3 } else { 10 } {
        let (index, text) = one_rule_edit(app, shape, round, true);
        let start = Instant::now();
        let mut effects = edit_rule(app, index, &text);
        updates.push(start.elapsed());
        if on_request {
            effects.extend(update(app, key(KeyCode::Char('L'))));
        }
        settle_until(app, runtime, effects, current);
        times.push(start.elapsed());
        // The tests the edit reran finish before the next edit.
        settle(app, runtime, Vec::new());
    }
    let after_edit = median(times);
    let target = match shape {
        Shape::Sectioned => Duration::from_millis(200),
        Shape::Dense => Duration::from_secs(1),
    };
    println!(
        "{jobs} worker(s): full lint on the vetting screen {:.0} ms; edit → current vetting pane{}: median {:.1} ms (the workbench's update, with the syntactic checks, {:.1} ms of it)  target ≤ {} ms  {}",
        full.as_secs_f64() * 1e3,
        if on_request {
            " (its lint asked for with L)"
        } else {
            ""
        },
        after_edit.as_secs_f64() * 1e3,
        median(updates).as_secs_f64() * 1e3,
        target.as_millis(),
        if after_edit <= target { "PASS" } else { "MISS" }
    );
}

/// Frame render time on each screen, mid-list.
fn render_figures(app: &mut App) {
    let mut terminal = Terminal::new(TestBackend::new(120, 40)).expect("terminal");
    for (screen, digit) in [
        (Screen::Rules, '1'),
        (Screen::Variables, '2'),
        (Screen::Tests, '3'),
    ] {
        update(app, key(KeyCode::Char(digit)));
        for _ in 0..700 {
            update(app, key(KeyCode::Char('j')));
        }
        let mut samples = Vec::new();
        for _ in 0..100 {
            let start = Instant::now();
            terminal
                .draw(|frame| precept::tui::view::render(app, frame))
                .expect("draw");
            samples.push(start.elapsed());
        }
        let worst = samples.iter().max().copied().unwrap_or_default();
        let m = median(samples);
        println!(
            "render {:<9} median {:>6.2} ms  worst {:>6.2} ms  target ≤ 16 ms  {}",
            screen.title(),
            m.as_secs_f64() * 1e3,
            worst.as_secs_f64() * 1e3,
            if m <= Duration::from_millis(16) {
                "PASS"
            } else {
                "MISS"
            }
        );
    }
}

/// A one-rule edit in one section (only that section's tests rerun), and
/// the full rerun, on `jobs` solver workers.
fn rerun_figures(app: &mut App, runtime: &mut Runtime, jobs: usize, shape: Shape) {
    let mut affected_times = Vec::new();
    let mut update_times = Vec::new();
    let mut affected_counts = Vec::new();
    let mut kept_counts = Vec::new();
    // Ten edits. On the sectioned model each is in a section of its own:
    // of each five, two weaken or restate the rule (2.0 and 3.0 for its
    // 3.0) and three strengthen it.
    for round in 0..10 {
        let (index, text) = one_rule_edit(app, shape, round, false);
        let start = Instant::now();
        let effects = edit_rule(app, index, &text);
        update_times.push(start.elapsed());
        affected_counts.push(app.ws.run.run_size);
        kept_counts.push(app.ws.run.run_kept);
        settle(app, runtime, effects);
        affected_times.push(start.elapsed());
    }
    let affected = median(affected_times);
    let updating = median(update_times);

    let mut full_times = Vec::new();
    for _ in 0..3 {
        let start = Instant::now();
        let effects = update(app, key(KeyCode::Char('r')));
        settle(app, runtime, effects);
        full_times.push(start.elapsed());
    }
    let full = median(full_times);
    let ratio = full.as_secs_f64() / affected.as_secs_f64().max(1e-9);
    println!(
        "{jobs} worker(s): edit → results, tests asked again {:?} and kept by their evidence {:?} of {}: median {:>7.1} ms (the workbench's update {:.1} ms of it)",
        affected_counts,
        kept_counts,
        app.ws.tests.tests.len(),
        affected.as_secs_f64() * 1e3,
        updating.as_secs_f64() * 1e3
    );
    println!(
        "{jobs} worker(s): full test run ({} tests): median {:>7.1} ms  target ≤ 1,200 ms  {}",
        app.ws.tests.tests.len(),
        full.as_secs_f64() * 1e3,
        if full <= Duration::from_millis(1200) {
            "PASS"
        } else {
            "MISS"
        }
    );
    println!(
        "{jobs} worker(s): rerun after a one-rule edit vs a full rerun: {ratio:.1}×  target ≥ 25×  {}; peak memory so far {:.0} MB",
        if ratio >= 25.0 { "PASS" } else { "MISS" },
        usage::peak_memory_mb()
    );
}
