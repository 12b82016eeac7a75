//! Reading forms: how a variable is said in English. A Boolean has a
//! clause and its negation ("the donor has made a Gift Aid declaration" /
//! "the donor has not made a Gift Aid declaration"); a number or an enum
//! has a noun phrase ("the donation amount, in pounds"); an enum value has
//! a clause ("the organisation is a charity"). Formalization asks the LLM
//! for them beside each description, [`check`] refuses the ones that do not
//! read as their kind, and a template made from the description stands in
//! where there are none (`Glossary::reading`).

use serde::{Deserialize, Serialize};

/// A variable's reading forms, each empty when not given.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reading {
    /// A Boolean's clause for true.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub holds: String,
    /// A Boolean's clause for false.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub negated: String,
    /// A number's or an enum's noun phrase.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub noun: String,
}

impl Reading {
    pub fn is_empty(&self) -> bool {
        self.holds.is_empty() && self.negated.is_empty() && self.noun.is_empty()
    }

    /// The forms trimmed, with a first capital and a final full stop taken
    /// off (they sit inside sentences).
    pub fn tidied(&self) -> Reading {
        Reading {
            holds: tidy(&self.holds),
            negated: tidy(&self.negated),
            noun: tidy(&self.noun),
        }
    }
}

/// Why a reading form was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReadingProblem {
    #[error("a Boolean needs both forms: the clause for true and the one for false")]
    MissingClause,
    #[error("'{0}' is not a clause: it needs a subject and a verb (\"the donor has made …\")")]
    NotAClause(String),
    #[error("'{0}' asks a question; a form states it (\"the donor is a UK taxpayer\")")]
    Question(String),
    #[error("'{negated}' does not negate '{holds}': it needs one negation more")]
    NotANegation { holds: String, negated: String },
    #[error("'{0}' repeats a word (\"{1} {1}\")")]
    DoubledWord(String, String),
    #[error("a number or an enum needs a noun phrase (\"the donation amount, in pounds\")")]
    MissingNoun,
    #[error("'{0}' is a clause; a number or an enum is named by a noun phrase")]
    NotANoun(String),
    #[error("a Boolean is said by clauses, not by a noun phrase")]
    NounForBoolean,
}

/// Checks a variable's forms: a Boolean's two clauses, the second the
/// negation of the first; a number's or an enum's noun phrase.
pub fn check(reading: &Reading, is_bool: bool) -> Result<(), ReadingProblem> {
    let reading = reading.tidied();
    if is_bool {
        if !reading.noun.is_empty() {
            return Err(ReadingProblem::NounForBoolean);
        }
        if reading.holds.is_empty() || reading.negated.is_empty() {
            return Err(ReadingProblem::MissingClause);
        }
        check_clause(&reading.holds)?;
        check_clause(&reading.negated)?;
        if negations(&reading.negated) != negations(&reading.holds) + 1 {
            return Err(ReadingProblem::NotANegation {
                holds: reading.holds,
                negated: reading.negated,
            });
        }
        return Ok(());
    }
    if !reading.holds.is_empty() || !reading.negated.is_empty() {
        return Err(ReadingProblem::NotANoun(reading.holds.clone()));
    }
    if reading.noun.is_empty() {
        return Err(ReadingProblem::MissingNoun);
    }
    no_question(&reading.noun)?;
    no_doubled_word(&reading.noun)?;
    if is_clause(&reading.noun) {
        return Err(ReadingProblem::NotANoun(reading.noun));
    }
    Ok(())
}

/// Checks an enum value's form: a clause.
pub fn check_value(phrase: &str) -> Result<(), ReadingProblem> {
    check_clause(&tidy(phrase))
}

fn check_clause(clause: &str) -> Result<(), ReadingProblem> {
    no_question(clause)?;
    no_doubled_word(clause)?;
    if !reads_as_clause(clause) {
        return Err(ReadingProblem::NotAClause(clause.to_string()));
    }
    Ok(())
}

fn no_question(text: &str) -> Result<(), ReadingProblem> {
    let first = text.split_whitespace().next().unwrap_or_default();
    let asks = text.ends_with('?')
        || matches!(
            first.to_ascii_lowercase().as_str(),
            "whether" | "if" | "how" | "true" | "does" | "is" | "are" | "what" | "which"
        );
    match asks {
        true => Err(ReadingProblem::Question(text.to_string())),
        false => Ok(()),
    }
}

fn no_doubled_word(text: &str) -> Result<(), ReadingProblem> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    match words.windows(2).find(|w| !w[0].is_empty() && w[0] == w[1]) {
        Some(pair) => Err(ReadingProblem::DoubledWord(
            text.to_string(),
            pair[0].clone(),
        )),
        None => Ok(()),
    }
}

