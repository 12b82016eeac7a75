//! Whether two variables that look alike differ in meaning, and whether a
//! merge of two differently named variables is near-certain.
//!
//! Lexical similarity is high for `passedCarTestBefore1Feb2001` and
//! `passedCarTestOnOrAfter1Feb2001`, yet they are opposites. Clustering must
//! never merge such a pair, at any threshold, so [`contrast`] looks for the
//! markers that change meaning:
//!
//! * **opposites**: one side says *before* and the other *after*, *on site*
//!   and *on road*, *online* and *by post*, *with* and *without*, …;
//! * **numbers, dates and letters**: both sides carry numbers (or single
//!   letters, as in form `VAT1a` and `VAT1b`) and they differ;
//! * **named entities**: both sides name places or bodies and the names
//!   differ (*England* and *the UK*);
//! * **modality**: one side is a permission (*can*, *may*), an obligation
//!   (*must*, *needs to*), a wish (*wants to*) or an application (*applies
//!   for*) and the other is not the same kind (*can register* against
//!   *registers*);
//! * **qualifiers**: one side is qualified as *final*, *first*, *previous*, …
//!   and the other is not.
//!
//! Beyond the hard contrasts, [`near_certain`] says when a merge may happen
//! silently: the two names use the same words (ignoring case, order,
//! plurals and filler words like *is* or *of*). Every other merge the
//! clustering finds becomes a proposal the expert decides.

use std::collections::BTreeSet;

use crate::document::words::split_identifier;

/// Pairs of words that mark opposite meanings.
const OPPOSITES: &[(&str, &str)] = &[
    ("before", "after"),
    ("earlier", "later"),
    ("under", "over"),
    ("below", "above"),
    ("less", "more"),
    ("fewer", "more"),
    ("min", "max"),
    ("minimum", "maximum"),
    ("lower", "upper"),
    ("first", "last"),
    ("start", "end"),
    ("on", "off"),
    ("site", "road"),
    ("online", "post"),
    ("online", "paper"),
    ("with", "without"),
    ("eligible", "ineligible"),
    ("allowed", "forbidden"),
    ("pass", "fail"),
    ("passed", "failed"),
    ("register", "cancel"),
    ("register", "deregister"),
    ("approve", "reject"),
    ("approved", "rejected"),
    ("full", "part"),
    ("single", "joint"),
    ("married", "single"),
    ("male", "female"),
    ("child", "adult"),
    ("weekday", "weekend"),
    ("day", "night"),
    ("domestic", "international"),
    ("inbound", "outbound"),
    ("import", "export"),
    ("buy", "sell"),
    ("employer", "employee"),
    ("landlord", "tenant"),
    ("undergraduate", "postgraduate"),
    ("undergraduate", "doctoral"),
    ("undergraduate", "masters"),
    ("masters", "doctoral"),
    ("bachelor", "master"),
    ("moped", "motorcycle"),
    ("car", "motorcycle"),
    ("increase", "decrease"),
    ("gain", "loss"),
    ("profit", "loss"),
    ("income", "expense"),
    ("entry", "exit"),
    ("arrival", "departure"),
    ("true", "false"),
    ("yes", "no"),
    ("open", "closed"),
    ("inside", "outside"),
    ("internal", "external"),
    ("resident", "nonresident"),
    ("temporary", "permanent"),
];

/// Kinds of modality: a word of one kind on one side only, or different
/// kinds on the two sides, is a contrast.
const MODALITIES: &[(&str, &[&str])] = &[
    (
        "permission",
        &[
            "can",
            "may",
            "could",
            "allowed",
            "able",
            "permitted",
            "entitled",
        ],
    ),
    (
        "obligation",
        &["must", "need", "required", "should", "shall"],
    ),
    (
        "wish",
        &[
            "want", "wish", "intend", "intends", "plan", "plans", "would",
        ],
    ),
    (
        "application",
        &["apply", "applie", "applied", "application"],
    ),
];

/// Words that narrow a thing to one of several: one side only is a contrast.
const QUALIFIERS: &[&str] = &[
    "final",
    "first",
    "last",
    "initial",
    "previous",
    "prior",
    "next",
    "former",
    "current",
    "new",
    "old",
    "second",
    "third",
    "additional",
    "extra",
    "other",
    "partial",
];

