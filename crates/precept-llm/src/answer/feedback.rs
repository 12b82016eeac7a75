//! Feedback text: from a finding, what an answer-writing LLM or a person
//! should change, built from the scenarios and rules (the paper's revision
//! loop, §4.2 RQ4). Mechanical, no LLM: names come with their descriptions.
//!
//! For SATISFIABLE the condition to state is derived from the variables
//! whose values differ between the claims-true and the claims-false
//! scenario: variables the premise or claim already mention are skipped,
//! variables no rule defines (inputs such as a number of credit units) come
//! before derived amounts, and yes/no, enumerated and whole-number variables
//! before real amounts. The first candidate whose claims-true value makes
//! the claim follow (checked with the solver) is offered as proved.

use super::condition::{Condition, find_condition};
use super::confidence::{Disagreement, DissentReason};
use super::report::{AnswerReport, PairReport, UntranslatedSpan};
use super::translate::Translation;
use crate::model::CompiledModel;
use crate::smt::{Expr, Op};
use crate::solve::{FindingKind, Scenario, SolverWorker, Value};
use std::collections::HashSet;
use std::fmt::Write;
use std::time::Duration;

/// At most this many values are quoted from a scenario.
const SCENARIO_VALUES: usize = 6;
/// Rule lists up to this long are quoted in English; longer ones by id.
const RULES_IN_ENGLISH: usize = 3;

/// What feedback may draw on.
pub struct FeedbackContext<'a> {
    pub compiled: &'a CompiledModel,
    pub worker: &'a SolverWorker,
    pub translations: &'a [Translation],
}

/// The feedback for one pair and the solver time spent on it.
pub fn pair_feedback(
    context: &FeedbackContext,
    pair: &PairReport,
    premise: &Expr,
    claim: &Expr,
) -> (String, Duration) {
    let finding = &pair.evidence;
    let mut spent = Duration::ZERO;
    let mut text = match pair.finding {
        FindingKind::Valid => format!(
            "The claim follows from the premise by {}; nothing to change.",
            rule_list(context.compiled, &finding.supporting_rules)
        ),
        FindingKind::Satisfiable => {
            let (condition, time) =
                find_condition(context.compiled, context.worker, finding, premise, claim);
            spent = time;
            satisfiable_text(context.compiled, pair, condition.as_ref())
        }
        FindingKind::Invalid => invalid_text(context.compiled, pair, claim),
        FindingKind::Impossible => impossible_text(context.compiled, pair, premise),
        FindingKind::TranslationAmbiguous => ambiguous_text(context, pair),
        FindingKind::TooComplex => format!(
            "This claim could not be decided ({}). Split the answer into shorter, simpler claims.",
            pair.undecided
                .as_deref()
                .or(finding.reason.as_deref())
                .unwrap_or("the solver gave up")
        ),
        FindingKind::NoTranslations => {
            "Nothing of this could be expressed with the policy's variables.".into()
        }
    };
    for warning in &finding.warnings {
        let _ = write!(text, " Note: {}.", warning.message());
    }
    (text, spent)
}

/// The feedback for the whole answer: one paragraph per pair that is not
/// VALID, then the untranslated statements.
pub fn answer_feedback(report: &AnswerReport) -> String {
    let mut out = String::new();
    match report.finding {
        FindingKind::TooComplex if report.pairs.is_empty() => {
            let _ = writeln!(
                out,
                "The text could not be checked: {}. Shorten it to the claims that matter.",
                report.reason.as_deref().unwrap_or("it is too large")
            );
        }
        FindingKind::NoTranslations => {
            let _ = writeln!(
                out,
                "Nothing in the text could be expressed with the policy's variables, so nothing \
                 was checked. Restate the answer in terms the policy defines; if the policy does \
                 cover it, the model lacks a variable for it."
            );
        }
        FindingKind::Valid => {
            let _ = writeln!(out, "Every claim follows from the policy.");
        }
        _ => {}
    }
    let several = report.pairs.len() > 1;
    for (index, pair) in report.pairs.iter().enumerate() {
        if pair.finding == FindingKind::Valid && report.finding != FindingKind::Valid {
            continue;
        }
        if report.finding == FindingKind::Valid && !several {
            break;
        }
        let label = if several {
            format!("Claim {} ({}): ", index + 1, pair.source.trim())
        } else {
            String::new()
        };
        let _ = writeln!(out, "{label}{}", pair.feedback);
    }
    if !report.untranslated.is_empty() {
        let quoted: Vec<String> = report.untranslated.iter().map(untranslated_text).collect();
        let _ = writeln!(
            out,
            "Not checked, because the policy model has no words for it: {}.",
            quoted.join("; ")
        );
    }
    out.trim_end().to_string()
}

fn untranslated_text(span: &UntranslatedSpan) -> String {
    match span.reasons.first() {
        Some(reason) if !reason.trim().is_empty() => {
            format!("\"{}\" ({})", span.text, reason.trim())
        }
        _ => format!("\"{}\"", span.text),
    }
}

