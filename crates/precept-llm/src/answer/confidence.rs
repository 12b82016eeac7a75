//! Redundant translation (ARC Alg. 1): the distinct premise–claim pairs of
//! k translations and the confidence of each, decided by the solver over
//! the model's vocabulary alone (no rules), never by comparing strings.
//!
//! **What a translation means.** A translation T′ with pairs ⟨P₁, C₁⟩ …
//! ⟨Pₙ, Cₙ⟩ stands for the formula (P₁ ⇒ C₁) ∧ … ∧ (Pₙ ⇒ Cₙ); a translation
//! with no pairs (or one that failed) stands for `true`, which supports
//! nothing that is not a tautology. Premises are *not* asserted as facts:
//! with P′ ∧ C′ for T′, a translation that claims C only under an extra
//! condition X would agree with one that claims C outright (both entail
//! P ⇒ C once P ∧ X ∧ C is taken as fact), and the difference between
//! SATISFIABLE and VALID would vanish.
//!
//! **Confidence.** T′ supports ⟨P, C⟩ when T′ ⊨ P ⇒ C (T′ ∧ P ∧ ¬C is
//! unsatisfiable) and T′ ⊭ ¬P (T′ ∧ P is satisfiable, so the support is
//! not vacuous). The confidence is the share of the k translations that
//! support the pair. Three identical translations give 1; two that agree
//! and one with a different conclusion give 2/3 to the pair of the two and
//! 1/3 to the other; a translation written differently but equivalent
//! supports exactly what the others do.
//!
//! **Distinct pairs.** ⟨P, C⟩ and ⟨P′, C′⟩ are the same pair when P ⇔ P′
//! and P ⊨ (C ⇔ C′): they ask the solver the same question. Such pairs
//! merge into one, shown as first written, with every written form kept.

use super::translate::Translation;
use crate::smt::{Expr, ExprKind, Op};
use crate::solve::{FormulaQuery, Satisfiability, Scenario, SolverWorker};
use serde::Serialize;

/// A pair as one or more translations wrote it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WrittenForm {
    pub premise: String,
    pub claim: String,
    /// The translations (numbers) that wrote it.
    pub translations: Vec<usize>,
}

/// Two translations that read the text differently, and a scenario that
/// satisfies one of them but not the other.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Disagreement {
    /// A translation that supports the pair (None when none does).
    pub supporting: Option<usize>,
    /// A translation that does not.
    pub dissenting: usize,
    /// The variable assignment that separates them.
    pub scenario: Option<Scenario>,
    /// The translation the scenario satisfies (the other does not hold in it).
    pub scenario_satisfies: Option<usize>,
    /// Why the dissenting translation does not support the pair.
    pub why: DissentReason,
}

/// How a translation fails to support a pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DissentReason {
    /// Under the premise it allows the claim to be false.
    AllowsClaimFalse,
    /// It rules the premise out, so its support would be vacuous.
    RulesOutPremise,
}

/// One distinct pair with its confidence.
#[derive(Debug, Clone, PartialEq)]
pub struct AssessedPair {
    /// The pair's first written form: (translation index, pair index).
    pub first: (usize, usize),
    pub written_as: Vec<WrittenForm>,
    /// The translations (numbers) that support it.
    pub supporters: Vec<usize>,
    pub confidence: f64,
    /// Set when the solver could not decide a support check (the pair is
    /// then TOO_COMPLEX rather than ambiguous).
    pub undecided: Option<String>,
    /// Present when some translation does not support the pair.
    pub disagreement: Option<Disagreement>,
}

/// A pair as first found: where, its texts and its formulas.
struct Candidate {
    first: (usize, usize),
    texts: (String, String),
    premise: Expr,
    claim: Expr,
    written_by: Vec<usize>,
}

fn truth() -> Expr {
    Expr::new(ExprKind::Bool(true))
}

fn and(parts: Vec<Expr>) -> Expr {
    match parts.len() {
        0 => truth(),
        1 => parts.into_iter().next().unwrap_or_else(truth),
        _ => Expr::app(Op::And, parts),
    }
}