/// Place and body names that camelCase hides (no capital in a name).
const KNOWN_ENTITIES: &[&str] = &[
    "uk", "gb", "england", "scotland", "wales", "ireland", "britain", "eu", "eea", "us", "usa",
    "hmrc", "dvla", "dvsa", "nhs", "isle", "man", "wight", "jersey", "guernsey",
];

/// Words that say nothing of what a name means.
const FILLER: &[&str] = &[
    "is", "has", "have", "does", "do", "did", "are", "was", "the", "a", "an", "of", "to", "for",
    "by", "in", "at", "its", "their", "whether", "if", "be", "been",
];

const MONTHS: &[&str] = &[
    "jan",
    "january",
    "feb",
    "february",
    "mar",
    "march",
    "apr",
    "april",
    "jun",
    "june",
    "jul",
    "july",
    "aug",
    "august",
    "sep",
    "sept",
    "september",
    "oct",
    "october",
    "nov",
    "november",
    "dec",
    "december",
];

/// One side of a comparison: a variable's name and description.
#[derive(Debug, Clone, Copy)]
pub struct Named<'a> {
    pub name: &'a str,
    pub description: &'a str,
}

/// Why two variables differ in meaning, in plain words
/// ("before vs after"), or `None` when nothing marks them apart.
pub fn contrast(a: Named, b: Named) -> Option<String> {
    Features::of(a).contrast(&Features::of(b))
}

/// What [`contrast`] looks at in one variable, worked out once (clustering
/// compares each candidate with many others, so the comparison itself is
/// mostly bit operations).
#[derive(Debug, Clone)]
pub struct Features {
    words: BTreeSet<String>,
    numbers: BTreeSet<String>,
    months: BTreeSet<String>,
    letters: BTreeSet<String>,
    entities: BTreeSet<String>,
    /// Bit i: the first (second) word of `OPPOSITES[i]` is used.
    opposite_first: u64,
    opposite_second: u64,
    /// Bit i: a marker of `MODALITIES[i]` is in the name.
    modality: u8,
    /// Bit i: `QUALIFIERS[i]` is in the name.
    qualifiers: u32,
}

const _: () = assert!(OPPOSITES.len() <= 64 && MODALITIES.len() <= 8 && QUALIFIERS.len() <= 32);

fn mask(items: impl Iterator<Item = bool>) -> u64 {
    items
        .enumerate()
        .filter(|(_, on)| *on)
        .fold(0, |m, (i, _)| m | (1 << i))
}

impl Features {
    pub fn of(side: Named) -> Features {
        let words = words(side);
        let names = name_words(side.name);
        let has = |w: &str| words.contains(w);
        let in_name = |w: &str| names.iter().any(|n| n == w);
        Features {
            numbers: numbers(&words),
            months: months(&words),
            letters: letters(&names),
            entities: entities(side, &names),
            opposite_first: mask(OPPOSITES.iter().map(|(x, _)| has(x))),
            opposite_second: mask(OPPOSITES.iter().map(|(_, y)| has(y))),
            modality: mask(
                MODALITIES
                    .iter()
                    .map(|(_, markers)| markers.iter().any(|m| in_name(m))),
            ) as u8,
            qualifiers: mask(QUALIFIERS.iter().map(|q| in_name(q))) as u32,
            words,
        }
    }

