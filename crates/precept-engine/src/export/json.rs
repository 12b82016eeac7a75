//! JSON export: the model with ARC's field names, each rule with its
//! structured English, for tools that consume a vetted model.

use crate::model::{CompiledModel, PolicyModel};
use serde_json::{Value, json};

pub fn to_json(model: &PolicyModel, compiled: &CompiledModel) -> Value {
    let rules: Vec<Value> = model
        .rules
        .iter()
        .filter_map(|rule| {
            let compiled_rule = compiled.rule(&rule.id)?;
            Some(json!({
                "id": rule.id,
                "expression": rule.expression,
                "english": compiled.glossary.sentence(&compiled_rule.written),
                "review": rule.review,
                "source_span": rule.source_span,
            }))
        })
        .collect();
    json!({
        "schema_version": model.schema_version,
        "title": model.title,
        "types": model.types,
        "variables": model.variables,
        "rules": rules,
    })
}
