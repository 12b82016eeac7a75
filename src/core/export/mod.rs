//! Exports of a vetted model.

pub mod json;
pub mod smtlib;

pub use json::to_json;
pub use smtlib::to_smtlib;
