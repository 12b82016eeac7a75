//! What the workbench draws: snapshots of each screen and overlay at 80×24
//! and 120×40 on the park-admission sample with real, settled results, and
//! assertions against the drawn buffer for what users look for.

#[path = "../support/mod.rs"]
mod support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use precept::compose::record::FormalizationRecord;
use precept::model::Project;
use precept::model::drafts::Drafts;
use precept::tui::effects::runtime::Runtime;
use precept::tui::input::keymap::Keymap;
use precept::tui::measure::layout::areas;
use precept::tui::state::app::{App, Overlay, Screen};
use precept::tui::state::msg::{Effect, Msg};
use precept::tui::style::theme::Theme;
use precept::tui::update::{start_full_run, update};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::fs;
use std::time::{Duration, Instant};
use support::sample;

const SIZES: [(u16, u16); 2] = [(80, 24), (120, 40)];
const PREMISE: &str = "(and (= ageClass SENIOR) isLowSeason (= totalAdmissionFund 35.4))";
const CLAIM: &str = "(not isEntryAllowed)";

struct Bench {
    _dir: tempfile::TempDir,
    app: App,
    runtime: Runtime,
}

impl Bench {
    /// The park sample at `size`, opened as the workbench opens it: the model
    /// loaded and every test run to completion.
    fn open(size: (u16, u16)) -> Bench {
        Bench::open_copy(&sample("park-admission"), size, |_| {})
    }

    /// A scratch copy of the project in `from`, changed by `change` before
    /// it is opened (with its formalization record, as the workbench opens
    /// it), every test run to completion.
    fn open_copy(
        from: &std::path::Path,
        size: (u16, u16),
        change: impl Fn(&std::path::Path),
    ) -> Bench {
        let dir = tempfile::tempdir().unwrap();
        for entry in fs::read_dir(from).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                fs::copy(&path, dir.path().join(path.file_name().unwrap())).unwrap();
            }
        }
        change(dir.path());
        let mut app = App::new(
            Project::load_unchecked(dir.path()).unwrap(),
            Drafts::default(),
            Keymap::default(),
            Theme::built_in("dark").unwrap(),
            size,
        );
        app.formalization.record = FormalizationRecord::load(dir.path()).unwrap();
        let runtime = Runtime::new(dir.path().to_path_buf(), None, Duration::from_secs(5));
        let effects = vec![
            Effect::LoadSolver(Box::new(app.ws.compiled.clone())),
            start_full_run(&mut app),
        ];
        let mut bench = Bench {
            _dir: dir,
            app,
            runtime,
        };
        bench.settle(effects);
        bench
    }

    /// Carries out effects and feeds the results back until nothing is running.
    fn settle(&mut self, mut effects: Vec<Effect>) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let mut messages = Vec::new();
            for effect in effects.drain(..) {
                messages.extend(self.runtime.execute(effect));
            }
            messages.extend(self.runtime.poll());
            for message in messages {
                effects.extend(update(&mut self.app, message));
            }
            if !effects.is_empty() {
                continue;
            }
            if self.app.ws.run.pending == 0
                && !self.app.verify.running
                && !self.runtime.has_pending()
            {
                break;
            }
            assert!(Instant::now() < deadline, "the solver did not finish");
            for message in self.runtime.wait(Duration::from_millis(200)) {
                effects.extend(update(&mut self.app, message));
            }
        }
        // Nothing may be drawn mid-run: no spinner, no "running" state.
        assert_eq!(self.app.ws.run.pending, 0);
        assert_eq!(self.app.status.job, None);
        assert_eq!(self.app.tick, 0);
    }

    fn key(&mut self, code: KeyCode, modifiers: KeyModifiers) {
        let effects = update(&mut self.app, Msg::Key(KeyEvent::new(code, modifiers)));
        self.settle(effects);
    }

    fn press(&mut self, c: char) {
        self.key(KeyCode::Char(c), KeyModifiers::NONE);
    }

    fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            self.press(c);
        }
    }

    fn buffer(&self) -> Buffer {
        let (width, height) = self.app.size;
        let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
        terminal
            .draw(|frame| precept::tui::view::render(&self.app, frame))
            .unwrap();
        terminal.backend().buffer().clone()
    }

    fn screen_text(&self) -> String {
        text(&self.buffer(), self.buffer().area)
    }
}

/// The rows of `area` in `buffer` as text (wide symbols take their cells).
fn rows(buffer: &Buffer, area: Rect) -> Vec<String> {
    (area.y..area.y + area.height)
        .map(|y| {
            let mut row = String::new();
            let mut skip = 0usize;
            for x in area.x..area.x + area.width {
                let cell = &buffer[(x, y)];
                if skip == 0 {
                    row.push_str(cell.symbol());
                }
                skip = skip.max(cell.symbol().chars().count().max(1)) - 1;
            }
            row.trim_end().to_string()
        })
        .collect()
}

/// The inside of the Tests screen's detail pane (within its border).
fn tests_detail_inside(size: (u16, u16)) -> Rect {
    let detail = areas(Screen::Tests, size).detail;
    Rect::new(
        detail.x + 1,
        detail.y + 1,
        detail.width - 2,
        detail.height - 2,
    )
}

fn text(buffer: &Buffer, area: Rect) -> String {
    rows(buffer, area).join("\n")
}

fn name(screen: &str, (width, height): (u16, u16)) -> String {
    format!("{screen}_{width}x{height}")
}

mod buffers;
mod document;
mod explain;
mod fitting;
mod lifecycle;
mod screens;
mod stale;
