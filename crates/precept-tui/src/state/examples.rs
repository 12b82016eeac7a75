//! Example questions built from the open project's own vocabulary, for the
//! placeholders of the verify inputs: never another project's names.

use precept_engine::model::CompiledModel;
use precept_engine::smt::{Expr, ExprKind, Op, Sort};
use std::collections::HashSet;

/// What a rule concludes: the consequent of an implication, or the whole.
fn consequent(expr: &Expr) -> Option<&Expr> {
    match &expr.kind {
        ExprKind::App(Op::Implies, args) => args.last(),
        _ => Some(expr),
    }
}

/// Variables that some rule concludes (in the consequent of an implication
/// or defined by an equation): what a question usually asks about.
fn concluded(compiled: &CompiledModel) -> HashSet<&str> {
    compiled
        .rules
        .iter()
        .filter_map(|r| consequent(&r.written))
        .flat_map(|c| c.symbols())
        .collect()
}

/// Whether a rule as `written` bears on the examples: they pick Bool and
/// enumeration variables by whether some rule concludes them, so adding,
/// changing or deleting a rule that concludes none of those (before and
/// after) leaves them as they are.
pub fn bears_on_examples(compiled: &CompiledModel, written: &Expr) -> bool {
    consequent(written).is_some_and(|conclusion| {
        conclusion.symbols().into_iter().any(|name| {
            matches!(
                compiled.vocabulary.variable_sort(name),
                Some(Sort::Bool | Sort::Enum(_))
            )
        })
    })
}

/// A premise and a claim over this model, e.g. `(and (= tier GOLD)
/// isMember)` and `canBoard`; None for a part the model has nothing for.
pub fn verify_examples(compiled: &CompiledModel) -> (Option<String>, Option<String>) {
    let outputs = concluded(compiled);
    let claim = compiled
        .variables
        .iter()
        .filter(|(_, sort)| *sort == Sort::Bool)
        .map(|(name, _)| name)
        .find(|name| outputs.contains(name.as_str()))
        .or_else(|| {
            compiled
                .variables
                .iter()
                .find(|(_, sort)| *sort == Sort::Bool)
                .map(|(name, _)| name)
        })
        .cloned();
    let mut facts = Vec::new();
    let inputs = || {
        compiled
            .variables
            .iter()
            .filter(|(name, _)| !outputs.contains(name.as_str()) && Some(name) != claim.as_ref())
    };
    if let Some((name, value)) = inputs().find_map(|(name, sort)| match sort {
        Sort::Enum(type_name) => compiled
            .enums
            .iter()
            .find(|(t, _)| t == type_name)
            .and_then(|(_, values)| values.first())
            .map(|value| (name, value)),
        _ => None,
    }) {
        facts.push(format!("(= {name} {value})"));
    }
    if let Some((name, _)) = inputs().find(|(_, sort)| *sort == Sort::Bool) {
        facts.push(name.clone());
    }
    let premise = match facts.len() {
        0 => None,
        1 => facts.pop(),
        _ => Some(format!("(and {})", facts.join(" "))),
    };
    (premise, claim)
}

#[cfg(test)]
mod tests {
    use super::*;
    use precept_engine::model::compile;
    use precept_engine::model::import::import_smtlib;

    #[test]
    fn examples_use_the_models_own_names() {
        let model = import_smtlib(
            "(declare-datatype Tier ((GOLD) (SILVER)))
             (declare-const tier Tier)
             (declare-const member Bool)
             (declare-const canBoard Bool)
             (assert (=> (and member (= tier GOLD)) canBoard))",
        )
        .unwrap();
        let (premise, claim) = verify_examples(&compile(&model));
        assert_eq!(premise.as_deref(), Some("(and (= tier GOLD) member)"));
        assert_eq!(claim.as_deref(), Some("canBoard"));
        let empty = verify_examples(&compile(&Default::default()));
        assert_eq!(empty, (None, None));
    }

    #[test]
    fn only_a_rule_concluding_a_bool_or_enumeration_bears_on_the_examples() {
        let source = "(declare-const member Bool)
             (declare-const canBoard Bool)
             (declare-const fee Real)
             (assert (=> member canBoard))";
        let with_fee = format!("{source} (assert (=> member (>= fee 10.0)))");
        let without = compile(&import_smtlib(source).unwrap());
        let with = compile(&import_smtlib(&with_fee).unwrap());
        let [boards, charges] = [&with.rules[0].written, &with.rules[1].written];
        assert!(bears_on_examples(&with, boards));
        assert!(!bears_on_examples(&with, charges));
        // So adding (or changing, or deleting) the fee rule leaves them be.
        assert_eq!(verify_examples(&with), verify_examples(&without));
    }
}
