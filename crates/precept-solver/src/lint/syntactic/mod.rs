//! Syntactic checks (no solver): declarations nothing uses, rules that do not
//! compile, duplicate and equivalent rules, unconditional assertions, and
//! missing or shared descriptions.
//!
//! Every check reads the stored model and its compiled form only, so the
//! whole pass is cheap enough to run on every edit.
//!
//! - `found`: a diagnostic with the name it sorts by, and how a message
//!   quotes rules and lists names
//! - `unused`: declarations nothing uses
//! - `compile_errors`: rules and declarations that do not compile, with the
//!   closest declared name as a fix
//! - `duplicates`: duplicate and equivalent rules
//! - `assertions`: unconditional assertions, missing and shared descriptions
//! - `decisions`: decisions nothing makes true or false, and one decision
//!   under two names

mod assertions;
mod compile_errors;
mod decisions;
mod duplicates;
mod found;
mod unused;

use crate::lint::Diagnostic;
use crate::model::{CompiledModel, PolicyModel, natural_order};
use assertions::{bare_assertions, empty_descriptions, shared_descriptions};
use compile_errors::compile_issue;
use decisions::{open_decisions, split_names};
use duplicates::duplicate_rules;
use unused::{mentioned_names, unused_enum_values, unused_types, unused_variables};

/// All syntactic diagnostics of a model, ordered by code and then by the rule
/// id or name each one is about (in natural order: R2 before R10).
pub fn check(model: &PolicyModel, compiled: &CompiledModel) -> Vec<Diagnostic> {
    use crate::model::orientation::oriented_model;
    let mentioned = mentioned_names(model);
    let mut found = Vec::new();
    unused_variables(model, &mentioned, &mut found);
    unused_types(model, &mentioned, &mut found);
    unused_enum_values(model, &mentioned, &mut found);
    for issue in &compiled.issues {
        found.push(compile_issue(model, compiled, issue));
    }
    // What rules decide and repeat is read from the way they point, however
    // they are written (`model/orientation.rs`).
    let oriented = oriented_model(model);
    let recompiled;
    let oriented_compiled = match oriented == *model {
        true => compiled,
        false => {
            recompiled = crate::model::compile(&oriented);
            &recompiled
        }
    };
    duplicate_rules(oriented_compiled, &mut found);
    bare_assertions(compiled, &mut found);
    empty_descriptions(model, &mut found);
    shared_descriptions(model, &mut found);
    split_names(model, &mut found);
    open_decisions(&oriented, &mut found);
    // Stable: diagnostics about one subject keep the order they were found in.
    found.sort_by(|a, b| {
        a.diagnostic
            .code
            .cmp(&b.diagnostic.code)
            .then_with(|| natural_order(&a.subject, &b.subject))
    });
    found.into_iter().map(|f| f.diagnostic).collect()
}

#[cfg(test)]
mod tests;
