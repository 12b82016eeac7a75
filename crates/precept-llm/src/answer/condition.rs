//! The condition a SATISFIABLE claim needs: from the two scenarios the
//! solver gave (claim true, claim false), the input values that differ are
//! tried one at a time as an added premise; the first that makes the claim
//! VALID is reported with the rules that prove it.

use std::collections::HashSet;
use std::sync::mpsc;
use std::time::Duration;

use crate::model::CompiledModel;
use crate::smt::{Expr, ExprKind, Op, Sort};
use crate::solve::{Finding, FindingKind, SolverWorker, Value};

/// At most this many candidate conditions are tried with the solver.
const CONDITION_CANDIDATES: usize = 3;

/// A condition under which a SATISFIABLE claim holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Condition {
    pub variable: String,
    /// The condition as SMT-LIB, e.g. `(= creditUnits 0)`.
    pub smtlib: String,
    pub english: String,
    /// The value in the claims-false scenario, for contrast.
    pub otherwise: String,
    /// Proved: with the condition added to the premise the claim is VALID,
    /// by these supporting rules.
    pub proved_by: Option<Vec<String>>,
}

/// The variables some rule defines: one side of an equation that the rule
/// asserts (at its top, in a conjunction, or as an implication's consequent).
pub fn defined_variables(model: &CompiledModel) -> HashSet<String> {
    fn collect(expr: &Expr, model: &CompiledModel, out: &mut HashSet<String>) {
        match &expr.kind {
            ExprKind::App(Op::And, args) => args.iter().for_each(|a| collect(a, model, out)),
            ExprKind::App(Op::Implies, args) => {
                if let Some(last) = args.last() {
                    collect(last, model, out);
                }
            }
            ExprKind::App(Op::Eq, args) if args.len() == 2 => {
                for side in args {
                    if let ExprKind::Symbol(name) = &side.kind
                        && model.vocabulary.variable_sort(name).is_some()
                    {
                        out.insert(name.clone());
                    }
                }
            }
            _ => {}
        }
    }
    let mut defined = HashSet::new();
    for rule in &model.rules {
        collect(&rule.written, model, &mut defined);
    }
    defined
}

/// An SMT-LIB literal for a scenario value (None for irrational values).
fn literal(value: &Value) -> Option<String> {
    match value {
        Value::Bool(b) => Some(b.to_string()),
        Value::Int(i) if i.sign() == num_bigint::Sign::Minus => Some(format!("(- {})", -i)),
        Value::Int(i) => Some(i.to_string()),
        Value::Real(r) => {
            let magnitude = Expr::new(ExprKind::Decimal(
                if r.numer().sign() == num_bigint::Sign::Minus {
                    -r.clone()
                } else {
                    r.clone()
                },
            ))
            .to_string();
            if r.numer().sign() == num_bigint::Sign::Minus {
                Some(format!("(- {magnitude})"))
            } else {
                Some(magnitude)
            }
        }
        Value::Enum(name) => Some(name.clone()),
        Value::Algebraic(_) => None,
    }
}

fn sort_rank(sort: Option<&Sort>) -> u8 {
    match sort {
        Some(Sort::Bool) | Some(Sort::Enum(_)) => 0,
        Some(Sort::Int) => 1,
        _ => 2,
    }
}

/// The condition a SATISFIABLE claim needs (see the module documentation),
/// and the solver time spent finding it.
pub fn find_condition(
    compiled: &CompiledModel,
    worker: &SolverWorker,
    finding: &Finding,
    premise: &Expr,
    claim: &Expr,
) -> (Option<Condition>, Duration) {
    let (Some(yes), Some(no)) = (
        &finding.claims_true_scenario,
        &finding.claims_false_scenario,
    ) else {
        return (None, Duration::ZERO);
    };
    let mentioned: HashSet<&str> = premise
        .symbols()
        .into_iter()
        .chain(claim.symbols())
        .collect();
    let defined = defined_variables(compiled);
    let mut candidates: Vec<(usize, &String, &Value, &Value)> = yes
        .values
        .iter()
        .enumerate()
        .filter_map(|(index, (name, value))| {
            let other = no.get(name)?;
            (other != value && !mentioned.contains(name.as_str()))
                .then_some((index, name, value, other))
        })
        .collect();
    candidates.sort_by_key(|(index, name, _, _)| {
        (
            defined.contains(*name),
            sort_rank(compiled.vocabulary.variable_sort(name)),
            *index,
        )
    });
    let mut spent = Duration::ZERO;
    let mut first = None;
    for (_, name, value, other) in candidates.into_iter().take(CONDITION_CANDIDATES) {
        let Some(literal) = literal(value) else {
            continue;
        };
        let smtlib = match value {
            Value::Bool(true) => name.clone(),
            Value::Bool(false) => format!("(not {name})"),
            _ => format!("(= {name} {literal})"),
        };
        let Ok((written, condition)) = compiled.check_formula(&smtlib) else {
            continue;
        };
        let mut condition_found = Condition {
            variable: name.clone(),
            smtlib: written.to_string(),
            english: compiled.glossary.phrase(&written),
            otherwise: other.to_string(),
            proved_by: None,
        };
        let strengthened = Expr::app(Op::And, vec![premise.clone(), condition]);
        let (reply, answer) = mpsc::channel();
        worker.submit(strengthened, claim.clone(), reply);
        if let Ok(reply) = answer.recv() {
            spent += reply.elapsed;
            if reply.finding.kind == FindingKind::Valid {
                condition_found.proved_by = Some(reply.finding.supporting_rules);
                return (Some(condition_found), spent);
            }
        }
        first.get_or_insert(condition_found);
    }
    (first, spent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;
    use num_rational::BigRational;

    #[test]
    fn literals_read_back_as_the_value() {
        assert_eq!(
            literal(&Value::Int(BigInt::from(-3))).as_deref(),
            Some("(- 3)")
        );
        assert_eq!(
            literal(&Value::Real(BigRational::new(
                BigInt::from(77),
                BigInt::from(2)
            )))
            .as_deref(),
            Some("38.5")
        );
        assert_eq!(
            literal(&Value::Real(BigRational::new(
                BigInt::from(-1),
                BigInt::from(3)
            )))
            .as_deref(),
            Some("(- (/ 1.0 3.0))")
        );
        assert_eq!(literal(&Value::Algebraic("1.41".into())), None);
    }

    #[test]
    fn rules_define_the_sides_of_asserted_equations() {
        let model: crate::model::PolicyModel = serde_json::from_str(include_str!(
            "../../../../samples/park-admission/model.json"
        ))
        .expect("park");
        let defined = defined_variables(&crate::model::compile(&model));
        for name in [
            "customerCredits",
            "discountRate",
            "isEntryAllowed",
            "baseFee",
        ] {
            assert!(defined.contains(name), "{name}");
        }
        for name in [
            "creditUnits",
            "ageClass",
            "isLowSeason",
            "totalAdmissionFund",
        ] {
            assert!(!defined.contains(name), "{name}");
        }
    }
}
