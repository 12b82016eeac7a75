//! Words for an explanation: each step's rules in SMT-LIB and English with
//! the source sentence they formalize, and each deciding set's follow-up
//! question, built from the variables' descriptions (templated, no LLM).

use super::{Chain, Explanation, RuleText};
use crate::model::{CompiledModel, PolicyModel};
use crate::smt::Sort;

/// What a rule says and where it comes from.
pub fn rule_text(
    id: &str,
    compiled: &CompiledModel,
    model: &PolicyModel,
    document: Option<&str>,
) -> RuleText {
    let rule = compiled.rule(id);
    RuleText {
        id: id.to_string(),
        smtlib: rule.map(|r| r.written.to_string()).unwrap_or_default(),
        english: rule
            .map(|r| compiled.glossary.sentence(&r.written))
            .unwrap_or_default(),
        source: source_sentence(id, model, document),
    }
}

/// The document text a rule's source range covers, as a quote: tags
/// removed, whitespace collapsed.
pub fn source_sentence(id: &str, model: &PolicyModel, document: Option<&str>) -> Option<String> {
    let span = model.rule(id)?.source_span?;
    let text = document?.get(span.start..span.end)?;
    let quote = crate::document::plain_quote(text);
    (!quote.is_empty()).then_some(quote)
}

/// Fills in the rules' texts of the chain's steps and the questions.
pub fn describe(
    explanation: &mut Explanation,
    compiled: &CompiledModel,
    model: &PolicyModel,
    document: Option<&str>,
) {
    if let Some(chain) = &mut explanation.chain {
        describe_chain(chain, compiled, model, document);
    }
    if let Some(relevance) = &mut explanation.relevance {
        for ask in &mut relevance.ask {
            ask.question = question(&ask.variables, compiled);
        }
    }
}

/// Fills in the rules' texts of a chain's steps.
pub fn describe_chain(
    chain: &mut Chain,
    compiled: &CompiledModel,
    model: &PolicyModel,
    document: Option<&str>,
) {
    for step in &mut chain.steps {
        step.texts = step
            .rules
            .iter()
            .map(|id| rule_text(id, compiled, model, document))
            .collect();
    }
}

/// The source sentences of a step's rules, each once, joined.
pub fn step_source(texts: &[RuleText]) -> String {
    let mut sentences: Vec<&str> = Vec::new();
    for source in texts.iter().filter_map(|t| t.source.as_deref()) {
        if !sentences.contains(&source) {
            sentences.push(source);
        }
    }
    sentences.join(" ")
}

/// A follow-up question asking for the values of `variables`.
pub fn question(variables: &[String], compiled: &CompiledModel) -> String {
    let parts: Vec<String> = variables
        .iter()
        .map(|v| question_part(v, compiled))
        .collect();
    let mut text = parts.join(", and ");
    if let Some(first) = text.chars().next() {
        text = format!("{}{}", first.to_uppercase(), &text[first.len_utf8()..]);
    }
    format!("{text}?")
}

fn question_part(variable: &str, compiled: &CompiledModel) -> String {
    let description = compiled
        .glossary
        .variables
        .get(variable)
        .map(|d| d.trim().trim_end_matches('.').to_string())
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| crate::smt::english::humanize(variable));
    let sort = compiled
        .variables
        .iter()
        .find(|(name, _)| name == variable)
        .map(|(_, sort)| sort.clone());
    match sort {
        Some(Sort::Bool) => {
            let clause = strip_word(&description, "whether").unwrap_or(description);
            format!("is it true that {}", lower_first(&clause))
        }
        Some(Sort::Enum(type_name)) => {
            let values = compiled
                .enums
                .iter()
                .find(|(name, _)| *name == type_name)
                .map(|(_, values)| values.clone())
                .unwrap_or_default();
            format!(
                "what is {} ({})",
                noun_phrase(&description),
                one_of(&values)
            )
        }
        _ => format!("what is {}", noun_phrase(&description)),
    }
}

/// `A, B or C`.
fn one_of(values: &[String]) -> String {
    match values.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

fn strip_word(text: &str, word: &str) -> Option<String> {
    let (first, rest) = text.split_once(' ')?;
    first
        .eq_ignore_ascii_case(word)
        .then(|| rest.trim().to_string())
}

/// Lowercases the first letter, unless the word is an acronym ("ID").
fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match (chars.next(), text.chars().nth(1)) {
        (Some(_), Some(second)) if second.is_uppercase() => text.to_string(),
        (Some(first), _) => format!("{}{}", first.to_lowercase(), chars.as_str()),
        (None, _) => String::new(),
    }
}

/// A description as a definite noun phrase: "the number of …".
fn noun_phrase(description: &str) -> String {
    let lowered = lower_first(description);
    let first = lowered.split_whitespace().next().unwrap_or("");
    if ["the", "a", "an"].contains(&first) {
        lowered
    } else {
        format!("the {lowered}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::compile;
    use crate::model::import::import_smtlib;

    #[test]
    fn questions_come_from_descriptions() {
        let mut model = import_smtlib(
            "(declare-datatype Age ((CHILD) (ADULT) (SENIOR)))
             (declare-const age Age)(declare-const units Int)(declare-const low Bool)
             (assert (=> low (> units 0)))",
        )
        .unwrap();
        for (variable, description) in model.variables.iter_mut().zip([
            "The visitor's age class",
            "Number of 5-credit units the visitor uses",
            "Whether the visit falls in the low season",
        ]) {
            variable.description = description.to_string();
        }
        let compiled = compile(&model);
        let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            question(&names(&["units"]), &compiled),
            "What is the number of 5-credit units the visitor uses?"
        );
        assert_eq!(
            question(&names(&["age", "low"]), &compiled),
            "What is the visitor's age class (CHILD, ADULT or SENIOR), and is it true that the visit falls in the low season?"
        );
    }
}
