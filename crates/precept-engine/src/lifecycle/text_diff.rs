//! The text of a change between two models: rules added, removed and
//! changed (SMT-LIB and templated English of both sides), variables and
//! types added, removed, retyped or redescribed. Rules are matched by id,
//! variables and types by name.

use crate::model::{CompiledModel, PolicyModel};
use serde::Serialize;

/// One rule present in both models with different text.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChangedRuleText {
    pub id: String,
    pub a_smtlib: String,
    pub b_smtlib: String,
    pub a_english: String,
    pub b_english: String,
}

/// A variable or type that is in both models but differs.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChangedName {
    pub name: String,
    /// What differs, in words (`type Int → Real`, `description`, `values`).
    pub what: String,
    pub a: String,
    pub b: String,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct TextDiff {
    pub rules_added: Vec<String>,
    pub rules_removed: Vec<String>,
    pub rules_changed: Vec<ChangedRuleText>,
    pub variables_added: Vec<String>,
    pub variables_removed: Vec<String>,
    pub variables_changed: Vec<ChangedName>,
    pub types_added: Vec<String>,
    pub types_removed: Vec<String>,
    pub types_changed: Vec<ChangedName>,
}

impl TextDiff {
    pub fn is_empty(&self) -> bool {
        *self == TextDiff::default()
    }
}

/// Compares the text of two models (their compiled forms give the English).
pub fn text_diff(
    a: &PolicyModel,
    a_compiled: &CompiledModel,
    b: &PolicyModel,
    b_compiled: &CompiledModel,
) -> TextDiff {
    let mut diff = TextDiff::default();
    for rule in &b.rules {
        match a.rules.iter().find(|r| r.id == rule.id) {
            None => diff.rules_added.push(rule.id.clone()),
            Some(old) if normalized(&old.expression) != normalized(&rule.expression) => {
                diff.rules_changed.push(ChangedRuleText {
                    id: rule.id.clone(),
                    a_smtlib: old.expression.clone(),
                    b_smtlib: rule.expression.clone(),
                    a_english: english(a_compiled, &rule.id),
                    b_english: english(b_compiled, &rule.id),
                })
            }
            Some(_) => {}
        }
    }
    diff.rules_removed = missing(a.rules.iter().map(|r| &r.id), b.rules.iter().map(|r| &r.id));
    for variable in &b.variables {
        match a.variables.iter().find(|v| v.name == variable.name) {
            None => diff.variables_added.push(variable.name.clone()),
            Some(old) if old.sort != variable.sort => diff.variables_changed.push(ChangedName {
                name: variable.name.clone(),
                what: "type".into(),
                a: old.sort.clone(),
                b: variable.sort.clone(),
            }),
            Some(old) if old.description != variable.description => {
                diff.variables_changed.push(ChangedName {
                    name: variable.name.clone(),
                    what: "description".into(),
                    a: old.description.clone(),
                    b: variable.description.clone(),
                })
            }
            Some(_) => {}
        }
    }
    diff.variables_removed = missing(
        a.variables.iter().map(|v| &v.name),
        b.variables.iter().map(|v| &v.name),
    );
    for def in &b.types {
        match a.types.iter().find(|t| t.name == def.name) {
            None => diff.types_added.push(def.name.clone()),
            Some(old) => {
                let values = |t: &crate::model::TypeDef| {
                    t.values
                        .iter()
                        .map(|v| v.value.clone())
                        .collect::<Vec<_>>()
                        .join(" ")
                };
                if values(old) != values(def) {
                    diff.types_changed.push(ChangedName {
                        name: def.name.clone(),
                        what: "values".into(),
                        a: values(old),
                        b: values(def),
                    });
                } else if old.description != def.description
                    || old
                        .values
                        .iter()
                        .zip(&def.values)
                        .any(|(x, y)| x.description != y.description)
                {
                    diff.types_changed.push(ChangedName {
                        name: def.name.clone(),
                        what: "description".into(),
                        a: old.description.clone(),
                        b: def.description.clone(),
                    });
                }
            }
        }
    }
    diff.types_removed = missing(
        a.types.iter().map(|t| &t.name),
        b.types.iter().map(|t| &t.name),
    );
    diff
}

/// The names of `a` that `b` lacks, in `a`'s order.
fn missing<'x>(
    a: impl Iterator<Item = &'x String>,
    b: impl Iterator<Item = &'x String>,
) -> Vec<String> {
    let b: std::collections::HashSet<&String> = b.collect();
    a.filter(|name| !b.contains(name)).cloned().collect()
}

/// The expression with its whitespace runs collapsed (layout is no change).
fn normalized(expression: &str) -> String {
    expression.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn english(compiled: &CompiledModel, id: &str) -> String {
    compiled
        .rule(id)
        .map(|r| compiled.glossary.sentence(&r.written))
        .unwrap_or_default()
}
