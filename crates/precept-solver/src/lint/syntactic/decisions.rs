//! Decisions the rules leave open, and one decision under two names.
//!
//! - L150 open decision: a derived Bool that no rule makes true (the rules
//!   say only what it requires or what excludes it, and no other rule reads
//!   it: one that others read is an input the question states), or a list
//!   of cases that nothing closes (no rule makes it false). The rules' roles come
//!   from their shapes (`model/definition_shapes.rs`), or from the
//!   variable's definition where it has one.
//! - L142 split name: `X` beside `X_2` (composition kept two proposals of
//!   one name apart), and an enum value `V` beside `V_2`.

use crate::lint::{Diagnostic, LintCode, Severity};
use crate::model::definition_shapes::decisions;
use crate::model::{ModelEdit, PolicyModel};

use super::found::*;

/// The rule ids, listed for a message.
fn rule_list(ids: &[String]) -> String {
    match ids.len() {
        0 => "no rule".to_string(),
        1..=6 => ids.join(", "),
        n => format!("{}, … ({n} rules)", ids[..5].join(", ")),
    }
}

pub(super) fn open_decisions(model: &PolicyModel, found: &mut Vec<Found>) {
    // The rules that mention each name, each rule parsed once (not once
    // per decision: on 1,500 rules that was most of the syntactic lint).
    let mut mentioned_by: std::collections::HashMap<String, Vec<&str>> = Default::default();
    for rule in &model.rules {
        if let Ok(expr) = crate::smt::parse_expr(&rule.expression) {
            for symbol in expr.symbols() {
                mentioned_by
                    .entry(symbol.to_string())
                    .or_default()
                    .push(rule.id.as_str());
            }
        }
    }
    for decision in decisions(model) {
        let d = &decision.definition;
        let x = &d.variable;
        // One rule alone is a statement, not a decision left open.
        if decision.replaces.len() < 2 {
            continue;
        }
        // A variable that other rules read is an input with constraints
        // (a fact the question states), not a decision left open.
        let read_elsewhere = mentioned_by.get(x.as_str()).is_some_and(|ids| {
            ids.iter()
                .any(|id| !decision.replaces.iter().any(|r| r == id))
        });
        if d.cases.is_empty() && !read_elsewhere {
            let message = format!(
                "No case makes {x} true: the rules that decide it ({}) say only what it \
                 requires or what excludes it, never when it holds, so no question \
                 \"is {x} so?\" can be answered yes. Write its cases, usually stated in \
                 another sentence of the document: `precept define` proposes its one \
                 definition.",
                rule_list(&decision.replaces)
            );
            found.push(Found::new(
                x,
                Diagnostic::new(LintCode::OpenDecision, Severity::Warning, message)
                    .rules(decision.replaces.clone())
                    .variables([x.as_str()]),
            ));
        } else if d.cases.len() > 1 && d.requirements.is_empty() && d.exceptions.is_empty() {
            let message = format!(
                "No rule makes {x} false: {} list cases in which it holds, but nothing says \
                 they are the only ones, so the solver may make {x} true in any situation. \
                 If the document's list is closed, say so in its definition (exhaustive): \
                 `precept define` proposes it.",
                rule_list(&decision.replaces)
            );
            found.push(Found::new(
                x,
                Diagnostic::new(LintCode::OpenDecision, Severity::Info, message)
                    .rules(decision.replaces.clone())
                    .variables([x.as_str()]),
            ));
        }
    }
    for definition in &model.definitions {
        if definition.cases.is_empty() {
            let x = &definition.variable;
            let message = format!(
                "No case makes {x} true: its definition {} has requirements or exceptions \
                 but no case. Add the cases in which it holds.",
                definition.id
            );
            found.push(Found::new(
                x,
                Diagnostic::new(LintCode::OpenDecision, Severity::Warning, message)
                    .variables([x.as_str()]),
            ));
        }
    }
}

/// `name` as `base` and the number of a `_2`, `_3`… suffix.
fn split_suffix(name: &str) -> Option<&str> {
    let (base, number) = name.rsplit_once('_')?;
    (!base.is_empty()
        && !number.is_empty()
        && number.chars().all(|c| c.is_ascii_digit())
        && number != "0"
        && number != "1")
        .then_some(base)
}

pub(super) fn split_names(model: &PolicyModel, found: &mut Vec<Found>) {
    for variable in &model.variables {
        let Some(base) = split_suffix(&variable.name) else {
            continue;
        };
        let Some(first) = model.variable(base) else {
            continue;
        };
        let name = &variable.name;
        let mut diagnostic = Diagnostic::new(
            LintCode::SplitName,
            Severity::Warning,
            format!(
                "{name} sits beside {base}: two sections proposed one name and composition \
                 kept them apart, so rules about the same decision do not meet. {base}: \"{}\"; \
                 {name}: \"{}\". Merge them unless they mean different things.",
                first.description, variable.description
            ),
        )
        .variables([base, name.as_str()]);
        if first.sort == variable.sort {
            diagnostic = diagnostic.fix(
                format!("merge {name} into {base}"),
                ModelEdit::MergeVariable {
                    keep: base.to_string(),
                    merge: name.clone(),
                },
            );
        }
        found.push(Found::new(name, diagnostic));
    }
    for type_def in &model.types {
        for value in &type_def.values {
            let Some(base) = split_suffix(&value.value) else {
                continue;
            };
            let Some(home) = model
                .types
                .iter()
                .find(|t| t.values.iter().any(|v| v.value == base))
            else {
                continue;
            };
            let message = format!(
                "The value {} of {} sits beside {base} of {}: one category under two names \
                 (enum values must differ across types, so composition renamed one). Use \
                 one type for both, or name the values for what tells them apart.",
                value.value, type_def.name, home.name
            );
            let typed: Vec<&str> = model
                .variables
                .iter()
                .filter(|v| v.sort == type_def.name || v.sort == home.name)
                .map(|v| v.name.as_str())
                .collect();
            found.push(Found::new(
                &value.value,
                Diagnostic::new(LintCode::SplitName, Severity::Warning, message).variables(typed),
            ));
        }
    }
}
