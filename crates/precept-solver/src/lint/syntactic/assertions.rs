//! Unconditional assertions, and variables with missing or shared
//! descriptions.

use crate::lint::{Diagnostic, LintCode, Severity};
use crate::model::natural_order;
use crate::model::{CompiledModel, PolicyModel};

use super::found::*;

pub(super) const CONSEQUENCE: &str = "hold in every scenario and are a common cause of surprising \
                           IMPOSSIBLE results: any question whose premise contradicts one is \
                           impossible.";

pub(super) fn bare_assertions(compiled: &CompiledModel, found: &mut Vec<Found>) {
    let vocabulary = &compiled.vocabulary;
    for rule in &compiled.rules {
        let expr = &rule.written;
        if is_conditional(expr) {
            continue;
        }
        let id = rule.id.as_str();
        let message = match defined_variable(expr, vocabulary) {
            Some((variable, value)) => format!(
                "Rule {id} is a definition with no condition: it sets {variable} to {} in \
                 every scenario. Definitions like this are common and usually fine, but \
                 unconditional facts {CONSEQUENCE} Check that the document states it without \
                 exceptions; if it holds only in some cases, put it under that condition \
                 with =>.",
                quote(value),
            ),
            None => format!(
                "Rule {id} is a constraint with no condition: {} must hold in every scenario. \
                 Unconditional facts {CONSEQUENCE} Check that the document really states it \
                 unconditionally; if it holds only in some cases, put it under that condition \
                 with =>.",
                quote(expr)
            ),
        };
        found.push(Found::new(
            id,
            Diagnostic::new(LintCode::BareAssertion, Severity::Info, message)
                .rules([id])
                .variables(declared_symbols(expr, vocabulary)),
        ));
    }
}

// ------------------------------------------------------------ L140, L141

pub(super) const DESCRIPTION_MATTERS: &str = "Automated reasoning checks translate questions and answers \
                                   into logic by matching their words against the \
                                   descriptions, so without one the translator has to guess.";

pub(super) fn empty_descriptions(model: &PolicyModel, found: &mut Vec<Found>) {
    for type_def in &model.types {
        let name = &type_def.name;
        if type_def.description.trim().is_empty() {
            let message = format!(
                "The type {name} has no description. {DESCRIPTION_MATTERS} Say in the \
                 document's words what it classifies."
            );
            found.push(Found::new(
                name,
                Diagnostic::new(LintCode::EmptyDescription, Severity::Warning, message),
            ));
        }
        for value in &type_def.values {
            if value.description.trim().is_empty() {
                let message = format!(
                    "The value {} of the type {name} has no description. {DESCRIPTION_MATTERS} \
                     Say in the document's words which case it stands for.",
                    value.value
                );
                found.push(Found::new(
                    name,
                    Diagnostic::new(LintCode::EmptyDescription, Severity::Warning, message),
                ));
            }
        }
    }
    for variable in &model.variables {
        if variable.description.trim().is_empty() {
            let name = &variable.name;
            let message = format!(
                "The variable {name} has no description. {DESCRIPTION_MATTERS} Say in the \
                 document's words what it means, with its unit if it is a number."
            );
            found.push(Found::new(
                name,
                Diagnostic::new(LintCode::EmptyDescription, Severity::Warning, message)
                    .variables([name.as_str()]),
            ));
        }
    }
}

pub(super) fn shared_descriptions(model: &PolicyModel, found: &mut Vec<Found>) {
    let mut groups: Vec<(String, &str, Vec<&str>)> = Vec::new();
    for variable in &model.variables {
        let key = variable
            .description
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        if key.is_empty() {
            continue;
        }
        match groups.iter_mut().find(|(k, _, _)| *k == key) {
            Some((_, _, names)) => {
                if !names.contains(&variable.name.as_str()) {
                    names.push(&variable.name);
                }
            }
            None => groups.push((key, variable.description.trim(), vec![&variable.name])),
        }
    }
    for (_, description, mut names) in groups {
        if names.len() < 2 {
            continue;
        }
        names.sort_by(|a, b| natural_order(a, b));
        let message = format!(
            "The variables {} all have the description \"{description}\". The translator picks \
             variables by their descriptions, so it cannot tell these apart and may put a fact \
             about one into another. Say in each description what sets it apart, or merge them \
             if they are the same thing.",
            list(&names)
        );
        found.push(Found::new(
            names[0],
            Diagnostic::new(LintCode::SharedDescription, Severity::Warning, message)
                .variables(names.iter().copied()),
        ));
    }
}

// ---------------------------------------------------------------- words

use super::duplicates::{defined_variable, is_conditional};
