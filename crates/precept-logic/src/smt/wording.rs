//! Word-level helpers for the English templates: names turned into words,
//! descriptions cleaned for use inside a sentence, and the negation of a
//! clause ("the visitor may enter" → "the visitor may not enter").

/// `isLowSeason` → "is low season"; `DENIED_BOARDING` → "denied boarding".
pub fn humanize(name: &str) -> String {
    let mut words = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c == '_' || c == '-' || c == ' ' {
            if !current.is_empty() {
                words.push(std::mem::take(&mut current));
            }
            continue;
        }
        let boundary = c.is_uppercase()
            && i > 0
            && (chars[i - 1].is_lowercase()
                || chars.get(i + 1).is_some_and(|n| n.is_lowercase())
                    && chars[i - 1].is_uppercase());
        if boundary && !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
        current.push(c);
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
        .iter()
        .map(|w| {
            if w.len() > 1
                && w.chars().all(|c| c.is_uppercase() || c.is_ascii_digit())
                && name.contains(char::is_lowercase)
            {
                w.clone()
            } else {
                w.to_lowercase()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The first letter in lower case, unless the word is an acronym ("EU").
pub fn lower_first(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(_) if chars.clone().next().is_some_and(|c| c.is_uppercase()) => text.to_string(),
        Some(first) => format!("{}{}", first.to_lowercase(), chars.as_str()),
        None => String::new(),
    }
}

/// A description as it sits inside a sentence: its bracketed asides
/// ("Fare in dollars (before tax)") dropped, spaces collapsed, no final stop.
pub fn sentence_part(description: &str) -> String {
    let mut kept = String::new();
    let mut depth = 0usize;
    for c in description.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth > 0 => depth -= 1,
            _ if depth == 0 => kept.push(c),
            _ => {}
        }
    }
    // What follows a semicolon defines a term or gives an example ("…;
    // 'severe disablement' means at least 60% disabled"): it is not part
    // of the name.
    let kept = kept.split(';').next().unwrap_or_default();
    let words: Vec<&str> = kept.split_whitespace().collect();
    let mut text = words.join(" ");
    // An aside removed before a comma or the end leaves " ," or a trailing comma.
    text = text.replace(" ,", ",").replace(" ;", ";");
    text.trim()
        .trim_end_matches(['.', ',', ';', ':'])
        .trim()
        .to_string()
}

/// Words after which a clause's verb can no longer be found safely: the
/// first auxiliary would belong to a relative or subordinate clause.
const CLAUSE_BREAKS: [&str; 9] = [
    "who", "whom", "whose", "which", "that", "where", "when", "if", "unless",
];

/// The negation of a clause when its verb is an auxiliary the negation can
/// attach to ("is", "may", "can", "has been", "must", …), or `None` when
/// the clause has none in a place that is safe to change.
pub fn negate_clause(clause: &str) -> Option<String> {
    let words: Vec<&str> = clause.split(' ').collect();
    for (i, word) in words.iter().enumerate() {
        let lower = word.to_ascii_lowercase();
        if CLAUSE_BREAKS.contains(&lower.as_str()) {
            // "the condition on where the vaccination was given is met":
            // a clause that is the object of a preposition sits inside the
            // subject, and the main verb is the clause's last auxiliary.
            let after_preposition =
                i > 0 && PREPOSITIONS.contains(&words[i - 1].to_ascii_lowercase().as_str());
            if after_preposition
                && let Some(at) = words.iter().rposition(|w| *w == "is" || *w == "are")
                && at > i + 2
                && at + 1 < words.len()
            {
                let mut out: Vec<&str> = words[..=at].to_vec();
                out.push("not");
                out.extend(&words[at + 1..]);
                return Some(out.join(" "));
            }
            // No auxiliary before the subordinate part; a simple verb right
            // after a short subject may still come before it ("the person
            // knows the rules that apply").
            return negate_simple_verb(&words);
        }
        if i == 0 {
            // A clause starts with its subject.
            continue;
        }
        let next = words.get(i + 1).map(|w| w.to_ascii_lowercase());
        if next.as_deref() == Some("not") {
            // Already negative: the negation drops the "not".
            let mut out: Vec<&str> = words[..=i].to_vec();
            out.extend(&words[i + 2..]);
            return Some(out.join(" "));
        }
        let replacement: Option<String> = match lower.as_str() {
            "cannot" => Some("can".into()),
            "can" => Some("cannot".into()),
            "must" => Some("need not".into()),
            "is" | "are" | "was" | "were" | "may" | "might" | "will" | "would" | "should"
            | "could" | "shall" | "does" | "do" | "did" => Some(format!("{word} not")),
            "has" | "have" | "had" => {
                let auxiliary = next.as_deref().is_some_and(|n| {
                    n == "been"
                        || n.ends_with("ed")
                        || n.ends_with("en")
                        || IRREGULAR_PAST.iter().any(|(past, _)| *past == n)
                });
                Some(match (auxiliary, lower.as_str()) {
                    (true, _) => format!("{word} not"),
                    (false, "has") => "does not have".into(),
                    (false, "have") => "do not have".into(),
                    (false, _) => "did not have".into(),
                })
            }
            _ => None,
        };
        if let Some(replacement) = replacement {
            let mut out: Vec<String> = words[..i].iter().map(|w| w.to_string()).collect();
            out.push(replacement);
            out.extend(words[i + 1..].iter().map(|w| w.to_string()));
            return Some(out.join(" "));
        }
    }
    negate_simple_verb(&words)
}

const DETERMINERS: [&str; 7] = ["the", "a", "an", "this", "their", "his", "her"];

/// Prepositions after which a "where"/"whether" clause is an object.
const PREPOSITIONS: [&str; 8] = ["on", "of", "about", "for", "to", "in", "at", "by"];

/// Common irregular verbs' past forms (also their past participles, but
/// for "given", "taken" and the like, which end in "en") and bases.
const IRREGULAR_PAST: [(&str, &str); 24] = [
    ("made", "make"),
    ("got", "get"),
    ("paid", "pay"),
    ("sent", "send"),
    ("kept", "keep"),
    ("told", "tell"),
    ("held", "hold"),
    ("found", "find"),
    ("left", "leave"),
    ("met", "meet"),
    ("brought", "bring"),
    ("bought", "buy"),
    ("sold", "sell"),
    ("spent", "spend"),
    ("won", "win"),
    ("lost", "lose"),
    ("had", "have"),
    ("built", "build"),
    ("lent", "lend"),
    ("read", "read"),
    ("heard", "hear"),
    ("set", "set"),
    ("put", "put"),
    ("said", "say"),
];

/// A clause of a short subject ("the visit", "the refund request") and a
/// verb in the simple present or past: "the visit falls …" → "the visit
/// does not fall …", "the passenger travelled …" → "the passenger never
/// travelled …" (a past form is kept as written rather than guessed back to
/// its base form).
fn negate_simple_verb(words: &[&str]) -> Option<String> {
    if !DETERMINERS.contains(&words.first()?.to_ascii_lowercase().as_str()) {
        return None;
    }
    // The subject's nouns: one or two words that do not look like verbs,
    // plurals or possessives.
    let looks_inflected = |w: &str| {
        (w.ends_with('s') && !w.chars().all(|c| c.is_ascii_uppercase()))
            || w.ends_with("ed")
            || w.contains('\'')
    };
    // The subject: up to four words, "the charity or CASC" included.
    for verb_at in 2..=5 {
        let verb = words.get(verb_at)?;
        let breaks = |w: &&str| CLAUSE_BREAKS.contains(&w.to_ascii_lowercase().as_str());
        if words[1..=verb_at].iter().any(breaks) {
            return None;
        }
        if words[1..verb_at].iter().any(|w| looks_inflected(w)) {
            return None;
        }
        let lower = verb.to_ascii_lowercase();
        let irregular = IRREGULAR_PAST.iter().find(|(past, _)| *past == lower);
        let negated = if let Some((_, base)) = irregular {
            Some(format!("did not {base}"))
        } else if lower.len() > 3 && lower.ends_with("ed") {
            Some(format!("never {verb}"))
        } else if lower.len() > 3 && lower.ends_with('s') && !lower.ends_with("ss") {
            Some(format!("does not {}", present_base(verb)))
        } else {
            None
        };
        if let Some(negated) = negated {
            let mut out: Vec<String> = words[..verb_at].iter().map(|w| w.to_string()).collect();
            out.push(negated);
            out.extend(words[verb_at + 1..].iter().map(|w| w.to_string()));
            return Some(out.join(" "));
        }
    }
    None
}

/// "falls" → "fall", "applies" → "apply", "passes" → "pass", "reaches" →
/// "reach".
fn present_base(verb: &str) -> String {
    if let Some(stem) = verb.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for ending in ["sses", "ches", "shes", "xes", "zes", "oes"] {
        if verb.ends_with(ending) {
            return verb[..verb.len() - 2].to_string();
        }
    }
    verb[..verb.len() - 1].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clauses_negate_at_their_auxiliary() {
        let cases = [
            (
                "the visitor may enter the park",
                "the visitor may not enter the park",
            ),
            ("the person can ride", "the person cannot ride"),
            ("the rider must take CBT", "the rider need not take CBT"),
            (
                "the passenger is entitled to a refund",
                "the passenger is not entitled to a refund",
            ),
            (
                "the rider has passed the test",
                "the rider has not passed the test",
            ),
            (
                "the rider has a licence",
                "the rider does not have a licence",
            ),
            ("the fee is not charged", "the fee is charged"),
        ];
        for (clause, negated) in cases {
            assert_eq!(negate_clause(clause).as_deref(), Some(negated), "{clause}");
        }
        // Simple verbs after a short subject.
        let simple = [
            (
                "the visit falls in the low season",
                "the visit does not fall in the low season",
            ),
            ("the fare type applies", "the fare type does not apply"),
            (
                "the rider passes the test",
                "the rider does not pass the test",
            ),
            (
                "the passenger travelled on the flight",
                "the passenger never travelled on the flight",
            ),
            ("the flight operated", "the flight never operated"),
        ];
        for (clause, negated) in simple {
            assert_eq!(negate_clause(clause).as_deref(), Some(negated), "{clause}");
        }
        // No verb in a safe place: no negation.
        assert_eq!(negate_clause("the visitor who is a senior pays less"), None);
        assert_eq!(negate_clause("is low season"), None);
        assert_eq!(negate_clause("the fees exceed the fund"), None);
        assert_eq!(
            negate_clause("the person knows the main rules that apply to riders").as_deref(),
            Some("the person does not know the main rules that apply to riders")
        );
        assert_eq!(
            negate_clause("the person wears a helmet that meets safety standards").as_deref(),
            Some("the person does not wear a helmet that meets safety standards")
        );
        assert_eq!(negate_clause("the visitor who pays the fee"), None);
        assert_eq!(negate_clause("the rider that holds a licence"), None);
        assert_eq!(negate_clause("the visitor's fund covers the fee"), None);
        assert_eq!(negate_clause("an adult over 65"), None);
    }

    #[test]
    fn descriptions_lose_their_asides() {
        assert_eq!(
            sentence_part("Fare in dollars (before tax), paid by card."),
            "Fare in dollars, paid by card"
        );
        assert_eq!(
            sentence_part("Age of the rider (in years (whole))"),
            "Age of the rider"
        );
        assert_eq!(sentence_part("Plain words"), "Plain words");
    }
}
