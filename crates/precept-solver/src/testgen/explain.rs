//! What a generated test is called and why it has its finding, written only
//! once the solver has decided it.
//!
//! - The **name** says what the test asks, never its answer: "<Claim>, when
//!   <premise>?" (or "<Claim>, always?" for an empty premise), in the
//!   model's English.
//! - The **explanation** starts from the proved finding and its evidence:
//!   the minimal rule set that entails the claim (VALID) or rules it out
//!   (INVALID), the conflicting rules (IMPOSSIBLE), none for SATISFIABLE.
//!   Only then does it say what the candidate was generated to probe, so a
//!   candidate meant to show a rule applying that is proved IMPOSSIBLE reads
//!   as impossible, naming the rules of its conflict and no others.

use super::candidates::CandidateKind;
use crate::model::CompiledModel;
use crate::solve::{Finding, FindingKind};

/// The name of a test asking `claim` under `premise` (both as written): the
/// claim as a question, its situation after it, so that tests about one
/// conclusion read alike and a list shows the claim first.
pub fn test_name(model: &CompiledModel, premise: &str, claim: &str) -> String {
    let claim = capitalized(&phrase(model, claim));
    match phrase(model, premise).as_str() {
        "" | "true" => format!("{claim}, always?"),
        premise => format!("{claim}, when {premise}?"),
    }
}

/// A formula as a phrase of the model's English; the formula itself when it
/// does not check.
fn phrase(model: &CompiledModel, formula: &str) -> String {
    model
        .check_formula(formula)
        .map(|(written, _)| model.glossary.phrase(&written))
        .unwrap_or_else(|_| formula.to_string())
}

/// The first letter in upper case (an SMT-LIB term is left as written).
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) if first.is_alphabetic() => first.to_uppercase().chain(chars).collect(),
        _ => text.to_string(),
    }
}

