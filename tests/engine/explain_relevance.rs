//! Follow-up questions against an independent oracle, on every sample: the
//! model and a renamed copy of it (its twin) in one SMT-LIB script. A set S
//! of inputs decides claim C under premise P when P ∧ P' ∧ (S = S') proves
//! C = C'. Each deciding set the explanation offers must decide; a set
//! called the smallest must not decide with one variable fewer; and each
//! input called irrelevant must be one that, with every other input equal,
//! leaves the twins agreeing on C.

use crate::support;

use precept::explain::inputs::inputs;
use precept::explain::job::{ExplainRequest, run};
use precept::explain::relevance::Budget;
use precept::export::smtlib::to_smtlib;
use precept::model::finding::FindingKind;
use precept::model::{CompiledModel, Project};
use precept::smt::Sort;
use precept::solve::SolverWorker;
use std::collections::HashSet;
use std::time::Duration;
use support::{formula, model, sample, worker};

const TWIN: &str = "_twin";

/// Renames the tokens of `text` found in `names` (SMT-LIB symbols are
/// separated by parentheses and white space).
fn rename(text: &str, names: &HashSet<String>) -> String {
    let mut out = String::new();
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        out.push_str(token);
        if names.contains(token.as_str()) {
            out.push_str(TWIN);
        }
        token.clear();
    };
    for c in text.chars() {
        if c == '(' || c == ')' || c.is_whitespace() {
            flush(&mut token, &mut out);
            out.push(c);
        } else {
            token.push(c);
        }
    }
    flush(&mut token, &mut out);
    out
}

/// The model and its twin in one compiled model.
fn twinned(project: &Project, compiled: &CompiledModel) -> CompiledModel {
    let script = to_smtlib(&project.model, compiled);
    let mut names: HashSet<String> = compiled.variables.iter().map(|(n, _)| n.clone()).collect();
    names.extend(compiled.rules.iter().map(|r| r.id.clone()));
    let mut out = String::new();
    for line in script
        .lines()
        .filter(|l| !l.starts_with(';') && !l.contains("check-sat"))
    {
        out.push_str(line);
        out.push('\n');
        if line.starts_with("(declare-const") || line.starts_with("(assert") {
            out.push_str(&rename(line, &names));
            out.push('\n');
        }
    }
    model(&out)
}

struct Oracle<'a> {
    twins: &'a CompiledModel,
    worker: SolverWorker,
    variables: HashSet<String>,
}

impl Oracle<'_> {
    /// Whether the inputs of `same` decide `claim` under `premise`.
    fn decides(&self, premise: &str, claim: &str, same: &[&str]) -> bool {
        let names: HashSet<String> = self.variables.clone();
        let mut facts = vec![premise.to_string(), rename(premise, &names)];
        facts.extend(same.iter().map(|v| format!("(= {v} {v}{TWIN})")));
        let premise = format!("(and {})", facts.join(" "));
        let claim = format!("(= {claim} {})", rename(claim, &names));
        let finding = self
            .worker
            .verify(formula(self.twins, &premise), formula(self.twins, &claim));
        assert_ne!(finding.kind, FindingKind::TooComplex, "{premise} ⊢ {claim}");
        matches!(finding.kind, FindingKind::Valid | FindingKind::Impossible)
    }
}

#[test]
fn deciding_sets_and_irrelevant_inputs_agree_with_a_twin_model() {
    let mut checked = (0, 0, 0);
    for name in ["park-admission", "benefit-eligibility", "airline-refunds"] {
        let project = Project::load(&sample(name)).unwrap();
        let compiled = project.compile_strict().unwrap();
        let twins = twinned(&project, &compiled);
        let oracle = Oracle {
            twins: &twins,
            worker: worker(&twins, Duration::from_secs(20)),
            variables: compiled.variables.iter().map(|(n, _)| n.clone()).collect(),
        };
        let explainer = worker(&compiled, Duration::from_secs(20));
        let all_inputs = inputs(&compiled);
        let claims: Vec<&String> = compiled
            .variables
            .iter()
            .filter(|(n, sort)| *sort == Sort::Bool && !all_inputs.contains(n))
            .map(|(n, _)| n)
            .collect();
        let mut premises: Vec<String> = vec!["true".into()];
        premises.extend(
            project
                .tests
                .tests
                .iter()
                .map(|t| t.premise.clone())
                .take(3),
        );
        for premise in &premises {
            for &claim in &claims {
                let request = ExplainRequest {
                    premise: formula(&compiled, premise),
                    claim: Some(formula(&compiled, claim)),
                    inputs: all_inputs.clone(),
                    budget: Budget::default(),
                };
                let explanation = run(&explainer, request).unwrap();
                assert_eq!(explanation.stopped, None, "{name}: {claim}");
                let Some(relevance) = &explanation.relevance else {
                    continue;
                };
                let context = format!("{name}: {premise} ⊢ {claim}");
                for ask in &relevance.ask {
                    let set: Vec<&str> = ask.variables.iter().map(String::as_str).collect();
                    assert!(
                        oracle.decides(premise, claim, &set),
                        "{context}: {set:?} does not decide"
                    );
                    checked.0 += 1;
                }
                if let Some(first) = relevance.ask.first().filter(|_| relevance.smallest) {
                    for dropped in 0..first.variables.len() {
                        let smaller: Vec<&str> = first
                            .variables
                            .iter()
                            .enumerate()
                            .filter(|&(i, _)| i != dropped)
                            .map(|(_, v)| v.as_str())
                            .collect();
                        assert!(
                            !oracle.decides(premise, claim, &smaller),
                            "{context}: {smaller:?} decides, yet {:?} was called the smallest",
                            first.variables
                        );
                        checked.1 += 1;
                    }
                }
                for irrelevant in &relevance.irrelevant {
                    let others: Vec<&str> = all_inputs
                        .iter()
                        .filter(|v| *v != irrelevant)
                        .map(String::as_str)
                        .collect();
                    assert!(
                        oracle.decides(premise, claim, &others),
                        "{context}: {irrelevant} was called irrelevant"
                    );
                    checked.2 += 1;
                }
            }
        }
    }
    let (sets, smaller, irrelevant) = checked;
    assert!(
        sets >= 8 && smaller >= 8 && irrelevant >= 8,
        "too little was checked: {checked:?}"
    );
}
