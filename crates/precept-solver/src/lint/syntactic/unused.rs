//! Declarations nothing uses: variables, types, enum values.

use crate::lint::{Diagnostic, LintCode, ModelEdit, Severity};
use crate::model::PolicyModel;
use crate::model::natural_order;
use crate::smt::lexer::{TokenKind, tokenize};
use crate::smt::parse_expr;
use std::collections::HashSet;

use super::found::*;

/// Every symbol any rule mentions, including rules that do not compile (a
/// broken rule still shows what its author meant to use).
pub(super) fn mentioned_names(model: &PolicyModel) -> HashSet<String> {
    let mut names = HashSet::new();
    for rule in &model.rules {
        names.extend(symbols_in_text(&rule.expression));
    }
    names
}

pub(super) fn symbols_in_text(text: &str) -> Vec<String> {
    if let Ok(expr) = parse_expr(text) {
        return expr.symbols().into_iter().map(str::to_string).collect();
    }
    match tokenize(text) {
        Ok(tokens) => tokens
            .into_iter()
            .filter_map(|t| match t.kind {
                TokenKind::Symbol(name) => Some(name),
                _ => None,
            })
            .collect(),
        Err(_) => text
            .split(|c: char| c.is_whitespace() || "()|".contains(c))
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
    }
}

// ------------------------------------------------------------ L101-L103

pub(super) fn unused_variables(
    model: &PolicyModel,
    mentioned: &HashSet<String>,
    found: &mut Vec<Found>,
) {
    let mut seen = HashSet::new();
    for variable in &model.variables {
        if mentioned.contains(&variable.name) || !seen.insert(variable.name.as_str()) {
            continue;
        }
        let name = &variable.name;
        let message = format!(
            "The variable {} ({}{}) is declared but no rule uses it. The rules say nothing \
             about it, so they can never settle a claim about it: such a claim is SATISFIABLE \
             unless the question's own premise decides it. It is usually left over from an earlier draft, or the \
             rule the document states about it was never written. Delete it, or add that rule.",
            name,
            variable.sort,
            described(&variable.description),
        );
        found.push(Found::new(
            name,
            Diagnostic::new(LintCode::UnusedVariable, Severity::Warning, message)
                .variables([name.as_str()])
                .fix(
                    format!("delete the unused variable {name}"),
                    ModelEdit::DeleteVariable { name: name.clone() },
                ),
        ));
    }
}

pub(super) fn unused_types(
    model: &PolicyModel,
    mentioned: &HashSet<String>,
    found: &mut Vec<Found>,
) {
    let mut seen = HashSet::new();
    for type_def in &model.types {
        let name = &type_def.name;
        if model.variables.iter().any(|v| &v.sort == name) || !seen.insert(name.as_str()) {
            continue;
        }
        let values: Vec<&str> = type_def.values.iter().map(|v| v.value.as_str()).collect();
        let any_named = values.iter().any(|v| mentioned.contains(*v));
        let mut rules_naming: Vec<&str> = model
            .rules
            .iter()
            .filter(|r| {
                any_named
                    && symbols_in_text(&r.expression)
                        .iter()
                        .any(|s| values.contains(&s.as_str()))
            })
            .map(|r| r.id.as_str())
            .collect();
        rules_naming.sort_by(|a, b| natural_order(a, b));
        let head = if values.is_empty() {
            format!("The type {name} (with no values) is declared but no variable has it.")
        } else {
            format!(
                "The type {name} (values {}) is declared but no variable has it.",
                list(&values)
            )
        };
        let diagnostic = if rules_naming.is_empty() {
            Diagnostic::new(
                LintCode::UnusedType,
                Severity::Warning,
                format!(
                    "{head} It takes no part in any check. Delete it, or give it to the \
                     variable it was meant for."
                ),
            )
            .fix(
                format!("delete the unused type {name}"),
                ModelEdit::DeleteType { name: name.clone() },
            )
        } else {
            Diagnostic::new(
                LintCode::UnusedType,
                Severity::Warning,
                format!(
                    "{head} Yet {} {} its values, comparing them only with each other, which \
                     says nothing about the policy. Give the type to the variable it was meant \
                     for, or correct those rules and then delete the type.",
                    list(&rules_naming),
                    if rules_naming.len() == 1 {
                        "mentions"
                    } else {
                        "mention"
                    },
                ),
            )
            .rules(rules_naming)
        };
        found.push(Found::new(name, diagnostic));
    }
}

pub(super) fn unused_enum_values(
    model: &PolicyModel,
    mentioned: &HashSet<String>,
    found: &mut Vec<Found>,
) {
    let mut seen = HashSet::new();
    for type_def in &model.types {
        let name = &type_def.name;
        let holders = unique(
            model
                .variables
                .iter()
                .filter(|v| &v.sort == name && mentioned.contains(&v.name))
                .map(|v| v.name.as_str()),
        );
        // A type whose variables no rule uses gets unused-variable instead.
        if holders.is_empty() || !seen.insert(name.as_str()) {
            continue;
        }
        for value in &type_def.values {
            if mentioned.contains(&value.value) {
                continue;
            }
            let value_name = &value.value;
            let message = format!(
                "No rule mentions the value {value_name}{} of the type {name} (the type of {}). \
                 The solver still counts it as a possible value, governed only by rules that \
                 rule out other values. That is fine when the document has nothing special to \
                 say about it. If the document has no such case, delete the value; if it has a \
                 rule for it, that rule is missing.",
                in_parentheses(&value.description),
                list(&holders),
            );
            let mut diagnostic =
                Diagnostic::new(LintCode::UnusedEnumValue, Severity::Info, message)
                    .variables(holders.iter().copied());
            if type_def.values.len() > 1 {
                diagnostic = diagnostic.fix(
                    format!(
                        "delete the value {value_name} from {name} (it stops being a possible \
                         value)"
                    ),
                    ModelEdit::DeleteEnumValue {
                        type_name: name.clone(),
                        value: value_name.clone(),
                    },
                );
            }
            found.push(Found::new(name, diagnostic));
        }
    }
}

// ------------------------------------------------------------ L110, L111
