//! The one kind of change to a model that something other than the editor
//! proposes: a lint fix, a repair from feedback, a consolidation. Plain
//! data; applying it checks only that its target still exists (the callers
//! check types and names before they offer it).

use serde::Serialize;

use super::{Definition, PolicyModel, ReviewStatus, Rule, SourceSpan, Variable};

/// One proposed change to the model. In JSON (`precept lint --json`) it is
/// an object tagged by `kind` (`delete_rule`, `replace_rule`, …).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ModelEdit {
    ReplaceRule {
        id: String,
        expression: String,
    },
    /// A new rule; it gets a fresh id and starts unreviewed.
    AddRule {
        expression: String,
        /// Where the rule came from, kept as the rule's note.
        #[serde(skip_serializing_if = "String::is_empty")]
        note: String,
    },
    DeleteRule {
        id: String,
        /// The rule that keeps the deleted one's meaning (a duplicate's
        /// original, the rules it is redundant beside): it takes over the
        /// deleted rule's source spans, so no sentence loses its rule.
        #[serde(skip_serializing_if = "Option::is_none")]
        into: Option<String>,
    },
    AddVariable {
        variable: Variable,
    },
    DescribeVariable {
        name: String,
        description: String,
    },
    DeleteVariable {
        name: String,
    },
    DeleteType {
        name: String,
    },
    DeleteEnumValue {
        type_name: String,
        value: String,
    },
    /// One fact under two names becomes one variable: `merge` is replaced by
    /// `keep` in every rule and definition, then deleted.
    MergeVariable {
        keep: String,
        merge: String,
    },
    /// Gives a variable its one definition (`definition.rs`), in place of
    /// the rules it `replaces`; the definition's own rules follow from it.
    Define {
        definition: Definition,
        replaces: Vec<String>,
    },
}

/// Why an edit could not be applied to the model as it is now.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// "rule R4", "variable isMember", "value gold".
    #[error("{0} no longer exists")]
    Gone(String),
    #[error("{0} already exists")]
    AlreadyExists(String),
    #[error("{0} needs at least one value")]
    LastValue(String),
    #[error("definition {0}")]
    Definition(String),
}

