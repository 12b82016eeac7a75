//! A finding in one plain sentence: what it means for the question asked,
//! with the rules behind it ("No: under these rules, in this situation it is
//! always true that the rider does not need CBT (R9, R39)."). The premise is shown
//! next to it, so the sentence calls it "this situation"; the finding's name
//! stays next to it too.

use super::finding::{Finding, FindingKind};
use crate::smt::english::Glossary;
use crate::smt::{Expr, ExprKind, Op, parse_expr};

/// The verdict sentence for `finding`, in the words of the model's glossary.
pub fn verdict(finding: &Finding, glossary: &Glossary) -> String {
    let situation = situation(&finding.premise);
    let claim = phrase(&finding.claim, glossary);
    let rules = format!("{}{}", rule_list(finding.rules()), assuming(finding));
    match finding.kind {
        FindingKind::Valid => format!("Yes: under these rules, {situation} it is always true that {claim}{rules}."),
        // Said positively: "it is always true that the visitor may enter",
        // not "it is never true that the visitor may not enter".
        FindingKind::Invalid => format!(
            "No: under these rules, {situation} it is always true that {}{rules}.",
            negated_phrase(&finding.claim, glossary)
        ),
        FindingKind::Satisfiable => format!(
            "It depends: under these rules, {situation} it can be true or false that {claim}; the scenarios show one case of each."
        ),
        FindingKind::Impossible if finding.policy_inconsistent == Some(true) => format!(
            "The situation described cannot happen under these rules{rules}: they contradict each other, whatever the situation."
        ),
        FindingKind::Impossible => format!(
            "The situation described cannot happen under these rules{rules}, so the question has no answer."
        ),
        FindingKind::TooComplex => "Undecided: the solver could not settle this question in time, so the rules neither confirm nor refute the claim.".to_string(),
        FindingKind::TranslationAmbiguous => "Unclear: the translations of the answer into the rules' terms disagree, so it cannot be checked as it stands.".to_string(),
        FindingKind::NoTranslations => "Not checked: the answer could not be put into the rules' terms.".to_string(),
    }
}

/// "in this situation" for a premise, "in any situation" for `true`.
fn situation(premise: &str) -> &'static str {
    match parse_expr(premise) {
        Ok(expr) if matches!(expr.kind, ExprKind::Bool(true)) => "in any situation",
        _ => "in this situation",
    }
}

/// A formula in English, or as written when it does not parse.
fn phrase(formula: &str, glossary: &Glossary) -> String {
    match parse_expr(formula) {
        Ok(expr) => glossary.phrase(&expr),
        Err(_) => formula.to_string(),
    }
}

/// The claim's negation in English (a double negation cancels).
fn negated_phrase(formula: &str, glossary: &Glossary) -> String {
    match parse_expr(formula) {
        Ok(expr) => glossary.phrase(&Expr::app(Op::Not, vec![expr])),
        Err(_) => format!("not {formula}"),
    }
}

/// ", assuming the employee did not know beforehand (an exception of
/// canTakeTimeOff the question does not mention)" for a finding of the
/// default reading that needs assumptions; empty otherwise.
pub fn assuming(finding: &Finding) -> String {
    let parts: Vec<String> = finding
        .assumptions
        .iter()
        .map(|a| {
            format!(
                "{} (an exception of {} the question does not mention)",
                a.english, a.variable
            )
        })
        .collect();
    match parts.split_last() {
        None => String::new(),
        Some((last, [])) => format!(", assuming {last}"),
        Some((last, rest)) => format!(", assuming {} and {last}", rest.join(", ")),
    }
}

fn rule_list(rules: &[String]) -> String {
    if rules.is_empty() {
        String::new()
    } else {
        format!(" ({})", rules.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glossary() -> Glossary {
        let mut g = Glossary::default();
        g.variables
            .insert("entry".into(), "Whether the visitor may enter".into());
        g.variables
            .insert("senior".into(), "Whether the visitor is a senior".into());
        g.bool_variables.insert("entry".into());
        g.bool_variables.insert("senior".into());
        g
    }

    fn finding(kind: FindingKind, premise: &str, rules: &[&str]) -> Finding {
        let mut f = Finding::new(kind, premise, "entry");
        let rules = rules.iter().map(|r| r.to_string()).collect();
        match kind {
            FindingKind::Valid => f.supporting_rules = rules,
            _ => f.contradicting_rules = rules,
        }
        f
    }

    #[test]
    fn each_kind_has_its_sentence() {
        let g = glossary();
        let say = |kind, premise, rules: &[&str]| verdict(&finding(kind, premise, rules), &g);
        assert_eq!(
            say(FindingKind::Valid, "senior", &["R1", "R2"]),
            "Yes: under these rules, in this situation it is always true that the visitor may enter (R1, R2)."
        );
        assert_eq!(
            say(FindingKind::Invalid, "(not senior)", &["R3"]),
            "No: under these rules, in this situation it is always true that the visitor may not enter (R3)."
        );
        assert_eq!(
            say(FindingKind::Satisfiable, "true", &[]),
            "It depends: under these rules, in any situation it can be true or false that the visitor may enter; the scenarios show one case of each."
        );
        assert_eq!(
            say(FindingKind::Impossible, "senior", &["R4", "R5"]),
            "The situation described cannot happen under these rules (R4, R5), so the question has no answer."
        );
        let mut inconsistent = finding(FindingKind::Impossible, "true", &["R4"]);
        inconsistent.policy_inconsistent = Some(true);
        assert_eq!(
            verdict(&inconsistent, &g),
            "The situation described cannot happen under these rules (R4): they contradict each other, whatever the situation."
        );
        assert!(say(FindingKind::TooComplex, "senior", &[]).starts_with("Undecided: "));
    }
}
