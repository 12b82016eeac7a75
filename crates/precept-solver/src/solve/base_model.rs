//! A cone's base model: a scenario of all its rules that an earlier check
//! in its solver found, kept so that later questions can be decided near
//! the question with the rest of the cone as it is there (`near_check.rs`).

use crate::smt::{Expr, ExprKind, Op};
use num_traits::Zero;
use z3::Model;

/// A cone of fewer rules is always checked whole: the small check would
/// save little and cost a solver.
pub(super) const NEAR_CHECK_MIN_CONE_RULES: usize = 256;

/// A scenario of a cone's rules (a model of them all), found by an earlier
/// check in the cone's solver.
pub(super) struct BaseModel {
    /// The rules it satisfies, by position, sorted.
    pub(super) rules: Vec<usize>,
    pub(super) model: Model,
}

impl BaseModel {
    /// Whether it satisfies every rule of `rules`.
    pub(super) fn covers(&self, rules: &[usize]) -> bool {
        rules.iter().all(|r| self.rules.binary_search(r).is_ok())
    }
}

/// Whether `formula` divides by anything but a non-zero numeral. Z3 gives
/// a division by zero a value of its own choosing, one function shared by
/// every rule: the small solver could choose it otherwise than the base
/// model, and the joined values would not be a scenario. A cone with such a
/// rule is always checked whole.
pub(super) fn divides_by_a_term(formula: &Expr) -> bool {
    fn non_zero_numeral(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Int(n) => !n.is_zero(),
            ExprKind::Decimal(r) => !r.is_zero(),
            ExprKind::App(Op::ToReal, args) => args.len() == 1 && non_zero_numeral(&args[0]),
            _ => false,
        }
    }
    let mut found = false;
    formula.visit(&mut |e| {
        if let ExprKind::App(Op::Div, args) = &e.kind {
            found |= !args.iter().skip(1).all(non_zero_numeral);
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::divides_by_a_term;
    use crate::smt::parse_expr;

    #[test]
    fn only_a_division_by_a_term_or_by_zero_counts() {
        let divides = |f: &str| divides_by_a_term(&parse_expr(f).unwrap());
        assert!(divides("(> (/ fee units) 2.0)"));
        assert!(divides("(= share (/ total 0.0))"));
        assert!(divides("(= share (/ total 2.0 rate))"));
        assert!(!divides("(= share (/ total 2.0))"));
        assert!(!divides("(= share (/ total (to_real 4)))"));
        assert!(!divides("(=> b (>= fee 12.5))"));
    }
}
