//! Repair from feedback (ARC §3.1.2, "Inspection"): the expert selects
//! rules and writes what is wrong; the LLM proposes edits; each edit is
//! checked against the model (parse, types, names) before the expert sees
//! it. Edits that do not check get one repair round with their errors, and
//! those still wrong are reported, never offered.

use serde::Serialize;
use serde_json::{Value, json};

use crate::formalize::unit::is_plain_symbol;
use crate::llm::prompts::{FRAGMENT_GRAMMAR, REPAIR_FEEDBACK, render};
use crate::llm::{LlmClient, LlmError, LlmRequest};
use crate::model::{EditError, ModelEdit, PolicyModel, Variable, compile};

/// A checked edit, with both views of what changes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProposedEdit {
    pub edit: ModelEdit,
    pub reason: String,
    /// SMT-LIB (or declaration) before and after; empty when there is none.
    pub before: String,
    pub after: String,
    /// The same in structured English.
    pub before_english: String,
    pub after_english: String,
}

/// The LLM's proposal after checking.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct RepairProposal {
    pub edits: Vec<ProposedEdit>,
    /// Edits that still did not check after the repair round, with why.
    pub refused: Vec<String>,
}

fn schema() -> Value {
    let text = json!({"type": "string"});
    json!({
        "type": "object",
        "properties": {
            "edits": {"type": "array", "items": {
                "type": "object",
                "properties": {
                    "kind": {"type": "string", "enum": ["replace_rule", "add_rule", "delete_rule",
                                                         "add_variable", "describe_variable"]},
                    "rule_id": text, "expression": text, "name": text, "type": text,
                    "description": text, "reason": text
                },
                "required": ["kind", "rule_id", "expression", "name", "type", "description",
                             "reason"],
                "additionalProperties": false
            }}
        },
        "required": ["edits"],
        "additionalProperties": false
    })
}

fn vocabulary_text(model: &PolicyModel) -> String {
    let mut lines = Vec::new();
    for t in &model.types {
        let values: Vec<String> = t
            .values
            .iter()
            .map(|v| format!("{} ({})", v.value, v.description))
            .collect();
        lines.push(format!("- type {}: {}", t.name, values.join(", ")));
    }
    for v in &model.variables {
        lines.push(format!("- {}: {} ({})", v.name, v.sort, v.description));
    }
    lines.join("\n")
}

fn rules_text(model: &PolicyModel, selected: &[String]) -> String {
    let compiled = compile(model);
    let mut lines = Vec::new();
    for id in selected {
        if let Some(rule) = model.rule(id) {
            let english = compiled
                .rule(id)
                .map(|r| compiled.glossary.sentence(&r.written))
                .unwrap_or_default();
            lines.push(format!(
                "- {id}: {}\n  in English: {english}",
                rule.expression
            ));
        }
    }
    lines.join("\n")
}

/// Why a proposed edit is refused (the reason goes back to the LLM once,
/// then to the expert).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefusedEdit {
    #[error("unknown edit kind '{0}'")]
    UnknownKind(String),
    #[error("there is no rule '{0}'")]
    NoRule(String),
    #[error("'{0}' is not a usable variable name")]
    BadName(String),
    #[error("there is no variable '{0}'")]
    NoVariable(String),
    #[error(transparent)]
    Edit(#[from] EditError),
    /// The model with the edit has a new compile issue.
    #[error("{0}")]
    DoesNotCheck(String),
}

/// Reads one edit of the reply and checks it against `model` (which has
/// the edits accepted so far applied).
fn check_edit(model: &PolicyModel, item: &Value) -> Result<(ModelEdit, String), RefusedEdit> {
    let field = |name: &str| item[name].as_str().unwrap_or("").trim().to_string();
    let kind = field("kind");
    let reason = field("reason");
    let edit = match kind.as_str() {
        "replace_rule" => ModelEdit::ReplaceRule {
            id: field("rule_id"),
            expression: field("expression"),
        },
        "add_rule" => ModelEdit::AddRule {
            expression: field("expression"),
            note: "added by a repair from feedback".into(),
        },
        "delete_rule" => ModelEdit::DeleteRule {
            id: field("rule_id"),
            into: None,
        },
        "add_variable" => ModelEdit::AddVariable {
            variable: Variable {
                reading: Default::default(),
                name: field("name"),
                sort: field("type"),
                description: field("description"),
            },
        },
        "describe_variable" => ModelEdit::DescribeVariable {
            name: field("name"),
            description: field("description"),
        },
        other => return Err(RefusedEdit::UnknownKind(other.to_string())),
    };
    match &edit {
        ModelEdit::ReplaceRule { id, .. } | ModelEdit::DeleteRule { id, .. }
            if model.rule(id).is_none() =>
        {
            return Err(RefusedEdit::NoRule(id.clone()));
        }
        ModelEdit::AddVariable { variable } if !is_plain_symbol(&variable.name) => {
            return Err(RefusedEdit::BadName(variable.name.clone()));
        }
        ModelEdit::DescribeVariable { name, .. } if model.variable(name).is_none() => {
            return Err(RefusedEdit::NoVariable(name.clone()));
        }
        _ => {}
    }
    let mut after = model.clone();
    edit.apply(&mut after)?;
    let before_issues = compile(model).issues.len();
    let issues = compile(&after).issues;
    if issues.len() > before_issues
        && let Some(issue) = issues.last()
    {
        return Err(RefusedEdit::DoesNotCheck(issue.to_string()));
    }
    Ok((edit, reason))
}