/// "R1", "R1 and R2", "R1, R2 and R3".
pub fn rule_list(rules: &[String]) -> String {
    match rules {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Why a decided test has its finding, from the finding's own evidence, then
/// what the candidate was generated to probe.
pub fn explanation(finding: &Finding, kind: CandidateKind, targets: &[String]) -> String {
    let mut text = finding_text(finding);
    if !targets.is_empty() {
        text.push_str(&format!(
            "{PROBE_START}{}” test of {}.",
            kind.label(),
            rule_list(targets)
        ));
    }
    text
}

/// Where an explanation turns from the finding to what the candidate was
/// generated to probe.
const PROBE_START: &str = " Generated as a “";

/// A stored explanation rewritten from `finding`, the finding shown next to
/// it now. A solver may prove the same finding with another minimal rule set
/// than at generation (an IMPOSSIBLE question often has several conflicts),
/// and the explanation must name the rules of the finding on the screen, not
/// those of an earlier proof; what the test was generated to probe is kept.
pub fn explanation_of_current(finding: &Finding, stored: &str) -> String {
    let probe = stored.find(PROBE_START).map_or("", |at| &stored[at..]);
    format!("{}{probe}", finding_text(finding))
}

/// What the finding says, from its own evidence.
fn finding_text(finding: &Finding) -> String {
    let mut text = match finding.kind {
        FindingKind::Valid => valid(&finding.supporting_rules),
        FindingKind::Invalid => invalid(&finding.contradicting_rules),
        FindingKind::Satisfiable => {
            "Open: under the premise the claim can hold or not; no rule decides it.".to_string()
        }
        FindingKind::Impossible => impossible(finding),
        other => format!("{other}: the solver did not decide it."),
    };
    if !finding.rules_minimal && !finding.rules().is_empty() {
        text.push_str(" (These rules suffice; some may not be needed: the solver ran out of time proving each one necessary.)");
    }
    text
}

fn valid(rules: &[String]) -> String {
    match rules.len() {
        0 => "Follows from the premise alone: no rule is needed.".to_string(),
        1 => format!("Follows: with the premise, {} forces the claim.", rules[0]),
        _ => format!(
            "Follows: with the premise, {} together force the claim.",
            rule_list(rules)
        ),
    }
}

fn invalid(rules: &[String]) -> String {
    match rules.len() {
        0 => "Does not follow: the premise itself rules the claim out.".to_string(),
        1 => format!(
            "Does not follow: with the premise, {} rules the claim out.",
            rules[0]
        ),
        _ => format!(
            "Does not follow: with the premise, {} together rule the claim out.",
            rule_list(rules)
        ),
    }
}

fn impossible(finding: &Finding) -> String {
    let rules = &finding.contradicting_rules;
    if finding.policy_inconsistent == Some(true) {
        return format!(
            "Impossible: {} contradict each other in every situation, so no situation satisfies the rules.",
            rule_list(rules)
        );
    }
    match rules.len() {
        0 => "Impossible: the premise contradicts itself.".to_string(),
        1 => format!(
            "Impossible: the premise contradicts {}, so this situation cannot arise under the rules.",
            rules[0]
        ),
        _ => format!(
            "Impossible: in this situation {} contradict each other, so it cannot arise under the rules.",
            rule_list(rules)
        ),
    }
}

/// What accepting a test proved IMPOSSIBLE means, in plain words: `rules`
/// are the rules of its conflict (empty when they are not known).
pub fn accept_impossible_warning(id: &str, rules: &[String]) -> String {
    let conflict = match rules {
        [] => "the rules contradict each other in this situation".to_string(),
        [one] => format!("rule {one} rules this situation out"),
        _ => format!(
            "rules {} contradict each other in this situation",
            rule_list(rules)
        ),
    };
    format!(
        "{id} was proved IMPOSSIBLE: {conflict}, so it can never arise. Accepting {id} would make that contradiction expected behaviour: the test would pass while the conflict stays, and fail once the rules are repaired. Usually the rules need repairing instead."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_listed_in_plain_words() {
        let ids = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(rule_list(&ids(&[])), "");
        assert_eq!(rule_list(&ids(&["R1"])), "R1");
        assert_eq!(rule_list(&ids(&["R1", "R2"])), "R1 and R2");
        assert_eq!(rule_list(&ids(&["R1", "R2", "R3"])), "R1, R2 and R3");
    }

    #[test]
    fn the_explanation_follows_the_finding_not_the_intent() {
        let mut finding = Finding::new(FindingKind::Impossible, "a", "b");
        finding.contradicting_rules = vec!["R1".into(), "R2".into()];
        finding.policy_inconsistent = Some(false);
        assert_eq!(
            explanation(&finding, CandidateKind::AntecedentTrue, &["R1".into()]),
            "Impossible: in this situation R1 and R2 contradict each other, so it cannot arise under the rules. Generated as a “Rule applies” test of R1."
        );
        let mut finding = Finding::new(FindingKind::Valid, "a", "b");
        finding.supporting_rules = vec!["R3".into()];
        assert_eq!(
            explanation(&finding, CandidateKind::Boundary, &[]),
            "Follows: with the premise, R3 forces the claim."
        );
    }

    #[test]
    fn a_stored_explanation_is_rewritten_from_the_finding_shown_now() {
        let mut proved = Finding::new(FindingKind::Impossible, "a", "b");
        proved.contradicting_rules = vec!["R9".into(), "R39".into(), "R41".into()];
        proved.policy_inconsistent = Some(false);
        let stored = explanation(
            &proved,
            CandidateKind::Composite,
            &["R10".into(), "R41".into()],
        );
        let mut now = proved.clone();
        now.contradicting_rules = vec!["R10".into(), "R41".into()];
        assert_eq!(
            explanation_of_current(&now, &stored),
            "Impossible: in this situation R10 and R41 contradict each other, so it cannot arise under the rules. Generated as a “Combined” test of R10 and R41."
        );
        // The same proof gives the same text back.
        assert_eq!(explanation_of_current(&proved, &stored), stored);
        // An explanation with no probe part keeps none.
        let mut valid = Finding::new(FindingKind::Valid, "a", "b");
        valid.supporting_rules = vec!["R3".into()];
        assert_eq!(
            explanation_of_current(&valid, "Follows: with the premise, R2 forces the claim."),
            "Follows: with the premise, R3 forces the claim."
        );
    }
}
