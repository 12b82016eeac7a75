//! "Did you mean": the declared names nearest to an unknown one, by spelling
//! (edit distance, letter case ignored), by a shared prefix and by the words
//! the names share (`passedCarTestBefore2001` → `passedCarTestBefore1Feb2001`).

use std::cmp::Reverse;

/// At most this many names are suggested.
pub const MAX_SUGGESTIONS: usize = 3;

/// The declared names closest to `unknown`, best first, at most
/// [`MAX_SUGGESTIONS`]; empty when none is close. A name is close when it is
/// within about a third of its length in edits, when one name begins with the
/// other (four letters at least), or when it shares at least two thirds of
/// `unknown`'s words (two at least).
pub fn nearest_names<'a>(
    unknown: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Vec<&'a str> {
    let unknown_lower = unknown.to_lowercase();
    let unknown_words = identifier_words(unknown);
    let mut close: Vec<(usize, Reverse<usize>, &str)> = candidates
        .into_iter()
        .filter(|candidate| *candidate != unknown)
        .filter_map(|candidate| {
            let distance = spelling_distance(unknown, candidate);
            let longer = unknown.chars().count().max(candidate.chars().count());
            let shared = shared_words(&unknown_words, &identifier_words(candidate));
            let by_spelling = distance <= (longer + 1) / 3;
            let by_prefix = shares_prefix(&unknown_lower, &candidate.to_lowercase());
            let by_words = shared >= 2 && shared * 3 >= unknown_words.len() * 2;
            (by_spelling || by_prefix || by_words).then_some((distance, Reverse(shared), candidate))
        })
        .collect();
    close.sort();
    close.dedup_by_key(|(_, _, name)| *name);
    close
        .into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, _, name)| name)
        .collect()
}

/// The hint appended to an unknown-name error: `did you mean a, b or c?`, or
/// `None` when nothing is close.
pub fn did_you_mean(names: &[&str]) -> Option<String> {
    let (last, rest) = names.split_last()?;
    if rest.is_empty() {
        Some(format!("did you mean {last}?"))
    } else {
        Some(format!("did you mean {} or {last}?", rest.join(", ")))
    }
}

/// Edit distance, where a difference of letter case alone costs nothing.
pub fn spelling_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != cb);
            current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

/// One lowercase name begins with the other, and the shorter has four
/// characters at least (so `fe` suggests nothing by prefix alone).
fn shares_prefix(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short.chars().count() >= 4 && long.starts_with(short)
}

/// How many of `wanted`'s words (each counted once) `have` contains.
fn shared_words(wanted: &[String], have: &[String]) -> usize {
    let mut counted: Vec<&String> = Vec::new();
    for word in wanted {
        if have.contains(word) && !counted.contains(&word) {
            counted.push(word);
        }
    }
    counted.len()
}

/// The lowercase words of an identifier, split at `_`, `-`, camelCase and
/// letter/digit boundaries: `passedCarTestBefore1Feb2001` → `passed car test
/// before 1 feb 2001`.
fn identifier_words(ident: &str) -> Vec<String> {
    let mut words = Vec::new();
    for chunk in ident.split(|c: char| !c.is_alphanumeric()) {
        let mut current = String::new();
        let mut previous: Option<char> = None;
        for c in chunk.chars() {
            let boundary = previous.is_some_and(|p| {
                (p.is_lowercase() && c.is_uppercase())
                    || (p.is_alphabetic() && c.is_numeric())
                    || (p.is_numeric() && c.is_alphabetic())
            });
            if boundary && !current.is_empty() {
                words.push(std::mem::take(&mut current).to_lowercase());
            }
            current.push(c);
            previous = Some(c);
        }
        if !current.is_empty() {
            words.push(current.to_lowercase());
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    const CBT: &[&str] = &[
        "passedCarTestBefore1Feb2001",
        "hasFullMotorcycleLicence",
        "riderAge",
        "needsToTakeCbt",
        "needsToTakeFullMopedTest",
        "livesOnIsland",
    ];

    #[test]
    fn a_missing_word_in_a_long_name_is_found() {
        assert_eq!(
            nearest_names("passedCarTestBefore2001", CBT.iter().copied()),
            vec!["passedCarTestBefore1Feb2001"]
        );
    }

    #[test]
    fn misspellings_rank_by_distance_and_stop_at_three() {
        let names = ["fee", "feet", "free", "fees", "flee", "baseFee"];
        assert_eq!(
            nearest_names("feee", names.iter().copied()),
            vec!["fee", "fees", "feet"]
        );
        assert_eq!(
            nearest_names("ridrAge", CBT.iter().copied()),
            vec!["riderAge"]
        );
    }

    #[test]
    fn shared_words_and_prefixes_count_when_spelling_is_far() {
        assert_eq!(
            nearest_names("needsCbt", CBT.iter().copied()),
            vec!["needsToTakeCbt"]
        );
        assert_eq!(
            nearest_names("needsToTake", CBT.iter().copied()),
            vec!["needsToTakeCbt", "needsToTakeFullMopedTest"]
        );
    }

    #[test]
    fn nothing_close_suggests_nothing() {
        assert!(nearest_names("price", ["fee", "isLowSeason"].iter().copied()).is_empty());
        assert!(nearest_names("x", ["y", "z"].iter().copied()).is_empty());
        assert!(nearest_names("fee", ["fee"].iter().copied()).is_empty());
        assert_eq!(did_you_mean(&[]), None);
    }

    #[test]
    fn the_hint_lists_names_in_order() {
        assert_eq!(did_you_mean(&["fee"]).unwrap(), "did you mean fee?");
        assert_eq!(
            did_you_mean(&["fee", "feet", "fees"]).unwrap(),
            "did you mean fee, feet or fees?"
        );
    }

    #[test]
    fn spelling_distance_ignores_case() {
        assert_eq!(spelling_distance("baseFee", "basefee"), 0);
        assert_eq!(
            spelling_distance("passedCarTestBefore2001", "passedCarTestBefore1Feb2001"),
            4
        );
    }
}
