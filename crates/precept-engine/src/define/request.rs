//! Asking the LLM for a decision's definition, and reading its reply. A
//! reply is data: a part that is not an SMT-LIB condition, a source with
//! a solver command in it, an unknown variable or rule id refuses that
//! definition (with why), never the model; the checks (`check.rs`) then
//! catch what only the solver can see.

use super::{DefinitionProposal, Origin};
use crate::document::quote::find_quote;
use crate::llm::prompts::{DEFINE, render};
use crate::llm::{LlmClient, LlmRequest};
use crate::model::{Definition, DefinitionPart, PolicyModel, SourceSpan};
use crate::smt::{SmtError, parse_expr};
use serde_json::{Value, json};

/// The JSON Schema of a reply.
pub fn reply_schema() -> Value {
    let part = json!({
        "type": "object",
        "required": ["condition", "source"],
        "properties": {
            "condition": {"type": "string"},
            "value": {"type": "string"},
            "source": {"type": "string"}
        }
    });
    let parts = json!({"type": "array", "items": part});
    json!({
        "type": "object",
        "required": ["variable", "cases", "requirements", "exceptions", "exhaustive", "replaces"],
        "properties": {
            "variable": {"type": "string"},
            "cases": parts, "requirements": parts, "exceptions": parts,
            "exhaustive": {"type": "boolean"},
            "replaces": {"type": "array", "items": {"type": "string"}},
            "reason": {"type": "string"}
        }
    })
}

/// The request for the definition of `start.variable`, with the rules the
/// starting point replaces and every other rule that mentions it, their
/// sentences in document order, and the vocabulary.
pub fn definition_request(
    client: &LlmClient,
    model: &PolicyModel,
    document: Option<&str>,
    start: &DefinitionProposal,
) -> LlmRequest {
    let variable = model.variable(&start.variable);
    let mut rules: Vec<&crate::model::Rule> = model
        .rules
        .iter()
        .filter(|r| {
            start.replaces.contains(&r.id)
                || parse_expr(&r.expression)
                    .map(|e| e.symbols().contains(&start.variable.as_str()))
                    .unwrap_or(false)
        })
        .collect();
    rules.sort_by_key(|r| r.source_span.map(|s| s.start).unwrap_or(usize::MAX));
    let mut listed = String::new();
    for rule in rules {
        let sentence = match (document, rule.source_span) {
            (Some(text), Some(span)) => text
                .get(span.start..span.end)
                .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
                .unwrap_or_default(),
            _ => String::new(),
        };
        listed.push_str(&format!(
            "- {}: {}\n  sentence: {}\n",
            rule.id,
            rule.expression,
            if sentence.is_empty() {
                "(none recorded)".to_string()
            } else {
                sentence
            }
        ));
    }
    let variables: String = model
        .variables
        .iter()
        .map(|v| format!("- {} ({}): {}\n", v.name, v.sort, v.description))
        .collect();
    let types: String = model
        .types
        .iter()
        .map(|t| {
            let values: Vec<&str> = t.values.iter().map(|v| v.value.as_str()).collect();
            format!("- {}: {}\n", t.name, values.join(", "))
        })
        .collect();
    let starting_point = serde_json::to_string_pretty(&start.definition).unwrap_or_default();
    let values = [
        ("variable", start.variable.as_str()),
        ("sort", variable.map(|v| v.sort.as_str()).unwrap_or("Bool")),
        (
            "description",
            variable.map(|v| v.description.as_str()).unwrap_or(""),
        ),
        ("rules", listed.as_str()),
        ("starting_point", starting_point.as_str()),
        ("variables", variables.as_str()),
        (
            "types",
            if types.is_empty() {
                "(none)"
            } else {
                types.as_str()
            },
        ),
    ];
    LlmRequest {
        system: render(DEFINE.system(), &values),
        prompt: render(DEFINE.user(), &values),
        schema_name: "definition".into(),
        schema: reply_schema(),
        temperature: client.profile().temperature,
        max_tokens: 4096,
    }
}

/// Solver commands that have no place in a condition or a quote.
const COMMANDS: [&str; 6] = [
    "(assert",
    "(declare-",
    "(define-",
    "(set-",
    "(push",
    "(check-sat",
];

