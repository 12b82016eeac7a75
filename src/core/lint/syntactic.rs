//! Syntactic checks (no solver). Being written.

use super::Diagnostic;
use crate::core::model::{CompiledModel, PolicyModel};

/// All syntactic diagnostics of a model.
pub fn check(_model: &PolicyModel, _compiled: &CompiledModel) -> Vec<Diagnostic> {
    Vec::new()
}
