//! The words of a text, as the vocabulary checks and the lexical embedder
//! compare them: identifiers split at case and digit boundaries, stop words
//! dropped, conservative stems.

/// Splits an identifier on `_`, `-`, non-alphanumerics and camelCase /
/// acronym / digit boundaries, lowercasing the parts:
/// `isHTTPRequestOK_v2` → `is http request ok v 2`.
pub fn split_identifier(ident: &str) -> Vec<String> {
    let mut words = Vec::new();
    for chunk in ident.split(|c: char| !c.is_alphanumeric()) {
        let chars: Vec<char> = chunk.chars().collect();
        let mut cur = String::new();
        for i in 0..chars.len() {
            let c = chars[i];
            if !cur.is_empty() {
                let prev = chars[i - 1];
                let next = chars.get(i + 1).copied();
                let boundary = (prev.is_lowercase() && c.is_uppercase())
                    || (prev.is_alphabetic() && c.is_numeric())
                    || (prev.is_numeric() && c.is_alphabetic())
                    // "HTTPRequest": split before the 'R' of "Request".
                    || (prev.is_uppercase()
                        && c.is_uppercase()
                        && next.is_some_and(|n| n.is_lowercase()));
                if boundary {
                    words.push(cur.to_lowercase());
                    cur.clear();
                }
            }
            cur.push(c);
        }
        if !cur.is_empty() {
            words.push(cur.to_lowercase());
        }
    }
    words
}

/// A small English stop-word list. Negations ("not", "no") and comparatives
/// ("before", "after", "under", "over") are deliberately kept: they change
/// meaning.
const STOP_WORDS: &[&str] = &[
    "a", "an", "the", "of", "to", "for", "in", "on", "at", "by", "with", "from", "as", "is", "are",
    "was", "were", "be", "been", "being", "has", "have", "had", "do", "does", "did", "whether",
    "if", "and", "or", "that", "this", "these", "those", "it", "its", "their", "his", "her",
    "they", "he", "she", "which", "who", "whom", "what", "any", "each", "s", "num", "number",
    "value", "flag", "into", "per", "can", "may", "will",
];

fn is_stop_word(w: &str) -> bool {
    STOP_WORDS.contains(&w)
}

/// Conservative suffix stripping: plural `s`/`es`/`ies`, `ing`, `ed`. Only
/// applied when a reasonably long stem remains, so short words ("bus",
/// "red", "king") are left alone.
pub fn stem(word: &str) -> String {
    let w = word;
    let n = w.len();
    if !w.is_ascii() {
        return w.to_string();
    }
    let undouble = |s: &str| -> String {
        let b = s.as_bytes();
        let l = b.len();
        if l >= 4
            && b[l - 1] == b[l - 2]
            && !matches!(
                b[l - 1],
                b'l' | b's' | b'z' | b'e' | b'o' | b'a' | b'i' | b'u'
            )
        {
            s[..l - 1].to_string()
        } else {
            s.to_string()
        }
    };
    if n > 4 && w.ends_with("ies") {
        return format!("{}y", &w[..n - 3]);
    }
    if n > 4 && w.ends_with("sses") {
        return w[..n - 2].to_string();
    }
    if n > 4
        && (w.ends_with("ches") || w.ends_with("shes") || w.ends_with("xes") || w.ends_with("zes"))
    {
        return w[..n - 2].to_string();
    }
    if n > 5 && w.ends_with("ing") {
        return undouble(&w[..n - 3]);
    }
    if n > 4 && w.ends_with("ied") {
        return format!("{}y", &w[..n - 3]);
    }
    if n > 4 && w.ends_with("ed") && !w.ends_with("eed") {
        return undouble(&w[..n - 2]);
    }
    if n > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        return w[..n - 1].to_string();
    }
    w.to_string()
}

/// Content words of a text: identifiers split, lowercased, stop words
/// removed, stemmed.
pub fn content_words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .flat_map(split_identifier)
        .filter(|w| !is_stop_word(w))
        .map(|w| stem(&w))
        .filter(|w| !w.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_identifiers() {
        assert_eq!(
            split_identifier("isRefundEligible"),
            ["is", "refund", "eligible"]
        );
        assert_eq!(
            split_identifier("admin_fee_charged"),
            ["admin", "fee", "charged"]
        );
        assert_eq!(
            split_identifier("HTTPRequest2x"),
            ["http", "request", "2", "x"]
        );
    }

    #[test]
    fn stems_conservatively() {
        assert_eq!(stem("children"), "children");
        assert_eq!(stem("fees"), "fee");
        assert_eq!(stem("refunded"), "refund");
        assert_eq!(stem("booking"), "book");
        assert_eq!(stem("bus"), "bus");
        assert_eq!(stem("charges"), "charge");
        assert_eq!(stem("stopped"), "stop");
        assert_eq!(stem("applies"), "apply");
    }
}
