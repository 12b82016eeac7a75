//! Which rules define which variables, and so which variables are inputs:
//! those no rule defines. A rule defines the variables its conclusions set:
//! `(= x …)`, a Bool `x` or `(not x)`, under any `=>` conditions, in each
//! conjunct of an `and` and each branch of an `ite`. Bounds and comparisons
//! (`(>= x 0)`, `(<= (* 2 x) y)`) constrain a variable without defining it.

use crate::model::CompiledModel;
use crate::smt::{Expr, ExprKind, Op};
use std::collections::BTreeSet;

/// The variables `formula` (a rule) defines.
pub fn defined_by(formula: &Expr, is_variable: &dyn Fn(&str) -> bool) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    collect(formula, is_variable, &mut out);
    out
}

fn variable_name<'a>(expr: &'a Expr, is_variable: &dyn Fn(&str) -> bool) -> Option<&'a str> {
    match &expr.kind {
        ExprKind::Symbol(name) if is_variable(name) => Some(name),
        ExprKind::App(Op::ToReal, args) if args.len() == 1 => variable_name(&args[0], is_variable),
        _ => None,
    }
}

fn collect(expr: &Expr, is_variable: &dyn Fn(&str) -> bool, out: &mut BTreeSet<String>) {
    match &expr.kind {
        ExprKind::Symbol(name) if is_variable(name) => {
            out.insert(name.clone());
        }
        ExprKind::App(Op::Not, args) if args.len() == 1 => {
            if let Some(name) = variable_name(&args[0], is_variable) {
                out.insert(name.to_string());
            }
        }
        ExprKind::App(Op::Implies, args) => {
            if let Some(conclusion) = args.last() {
                collect(conclusion, is_variable, out);
            }
        }
        ExprKind::App(Op::And, args) => args.iter().for_each(|a| collect(a, is_variable, out)),
        ExprKind::App(Op::Ite, args) if args.len() == 3 => {
            collect(&args[1], is_variable, out);
            collect(&args[2], is_variable, out);
        }
        // `(= x e)` and `(= e x)` say the same: whichever side is a
        // variable is defined (both, when both are).
        ExprKind::App(Op::Eq, args) if args.len() == 2 => {
            for arg in args {
                if let Some(name) = variable_name(arg, is_variable) {
                    out.insert(name.to_string());
                }
            }
        }
        _ => {}
    }
}

/// The model's input variables (no rule defines them), in declaration order.
pub fn inputs(model: &CompiledModel) -> Vec<String> {
    let is_variable = |name: &str| model.vocabulary.variable_sort(name).is_some();
    let defined: BTreeSet<String> = model
        .rules
        .iter()
        .flat_map(|r| defined_by(&r.formula, &is_variable))
        .collect();
    model
        .variables
        .iter()
        .map(|(name, _)| name.clone())
        .filter(|name| !defined.contains(name))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smt::parse_expr;

    fn defined(text: &str) -> Vec<String> {
        let known = ["x", "y", "b", "c", "n"];
        let expr = parse_expr(text).unwrap();
        defined_by(&expr, &|s| known.contains(&s))
            .into_iter()
            .collect()
    }

    #[test]
    fn conclusions_define_and_bounds_do_not() {
        assert_eq!(defined("(= x 50.0)"), ["x"]);
        assert_eq!(defined("(=> b (= y (* 2.0 x)))"), ["y"]);
        assert_eq!(defined("(=> (> x 1.0) (not c))"), ["c"]);
        assert_eq!(defined("(and (>= n 0) (= y (* 5 n)))"), ["y"]);
        assert_eq!(defined("(<= (* 2.0 x) y)"), Vec::<String>::new());
        assert_eq!(defined("(=> b (>= x 3.0))"), Vec::<String>::new());
        assert_eq!(defined("(ite b (= x 1.0) (= y 2.0))"), ["x", "y"]);
        assert_eq!(defined("(= c (<= x y))"), ["c"]);
    }
}
