//! Random models of two or three independent groups of rules, and random
//! questions on them, for comparing two ways of running the same checks.

use precept::model::{CompiledModel, LogicTest, compile};
use precept::solve::FindingKind;
use proptest::prelude::*;
use serde_json::{Value, json};

/// A random model of two or three groups of rules over their own
/// variables: group g has Int x{g}_0..1 and Bool b{g}_0..2, rules
/// `(=> flag (op x c))` or `(=> (and flag (op x c)) other-flag)`.
pub fn random_model(rules: &[(u8, u8, u8, u8, i8, u8)]) -> CompiledModel {
    let ops = ["<", "<=", ">", ">=", "="];
    let mut variables = Vec::new();
    for g in 0..3 {
        variables.extend((0..2).map(|i| json!({ "name": format!("x{g}_{i}"), "type": "Int" })));
        variables.extend((0..3).map(|i| json!({ "name": format!("b{g}_{i}"), "type": "Bool" })));
    }
    let rules: Vec<Value> = rules
        .iter()
        .enumerate()
        .map(|(i, &(group, shape, flag, x, c, op))| {
            let g = group % 3;
            let (flag, x, op) = (flag % 3, x % 2, ops[op as usize % ops.len()]);
            let c = if c < 0 {
                format!("(- {})", -i16::from(c))
            } else {
                c.to_string()
            };
            let expression = if shape % 2 == 0 {
                format!("(=> b{g}_{flag} ({op} x{g}_{x} {c}))")
            } else {
                format!(
                    "(=> (and b{g}_{flag} ({op} x{g}_{x} {c})) b{g}_{})",
                    (flag + 1) % 3
                )
            };
            json!({ "id": format!("R{}", i + 1), "expression": expression })
        })
        .collect();
    let model = json!({ "schema_version": 1, "variables": variables, "rules": rules });
    let compiled = compile(&serde_json::from_value(model).unwrap());
    assert!(compiled.issues.is_empty(), "{:?}", compiled.issues);
    compiled
}

pub fn random_tests(tests: &[(u8, u8, i8)]) -> Vec<LogicTest> {
    tests
        .iter()
        .enumerate()
        .map(|(i, &(group, flag, c))| {
            let g = group % 3;
            LogicTest::new(
                format!("T{}", i + 1),
                format!("random question {i}"),
                format!("(and b{g}_{} (> x{g}_0 {}))", flag % 3, c.max(0)),
                format!("b{g}_{}", (flag + 1) % 3),
                FindingKind::Valid,
            )
        })
        .collect()
}

/// The rules `random_model` takes: 3 to 9 of them.
pub fn random_rules() -> impl Strategy<Value = Vec<(u8, u8, u8, u8, i8, u8)>> {
    prop::collection::vec((0u8..3, 0u8..2, 0u8..3, 0u8..2, -5i8..6, 0u8..5), 3..10)
}

/// The questions `random_tests` takes: 1 to 7 of them.
pub fn random_questions() -> impl Strategy<Value = Vec<(u8, u8, i8)>> {
    prop::collection::vec((0u8..3, 0u8..3, -3i8..6), 1..8)
}