/// Rules named by id, each with its English when there are few of them.
fn rule_list(model: &CompiledModel, ids: &[String]) -> String {
    if ids.is_empty() {
        return "the premise alone".into();
    }
    let noun = if ids.len() == 1 { "rule" } else { "rules" };
    if ids.len() > RULES_IN_ENGLISH {
        return format!("{noun} {}", ids.join(", "));
    }
    let rules: Vec<String> = ids
        .iter()
        .map(|id| match model.rule(id) {
            Some(rule) => format!(
                "{id} (\"{}\")",
                model.glossary.sentence(&rule.written).trim_end_matches('.')
            ),
            None => id.clone(),
        })
        .collect();
    format!("{noun} {}", rules.join(", "))
}

fn satisfiable_text(
    model: &CompiledModel,
    pair: &PairReport,
    condition: Option<&Condition>,
) -> String {
    let mut text = String::from(
        "The answer is not always right: under its premise the policy allows the claim to be true \
         and to be false.",
    );
    match condition {
        Some(condition) => {
            let proof = match &condition.proved_by {
                Some(rules) => format!(
                    " (proved: with it the claim follows by {})",
                    rule_list(model, rules)
                ),
                None => String::new(),
            };
            let _ = write!(
                text,
                " It holds when {} ({}){proof}, and fails when {} = {}. State that condition in \
                 the answer.",
                condition.smtlib, condition.english, condition.variable, condition.otherwise
            );
        }
        None => {
            if let (Some(yes), Some(no)) = (
                &pair.evidence.claims_true_scenario,
                &pair.evidence.claims_false_scenario,
            ) {
                let _ = write!(
                    text,
                    " It holds when {} and fails when {}. State the condition that decides it.",
                    differing_values(yes, no),
                    differing_values(no, yes)
                );
            }
        }
    }
    text
}

fn invalid_text(model: &CompiledModel, pair: &PairReport, claim: &Expr) -> String {
    let negated = Expr::app(Op::Not, vec![claim.clone()]);
    let mut text = format!(
        "The policy contradicts the answer: under its premise, {} make the claim false; the \
         policy implies that {}.",
        rule_list(model, &pair.evidence.contradicting_rules),
        model.glossary.phrase(&negated)
    );
    if let Some(scenario) = &pair.evidence.claims_false_scenario {
        let _ = write!(
            text,
            " For example: {}.",
            scenario_values(scenario, &claim_variables(claim))
        );
    }
    text.push_str(" Correct the claim.");
    text
}

fn impossible_text(model: &CompiledModel, pair: &PairReport, premise: &Expr) -> String {
    let mut text = format!(
        "The premise (\"{}\") cannot happen under the policy: it contradicts {}.",
        model.glossary.phrase(premise),
        rule_list(model, &pair.evidence.contradicting_rules)
    );
    match pair.evidence.policy_inconsistent {
        Some(true) => text.push_str(
            " These rules contradict each other even without the premise: the policy model \
             needs repair before any answer can be checked.",
        ),
        _ => text.push_str(
            " If this situation can really happen, these rules need revision (for example an \
             exception the model misses); otherwise the answer assumes something the policy \
             rules out, and should say so.",
        ),
    }
    text
}

fn ambiguous_text(context: &FeedbackContext, pair: &PairReport) -> String {
    let Some(disagreement) = &pair.disagreement else {
        return format!(
            "Only {:.0}% of the translations support this reading. Say it more explicitly.",
            pair.confidence * 100.0
        );
    };
    let reading = |number: usize| -> String {
        context
            .translations
            .iter()
            .find(|t| t.number == number)
            .map(translation_text)
            .unwrap_or_default()
    };
    let mut text = format!(
        "The text can be read in more than one way (confidence {:.0}%).",
        pair.confidence * 100.0
    );
    if let Some(supporting) = disagreement.supporting {
        let _ = write!(
            text,
            " Translation {supporting} reads it as {};",
            reading(supporting)
        );
    }
    let _ = write!(
        text,
        " translation {} reads it as {}",
        disagreement.dissenting,
        reading(disagreement.dissenting)
    );
    text.push_str(match disagreement.why {
        DissentReason::AllowsClaimFalse => ".",
        DissentReason::RulesOutPremise => ", which rules the premise out.",
    });
    if let (Some(scenario), Some(satisfies)) =
        (&disagreement.scenario, disagreement.scenario_satisfies)
    {
        let other = other_translation(disagreement, satisfies);
        let _ = write!(
            text,
            " When {}, translation {satisfies} holds{}.",
            scenario_values(scenario, &[]),
            other
                .map(|o| format!(" and translation {o} does not"))
                .unwrap_or_default()
        );
    }
    let explicit = to_make_explicit(context, disagreement, pair);
    if !explicit.is_empty() {
        let _ = write!(text, " Make explicit: {}.", explicit.join("; "));
    }
    text
}

