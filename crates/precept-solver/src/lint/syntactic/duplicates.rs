//! Duplicate rules, and rules equal up to argument order or renaming.

use crate::lint::{Diagnostic, LintCode, ModelEdit, Severity};
use crate::model::CompiledModel;
use crate::smt::printer::quote_symbol;
use crate::smt::{Expr, ExprKind, Op, Vocabulary};
use std::collections::HashMap;

use super::found::*;

pub(super) fn is_commutative(op: Op) -> bool {
    matches!(
        op,
        Op::And | Op::Or | Op::Eq | Op::Distinct | Op::Add | Op::Mul
    )
}

/// The expression with `>`/`>=` turned into `<`/`<=` (arguments reversed)
/// and the arguments of commutative operators sorted by `key`. Nested
/// operators are not flattened.
pub(super) fn reorder(expr: &Expr, key: &dyn Fn(&Expr) -> String) -> Expr {
    match &expr.kind {
        ExprKind::App(op, args) => {
            let mut args: Vec<Expr> = args.iter().map(|a| reorder(a, key)).collect();
            let op = match op {
                Op::Gt => {
                    args.reverse();
                    Op::Lt
                }
                Op::Ge => {
                    args.reverse();
                    Op::Le
                }
                other => *other,
            };
            if is_commutative(op) {
                args.sort_by_cached_key(|a| key(a));
            }
            Expr::app(op, args)
        }
        _ => expr.clone(),
    }
}

/// The printed form with each variable replaced by a placeholder of its sort.
pub(super) fn shape(expr: &Expr, vocabulary: &Vocabulary) -> String {
    match &expr.kind {
        ExprKind::Symbol(name) => match vocabulary.variable_sort(name) {
            Some(sort) => format!("?{}", sort.name()),
            None => quote_symbol(name),
        },
        ExprKind::App(op, args) => {
            let mut out = format!("({}", op.symbol());
            for arg in args {
                out.push(' ');
                out.push_str(&shape(arg, vocabulary));
            }
            out.push(')');
            out
        }
        _ => expr.to_string(),
    }
}

/// The canonical form up to consistent renaming of variables (each renamed by
/// its sort and the order it first appears), and the variables in that order.
pub(super) fn renamed_form(expr: &Expr, vocabulary: &Vocabulary) -> (String, Vec<String>) {
    // Ties between arguments of one shape are broken by their names, so rules
    // that share most variables line them up the same way.
    let ordered = reorder(expr, &|e| format!("{}\u{1}{e}", shape(e, vocabulary)));
    let order: Vec<String> = ordered
        .symbols()
        .into_iter()
        .filter(|s| vocabulary.variable_sort(s).is_some())
        .map(str::to_string)
        .collect();
    let numbers: HashMap<&str, usize> = order
        .iter()
        .enumerate()
        .map(|(i, name)| (name.as_str(), i))
        .collect();
    let renamed = ordered.rename_symbols(&|name| {
        let number = numbers.get(name)?;
        let sort = vocabulary.variable_sort(name)?;
        Some(format!("?{}#{number}", sort.name()))
    });
    (renamed.to_string(), order)
}

