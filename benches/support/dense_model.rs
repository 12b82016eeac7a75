//! A densely connected model the product was not tuned for: 1,500 random
//! implications over 2,000 variables (500 Bool, 450 Int, 450 Real, and 600
//! enum variables of 600 types with 3–5 values each). Each antecedent has
//! 1–3 atoms and each conclusion one: a Bool literal, an Int bound such as
//! `(<= n12 40)`, a linear ratio between two Reals such as
//! `(<= x3 (* 0.7 x9))`, or an enum equality. Variables are drawn from the
//! whole vocabulary, so nearly every rule lands in one connected cone.
//!
//! Consistency holds by construction: a hidden assignment is drawn first,
//! and a rule is kept only when that assignment satisfies it.
//!
//! Its random numbers come from the scale model's fixed-seed generator
//! (`scale_model.rs`), which a bench that uses this model includes too.
#![allow(dead_code)]

use crate::scale_model::Rng;
use precept::model::{EnumValue, PolicyModel, ReviewStatus, Rule, TypeDef, Variable};

pub const DENSE_SEED: u64 = 0xD15E_A5E0_0274_1500;
pub const BOOLS: usize = 500;
pub const INTS: usize = 450;
pub const REALS: usize = 450;
pub const ENUMS: usize = 600;
pub const RULES: usize = 1_500;

/// The hidden assignment a rule must satisfy.
struct Hidden {
    bools: Vec<bool>,
    ints: Vec<i64>,
    /// Tenths, so every ratio is exact.
    reals: Vec<i64>,
    enums: Vec<usize>,
    sizes: Vec<usize>,
}

/// One atom and whether the hidden assignment makes it true.
fn atom(rng: &mut Rng, hidden: &Hidden) -> (String, bool) {
    match rng.below(4) {
        0 => {
            let b = rng.below(BOOLS);
            match rng.below(2) {
                0 => (format!("b{b}"), hidden.bools[b]),
                _ => (format!("(not b{b})"), !hidden.bools[b]),
            }
        }
        1 => {
            let n = rng.below(INTS);
            let bound = rng.below(101) as i64;
            match rng.below(2) {
                0 => (format!("(<= n{n} {bound})"), hidden.ints[n] <= bound),
                _ => (format!("(>= n{n} {bound})"), hidden.ints[n] >= bound),
            }
        }
        2 => {
            let (x, y) = (rng.below(REALS), rng.below(REALS));
            let tenths = 1 + rng.below(19) as i64;
            // x <= (tenths/10) * y, compared in whole hundredths.
            let holds = hidden.reals[x] * 10 <= tenths * hidden.reals[y];
            (
                format!("(<= x{x} (* {}.{} x{y}))", tenths / 10, tenths % 10),
                holds,
            )
        }
        _ => {
            let e = rng.below(ENUMS);
            let v = rng.below(hidden.sizes[e]);
            (format!("(= e{e} T{e}_V{v})"), hidden.enums[e] == v)
        }
    }
}

/// The enum types' sizes and the hidden assignment, drawn first.
fn hidden(rng: &mut Rng) -> Hidden {
    let sizes: Vec<usize> = (0..ENUMS).map(|_| 3 + rng.below(3)).collect();
    Hidden {
        bools: (0..BOOLS).map(|_| rng.below(2) == 1).collect(),
        ints: (0..INTS).map(|_| rng.below(101) as i64).collect(),
        reals: (0..REALS).map(|_| rng.below(10_001) as i64).collect(),
        enums: sizes.iter().map(|&n| rng.below(n)).collect(),
        sizes,
    }
}

/// `count` random questions (premise, claim) over the dense model: a
/// premise of 1–3 atoms and a claim of one, drawn as its rules are.
pub fn questions(count: usize) -> Vec<(String, String)> {
    let hidden = hidden(&mut Rng::new(DENSE_SEED));
    let mut rng = Rng::new(DENSE_SEED ^ 0x0051_E570);
    (0..count)
        .map(|_| {
            let atoms: Vec<String> = (0..1 + rng.below(3))
                .map(|_| atom(&mut rng, &hidden).0)
                .collect();
            let premise = match atoms.as_slice() {
                [only] => only.clone(),
                parts => format!("(and {})", parts.join(" ")),
            };
            (premise, atom(&mut rng, &hidden).0)
        })
        .collect()
}

/// The dense model, the same for every run.
pub fn dense() -> PolicyModel {
    let mut rng = Rng::new(DENSE_SEED);
    let hidden = hidden(&mut rng);
    let sizes = hidden.sizes.clone();
    let mut model = PolicyModel {
        title: "Dense random policy".into(),
        ..PolicyModel::default()
    };
    for (e, &size) in sizes.iter().enumerate() {
        model.types.push(TypeDef {
            name: format!("T{e}"),
            description: format!("Kind {e}"),
            values: (0..size)
                .map(|v| EnumValue {
                    reading: String::new(),
                    value: format!("T{e}_V{v}"),
                    description: format!("Kind {e} value {v}"),
                })
                .collect(),
        });
    }
    let mut declare = |name: String, sort: String, description: String| {
        model.variables.push(Variable {
            reading: Default::default(),
            name,
            sort,
            description,
        })
    };
    for b in 0..BOOLS {
        declare(
            format!("b{b}"),
            "Bool".into(),
            format!("Whether fact {b} holds"),
        );
    }
    for n in 0..INTS {
        declare(format!("n{n}"), "Int".into(), format!("Count {n}"));
    }
    for x in 0..REALS {
        declare(
            format!("x{x}"),
            "Real".into(),
            format!("Amount {x} in pounds"),
        );
    }
    for e in 0..ENUMS {
        declare(format!("e{e}"), format!("T{e}"), format!("The kind {e}"));
    }
    while model.rules.len() < RULES {
        let conditions = 1 + rng.below(3);
        let antecedent: Vec<(String, bool)> =
            (0..conditions).map(|_| atom(&mut rng, &hidden)).collect();
        let (conclusion, concluded) = atom(&mut rng, &hidden);
        let applies = antecedent.iter().all(|(_, holds)| *holds);
        if applies && !concluded {
            continue;
        }
        let condition = match antecedent.as_slice() {
            [(only, _)] => only.clone(),
            parts => format!(
                "(and {})",
                parts
                    .iter()
                    .map(|(a, _)| a.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        };
        model.rules.push(Rule {
            id: format!("R{}", model.rules.len() + 1),
            expression: format!("(=> {condition} {conclusion})"),
            source_span: None,
            also_from: Vec::new(),
            review: ReviewStatus::Unreviewed,
            note: String::new(),
        });
    }
    model
}