    /// Why the two differ in meaning, or `None` (see [`contrast`]).
    pub fn contrast(&self, other: &Features) -> Option<String> {
        let (a1, a2, b1, b2) = (
            self.opposite_first,
            self.opposite_second,
            other.opposite_first,
            other.opposite_second,
        );
        let opposed = (a1 & !a2 & b2 & !b1) | (a2 & !a1 & b1 & !b2);
        if opposed != 0 {
            let (x, y) = OPPOSITES[opposed.trailing_zeros() as usize];
            return Some(format!("{x} vs {y}"));
        }
        if let Some(reason) = differing("numbers", &self.numbers, &other.numbers) {
            return Some(reason);
        }
        if let Some(reason) = differing("dates", &self.months, &other.months) {
            return Some(reason);
        }
        if let Some(reason) = differing("letters", &self.letters, &other.letters) {
            return Some(reason);
        }
        if !self.entities.is_empty() && !other.entities.is_empty() {
            // A name counts only when the other side does not use the word
            // at all ("the Master's Loan" and "the loan amount" are not two
            // bodies).
            let mine: BTreeSet<String> = self.entities.difference(&other.words).cloned().collect();
            let theirs: BTreeSet<String> =
                other.entities.difference(&self.words).cloned().collect();
            if let Some(reason) = differing("named places or bodies", &mine, &theirs) {
                return Some(reason);
            }
        }
        if self.modality != other.modality {
            let show = |bits: u8| {
                let kinds: Vec<&str> = MODALITIES
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| bits & (1 << i) != 0)
                    .map(|(_, (kind, _))| *kind)
                    .collect();
                if kinds.is_empty() {
                    "a plain fact".to_string()
                } else {
                    kinds.join(" and ")
                }
            };
            return Some(format!(
                "{} vs {}",
                show(self.modality),
                show(other.modality)
            ));
        }
        let lone = self.qualifiers ^ other.qualifiers;
        if lone != 0 {
            return Some(format!(
                "'{}' on one side only",
                QUALIFIERS[lone.trailing_zeros() as usize]
            ));
        }
        None
    }
}

/// Whether merging two differently named variables may happen without the
/// expert: their names use the same words, up to case, order, plurals and
/// filler words ("applicantAge" and "ageOfApplicant").
pub fn near_certain(a: &str, b: &str) -> bool {
    a == b || name_key(a) == name_key(b)
}

/// The words a name is made of, stemmed, without filler, sorted: equal keys
/// mean the same words.
pub fn name_key(name: &str) -> Vec<String> {
    let mut key: Vec<String> = name_words(name)
        .into_iter()
        .filter(|w| !FILLER.contains(&w.as_str()))
        .collect();
    key.sort();
    key.dedup();
    key
}

/// Lowercased, stemmed words of a name (camelCase, snake_case and digits
/// split apart).
fn name_words(name: &str) -> Vec<String> {
    split_identifier(name)
        .into_iter()
        .map(|w| stem(&w))
        .collect()
}

/// Name and description words together, stemmed.
fn words(side: Named) -> BTreeSet<String> {
    let mut all: BTreeSet<String> = name_words(side.name).into_iter().collect();
    for word in side
        .description
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        for part in split_identifier(word) {
            all.insert(stem(&part));
        }
    }
    all
}

/// A light stemmer: plural and third-person `s`, and `-ing`/`-ed` left
/// alone (they change the sense too often to strip blindly).
fn stem(word: &str) -> String {
    let w = word.to_lowercase();
    let keep = FILLER.contains(&w.as_str()) || ["ss", "us", "is"].iter().any(|e| w.ends_with(e));
    if w.len() > 3 && w.ends_with('s') && !keep {
        w[..w.len() - 1].to_string()
    } else {
        w
    }
}

/// A contrast when both sides have some of these and they are not the same.
fn differing(what: &str, a: &BTreeSet<String>, b: &BTreeSet<String>) -> Option<String> {
    if a.is_empty() || b.is_empty() || a == b {
        return None;
    }
    let only = |x: &BTreeSet<String>, y: &BTreeSet<String>| {
        x.difference(y).cloned().collect::<Vec<_>>().join(" ")
    };
    Some(format!(
        "different {what}: {} vs {}",
        only(a, b),
        only(b, a)
    ))
}

fn numbers(words: &BTreeSet<String>) -> BTreeSet<String> {
    words
        .iter()
        .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
        .map(|w| w.trim_start_matches('0').to_string())
        .collect()
}

fn months(words: &BTreeSet<String>) -> BTreeSet<String> {
    words
        .iter()
        .filter(|w| MONTHS.contains(&w.as_str()))
        .map(|w| w[..3].to_string())
        .collect()
}

/// Single letters in a name (`vat1a`, `partB`): form or category labels.
/// An `a` counts only after a number (elsewhere it is the article).
fn letters(names: &[String]) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for (i, w) in names.iter().enumerate() {
        let after_number = i > 0 && names[i - 1].chars().all(|c| c.is_ascii_digit());
        if w.len() == 1 && w.chars().all(|c| c.is_ascii_alphabetic()) && (w != "a" || after_number)
        {
            found.insert(w.clone());
        }
    }
    found
}