impl ModelEdit {
    /// Applies the edit; fails, leaving the model as it was, when its
    /// target is gone (or, for a new variable, already there).
    pub fn apply(&self, model: &mut PolicyModel) -> Result<(), EditError> {
        match self {
            ModelEdit::ReplaceRule { id, expression } => {
                let rule = model.rules.iter_mut().find(|r| &r.id == id);
                let rule = rule.ok_or_else(|| EditError::Gone(format!("rule {id}")))?;
                rule.rewrite(expression.clone());
            }
            ModelEdit::AddRule { expression, note } => {
                let id = model.fresh_rule_id();
                model.rules.push(Rule {
                    id,
                    expression: expression.clone(),
                    source_span: None,
                    also_from: Vec::new(),
                    review: ReviewStatus::Unreviewed,
                    note: note.clone(),
                });
            }
            ModelEdit::DeleteRule { id, into } => {
                let sources: Vec<SourceSpan> = model
                    .rule(id)
                    .map(|r| r.source_span.iter().chain(&r.also_from).copied().collect())
                    .unwrap_or_default();
                remove_where(&mut model.rules, |r| &r.id == id, || format!("rule {id}"))?;
                if let Some(keeper) = into
                    .as_ref()
                    .and_then(|k| model.rules.iter_mut().find(|r| &r.id == k))
                {
                    for span in sources {
                        if keeper.source_span.is_none() {
                            keeper.source_span = Some(span);
                        } else if keeper.source_span != Some(span)
                            && !keeper.also_from.contains(&span)
                        {
                            keeper.also_from.push(span);
                        }
                    }
                }
            }
            ModelEdit::AddVariable { variable } => {
                if model.variable(&variable.name).is_some() {
                    return Err(EditError::AlreadyExists(format!(
                        "variable {}",
                        variable.name
                    )));
                }
                model.variables.push(variable.clone());
            }
            ModelEdit::DescribeVariable { name, description } => {
                let variable = model.variables.iter_mut().find(|v| &v.name == name);
                let variable =
                    variable.ok_or_else(|| EditError::Gone(format!("variable {name}")))?;
                variable.description = description.clone();
            }
            ModelEdit::DeleteVariable { name } => remove_where(
                &mut model.variables,
                |v| &v.name == name,
                || format!("variable {name}"),
            )?,
            ModelEdit::DeleteType { name } => remove_where(
                &mut model.types,
                |t| &t.name == name,
                || format!("type {name}"),
            )?,
            ModelEdit::DeleteEnumValue { type_name, value } => {
                let type_def = model.types.iter_mut().find(|t| &t.name == type_name);
                let type_def =
                    type_def.ok_or_else(|| EditError::Gone(format!("type {type_name}")))?;
                if type_def.values.len() <= 1 {
                    return Err(EditError::LastValue(type_name.clone()));
                }
                remove_where(
                    &mut type_def.values,
                    |v| &v.value == value,
                    || format!("value {value}"),
                )?
            }
            ModelEdit::MergeVariable { keep, merge } => {
                if model.variable(keep).is_none() {
                    return Err(EditError::Gone(format!("variable {keep}")));
                }
                let mut edited = model.clone();
                remove_where(
                    &mut edited.variables,
                    |v| &v.name == merge,
                    || format!("variable {merge}"),
                )?;
                let rename = |name: &str| (name == merge).then(|| keep.clone());
                let renamed = |text: &str| match crate::smt::parse_expr(text) {
                    Ok(expr) => expr.rename_symbols(&rename).to_string(),
                    Err(_) => text.to_string(),
                };
                for rule in &mut edited.rules {
                    if rule.expression.contains(merge.as_str()) {
                        rule.rewrite(renamed(&rule.expression));
                    }
                }
                for definition in &mut edited.definitions {
                    if &definition.variable == merge {
                        definition.variable = keep.clone();
                    }
                    for part in definition
                        .cases
                        .iter_mut()
                        .chain(&mut definition.requirements)
                        .chain(&mut definition.exceptions)
                    {
                        part.condition = renamed(&part.condition);
                    }
                }
                *model = edited;
            }
            ModelEdit::Define {
                definition,
                replaces,
            } => {
                let mut edited = model.clone();
                for id in replaces {
                    if definition.owns_rule(id) {
                        continue;
                    }
                    remove_where(&mut edited.rules, |r| &r.id == id, || format!("rule {id}"))?;
                }
                edited
                    .set_definition(definition.clone())
                    .map_err(|e| EditError::Definition(format!("{}: {e}", definition.id)))?;
                *model = edited;
            }
        }
        Ok(())
    }

    /// A one-line summary: "replace R4", "add variable isMember".
    pub fn title(&self) -> String {
        match self {
            ModelEdit::ReplaceRule { id, .. } => format!("replace {id}"),
            ModelEdit::AddRule { .. } => "add a rule".into(),
            ModelEdit::DeleteRule { id, .. } => format!("delete {id}"),
            ModelEdit::AddVariable { variable } => format!("add variable {}", variable.name),
            ModelEdit::DescribeVariable { name, .. } => format!("describe {name}"),
            ModelEdit::DeleteVariable { name } => format!("delete variable {name}"),
            ModelEdit::DeleteType { name } => format!("delete type {name}"),
            ModelEdit::DeleteEnumValue { type_name, value } => {
                format!("delete value {value} of {type_name}")
            }
            ModelEdit::MergeVariable { keep, merge } => format!("merge {merge} into {keep}"),
            ModelEdit::Define { definition, .. } => {
                format!("define {} ({})", definition.variable, definition.id)
            }
        }
    }
}

