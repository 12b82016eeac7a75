//! The SMT-LIB text of one query: declarations, the rules it needs (each
//! named by its id), the test's premise and claim, and `(check-sat)`, with
//! the expected answer in a comment.

use crate::model::CompiledModel;
use crate::smt::Expr;
use crate::smt::printer::quote_symbol;
use std::collections::BTreeSet;
use std::fmt::Write;

/// What a solver must answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    Sat,
    Unsat,
}

impl Answer {
    pub fn word(self) -> &'static str {
        match self {
            Answer::Sat => "sat",
            Answer::Unsat => "unsat",
        }
    }

    pub fn from_unsat(unsat: bool) -> Answer {
        if unsat { Answer::Unsat } else { Answer::Sat }
    }
}

/// How the claim enters a query.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClaimUse {
    /// Only the premise: are the rules and the premise consistent?
    Absent,
    /// The claim asserted: can it hold?
    Asserted,
    /// The claim negated: can it fail?
    Negated,
}

/// One query of the bundle.
#[derive(Debug, Clone)]
pub struct Query<'a> {
    /// What it asks, in words, for the comment at the top.
    pub purpose: String,
    /// Positions in `compiled.rules` of the rules it asserts.
    pub rules: Vec<usize>,
    pub premise: &'a Expr,
    pub claim: &'a Expr,
    pub claim_use: ClaimUse,
    pub expected: Answer,
}

/// Writes `query` over the declarations of `variables` (and every enum).
pub fn query_text(compiled: &CompiledModel, variables: &BTreeSet<String>, query: &Query) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "; {}", one_line(&query.purpose));
    let _ = writeln!(out, "; expected: {}", query.expected.word());
    out.push_str("(set-logic ALL)\n");
    for (name, values) in &compiled.enums {
        let values: Vec<String> = values
            .iter()
            .map(|v| format!("({})", quote_symbol(v)))
            .collect();
        let _ = writeln!(
            out,
            "(declare-datatypes (({} 0)) (({})))",
            quote_symbol(name),
            values.join(" ")
        );
    }
    for (name, sort) in &compiled.variables {
        if variables.contains(name) {
            let _ = writeln!(out, "(declare-const {} {sort})", quote_symbol(name));
        }
    }
    for &position in &query.rules {
        if let Some(rule) = compiled.rules.get(position) {
            let _ = writeln!(
                out,
                "(assert (! {} :named {}))",
                rule.formula,
                quote_symbol(&rule.id)
            );
        }
    }
    let _ = writeln!(out, "; the premise\n(assert {})", query.premise);
    match query.claim_use {
        ClaimUse::Absent => {}
        ClaimUse::Asserted => {
            let _ = writeln!(out, "; the claim\n(assert {})", query.claim);
        }
        ClaimUse::Negated => {
            let _ = writeln!(out, "; the claim, negated\n(assert (not {}))", query.claim);
        }
    }
    out.push_str("(check-sat)\n");
    out
}

pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
