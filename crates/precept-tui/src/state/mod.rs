//! What the workbench holds: the application state (`app`), each screen's
//! and overlay's own state (`formalization`, `repair`, `name_prompt`,
//! `answer_tests`, …), messages and effects as plain data (`msg`), and the
//! read-only questions both update and view ask of the state (`queries`,
//! and `document_view` for the document pane, whose own state is in
//! `document_pane`).

pub mod answer_tests;
pub mod app;
pub mod consultant;
pub mod document_pane;
pub mod document_view;
pub mod examples;
pub mod formalization;
pub mod freshness;
pub mod job_error;
pub mod list_cursor;
pub mod msg;
pub mod name_prompt;
pub mod probe_screen;
pub mod queries;
pub mod repair;
pub mod screens;
pub mod task;
pub mod version_diff;
pub mod why;
