//! The workbench: a ratatui terminal UI over the engine, in the Elm style.
//! The folders, each using only the ones before it:
//! `style` (themes, highlighting) → `input` (keymap, editor) → `state`
//! (app, messages, queries) → `measure` (layout, text width) → `effects`
//! (solver worker, background jobs) → `update` (keys and messages; never
//! draws) → `view` (drawing; never updates). This file runs the loop.

pub mod effects;
pub mod error;
pub mod input;
pub mod measure;
pub mod state;
pub mod style;
pub mod update;
pub mod view;

pub use error::{Error, Result};

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use effects::runtime::Runtime;
use state::app::App;
use state::msg::{Effect, Msg};
use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const TICK: Duration = Duration::from_millis(100);

/// Opens the workbench on a project directory.
pub fn run(dir: &Path) -> ExitCode {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        eprintln!(
            "precept: the workbench needs a terminal (stdin and stdout are not a TTY). In scripts use the subcommands: precept --help"
        );
        return ExitCode::from(2);
    }
    let project = match precept_engine::model::Project::load_unchecked(dir) {
        Ok(project) => project,
        Err(error) => {
            eprintln!("precept: {error}");
            return ExitCode::from(2);
        }
    };
    // A broken drafts file is refused rather than overwritten: drafts are never lost.
    let drafts = match precept_engine::model::drafts::Drafts::load(dir) {
        Ok(drafts) => drafts,
        Err(error) => {
            eprintln!("precept: {error}");
            return ExitCode::from(2);
        }
    };
    let config = effects::config::UserConfig::load(effects::config::config_dir());
    let timeout = Duration::from_millis(project.settings.solver_timeout_ms);
    let jobs = project
        .settings
        .solver_jobs
        .unwrap_or_else(precept_engine::scheduler::Scheduler::default_jobs);
    let mut terminal = match ratatui::try_init() {
        Ok(terminal) => terminal,
        Err(error) => {
            eprintln!("precept: cannot open the terminal: {error}");
            return ExitCode::from(2);
        }
    };
    let previous_hook = std::panic::take_hook();
    let ui_thread = std::thread::current().id();
    std::panic::set_hook(Box::new(move |info| {
        // Background threads catch their own panics and report them as
        // findings; only a panic of the UI thread ends the session.
        if std::thread::current().id() != ui_thread {
            return;
        }
        let _ = crossterm::execute!(std::io::stdout(), DisableMouseCapture);
        ratatui::restore();
        previous_hook(info);
    }));
    let _ = crossterm::execute!(std::io::stdout(), EnableMouseCapture);
    let size = terminal
        .size()
        .map(|s| (s.width, s.height))
        .unwrap_or((80, 24));
    let mut app = App::new(project, drafts, config.keymap, config.theme, size);
    if let Some(problem) = config.problems.first() {
        app.status.last_error = Some(problem.clone());
    }
    // A broken record is reported, never overwritten behind the expert's back.
    match precept_engine::compose::record::FormalizationRecord::load(dir) {
        Ok(record) => app.formalization.record = record,
        Err(error) => app.status.last_error = Some(error.to_string()),
    }
    let mut runtime =
        Runtime::with_solver_jobs(app.ws.project_dir.clone(), config.dir, timeout, jobs);
    let result = event_loop(&mut terminal, &mut app, &mut runtime);
    let _ = crossterm::execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("precept: {error}");
            ExitCode::from(1)
        }
    }
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    runtime: &mut Runtime,
) -> std::io::Result<()> {
    // The first frame comes before any solver work.
    terminal.draw(|frame| view::render(app, frame))?;
    let mut effects = vec![
        Effect::LoadSolver(Box::new(app.ws.compiled.clone())),
        update::start_full_run(app),
    ];
    let mut last_tick = Instant::now();
    loop {
        let mut messages = Vec::new();
        for effect in effects.drain(..) {
            if effect == Effect::Quit {
                return Ok(());
            }
            messages.extend(runtime.execute(effect));
        }
        messages.extend(runtime.poll());
        for message in messages {
            effects.extend(update::update(app, message));
        }
        if !effects.is_empty() {
            continue;
        }
        terminal.draw(|frame| view::render(app, frame))?;
        let wait = TICK
            .saturating_sub(last_tick.elapsed())
            .min(if runtime.has_pending() {
                Duration::from_millis(20)
            } else {
                TICK
            });
        if event::poll(wait)? {
            let message = match event::read()? {
                Event::Key(key) => Some(Msg::Key(key)),
                Event::Mouse(mouse) => Some(Msg::Mouse(mouse)),
                Event::Resize(width, height) => Some(Msg::Resize(width, height)),
                _ => None,
            };
            if let Some(message) = message {
                effects.extend(update::update(app, message));
            }
        }
        if last_tick.elapsed() >= TICK {
            last_tick = Instant::now();
            effects.extend(update::update(app, Msg::Tick));
        }
    }
}
