//! The fixed JSON of explanations and chains (`precept explain --json`,
//! `precept verify --explain --json`, and the service's `/v1/explain`):
//! scripts rely on its fields, so every front end builds it here.

use super::describe::step_source;
use super::{Chain, Explanation};
use crate::model::finding::Value;
use serde_json::{Value as Json, json};

fn value_json(value: &Value) -> Json {
    serde_json::to_value(value).unwrap_or(Json::Null)
}

fn values_json(list: &[(String, Value)]) -> Json {
    Json::Array(
        list.iter()
            .map(|(variable, value)| json!({"variable": variable, "value": value_json(value)}))
            .collect(),
    )
}

/// A chain's steps as JSON: `[{rules, uses, derives, source}]`.
pub fn chain_json(chain: Option<&Chain>) -> Json {
    let steps = chain.map(|c| c.steps.as_slice()).unwrap_or_default();
    Json::Array(
        steps
            .iter()
            .map(|step| {
                json!({
                    "rules": step.rules,
                    "uses": values_json(&step.uses),
                    "derives": values_json(&step.derives),
                    "source": step_source(&step.texts),
                })
            })
            .collect(),
    )
}

/// An explanation as JSON: `{finding?, forced, open, chain, ask, irrelevant}`.
pub fn explanation_json(explanation: &Explanation) -> Json {
    let mut out = serde_json::Map::new();
    if let Some(finding) = &explanation.finding {
        out.insert("finding".into(), json!(finding.kind.name()));
    }
    let propagation = &explanation.propagation;
    out.insert(
        "forced".into(),
        Json::Array(
            propagation
                .forced
                .iter()
                .map(|f| json!({"variable": f.variable, "value": value_json(&f.value), "rules": f.rules}))
                .collect(),
        ),
    );
    out.insert("open".into(), json!(propagation.open));
    out.insert("chain".into(), chain_json(explanation.chain.as_ref()));
    let relevance = explanation.relevance.clone().unwrap_or_default();
    out.insert(
        "ask".into(),
        Json::Array(
            relevance
                .ask
                .iter()
                .map(|a| json!({"variables": a.variables, "question": a.question}))
                .collect(),
        ),
    );
    out.insert("irrelevant".into(), json!(relevance.irrelevant));
    Json::Object(out)
}