/// Why a reply is refused: the field at fault (`cases[0].condition`) and
/// what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DefinitionReplyError {
    #[error("{field}[{index}]: no condition")]
    NoCondition { field: &'static str, index: usize },
    /// A condition or source (`what`) holding a solver command.
    #[error("{field}[{index}].{what}: contains the solver command {command}…, not a condition")]
    SolverCommand {
        field: &'static str,
        index: usize,
        what: &'static str,
        command: &'static str,
    },
    #[error("{field}[{index}].condition: {source}")]
    Condition {
        field: &'static str,
        index: usize,
        source: SmtError,
    },
    #[error("{field}[{index}].value: {source}")]
    Value {
        field: &'static str,
        index: usize,
        source: SmtError,
    },
    #[error("reply: no variable")]
    NoVariable,
    #[error("reply: asked to define '{asked}', it defined '{defined}'")]
    OtherVariable { asked: String, defined: String },
    #[error("reply: {0} is not a list")]
    NotAList(&'static str),
    #[error("reply: replaces holds a non-string")]
    ReplacesNonString,
    #[error("reply: replaces {0}, which is not a rule")]
    ReplacesNoRule(String),
}

fn part(
    field: &'static str,
    index: usize,
    item: &Value,
    document: Option<&str>,
) -> Result<DefinitionPart, DefinitionReplyError> {
    let text = |key: &str| item.get(key).and_then(Value::as_str).map(str::trim);
    let condition = text("condition").ok_or(DefinitionReplyError::NoCondition { field, index })?;
    let source = text("source").unwrap_or("");
    for (what, value) in [("condition", condition), ("source", source)] {
        if let Some(command) = COMMANDS.iter().find(|c| value.contains(*c)) {
            return Err(DefinitionReplyError::SolverCommand {
                field,
                index,
                what,
                command,
            });
        }
    }
    parse_expr(condition).map_err(|source| DefinitionReplyError::Condition {
        field,
        index,
        source,
    })?;
    let value = match text("value") {
        Some(v) if !v.is_empty() => {
            parse_expr(v).map_err(|source| DefinitionReplyError::Value {
                field,
                index,
                source,
            })?;
            Some(v.to_string())
        }
        _ => None,
    };
    let source_span = document
        .and_then(|d| find_quote(d, source))
        .map(|(start, end)| SourceSpan { start, end });
    Ok(DefinitionPart {
        condition: condition.to_string(),
        value,
        source_span,
    })
}

/// Reads a reply for the decision `start` was proposed for. The
/// definition keeps `start`'s id; a reply that does not fit is refused
/// with why.
pub fn read_reply(
    reply: &Value,
    model: &PolicyModel,
    document: Option<&str>,
    start: &DefinitionProposal,
) -> Result<DefinitionProposal, DefinitionReplyError> {
    let variable = reply
        .get("variable")
        .and_then(Value::as_str)
        .ok_or(DefinitionReplyError::NoVariable)?;
    if variable != start.variable {
        return Err(DefinitionReplyError::OtherVariable {
            asked: start.variable.clone(),
            defined: variable.to_string(),
        });
    }
    let mut lists: [Vec<DefinitionPart>; 3] = Default::default();
    for (slot, field) in lists
        .iter_mut()
        .zip(["cases", "requirements", "exceptions"])
    {
        let items = reply
            .get(field)
            .map(|v| v.as_array().ok_or(DefinitionReplyError::NotAList(field)))
            .transpose()?
            .cloned()
            .unwrap_or_default();
        for (i, item) in items.iter().enumerate() {
            slot.push(part(field, i, item, document)?);
        }
    }
    let mut replaces = Vec::new();
    for id in reply
        .get("replaces")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let id = id.as_str().ok_or(DefinitionReplyError::ReplacesNonString)?;
        if model.rule(id).is_none() {
            return Err(DefinitionReplyError::ReplacesNoRule(id.to_string()));
        }
        replaces.push(id.to_string());
    }
    let [cases, requirements, exceptions] = lists;
    Ok(DefinitionProposal {
        id: start.id.clone(),
        variable: start.variable.clone(),
        origin: Origin::Llm,
        definition: Definition {
            id: start.id.clone(),
            variable: start.variable.clone(),
            cases,
            requirements,
            exceptions,
            exhaustive: reply
                .get("exhaustive")
                .and_then(Value::as_bool)
                .unwrap_or(false),
        },
        replaces,
    })
}