fn remove_where<T>(
    items: &mut Vec<T>,
    matches: impl Fn(&T) -> bool,
    what: impl Fn() -> String,
) -> Result<(), EditError> {
    let before = items.len();
    items.retain(|item| !matches(item));
    if items.len() == before {
        Err(EditError::Gone(what()))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> PolicyModel {
        let mut model = PolicyModel::default();
        model.variables.push(Variable {
            reading: Default::default(),
            name: "age".into(),
            sort: "Int".into(),
            description: "age in years".into(),
        });
        model.rules.push(Rule {
            id: "R1".into(),
            expression: "(>= age 18)".into(),
            source_span: None,
            also_from: Vec::new(),
            review: ReviewStatus::Approved,
            note: String::new(),
        });
        model
    }

    #[test]
    fn an_edit_whose_target_is_gone_fails_and_changes_nothing() {
        let mut m = model();
        let edit = ModelEdit::ReplaceRule {
            id: "R9".into(),
            expression: "true".into(),
        };
        assert_eq!(edit.apply(&mut m), Err(EditError::Gone("rule R9".into())));
        assert_eq!(m, model());
        let again = ModelEdit::AddVariable {
            variable: m.variables[0].clone(),
        };
        assert!(matches!(
            again.apply(&mut m),
            Err(EditError::AlreadyExists(_))
        ));
    }

    #[test]
    fn rewriting_an_approved_rule_sends_it_back_to_review_and_renaming_does_not() {
        let mut m = model();
        let same = ModelEdit::ReplaceRule {
            id: "R1".into(),
            expression: "(>= age 18)".into(),
        };
        same.apply(&mut m).unwrap();
        assert_eq!(m.rules[0].review, ReviewStatus::Approved, "same text");
        m.rules[0].rename_only("(>= years 18)".into());
        assert_eq!(m.rules[0].review, ReviewStatus::Approved, "a rename");
        let changed = ModelEdit::ReplaceRule {
            id: "R1".into(),
            expression: "(>= years 21)".into(),
        };
        changed.apply(&mut m).unwrap();
        assert_eq!(m.rules[0].review, ReviewStatus::Unreviewed);
    }

    #[test]
    fn a_new_rule_gets_a_fresh_id_and_is_unreviewed() {
        let mut m = model();
        let edit = ModelEdit::AddRule {
            expression: "(< age 99)".into(),
            note: "from a repair".into(),
        };
        edit.apply(&mut m).unwrap();
        let added = m.rules.last().unwrap();
        assert_ne!(added.id, "R1");
        assert_eq!(added.review, ReviewStatus::Unreviewed);
        assert_eq!(added.note, "from a repair");
    }

    #[test]
    fn lint_json_keeps_its_shape() {
        let edit = ModelEdit::DeleteRule {
            id: "R7".into(),
            into: None,
        };
        assert_eq!(
            serde_json::to_value(&edit).unwrap(),
            serde_json::json!({"kind": "delete_rule", "id": "R7"})
        );
    }

    #[test]
    fn a_deleted_copy_hands_its_sentence_to_the_rule_it_copies() {
        let rule = |id: &str, start: usize| Rule {
            id: id.into(),
            expression: "(=> a b)".into(),
            source_span: Some(SourceSpan {
                start,
                end: start + 10,
            }),
            also_from: Vec::new(),
            review: ReviewStatus::Approved,
            note: String::new(),
        };
        let mut model = PolicyModel {
            rules: vec![rule("R1", 0), rule("R2", 20)],
            ..PolicyModel::default()
        };
        ModelEdit::DeleteRule {
            id: "R2".into(),
            into: Some("R1".into()),
        }
        .apply(&mut model)
        .unwrap();
        assert_eq!(model.rules.len(), 1);
        assert_eq!(
            model.rules[0].also_from,
            [SourceSpan { start: 20, end: 30 }]
        );
    }
}
