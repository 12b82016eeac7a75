//! The policy model, its logic tests, and the project directory that holds them.

pub mod compile;
pub mod decision_table;
pub mod definition;
pub mod definition_shapes;
pub mod diagnostic;
pub mod drafts;
pub mod edit;
pub mod evaluate;
pub mod finding;
pub mod graph;
pub mod history;
pub mod import;
pub mod orientation;
pub mod policy;
pub mod project;
pub mod scenario_table;
pub mod settings;
pub mod test_suite;
pub mod verdict;

pub use compile::{
    CompiledException, CompiledModel, CompiledRule, ModelIssue, compile, recompile_rule,
};
pub use decision_table::{DecisionTable, HitPolicy, TableMembership};
pub use definition::{DefinitionError, PartKind};
pub use edit::{EditError, ModelEdit};
pub use policy::{
    Definition, DefinitionPart, EnumValue, PolicyModel, ReviewStatus, Rule, SCHEMA_VERSION,
    SourceSpan, TypeDef, Variable, natural_order,
};
pub use project::{Project, ProjectError};
pub use settings::Settings;
pub use test_suite::{AnswerTest, LogicTest, TestStatus, TestSuite};