/// Named places and bodies: capitalised words inside the description (not
/// the first word of a sentence) and known names in the name.
fn entities(side: Named, names: &[String]) -> BTreeSet<String> {
    let mut found: BTreeSet<String> = names
        .iter()
        .filter(|w| KNOWN_ENTITIES.contains(&w.as_str()))
        .cloned()
        .collect();
    let mut sentence_start = true;
    for word in side.description.split_whitespace() {
        let clean: String = word.chars().filter(|c| c.is_alphanumeric()).collect();
        let capitalised = clean.chars().next().is_some_and(char::is_uppercase)
            && clean.chars().skip(1).any(char::is_lowercase);
        let acronym = clean.len() >= 2 && clean.chars().all(|c| c.is_ascii_uppercase());
        let lower = clean.to_lowercase();
        if (acronym || (capitalised && !sentence_start)) && !MONTHS.contains(&lower.as_str()) {
            found.insert(lower.clone());
        } else if KNOWN_ENTITIES.contains(&lower.as_str()) && lower.len() > 2 {
            found.insert(lower);
        }
        sentence_start = word.ends_with(['.', '?', '!', ':']);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn differ(a: &str, b: &str) -> Option<String> {
        contrast(
            Named {
                name: a,
                description: "",
            },
            Named {
                name: b,
                description: "",
            },
        )
    }

    #[test]
    fn opposites_numbers_letters_modality_and_qualifiers_are_contrasts() {
        for (a, b) in [
            (
                "passedCarTestOnOrAfter1Feb2001",
                "passedCarTestBefore1Feb2001",
            ),
            ("learnersPerTrainerOnSite", "learnersPerTrainerOnRoad"),
            (
                "courseIntegratedWithUndergraduateDegree",
                "courseIntegratedWithDoctoralDegree",
            ),
            ("dateAskedToRegister", "dateAskedToCancel"),
            ("registersByPostUsingVat1b", "registersByPostUsingVat1a"),
            ("canRideMoped", "wantsToRideMoped"),
            ("gotAllowance", "canApplyForAllowance"),
            ("livesInEngland", "livesInUk"),
            ("submitsFinalReturn", "submitsReturns"),
            ("canRegisterOnline", "registersOnline"),
            ("isOver65", "isOver18"),
        ] {
            assert!(differ(a, b).is_some(), "{a} / {b} should contrast");
            assert!(differ(b, a).is_some(), "{b} / {a} should contrast");
        }
    }

    #[test]
    fn paraphrases_do_not_contrast() {
        for (a, b) in [
            ("applicantAge", "ageOfApplicant"),
            ("isLowSeason", "lowSeason"),
            ("hasDisabilityBenefit", "receivesDisabilityBenefit"),
            ("needsToTakeCbt", "mustTakeCbt"),
            ("weeklyEarnings", "averageWeeklyEarnings"),
            ("isSenior", "isSenior"),
        ] {
            assert_eq!(differ(a, b), None, "{a} / {b}");
        }
    }

    #[test]
    fn descriptions_name_places_and_numbers() {
        let england = Named {
            name: "livesHere",
            description: "whether the applicant lives in England",
        };
        let uk = Named {
            name: "livesHere",
            description: "whether the applicant lives in the UK",
        };
        assert!(contrast(england, uk).is_some());
        let small = Named {
            name: "engineSize",
            description: "engine up to 50 cc",
        };
        let large = Named {
            name: "engineSize",
            description: "engine up to 125 cc",
        };
        assert!(contrast(small, large).is_some());
        let plain = Named {
            name: "engineSize",
            description: "The engine size in cc",
        };
        assert_eq!(contrast(small, plain), None);
    }

    #[test]
    fn near_certain_means_the_same_words() {
        assert!(near_certain("applicantAge", "ageOfApplicant"));
        assert!(near_certain("isLowSeason", "lowSeason"));
        assert!(near_certain("directorLoanBalance", "directorsLoanBalance"));
        assert!(!near_certain("householdIncome", "annualHouseholdIncome"));
        assert!(!near_certain(
            "hasCompletedCbt",
            "hasCertificateOfCompletion"
        ));
    }
}
