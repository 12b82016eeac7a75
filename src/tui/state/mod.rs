//! What the workbench holds: the application state (`app`), the overlays'
//! state (`assist`), messages and effects as plain data (`msg`), and the
//! read-only questions both update and view ask of the state (`queries`).

pub mod app;
pub mod assist;
pub mod examples;
pub mod freshness;
pub mod list_cursor;
pub mod msg;
pub mod queries;