fn not(expr: Expr) -> Expr {
    Expr::app(Op::Not, vec![expr])
}

/// The formula a translation stands for (see the module documentation).
pub fn translation_formula(translation: &Translation) -> Expr {
    and(translation
        .pairs
        .iter()
        .map(|p| {
            Expr::app(
                Op::Implies,
                vec![
                    p.checked.premise_formula.clone(),
                    p.checked.claim_formula.clone(),
                ],
            )
        })
        .collect())
}

fn candidates(translations: &[Translation]) -> Vec<Candidate> {
    let mut found: Vec<Candidate> = Vec::new();
    for (t, translation) in translations.iter().enumerate() {
        for (p, pair) in translation.pairs.iter().enumerate() {
            let texts = (pair.premise.clone(), pair.claim.clone());
            match found.iter_mut().find(|c| c.texts == texts) {
                Some(known) => {
                    if !known.written_by.contains(&translation.number) {
                        known.written_by.push(translation.number);
                    }
                }
                None => found.push(Candidate {
                    first: (t, p),
                    texts,
                    premise: pair.checked.premise_formula.clone(),
                    claim: pair.checked.claim_formula.clone(),
                    written_by: vec![translation.number],
                }),
            }
        }
    }
    found
}

/// Where each query's answer sits in the batch.
struct Plan {
    queries: Vec<FormulaQuery>,
    /// For candidates a < b: (premises differ, claims differ under a's premise).
    equivalence: Vec<Vec<Option<(usize, usize)>>>,
    /// For candidate j and translation t: (T ∧ P, T ∧ P ∧ ¬C).
    support: Vec<Vec<(usize, usize)>>,
}

fn plan(candidates: &[Candidate], formulas: &[Expr]) -> Plan {
    let mut queries = Vec::new();
    let mut push = |formula: Expr, show: &[String]| {
        queries.push(FormulaQuery {
            formula,
            show: show.to_vec(),
        });
        queries.len() - 1
    };
    let mut shown: Vec<String> = Vec::new();
    for expr in formulas
        .iter()
        .chain(candidates.iter().flat_map(|c| [&c.premise, &c.claim]))
    {
        for symbol in expr.symbols() {
            if !shown.iter().any(|s| s == symbol) {
                shown.push(symbol.to_string());
            }
        }
    }
    let mut equivalence = vec![vec![None; candidates.len()]; candidates.len()];
    for a in 0..candidates.len() {
        for b in a + 1..candidates.len() {
            let (ca, cb) = (&candidates[a], &candidates[b]);
            let premises_differ = not(Expr::app(
                Op::Eq,
                vec![ca.premise.clone(), cb.premise.clone()],
            ));
            let claims_differ = and(vec![
                ca.premise.clone(),
                not(Expr::app(Op::Eq, vec![ca.claim.clone(), cb.claim.clone()])),
            ]);
            equivalence[a][b] = Some((push(premises_differ, &[]), push(claims_differ, &[])));
        }
    }
    let support = candidates
        .iter()
        .map(|candidate| {
            formulas
                .iter()
                .map(|translation| {
                    let premise_possible =
                        and(vec![translation.clone(), candidate.premise.clone()]);
                    let claim_can_fail = and(vec![
                        translation.clone(),
                        candidate.premise.clone(),
                        not(candidate.claim.clone()),
                    ]);
                    (push(premise_possible, &shown), push(claim_can_fail, &shown))
                })
                .collect()
        })
        .collect();
    Plan {
        queries,
        equivalence,
        support,
    }
}

