//! Unit tests of the syntactic checks' helpers.

use super::compile_errors::*;
use super::duplicates::*;
use super::found::*;
use super::unused::*;
use super::*;
use crate::lint::ModelEdit;
use crate::model::Rule;
use crate::model::compile;
use crate::model::import::import_smtlib;
use crate::smt::{Expr, Vocabulary, parse_expr};

const SOURCE: &str = "(declare-datatype Tier ((GOLD) (SILVER)))
    (declare-const tier Tier)
    (declare-const a Bool)
    (declare-const b Bool)
    (declare-const x Real)
    (declare-const y Real)
    (declare-const n Int)
    (assert (=> (= tier GOLD) (> x 1.0)))";

fn vocabulary() -> Vocabulary {
    compile(&import_smtlib(SOURCE).unwrap()).vocabulary
}

fn expr(text: &str) -> Expr {
    parse_expr(text).unwrap()
}

fn plain(text: &str) -> String {
    reorder(&expr(text), &|e| e.to_string()).to_string()
}

fn codes(model: &PolicyModel) -> Vec<&'static str> {
    check(model, &compile(model))
        .iter()
        .map(|d| d.code.code())
        .collect()
}

#[test]
fn reordering_sorts_commutative_arguments_and_mirrors_comparisons() {
    assert_eq!(plain("(and b a)"), plain("(and a b)"));
    assert_eq!(plain("(= (+ 2.0 y) x)"), plain("(= x (+ y 2.0))"));
    assert_eq!(plain("(> x y)"), "(< y x)");
    assert_eq!(plain("(>= x y n)"), "(<= n y x)");
    // Not commutative: order kept.
    assert_eq!(plain("(- x y)"), "(- x y)");
    assert_eq!(plain("(=> a b)"), "(=> a b)");
    assert_ne!(plain("(=> a b)"), plain("(=> b a)"));
    // Not flattened: nesting is kept.
    assert_ne!(plain("(and a (and b x))"), plain("(and (and a b) x)"));
    assert_eq!(plain("(and a (and b a))"), plain("(and (and a b) a)"));
}

#[test]
fn renamed_forms_are_equal_only_for_consistent_renamings_of_one_sort() {
    let v = vocabulary();
    let form = |text: &str| renamed_form(&expr(text), &v);
    assert_eq!(form("(=> a (> x 1.0))").0, form("(=> b (> y 1.0))").0);
    assert_eq!(form("(=> a (> x y))").0, form("(=> b (< x y))").0);
    // x used twice must map to one variable.
    assert_ne!(form("(> (+ x x) 1.0)").0, form("(> (+ x y) 1.0)").0);
    // Real and Int variables are not interchangeable.
    assert_ne!(form("(> x 1)").0, form("(> n 1)").0);
    // Enum values are constants, not variables.
    assert_ne!(form("(= tier GOLD)").0, form("(= tier SILVER)").0);
    assert_eq!(
        form("(and (= tier GOLD) a)").1,
        vec!["tier".to_string(), "a".to_string()]
    );
}

#[test]
fn conditional_rules_and_definitions() {
    let v = vocabulary();
    assert!(is_conditional(&expr("(=> a b)")));
    assert!(is_conditional(&expr("(and (=> a b) (=> b a))")));
    assert!(!is_conditional(&expr("(and (=> a b) b)")));
    assert!(!is_conditional(&expr("(= x 1.0)")));
    let defined = |text: &str| {
        let e = expr(text);
        defined_variable(&e, &v).map(|(name, _)| name.to_string())
    };
    assert_eq!(defined("(= x 1.0)").as_deref(), Some("x"));
    assert_eq!(defined("(= (* 2.0 y) x)").as_deref(), Some("x"));
    assert_eq!(defined("(= x (+ x 1.0))"), None);
    assert_eq!(defined("(= tier GOLD)").as_deref(), Some("tier"));
    assert_eq!(defined("(= GOLD GOLD)"), None);
    assert_eq!(defined("(= x y n)"), None);
}

