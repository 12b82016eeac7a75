//! A derivation chain as Markdown, for a review document.

use super::Chain;
use super::describe::step_source;
use crate::model::finding::Value;
use std::fmt::Write;

fn values(list: &[(String, Value)]) -> String {
    list.iter()
        .map(|(name, value)| format!("`{name}` = {value}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The chain as a numbered Markdown list: each step's rules (SMT-LIB and
/// English), the values it uses and derives, and the policy text it
/// formalizes as a quote.
pub fn chain_markdown(chain: &Chain) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "**Derivation of** `{}`\n", chain.goal);
    for (number, step) in chain.steps.iter().enumerate() {
        let label = if step.several_rules() {
            format!(
                "rules {} together (no single rule suffices: a case split)",
                step.rules.join(", ")
            )
        } else {
            format!("rule {}", step.rules.join(", "))
        };
        let _ = writeln!(out, "{}. By {label}:", number + 1);
        for text in &step.texts {
            let _ = writeln!(out, "   - `{}` {}: {}", text.smtlib, text.id, text.english);
        }
        if !step.uses.is_empty() {
            let _ = writeln!(out, "   - uses {}", values(&step.uses));
        }
        if !step.derives.is_empty() {
            let _ = writeln!(out, "   - derives {}", values(&step.derives));
        }
        if step.concludes {
            let _ = writeln!(out, "   - concludes `{}`", chain.goal);
        }
        let source = step_source(&step.texts);
        if !source.is_empty() {
            let _ = writeln!(out, "\n   > {source}\n");
        }
    }
    out
}
