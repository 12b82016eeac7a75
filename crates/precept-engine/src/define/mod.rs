//! The definition pass: after composition and consolidation, each decision
//! (a derived variable) that several rules decide apart gets one
//! definition (`model/definition.rs`), proposed from the rules' shapes
//! (`model/definition_shapes.rs`) and refined by the LLM (`request.rs`),
//! then checked by the solver before anyone sees it (`check.rs`).

pub mod check;
pub mod pass;
pub mod request;
pub mod restated_values;

use crate::model::definition_shapes::shaped_definitions;
use crate::model::{Definition, ModelEdit, PolicyModel};
use serde::Serialize;

/// Where a proposal comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// The rules' shapes alone (`--no-llm`).
    Shapes,
    /// The LLM's reading of the rules and their sentences.
    Llm,
    /// A Boolean that names an enum value (`restated_values.rs`): proposed
    /// to the expert, never applied unasked.
    RestatedValue,
}

/// One definition proposed for one variable, in place of the rules it
/// replaces.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DefinitionProposal {
    /// The id the definition gets (`D1`); `--apply` names it.
    pub id: String,
    pub variable: String,
    pub origin: Origin,
    pub definition: Definition,
    pub replaces: Vec<String>,
}

impl DefinitionProposal {
    /// The edit that applies it.
    pub fn edit(&self) -> ModelEdit {
        ModelEdit::Define {
            definition: self.definition.clone(),
            replaces: self.replaces.clone(),
        }
    }
}

/// The proposals the rules' shapes give, one per decision.
pub fn shape_proposals(model: &PolicyModel) -> Vec<DefinitionProposal> {
    shaped_definitions(model)
        .into_iter()
        .map(|shaped| DefinitionProposal {
            id: shaped.definition.id.clone(),
            variable: shaped.definition.variable.clone(),
            origin: Origin::Shapes,
            definition: shaped.definition,
            replaces: shaped.replaces,
        })
        .collect()
}