/// How many negations a clause holds ("not", "no", "never", "cannot",
/// "n't", …).
pub fn negations(clause: &str) -> usize {
    clause
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_lowercase()
        })
        .filter(|w| {
            matches!(
                w.as_str(),
                "not" | "no" | "never" | "cannot" | "neither" | "nor" | "none" | "nobody"
            ) || w.ends_with("n't")
        })
        .count()
}

/// Whether `said` reads as a clause ("the organisation is a charity"), not
/// a noun phrase ("a cash donation", "an adult who is not a senior"): a
/// subject, then an auxiliary or a verb the negation knows how to turn.
pub fn is_clause(said: &str) -> bool {
    let words: Vec<&str> = said.split_whitespace().collect();
    let verb = words.iter().position(|w| {
        matches!(
            *w,
            "is" | "are"
                | "was"
                | "were"
                | "has"
                | "have"
                | "had"
                | "can"
                | "cannot"
                | "may"
                | "must"
                | "does"
                | "do"
                | "did"
                | "will"
                | "should"
        )
    });
    // "An adult who is not a senior" names someone: its verb is in a
    // relative clause.
    let relative = words
        .iter()
        .position(|w| matches!(*w, "who" | "which" | "that" | "whose" | "whom"));
    words.len() >= 3
        && ["the ", "a ", "an ", "they ", "it "]
            .iter()
            .any(|d| said.starts_with(d))
        && verb.is_some_and(|v| v > 0 && relative.is_none_or(|r| v < r))
}

/// A clause as [`is_clause`] has it, or one with a simple verb the
/// negation can turn ("the donor pays tax").
fn reads_as_clause(said: &str) -> bool {
    is_clause(said)
        || (["the ", "a ", "an ", "they ", "it ", "you "]
            .iter()
            .any(|d| said.starts_with(d))
            && super::wording::negate_clause(said).is_some())
}

fn tidy(form: &str) -> String {
    let trimmed = form.trim().trim_end_matches('.').trim_end();
    let mut chars = trimmed.chars();
    match chars.next() {
        // "The donor …" → "the donor …"; "UK …" stays as it is.
        Some(first) if first.is_uppercase() && !chars.next().is_some_and(char::is_uppercase) => {
            format!("{}{}", first.to_lowercase(), &trimmed[first.len_utf8()..])
        }
        _ => trimmed.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bool_forms(holds: &str, negated: &str) -> Reading {
        Reading {
            holds: holds.into(),
            negated: negated.into(),
            noun: String::new(),
        }
    }

    #[test]
    fn a_booleans_clauses_must_be_a_clause_and_its_negation() {
        assert_eq!(
            check(
                &bool_forms(
                    "The donor has made a Gift Aid declaration.",
                    "the donor has not made a Gift Aid declaration"
                ),
                true
            ),
            Ok(())
        );
        assert!(matches!(
            check(
                &bool_forms("the donor is a taxpayer", "the donor is a taxpayer"),
                true
            ),
            Err(ReadingProblem::NotANegation { .. })
        ));
        assert!(matches!(
            check(
                &bool_forms(
                    "the donor is not a taxpayer",
                    "the donor is not not a taxpayer"
                ),
                true
            ),
            Err(ReadingProblem::DoubledWord(..))
        ));
        assert!(matches!(
            check(
                &bool_forms("whether the donor pays tax", "the donor does not pay tax"),
                true
            ),
            Err(ReadingProblem::Question(_))
        ));
        assert!(matches!(
            check(
                &bool_forms("a Gift Aid declaration", "no declaration"),
                true
            ),
            Err(ReadingProblem::NotAClause(_))
        ));
        assert_eq!(
            check(&bool_forms("the donor pays tax", ""), true),
            Err(ReadingProblem::MissingClause)
        );
    }

    #[test]
    fn a_number_or_an_enum_is_named_by_a_noun_phrase() {
        let noun = |text: &str| Reading {
            noun: text.into(),
            ..Reading::default()
        };
        assert_eq!(
            check(&noun("the donation amount, in pounds"), false),
            Ok(())
        );
        assert!(matches!(
            check(&noun("the amount is in pounds"), false),
            Err(ReadingProblem::NotANoun(_))
        ));
        assert!(matches!(
            check(&noun("how much was given"), false),
            Err(ReadingProblem::Question(_))
        ));
        assert_eq!(check(&noun(""), false), Err(ReadingProblem::MissingNoun));
        assert_eq!(
            check(&noun("the amount"), true),
            Err(ReadingProblem::NounForBoolean)
        );
    }

    #[test]
    fn an_enum_value_reads_as_a_clause() {
        assert_eq!(check_value("The organisation is a charity."), Ok(()));
        assert!(check_value("a charity").is_err());
    }
}
