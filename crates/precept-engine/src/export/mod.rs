//! Exports of a vetted model.

pub mod json;
pub mod smtlib;
pub mod verify_json;

pub use json::to_json;
pub use smtlib::to_smtlib;

use crate::model::{CompiledModel, PolicyModel};

/// The formats a model exports to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    SmtLib,
    Json,
}

impl ExportFormat {
    pub const ALL: [ExportFormat; 2] = [ExportFormat::SmtLib, ExportFormat::Json];

    /// The format's name, as people write it.
    pub fn name(self) -> &'static str {
        match self {
            ExportFormat::SmtLib => "SMT-LIB",
            ExportFormat::Json => "JSON",
        }
    }

    /// The file an export is written to in the project folder (never the
    /// project's own `model.json`).
    pub fn file_name(self) -> &'static str {
        match self {
            ExportFormat::SmtLib => "model.smt2",
            ExportFormat::Json => "model.export.json",
        }
    }
}

/// The text of `model` in `format`: SMT-LIB 2.6, or pretty JSON ending in a
/// newline.
pub fn export_text(model: &PolicyModel, compiled: &CompiledModel, format: ExportFormat) -> String {
    match format {
        ExportFormat::SmtLib => to_smtlib(model, compiled),
        ExportFormat::Json => format!("{:#}\n", to_json(model, compiled)),
    }
}