fn find(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// The solver questions that decide the distinct pairs of some
/// translations and their confidences, and how to read the answers.
pub struct SupportPlan {
    found: Vec<Candidate>,
    plan: Plan,
}

impl SupportPlan {
    /// Plans the questions for `translations`.
    pub fn new(translations: &[Translation]) -> SupportPlan {
        let found = candidates(translations);
        let formulas: Vec<Expr> = translations.iter().map(translation_formula).collect();
        let plan = plan(&found, &formulas);
        SupportPlan { found, plan }
    }

    /// The formulas to decide (over the vocabulary, without the rules).
    pub fn queries(&self) -> &[FormulaQuery] {
        &self.plan.queries
    }

    /// The distinct pairs with their confidences, from the answers to
    /// [`queries`](Self::queries) in order.
    pub fn conclude(
        &self,
        translations: &[Translation],
        results: &[Satisfiability],
    ) -> Vec<AssessedPair> {
        conclude(&self.found, &self.plan, translations, results)
    }
}

/// The distinct pairs of `translations` with their confidences, decided on
/// `worker` (which must have the model loaded: its vocabulary is used, its
/// rules are not).
pub fn assess(worker: &SolverWorker, translations: &[Translation]) -> Vec<AssessedPair> {
    let plan = SupportPlan::new(translations);
    if plan.found.is_empty() {
        return Vec::new();
    }
    let results = worker.check_formulas(plan.queries().to_vec());
    plan.conclude(translations, &results)
}

fn conclude(
    found: &[Candidate],
    plan: &Plan,
    translations: &[Translation],
    results: &[Satisfiability],
) -> Vec<AssessedPair> {
    let result = |i: usize| {
        results
            .get(i)
            .cloned()
            .unwrap_or_else(|| Satisfiability::Unknown("the solver gave no answer".into()))
    };

    // Merge equivalent pairs: the lowest index of each group represents it.
    let mut parent: Vec<usize> = (0..found.len()).collect();
    for a in 0..found.len() {
        for b in a + 1..found.len() {
            if let Some((premises, claims)) = plan.equivalence[a][b]
                && result(premises).is_unsatisfiable()
                && result(claims).is_unsatisfiable()
            {
                let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
                parent[ra.max(rb)] = ra.min(rb);
            }
        }
    }
    let mut assessed = Vec::new();
    for representative in 0..found.len() {
        if find(&mut parent, representative) != representative {
            continue;
        }
        let members: Vec<usize> = (0..found.len())
            .filter(|&m| find(&mut parent, m) == representative)
            .collect();
        let written_as = members
            .iter()
            .map(|&m| WrittenForm {
                premise: found[m].texts.0.clone(),
                claim: found[m].texts.1.clone(),
                translations: found[m].written_by.clone(),
            })
            .collect();
        let mut supporters = Vec::new();
        let mut dissenters = Vec::new();
        let mut undecided = None;
        for (t, translation) in translations.iter().enumerate() {
            let (possible, can_fail) = plan.support[representative][t];
            match (result(possible), result(can_fail)) {
                (Satisfiability::Satisfiable(_), Satisfiability::Unsatisfiable) => {
                    supporters.push(translation.number)
                }
                (Satisfiability::Unsatisfiable, _) => {
                    dissenters.push((t, DissentReason::RulesOutPremise))
                }
                (Satisfiability::Satisfiable(_), Satisfiability::Satisfiable(_)) => {
                    dissenters.push((t, DissentReason::AllowsClaimFalse))
                }
                (Satisfiability::Unknown(reason), _) | (_, Satisfiability::Unknown(reason)) => {
                    undecided.get_or_insert(reason);
                }
            }
        }
        let disagreement = dissenters.first().map(|&(d, why)| {
            let supporting = supporters.first().copied();
            let s = supporting.and_then(|n| translations.iter().position(|t| t.number == n));
            let (scenario, satisfies) = match why {
                DissentReason::AllowsClaimFalse => (
                    result(plan.support[representative][d].1)
                        .scenario()
                        .cloned(),
                    Some(translations[d].number),
                ),
                DissentReason::RulesOutPremise => match s {
                    Some(s) => (
                        result(plan.support[representative][s].0)
                            .scenario()
                            .cloned(),
                        Some(translations[s].number),
                    ),
                    None => (None, None),
                },
            };
            Disagreement {
                supporting,
                dissenting: translations[d].number,
                scenario_satisfies: scenario.as_ref().and(satisfies),
                scenario,
                why,
            }
        });
        let confidence = supporters.len() as f64 / translations.len().max(1) as f64;
        assessed.push(AssessedPair {
            first: found[representative].first,
            written_as,
            supporters,
            confidence,
            undecided,
            disagreement,
        });
    }
    assessed
}
