//! Questions with proved answers. The source cases come from test
//! generation (rule cases, boundaries, enum values, chains, negations,
//! composites), each already decided by the solver: VALID is "yes",
//! INVALID "no", a VALID `(= x c)` about a number "how much: c", and
//! SATISFIABLE "it depends on …" with the deciding facts from the explain
//! layer. Situations the rules rule out (IMPOSSIBLE) and undecided ones
//! (TOO_COMPLEX) are not asked: they have no answer a customer could check.
//! Questions are taken in turn from each kind, each kind in test
//! generation's ranked order.

use super::wording::{WordingContext, templated_question};
use super::{Expected, ProbeKind};
use crate::explain::describe::{describe_chain, step_source};
use crate::explain::job::{ExplainRequest, finding_chain, run as run_explain};
use crate::explain::relevance::Budget;
use crate::model::{CompiledModel, PolicyModel};
use crate::smt::{Expr, ExprKind, Op, Sort};
use crate::solve::{Finding, FindingKind, SolverWorker};
use crate::testgen::generate::{CandidateKind, GeneratedTest, generate};
use serde::Serialize;

/// One step of the proved chain, for a reader.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChainStep {
    pub rules: Vec<String>,
    /// The rules in the model's English.
    pub english: String,
    /// The document's sentences the rules formalize.
    pub source: String,
}

/// A question the chatbot is asked, with its proved answer.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeQuestion {
    pub id: String,
    pub kind: ProbeKind,
    /// The scenario's facts (canonical SMT-LIB).
    pub facts: String,
    /// What the question asks about (canonical SMT-LIB).
    pub claim: String,
    pub expected: Expected,
    /// The rules that decide the answer (the finding's, else the ones the
    /// case was built from).
    pub rules: Vec<String>,
    /// The proved chain from the facts to the right answer (empty for "it
    /// depends").
    pub chain: Vec<ChainStep>,
    /// What the chatbot is asked.
    pub text: String,
    /// Whether `text` is the templated English (faithful by construction).
    pub templated: bool,
    /// For a variant: the question it varies and how.
    pub variant_of: Option<(String, Relation)>,
}

/// How a variant relates to its question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Relation {
    /// The claim negated: the opposite answer is expected.
    Negated,
    /// A fact that cannot matter is added: the same answer is expected.
    IrrelevantFact,
    /// Worded differently: the same answer is expected.
    Paraphrase,
}

/// The probe kind of a generated test.
pub fn kind_of(test: &GeneratedTest, numeric: bool) -> ProbeKind {
    if numeric {
        return ProbeKind::Numeric;
    }
    match test.kind {
        CandidateKind::Boundary => ProbeKind::Boundary,
        CandidateKind::Transitive | CandidateKind::Composite => ProbeKind::Chain,
        CandidateKind::Negation => ProbeKind::Negation,
        _ => ProbeKind::SingleRule,
    }
}

/// The number `claim` fixes, when it is `(= x c)` (either way round) for a
/// numeric variable x and a constant c.
pub fn numeric_value(claim: &Expr, compiled: &CompiledModel) -> Option<(String, String)> {
    let ExprKind::App(Op::Eq, args) = &claim.kind else {
        return None;
    };
    let [left, right] = args.as_slice() else {
        return None;
    };
    let is_number = |name: &str| {
        matches!(
            compiled.vocabulary.variable_sort(name),
            Some(Sort::Int | Sort::Real)
        )
    };
    let constant = |e: &Expr| crate::smt::build::constant(e).is_some();
    match (&left.kind, &right.kind) {
        (ExprKind::Symbol(x), _) if is_number(x) && constant(right) => {
            Some((x.clone(), right.to_string()))
        }
        (_, ExprKind::Symbol(x)) if is_number(x) && constant(left) => {
            Some((x.clone(), left.to_string()))
        }
        _ => None,
    }
}

/// Where questions come from and what they may be.
pub struct SourceSettings<'a> {
    pub model: &'a PolicyModel,
    pub compiled: &'a CompiledModel,
    pub document: Option<&'a str>,
    pub max: usize,
    pub seed: u64,
    /// The kinds to keep (variant and follow-up are not source kinds).
    pub kinds: &'a [ProbeKind],
}