#[test]
fn spelling_distance_ignores_case() {
    assert_eq!(spelling_distance("baseFee", "basefee"), 0);
    assert_eq!(spelling_distance("feee", "fee"), 1);
    assert_eq!(spelling_distance("fee", "fie"), 1);
    assert_eq!(spelling_distance("", "abc"), 3);
    assert_eq!(spelling_distance("price", "fee"), 4);
}

#[test]
fn broken_rules_still_count_as_using_their_names() {
    assert_eq!(symbols_in_text("(> fee 1.0)"), vec!["fee"]);
    // Unbalanced: the lexer still finds the symbols.
    assert_eq!(
        symbols_in_text("(> fee |two words|"),
        vec![">", "fee", "two words"]
    );
    // Not even lexable.
    assert!(symbols_in_text("(> fee |open").contains(&"fee".to_string()));
}

#[test]
fn words() {
    assert_eq!(list(&["a"]), "a");
    assert_eq!(list(&["a", "b"]), "a and b");
    assert_eq!(list(&["a", "b", "c"]), "a, b and c");
    assert_eq!(unique(["x", "y", "x"]), vec!["x", "y"]);
    let long = expr(&format!("(and {})", vec!["a"; 60].join(" ")));
    assert!(quote(&long).ends_with("..."));
}

#[test]
fn a_clean_model_has_no_diagnostics() {
    let mut model = import_smtlib(
        "(declare-datatype Tier ((GOLD) (SILVER)))
         (declare-const tier Tier)
         (declare-const fee Real)
         (assert (=> (= tier GOLD) (> fee 10.0)))
         (assert (=> (= tier SILVER) (< fee 5.0)))",
    )
    .unwrap();
    model.types[0].description = "membership tier".into();
    model.types[0].values[0].description = "gold members".into();
    model.types[0].values[1].description = "silver members".into();
    model.variables[0].description = "the member's tier".into();
    model.variables[1].description = "fee in dollars".into();
    assert!(codes(&model).is_empty(), "{:?}", codes(&model));
}

#[test]
fn diagnostics_come_ordered_by_code_then_subject() {
    let mut model = import_smtlib(
        "(declare-datatype Tier ((GOLD) (SILVER)))
         (declare-const tier Tier)
         (declare-const x10 Real)
         (declare-const x9 Real)
         (declare-const fee Real)
         (assert (= fee 1.0))
         (assert (= fee 1.0))",
    )
    .unwrap();
    model.rules.push(Rule {
        id: "R3".into(),
        expression: "(> fe 1.0)".into(),
        source_span: None,
        also_from: Vec::new(),
        review: Default::default(),
        note: String::new(),
    });
    let compiled = compile(&model);
    let diagnostics = check(&model, &compiled);
    let summary: Vec<(String, String)> = diagnostics
        .iter()
        .map(|d| {
            let subject = d.rules.first().or(d.variables.first());
            (
                d.code.code().to_string(),
                subject.cloned().unwrap_or_default(),
            )
        })
        .collect();
    let expected = [
        ("L101", "tier"),
        ("L101", "x9"),
        ("L101", "x10"),
        ("L110", "R3"),
        ("L120", "R2"),
        ("L130", "R1"),
        ("L130", "R2"),
        ("L140", ""),
        ("L140", ""),
        ("L140", ""),
        ("L140", "fee"),
        ("L140", "tier"),
        ("L140", "x9"),
        ("L140", "x10"),
    ];
    let expected: Vec<(String, String)> = expected
        .iter()
        .map(|(c, s)| (c.to_string(), s.to_string()))
        .collect();
    assert_eq!(summary, expected);
    let fix = diagnostics[3].fix.as_ref().unwrap();
    assert_eq!(
        fix.edit,
        ModelEdit::ReplaceRule {
            id: "R3".into(),
            expression: "(> fee 1.0)".into()
        }
    );
}
