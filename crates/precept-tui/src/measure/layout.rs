//! Where each pane goes, as pure functions of the terminal size, shared by
//! `render` (to draw) and `update` (to scroll and to map mouse clicks).

use crate::state::app::Screen;
use ratatui::layout::{Constraint, Direction, Layout, Rect};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Areas {
    pub tabs: Rect,
    pub status: Rect,
    /// Rules screen: the document; Variables/Tests: unused.
    pub document: Rect,
    /// The main list: rules, variables or tests.
    pub list: Rect,
    pub detail: Rect,
    /// Verify screen: the premise and claim inputs.
    pub inputs: Rect,
    /// Vetting screen: rule coverage and mutation score.
    pub coverage: Rect,
    /// Formalize screen: the clusters of unit variables.
    pub clusters: Rect,
    /// Tests screen: the natural-language tests.
    pub nl_tests: Rect,
}

pub fn areas(screen: Screen, size: (u16, u16)) -> Areas {
    let whole = Rect::new(0, 0, size.0, size.1);
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Length(1),
            Constraint::Min(3),
            Constraint::Length(1),
        ])
        .split(whole);
    let (tabs, body, status) = (rows[0], rows[1], rows[2]);
    let mut areas = Areas {
        tabs,
        status,
        ..Areas::default()
    };
    match screen {
        Screen::Rules => {
            let columns = Layout::default()
                .direction(Direction::Horizontal)
                .constraints([Constraint::Percentage(42), Constraint::Percentage(58)])
                .split(body);
            areas.document = columns[0];
            let right = Layout::default()
                .direction(Direction::Vertical)
                .constraints([Constraint::Percentage(40), Constraint::Percentage(60)])
                .split(columns[1]);
            areas.list = right[0];
            areas.detail = right[1];
        }
        Screen::Vetting => {
            let columns = Layout::default()
                .direction(Direction::Horizontal)
                .constraints([Constraint::Percentage(40), Constraint::Percentage(60)])
                .split(body);
            areas.list = columns[0];
            let right = Layout::default()
                .direction(Direction::Vertical)
                .constraints([Constraint::Percentage(55), Constraint::Percentage(45)])
                .split(columns[1]);
            areas.detail = right[0];
            areas.coverage = right[1];
        }
        Screen::Formalize => {
            let columns = Layout::default()
                .direction(Direction::Horizontal)
                .constraints([Constraint::Percentage(45), Constraint::Percentage(55)])
                .split(body);
            areas.list = columns[0];
            let right = Layout::default()
                .direction(Direction::Vertical)
                .constraints([Constraint::Percentage(60), Constraint::Percentage(40)])
                .split(columns[1]);
            areas.clusters = right[0];
            areas.detail = right[1];
        }
        Screen::Probe => {
            let columns = Layout::default()
                .direction(Direction::Horizontal)
                .constraints([Constraint::Percentage(45), Constraint::Percentage(55)])
                .split(body);
            areas.list = columns[0];
            areas.detail = columns[1];
        }
        Screen::Variables => {
            let columns = Layout::default()
                .direction(Direction::Horizontal)
                .constraints([Constraint::Percentage(40), Constraint::Percentage(60)])
                .split(body);
            areas.list = columns[0];
            areas.detail = columns[1];
        }
        Screen::Tests => {
            let columns = Layout::default()
                .direction(Direction::Horizontal)
                .constraints([Constraint::Percentage(40), Constraint::Percentage(60)])
                .split(body);
            let left = Layout::default()
                .direction(Direction::Vertical)
                .constraints([Constraint::Percentage(70), Constraint::Percentage(30)])
                .split(columns[0]);
            areas.list = left[0];
            areas.nl_tests = left[1];
            areas.detail = columns[1];
        }
        Screen::Verify => {
            let parts = Layout::default()
                .direction(Direction::Vertical)
                .constraints([Constraint::Length(6), Constraint::Min(3)])
                .split(body);
            areas.inputs = parts[0];
            areas.detail = parts[1];
        }
    }
    areas
}

/// Rows inside a bordered pane.
pub fn inner_height(area: Rect) -> usize {
    area.height.saturating_sub(2) as usize
}

/// The centered rectangle for an overlay.
pub fn overlay(size: (u16, u16), width_percent: u16, height: u16) -> Rect {
    let width = (size.0 as u32 * width_percent as u32 / 100)
        .max(20)
        .min(size.0 as u32) as u16;
    let height = height.min(size.1.saturating_sub(2)).max(3);
    Rect::new(
        (size.0.saturating_sub(width)) / 2,
        (size.1.saturating_sub(height)) / 2,
        width,
        height,
    )
}

/// The help overlay's rectangle.
pub fn help_area(size: (u16, u16)) -> Rect {
    overlay(size, 80, 40)
}

/// How many key bindings the help overlay shows at once: its inner rows less
/// the footer that names the keys.
pub fn help_rows(size: (u16, u16)) -> usize {
    inner_height(help_area(size)).saturating_sub(1).max(1)
}