/// Both views of an edit against the model before it.
fn describe(model: &PolicyModel, edit: &ModelEdit, reason: String) -> ProposedEdit {
    let mut after_model = model.clone();
    let _ = edit.apply(&mut after_model);
    let english_of = |m: &PolicyModel, id: &str| {
        let compiled = compile(m);
        compiled
            .rule(id)
            .map(|r| compiled.glossary.sentence(&r.written))
            .unwrap_or_default()
    };
    let (before, after, before_english, after_english) = match edit {
        ModelEdit::ReplaceRule {
            id: rule_id,
            expression,
        } => (
            model
                .rule(rule_id)
                .map(|r| r.expression.clone())
                .unwrap_or_default(),
            expression.clone(),
            english_of(model, rule_id),
            english_of(&after_model, rule_id),
        ),
        ModelEdit::AddRule { expression, .. } => {
            let id = after_model
                .rules
                .last()
                .map(|r| r.id.clone())
                .unwrap_or_default();
            (
                String::new(),
                expression.clone(),
                String::new(),
                english_of(&after_model, &id),
            )
        }
        ModelEdit::DeleteRule { id: rule_id, .. } => (
            model
                .rule(rule_id)
                .map(|r| r.expression.clone())
                .unwrap_or_default(),
            String::new(),
            english_of(model, rule_id),
            String::new(),
        ),
        ModelEdit::AddVariable { variable } => (
            String::new(),
            format!("{}: {}", variable.name, variable.sort),
            String::new(),
            variable.description.clone(),
        ),
        ModelEdit::DescribeVariable { name, description } => {
            let old = model.variable(name);
            (
                old.map(|v| format!("{}: {}", v.name, v.sort))
                    .unwrap_or_default(),
                old.map(|v| format!("{}: {}", v.name, v.sort))
                    .unwrap_or_default(),
                old.map(|v| v.description.clone()).unwrap_or_default(),
                description.clone(),
            )
        }
        // Repairs never delete declarations; a removed one shows as gone.
        ModelEdit::DeleteVariable { .. }
        | ModelEdit::DeleteType { .. }
        | ModelEdit::DeleteEnumValue { .. }
        | ModelEdit::MergeVariable { .. } => {
            (edit.title(), String::new(), String::new(), String::new())
        }
        // Repairs propose no definitions; one shows by its rules.
        ModelEdit::Define { replaces, .. } => {
            let rules = |m: &PolicyModel, ids: &mut dyn Iterator<Item = String>| {
                ids.filter_map(|id| m.rule(&id).map(|r| format!("{id}: {}", r.expression)))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            let added = after_model
                .rules
                .iter()
                .filter(|r| model.rule(&r.id).is_none())
                .map(|r| r.id.clone());
            (
                rules(model, &mut replaces.iter().cloned()),
                rules(&after_model, &mut added.collect::<Vec<_>>().into_iter()),
                String::new(),
                edit.title(),
            )
        }
    };
    ProposedEdit {
        edit: edit.clone(),
        reason,
        before,
        after,
        before_english,
        after_english,
    }
}

/// Checks every edit of a reply in order (each against the model with the
/// earlier good ones applied): the good ones described, the others with why.
pub fn check_reply(model: &PolicyModel, reply: &Value) -> (Vec<ProposedEdit>, Vec<String>) {
    let mut current = model.clone();
    let mut edits = Vec::new();
    let mut refused = Vec::new();
    for (i, item) in reply["edits"].as_array().into_iter().flatten().enumerate() {
        match check_edit(&current, item) {
            Ok((edit, reason)) => {
                edits.push(describe(&current, &edit, reason));
                let _ = edit.apply(&mut current);
            }
            Err(message) => refused.push(format!("edits[{i}]: {message}")),
        }
    }
    (edits, refused)
}

fn request(
    client: &LlmClient,
    model: &PolicyModel,
    selected: &[String],
    feedback: &str,
    errors: &str,
) -> LlmRequest {
    let vocabulary = vocabulary_text(model);
    let rules = rules_text(model, selected);
    let values = [
        ("grammar", FRAGMENT_GRAMMAR),
        ("vocabulary", vocabulary.as_str()),
        ("rules", rules.as_str()),
        ("feedback", feedback),
        ("errors", errors),
    ];
    LlmRequest {
        system: render(REPAIR_FEEDBACK.system(), &values),
        prompt: render(REPAIR_FEEDBACK.user(), &values),
        schema_name: "model_edits".into(),
        schema: schema(),
        temperature: client.profile().temperature,
        max_tokens: 2048,
    }
}

/// Asks for edits that address `feedback` on the `selected` rules.
pub async fn propose_repair(
    client: &LlmClient,
    model: &PolicyModel,
    selected: &[String],
    feedback: &str,
) -> Result<RepairProposal, LlmError> {
    let (refused, previous) = match client
        .complete(&request(client, model, selected, feedback, ""))
        .await
    {
        Ok(first) => {
            let (edits, refused) = check_reply(model, &first.json);
            if refused.is_empty() {
                return Ok(RepairProposal { edits, refused });
            }
            let previous = serde_json::to_string_pretty(&first.json).unwrap_or_default();
            (refused, previous)
        }
        Err(LlmError::InvalidReply {
            reason,
            raw_snippet,
        }) => (vec![format!("reply: {reason}")], raw_snippet),
        Err(error) => return Err(error),
    };
    let errors = format!(
        "\n## Your previous answer could not be used\n{}\n\nYour previous answer \
         was:\n{previous}\n\nAnswer again with the whole corrected list of edits.",
        refused
            .iter()
            .map(|r| format!("- {r}"))
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let second = client
        .complete(&request(client, model, selected, feedback, &errors))
        .await?;
    let (edits, refused) = check_reply(model, &second.json);
    Ok(RepairProposal { edits, refused })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{EnumValue, TypeDef};
    use crate::model::{ReviewStatus, Rule};

    fn model() -> PolicyModel {
        PolicyModel {
            types: vec![TypeDef {
                name: "AgeClass".into(),
                description: String::new(),
                values: ["CHILD", "SENIOR"]
                    .map(|v| EnumValue {
                        reading: Default::default(),
                        value: v.into(),
                        description: String::new(),
                    })
                    .to_vec(),
            }],
            variables: vec![
                Variable {
                    reading: Default::default(),
                    name: "age".into(),
                    sort: "Int".into(),
                    description: "age in years".into(),
                },
                Variable {
                    reading: Default::default(),
                    name: "isSenior".into(),
                    sort: "Bool".into(),
                    description: "a senior".into(),
                },
            ],
            rules: vec![Rule {
                id: "R1".into(),
                expression: "(= isSenior (> age 65))".into(),
                source_span: None,
                also_from: Vec::new(),
                review: ReviewStatus::Approved,
                note: String::new(),
            }],
            ..PolicyModel::default()
        }
    }

    fn item(kind: &str, rule_id: &str, expression: &str, name: &str, sort: &str) -> Value {
        json!({"kind": kind, "rule_id": rule_id, "expression": expression, "name": name,
               "type": sort, "description": "d", "reason": "because"})
    }

    #[test]
    fn good_edits_are_described_and_bad_ones_refused_with_why() {
        let reply = json!({"edits": [
            item("replace_rule", "R1", "(= isSenior (>= age 65))", "", ""),
            item("add_variable", "", "", "isMember", "Bool"),
            item("add_rule", "", "(=> isMember isSenior)", "", ""),
            item("replace_rule", "R9", "true", "", ""),
            item("add_rule", "", "(> unknownThing 3)", "", ""),
        ]});
        let (edits, refused) = check_reply(&model(), &reply);
        assert_eq!(edits.len(), 3, "{refused:?}");
        assert_eq!(edits[0].before, "(= isSenior (> age 65))");
        assert_eq!(edits[0].after, "(= isSenior (>= age 65))");
        assert!(
            edits[0].after_english.contains("at least"),
            "{}",
            edits[0].after_english
        );
        assert_eq!(refused.len(), 2);
        assert!(refused[0].contains("no rule 'R9'"), "{refused:?}");
        assert!(refused[1].starts_with("edits[4]") && refused[1].contains("unknownThing"));
        let mut m = model();
        for e in &edits {
            e.edit.apply(&mut m).unwrap();
        }
        assert_eq!(m.rules[0].review, ReviewStatus::Unreviewed);
        assert_eq!(m.rules[1].id, "R2");
        assert!(compile(&m).issues.is_empty());
    }
}
