//! A core minimized in place and apart gives the same minimal rules, and
//! apart the question's formulas hold throughout.

use super::MINIMIZE_APART_FROM;
use crate::model::compile;
use crate::model::import::import_smtlib;
use crate::smt::parse_expr;
use crate::solve::session::{Interruption, SolverSession};
use z3::ast::Bool;

struct Never;

impl Interruption for Never {
    fn reason(&self) -> Option<String> {
        None
    }

    fn limit_checks(&self, _: Option<std::time::Duration>) {}

    fn start_check(&self) {}
}

/// `b_i ⇒ b_(i+1)` for i below 40 (rule R(i+1)).
fn chain() -> SolverSession {
    let mut smtlib = String::new();
    for i in 0..=40 {
        smtlib.push_str(&format!("(declare-const b{i} Bool)"));
    }
    for i in 0..40 {
        smtlib.push_str(&format!("(assert (=> b{i} b{}))", i + 1));
    }
    let compiled = compile(&import_smtlib(&smtlib).unwrap());
    SolverSession::load(&compiled, 5_000).unwrap()
}

/// A formula over the chain's variables, and a guard asserted for it.
fn guarded(session: &SolverSession, text: &str) -> (Bool, Bool) {
    let formula = session
        .vocabulary
        .formula(&parse_expr(text).unwrap())
        .unwrap();
    let guard = Bool::fresh_const("fixed");
    session.solver.assert(guard.implies(&formula));
    (guard, formula)
}

#[test]
fn every_rule_given_shrinks_to_the_only_minimal_set_in_place_and_apart() {
    for solver_rules in [1, MINIMIZE_APART_FROM] {
        let mut session = chain();
        let (premise_guard, premise) = guarded(&session, "b10");
        let (claim_guard, claim_fails) = guarded(&session, "(not b15)");
        let every_rule: Vec<usize> = (0..40).collect();
        let (minimal, proved) = session
            .minimize_question(
                every_rule,
                &[(&premise_guard, &premise), (&claim_guard, &claim_fails)],
                solver_rules,
                &Never,
            )
            .unwrap();
        assert_eq!(minimal, vec![10, 11, 12, 13, 14], "{solver_rules}");
        assert!(proved);
    }
}