fn other_translation(disagreement: &Disagreement, satisfies: usize) -> Option<usize> {
    if satisfies == disagreement.dissenting {
        disagreement.supporting
    } else {
        Some(disagreement.dissenting)
    }
}

/// The variables whose meaning the two readings disagree on, with their
/// descriptions: the claims' variables when a dissenting pair has the same
/// premise, the premises' differing variables when it has the same claim,
/// else the variables only one of the two translations mentions; at least
/// the claim's variables.
fn to_make_explicit(
    context: &FeedbackContext,
    disagreement: &Disagreement,
    pair: &PairReport,
) -> Vec<String> {
    let model = context.compiled;
    let variables = |exprs: &[&Expr]| -> HashSet<String> {
        exprs
            .iter()
            .flat_map(|e| e.symbols())
            .filter(|s| model.vocabulary.variable_sort(s).is_some())
            .map(str::to_string)
            .collect()
    };
    let translation = |number: Option<usize>| {
        context
            .translations
            .iter()
            .find(|t| Some(t.number) == number)
    };
    let parse = |text: &str| crate::smt::parse_expr(text).ok();
    let (Some(premise), Some(claim)) = (parse(&pair.premise), parse(&pair.claim)) else {
        return Vec::new();
    };
    let dissenting: Vec<(&Expr, &Expr, &str, &str)> = translation(Some(disagreement.dissenting))
        .map(|t| {
            t.pairs
                .iter()
                .map(|p| {
                    (
                        &p.checked.premise,
                        &p.checked.claim,
                        p.premise.as_str(),
                        p.claim.as_str(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    let mut names: HashSet<String> =
        if let Some((_, other, _, _)) = dissenting.iter().find(|d| d.2 == pair.premise) {
            variables(&[&claim, other])
        } else if let Some((other, _, _, _)) = dissenting.iter().find(|d| d.3 == pair.claim) {
            let ours = variables(&[&premise]);
            let theirs = variables(&[other]);
            ours.symmetric_difference(&theirs).cloned().collect()
        } else {
            let all = |number: Option<usize>| -> HashSet<String> {
                translation(number)
                    .map(|t| {
                        let exprs: Vec<&Expr> = t
                            .pairs
                            .iter()
                            .flat_map(|p| [&p.checked.premise, &p.checked.claim])
                            .collect();
                        variables(&exprs)
                    })
                    .unwrap_or_default()
            };
            let ours = all(disagreement.supporting);
            let theirs = all(Some(disagreement.dissenting));
            ours.symmetric_difference(&theirs).cloned().collect()
        };
    if names.is_empty() {
        names = variables(&[&claim]);
    }
    let mut names: Vec<String> = names.into_iter().collect();
    let order: Vec<&String> = model.variables.iter().map(|(n, _)| n).collect();
    names.sort_by_key(|n| order.iter().position(|o| *o == n));
    names
        .into_iter()
        .map(|name| match model.glossary.variables.get(&name) {
            Some(description) if !description.is_empty() => format!("{name} ({description})"),
            _ => name,
        })
        .collect()
}

/// A translation as "if P then C; …", or "nothing" when it has no pairs.
fn translation_text(translation: &Translation) -> String {
    if translation.pairs.is_empty() {
        return match &translation.error {
            Some(_) => "nothing (the translation failed)".into(),
            None => "nothing that can be checked".into(),
        };
    }
    let pairs: Vec<String> = translation
        .pairs
        .iter()
        .map(|p| format!("\"{} ⇒ {}\"", p.premise, p.claim))
        .collect();
    pairs.join(" and ")
}

fn claim_variables(claim: &Expr) -> Vec<String> {
    claim.symbols().into_iter().map(str::to_string).collect()
}

/// `name = value` for the named variables first, then the others, at most
/// [`SCENARIO_VALUES`].
fn scenario_values(scenario: &Scenario, first: &[String]) -> String {
    let mut chosen: Vec<&(String, Value)> = scenario
        .values
        .iter()
        .filter(|(name, _)| first.contains(name))
        .collect();
    for entry in &scenario.values {
        if chosen.len() >= SCENARIO_VALUES {
            break;
        }
        if !chosen.iter().any(|(name, _)| name == &entry.0) {
            chosen.push(entry);
        }
    }
    chosen
        .iter()
        .map(|(name, value)| format!("{name} = {value}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The values of `of` that differ from `other`, as `name = value`.
fn differing_values(of: &Scenario, other: &Scenario) -> String {
    of.values
        .iter()
        .filter(|(name, value)| other.get(name) != Some(value))
        .take(SCENARIO_VALUES)
        .map(|(name, value)| format!("{name} = {value}"))
        .collect::<Vec<_>>()
        .join(", ")
}
