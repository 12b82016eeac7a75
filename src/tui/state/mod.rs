//! What the workbench holds: the application state (`app`), the overlays'
//! state (`assist`), messages and effects as plain data (`msg`), and the
//! read-only questions both update and view ask of the state (`queries`,
//! and `document_view` for the document pane, whose own state is in
//! `document_pane`).

pub mod app;
pub mod assist;
pub mod consultant;
pub mod document_pane;
pub mod document_view;
pub mod examples;
pub mod freshness;
pub mod list_cursor;
pub mod msg;
pub mod probe_screen;
pub mod queries;
pub mod screens;
pub mod version_diff;
pub mod why;