/// Up to `settings.max` questions, in the order test generation ranks them
/// (deterministic for a model and seed), each with its proved answer and
/// chain and its templated wording.
pub fn source_questions(worker: &SolverWorker, settings: &SourceSettings) -> Vec<ProbeQuestion> {
    let compiled = settings.compiled;
    let wanted = settings.max.saturating_mul(4).max(40);
    let words = WordingContext::new(settings.model, compiled);
    let mut pool: Vec<ProbeQuestion> = Vec::new();
    for test in generate(worker, compiled, wanted, settings.seed) {
        let Ok((_, premise)) = compiled.check_formula(&test.premise) else {
            continue;
        };
        let Ok((written_claim, claim)) = compiled.check_formula(&test.claim) else {
            continue;
        };
        let value = match test.finding.kind {
            FindingKind::Valid => numeric_value(&written_claim, compiled),
            _ => None,
        };
        let kind = kind_of(&test, value.is_some());
        if !settings.kinds.contains(&kind) {
            continue;
        }
        let expected = match (test.finding.kind, value) {
            (FindingKind::Valid, Some((variable, value))) => Expected::Value { variable, value },
            (FindingKind::Valid, None) => Expected::Yes,
            (FindingKind::Invalid, _) => Expected::No,
            (FindingKind::Satisfiable, _) => Expected::Depends {
                on: deciding_facts(worker, compiled, &premise, &claim),
            },
            _ => continue,
        };
        let mut rules = test.finding.rules().to_vec();
        if rules.is_empty() {
            rules = test.targets.clone();
        }
        let chain = proved_chain(worker, settings, &premise, &claim, &test.finding);
        let mut question = ProbeQuestion {
            id: String::new(),
            kind,
            facts: test.premise.clone(),
            claim: test.claim.clone(),
            expected,
            rules,
            chain,
            text: String::new(),
            templated: true,
            variant_of: None,
        };
        question.text =
            templated_question(&words, &question.facts, &question.claim, &question.expected);
        pool.push(question);
    }
    let mut out = take_round_robin(pool, settings.max);
    for (index, question) in out.iter_mut().enumerate() {
        question.id = format!("Q{}", index + 1);
    }
    out
}

/// Up to `max` questions taken in turn from each kind and form of answer
/// (yes, no, a value, "it depends"), each in its ranked order, so a short
/// probe still asks every kind.
fn take_round_robin(pool: Vec<ProbeQuestion>, max: usize) -> Vec<ProbeQuestion> {
    const FORMS: usize = 4;
    let mut by_kind: Vec<std::collections::VecDeque<ProbeQuestion>> = (0..ProbeKind::ALL.len()
        * FORMS)
        .map(|_| std::collections::VecDeque::new())
        .collect();
    for question in pool {
        let kind = ProbeKind::ALL
            .iter()
            .position(|k| *k == question.kind)
            .unwrap_or(0);
        let form = match question.expected {
            Expected::Yes => 0,
            Expected::No => 1,
            Expected::Value { .. } => 2,
            Expected::Depends { .. } => 3,
        };
        by_kind[kind * FORMS + form].push_back(question);
    }
    let mut out = Vec::new();
    while out.len() < max && by_kind.iter().any(|q| !q.is_empty()) {
        for queue in &mut by_kind {
            if out.len() >= max {
                break;
            }
            if let Some(question) = queue.pop_front() {
                out.push(question);
            }
        }
    }
    out
}

/// What the explain layer finds about which inputs matter to a SATISFIABLE
/// claim (None when the worker cannot say).
fn relevance(
    worker: &SolverWorker,
    compiled: &CompiledModel,
    premise: &Expr,
    claim: &Expr,
) -> Option<crate::explain::Relevance> {
    let request = ExplainRequest {
        premise: premise.clone(),
        claim: Some(claim.clone()),
        inputs: crate::explain::inputs::inputs(compiled),
        budget: Budget::default(),
    };
    run_explain(worker, request).ok().and_then(|e| e.relevance)
}

/// The inputs whose values would decide a SATISFIABLE claim (the smallest
/// deciding set the explain layer finds; empty when it finds none).
pub fn deciding_facts(
    worker: &SolverWorker,
    compiled: &CompiledModel,
    premise: &Expr,
    claim: &Expr,
) -> Vec<String> {
    relevance(worker, compiled, premise, claim)
        .and_then(|r| r.ask.into_iter().next())
        .map(|ask| ask.variables)
        .unwrap_or_default()
}

/// The inputs that cannot change a claim given the premise (the explain
/// layer's irrelevant inputs).
pub fn irrelevant_inputs(
    worker: &SolverWorker,
    compiled: &CompiledModel,
    premise: &Expr,
    claim: &Expr,
) -> Vec<String> {
    relevance(worker, compiled, premise, claim)
        .map(|r| r.irrelevant)
        .unwrap_or_default()
}

fn proved_chain(
    worker: &SolverWorker,
    settings: &SourceSettings,
    premise: &Expr,
    claim: &Expr,
    finding: &Finding,
) -> Vec<ChainStep> {
    let Ok(Some(mut chain)) = finding_chain(worker, premise.clone(), claim, finding) else {
        return Vec::new();
    };
    describe_chain(
        &mut chain,
        settings.compiled,
        settings.model,
        settings.document,
    );
    chain
        .steps
        .iter()
        .map(|step| ChainStep {
            rules: step.rules.clone(),
            english: step
                .texts
                .iter()
                .map(|t| t.english.as_str())
                .collect::<Vec<_>>()
                .join(" "),
            source: step_source(&step.texts),
        })
        .collect()
}
