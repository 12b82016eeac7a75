//! SMT-LIB export: a script any SMT-LIB 2.6 solver accepts, with explicit
//! `to_real` where Int meets Real and each rule named by its id. Each
//! definition rides in a `(set-info :precept-definition "…")` that solvers
//! ignore and `import_smtlib` reads back.

use crate::model::{CompiledModel, PolicyModel};
use crate::smt::printer::quote_symbol;
use std::fmt::Write;

/// Writes the model (rules that compiled) as an SMT-LIB script ending in `(check-sat)`.
pub fn to_smtlib(model: &PolicyModel, compiled: &CompiledModel) -> String {
    let mut out = String::new();
    let title = if model.title.is_empty() {
        "policy model"
    } else {
        &model.title
    };
    let _ = writeln!(out, "; {} (exported by Precept)", one_line(title));
    out.push_str("(set-logic ALL)\n");
    for type_def in &model.types {
        if !type_def.description.is_empty() {
            let _ = writeln!(
                out,
                "; {}: {}",
                type_def.name,
                one_line(&type_def.description)
            );
        }
        let values: Vec<String> = type_def
            .values
            .iter()
            .map(|v| format!("({})", quote_symbol(&v.value)))
            .collect();
        let _ = writeln!(
            out,
            "(declare-datatypes (({} 0)) (({})))",
            quote_symbol(&type_def.name),
            values.join(" ")
        );
    }
    for variable in &model.variables {
        if !variable.description.is_empty() {
            let _ = writeln!(
                out,
                "; {}: {}",
                variable.name,
                one_line(&variable.description)
            );
        }
        let sort = crate::smt::Sort::from_name(&variable.sort);
        let _ = writeln!(
            out,
            "(declare-const {} {sort})",
            quote_symbol(&variable.name)
        );
    }
    for rule in &compiled.rules {
        let _ = writeln!(
            out,
            "(assert (! {} :named {}))",
            rule.formula,
            quote_symbol(&rule.id)
        );
    }
    // Each definition travels whole, so an import gives it back; its
    // rules are among the assertions above.
    for definition in &model.definitions {
        let json = serde_json::to_string(definition).unwrap_or_default();
        let _ = writeln!(
            out,
            "(set-info :precept-definition \"{}\")",
            json.replace('"', "\"\"")
        );
    }
    out.push_str("(check-sat)\n");
    out
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
