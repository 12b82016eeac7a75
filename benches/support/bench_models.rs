//! The two models every whole-model bench reports (issue 37): the
//! sectioned model (`synthetic.rs`: 1,500 rules, 1,000 tests in 20
//! independent sections) and the dense one (`dense_model.rs`: 1,500 random
//! implications nearly all in one cone) with tests of its own.
//!
//! `PRECEPT_BENCH_MODEL=sectioned` or `=dense` measures only that model;
//! the default is both, sectioned first.
//!
//! A bench that includes this file includes `synthetic.rs`,
//! `dense_model.rs` and `scale_model.rs` too.
#![allow(dead_code)]

use precept::model::{LogicTest, PolicyModel, TestSuite, compile};
use precept::solve::{FindingKind, SolverWorker};
use std::time::Duration;

/// How many tests the dense model gets: a third from its rules read
/// forwards, a third from their conclusions denied, a third random.
pub const DENSE_TESTS: usize = 300;

/// Which of the two bench models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Sectioned,
    Dense,
}

impl Shape {
    pub fn name(self) -> &'static str {
        match self {
            Shape::Sectioned => "sectioned",
            Shape::Dense => "dense",
        }
    }
}

/// The models `PRECEPT_BENCH_MODEL` asks for (both by default).
pub fn chosen() -> Vec<Shape> {
    match std::env::var("PRECEPT_BENCH_MODEL").as_deref() {
        Ok("sectioned") => vec![Shape::Sectioned],
        Ok("dense") => vec![Shape::Dense],
        Ok(other) if !other.is_empty() => {
            panic!("PRECEPT_BENCH_MODEL is `sectioned` or `dense`, not `{other}`")
        }
        _ => vec![Shape::Sectioned, Shape::Dense],
    }
}

/// The model of that shape, without tests.
pub fn model(shape: Shape) -> PolicyModel {
    match shape {
        Shape::Sectioned => crate::synthetic::synthetic().0,
        Shape::Dense => crate::dense_model::dense(),
    }
}

/// The model of that shape with its test suite. The dense model's tests
/// are questions whose expected finding is the one a solver proves, as an
/// expert accepts a proposed test.
pub fn with_tests(shape: Shape) -> (PolicyModel, TestSuite) {
    match shape {
        Shape::Sectioned => crate::synthetic::synthetic(),
        Shape::Dense => {
            let model = crate::dense_model::dense();
            let tests = dense_tests(&model, DENSE_TESTS);
            (model, tests)
        }
    }
}

/// `count` accepted tests of the dense model: a rule's condition with its
/// conclusion, the same with the conclusion denied, and random questions,
/// in turn; each expects what one worker proves (a question the solver
/// cannot settle is left out).
pub fn dense_tests(model: &PolicyModel, count: usize) -> TestSuite {
    let compiled = compile(model);
    let worker = SolverWorker::spawn(Duration::from_secs(5));
    worker
        .load(compiled.clone())
        .expect("the dense model loads");
    let random = crate::dense_model::questions(count);
    let step = (model.rules.len() / count.max(1)).max(1);
    let mut tests = TestSuite::default();
    for (n, question) in random.into_iter().enumerate() {
        let rule = &model.rules[(n * step) % model.rules.len()];
        let (premise, claim) = match n % 3 {
            0 => implication(&rule.expression),
            1 => {
                let (condition, conclusion) = implication(&rule.expression);
                (condition, format!("(not {conclusion})"))
            }
            _ => question,
        };
        let parse = |text: &str| compiled.check_formula(text).expect("a dense question").1;
        let finding = worker.verify(parse(&premise), parse(&claim));
        if matches!(finding.kind, FindingKind::TooComplex) {
            continue;
        }
        tests.tests.push(LogicTest::new(
            format!("T{}", n + 1),
            format!("dense question {}", n + 1),
            premise,
            claim,
            finding.kind,
        ));
    }
    tests
}

/// The condition and conclusion of a dense rule `(=> C K)`.
pub fn implication(expression: &str) -> (String, String) {
    let body = expression
        .strip_prefix("(=> ")
        .and_then(|rest| rest.strip_suffix(')'))
        .expect("a dense rule is an implication");
    let mut depth = 0i32;
    let split = body
        .char_indices()
        .find(|&(_, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            c == ' ' && depth == 0
        })
        .map(|(at, _)| at)
        .expect("a dense rule has a condition and a conclusion");
    (body[..split].to_string(), body[split + 1..].to_string())
}