pub(super) fn duplicate_rules(compiled: &CompiledModel, found: &mut Vec<Found>) {
    let rules = &compiled.rules;
    let vocabulary = &compiled.vocabulary;
    let texts: Vec<String> = rules.iter().map(|r| r.written.to_string()).collect();
    let canonical: Vec<String> = rules
        .iter()
        .map(|r| reorder(&r.written, &|e| e.to_string()).to_string())
        .collect();
    // The first rule with each text, and with each canonical form.
    let mut first_text: HashMap<&str, usize> = HashMap::new();
    let mut first_canonical: HashMap<&str, usize> = HashMap::new();
    for (i, (text, form)) in texts.iter().zip(&canonical).enumerate() {
        first_text.entry(text.as_str()).or_insert(i);
        first_canonical.entry(form.as_str()).or_insert(i);
    }
    // The first rule of each class of rules equal up to argument order.
    let mut representatives = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        let later = rule.id.as_str();
        let same_text = first_text[texts[i].as_str()];
        let same_canonical = first_canonical[canonical[i].as_str()];
        if same_text < i {
            let j = same_text;
            let earlier = rules[j].id.as_str();
            let message = format!(
                "Rule {later} is the same rule as {earlier}: {}. The copy adds nothing to the \
                 model, doubles the reviewing, and an edit to one copy leaves the other behind. \
                 Delete {later}.",
                quote(&rule.written)
            );
            found.push(Found::new(
                later,
                Diagnostic::new(LintCode::DuplicateRule, Severity::Warning, message)
                    .rules([later, earlier])
                    .variables(declared_symbols(&rule.written, vocabulary))
                    .fix(
                        format!("delete {later}, a copy of {earlier}"),
                        ModelEdit::DeleteRule {
                            id: later.to_string(),
                            into: Some(earlier.to_string()),
                        },
                    ),
            ));
        } else if same_canonical < i {
            let j = same_canonical;
            let earlier = rules[j].id.as_str();
            let message = format!(
                "Rule {later} says the same as {earlier}, only with the arguments of an \
                 operator such as and, or, =, + or * (or the sides of a comparison) in another \
                 order: {} against {}. Keeping both adds nothing and an edit to one leaves the \
                 other behind. Delete {later}.",
                quote(&rule.written),
                quote(&rules[j].written)
            );
            found.push(Found::new(
                later,
                Diagnostic::new(LintCode::EquivalentRule, Severity::Warning, message)
                    .rules([later, earlier])
                    .variables(declared_symbols(&rule.written, vocabulary))
                    .fix(
                        format!("delete {later}, a reordering of {earlier}"),
                        ModelEdit::DeleteRule {
                            id: later.to_string(),
                            into: Some(earlier.to_string()),
                        },
                    ),
            ));
        } else {
            representatives.push(i);
        }
    }
    let mut first_of_shape: HashMap<String, (Vec<String>, usize)> = HashMap::new();
    // Only rules that repeat a number or an enum value can be a copy left
    // half adapted; two rules of the bare shape `(=> a b)` are just two rules.
    for i in representatives
        .into_iter()
        .filter(|&i| has_constant(&rules[i].written, vocabulary))
    {
        let (form, order) = renamed_form(&rules[i].written, vocabulary);
        let Some((earlier_order, j)) = first_of_shape.get(&form) else {
            first_of_shape.insert(form, (order, i));
            continue;
        };
        let later = rules[i].id.as_str();
        let earlier = rules[*j].id.as_str();
        let mut pairs: Vec<(&str, &str)> = order
            .iter()
            .zip(earlier_order)
            .filter(|(a, b)| a != b)
            .map(|(a, b)| (a.as_str(), b.as_str()))
            .collect();
        // In the order the later rule mentions them as written.
        let written = rules[i].written.symbols();
        pairs.sort_by_key(|(now, _)| written.iter().position(|s| s == now));
        let swaps: Vec<String> = pairs
            .iter()
            .map(|(now, before)| format!("{now} where {earlier} has {before}"))
            .collect();
        let message = format!(
            "Rule {later} has the same shape as {earlier} over different variables: {later} \
             uses {}. That is often intended (the same rule for two products or two cases), \
             but a rule copied and only partly adapted looks the same way, with the same \
             numbers and values. Check that the document really gives both cases this \
             treatment.",
            list(&swaps)
        );
        let variables = unique(
            pairs
                .iter()
                .map(|(now, _)| *now)
                .chain(pairs.iter().map(|(_, before)| *before)),
        );
        found.push(Found::new(
            later,
            Diagnostic::new(LintCode::EquivalentRule, Severity::Info, message)
                .rules([later, earlier])
                .variables(variables),
        ));
    }
}

/// Whether the expression mentions a number or an enum value.
fn has_constant(expr: &Expr, vocabulary: &Vocabulary) -> bool {
    match &expr.kind {
        ExprKind::Bool(_) => false,
        ExprKind::Int(_) | ExprKind::Decimal(_) => true,
        ExprKind::Symbol(name) => vocabulary.variable_sort(name).is_none(),
        ExprKind::App(_, args) => args.iter().any(|a| has_constant(a, vocabulary)),
    }
}

// ------------------------------------------------------------------ L130

/// An implication, or a conjunction of conditional parts.
pub(super) fn is_conditional(expr: &Expr) -> bool {
    match &expr.kind {
        ExprKind::App(Op::Implies, _) => true,
        ExprKind::App(Op::And, args) => args.iter().all(is_conditional),
        _ => false,
    }
}

/// The variable a rule of the form `(= var expr)` defines, when `var` does
/// not occur in `expr`.
pub(super) fn defined_variable<'a>(
    expr: &'a Expr,
    vocabulary: &Vocabulary,
) -> Option<(&'a str, &'a Expr)> {
    let ExprKind::App(Op::Eq, args) = &expr.kind else {
        return None;
    };
    let [left, right] = args.as_slice() else {
        return None;
    };
    for (side, other) in [(left, right), (right, left)] {
        if let ExprKind::Symbol(name) = &side.kind
            && vocabulary.variable_sort(name).is_some()
            && !other.symbols().contains(&name.as_str())
        {
            return Some((name, other));
        }
    }
    None
}
