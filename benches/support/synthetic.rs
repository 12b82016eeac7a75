//! A synthetic policy model at the scale of a long document: 1,500 rules
//! and 1,000 tests in 20 independent sections, each a chain of derived
//! amounts guarded by a few conditions. Shared by the benchmarks.
#![allow(dead_code)]

use precept::model::{LogicTest, PolicyModel, ReviewStatus, Rule, TestSuite, Variable};
use precept::solve::FindingKind;

pub const SECTIONS: usize = 20;
pub const RULES_PER_SECTION: usize = 75;
pub const TESTS_PER_SECTION: usize = 50;

/// One section: a chain of derived amounts guarded by a few conditions.
pub fn synthetic() -> (PolicyModel, TestSuite) {
    let mut model = PolicyModel {
        title: "Synthetic workbench model".into(),
        ..PolicyModel::default()
    };
    let mut tests = TestSuite::default();
    for s in 0..SECTIONS {
        let flag = |k: usize| format!("s{s}_eligible{k}");
        let amount = |k: usize| format!("s{s}_amount{k}");
        for k in 0..5 {
            model.variables.push(Variable {
                reading: Default::default(),
                name: flag(k),
                sort: "Bool".into(),
                description: format!("Whether condition {k} of section {s} holds"),
            });
        }
        for k in 0..RULES_PER_SECTION {
            model.variables.push(Variable {
                reading: Default::default(),
                name: amount(k),
                sort: "Real".into(),
                description: format!("Amount {k} of section {s} in dollars"),
            });
        }
        for k in 0..RULES_PER_SECTION {
            let expression = if k == 0 {
                format!("(=> {} (>= {} 100.0))", flag(0), amount(0))
            } else {
                format!(
                    "(=> {} (>= {} (+ {} {}.0)))",
                    flag(k % 5),
                    amount(k),
                    amount(k - 1),
                    k % 7
                )
            };
            model.rules.push(Rule {
                id: format!("R{}", s * RULES_PER_SECTION + k + 1),
                expression,
                source_span: None,
                also_from: Vec::new(),
                review: ReviewStatus::Unreviewed,
                note: String::new(),
            });
        }
        for t in 0..TESTS_PER_SECTION {
            let k = 1 + t % (RULES_PER_SECTION - 1);
            let (premise, claim, expected) = match t % 3 {
                0 => (
                    format!("(and {} {} {})", flag(0), flag(k % 5), flag((k - 1) % 5)),
                    format!("(>= {} 100.0)", amount(k)),
                    FindingKind::Satisfiable,
                ),
                1 => (
                    format!("(and {} (< {} 0.0))", flag(0), amount(0)),
                    format!("(> {} 1.0)", amount(k)),
                    FindingKind::Impossible,
                ),
                _ => (
                    format!("(and {} (= {} 5.0))", flag(k % 5), amount(k - 1)),
                    format!("(< {} 5.0)", amount(k)),
                    FindingKind::Invalid,
                ),
            };
            tests.tests.push(LogicTest::new(
                format!("T{}", s * TESTS_PER_SECTION + t + 1),
                format!("section {s} question {t}"),
                premise,
                claim,
                expected,
            ));
        }
    }
    (model, tests)
}
