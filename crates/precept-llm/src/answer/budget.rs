//! Size limits: a text or a translation over budget is TOO_COMPLEX rather
//! than half-checked. Tokens are estimated as characters / 4 (rounded up),
//! the usual rule of thumb for English with current tokenizers.

use serde::Serialize;

/// The limits of one verification.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Budget {
    /// Question and answer together, in estimated tokens.
    pub max_text_tokens: usize,
    /// Premise–claim pairs in one translation.
    pub max_pairs: usize,
    /// Characters of logic (premises and claims) in one translation.
    pub max_translation_chars: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_text_tokens: 1_500,
            max_pairs: 16,
            max_translation_chars: 8_000,
        }
    }
}

/// The estimated token count of `text`: characters / 4, rounded up.
pub fn estimate_tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

impl Budget {
    /// Why the question and answer are too long, if they are.
    pub fn text_excess(&self, question: &str, answer: &str) -> Option<String> {
        let tokens = estimate_tokens(question) + estimate_tokens(answer);
        (tokens > self.max_text_tokens).then(|| {
            format!(
                "the question and answer are about {tokens} tokens (characters / 4); the budget \
                 is {} tokens: check a shorter text, one claim at a time",
                self.max_text_tokens
            )
        })
    }

    /// Why a translation of `pairs` premise–claim texts is too large, if it is.
    pub fn translation_excess<'a>(
        &self,
        number: usize,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Option<String> {
        let (mut count, mut chars) = (0, 0);
        for (premise, claim) in pairs {
            count += 1;
            chars += premise.chars().count() + claim.chars().count();
        }
        if count > self.max_pairs {
            return Some(format!(
                "translation {number} has {count} premise–claim pairs; the budget is {}",
                self.max_pairs
            ));
        }
        (chars > self.max_translation_chars).then(|| {
            format!(
                "translation {number} has {chars} characters of logic; the budget is {}",
                self.max_translation_chars
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_characters_over_four_rounded_up() {
        assert_eq!(estimate_tokens(""), 0);
        assert_eq!(estimate_tokens("abcd"), 1);
        assert_eq!(estimate_tokens("abcde"), 2);
        assert_eq!(estimate_tokens("éééé"), 1);
    }

    #[test]
    fn excess_names_the_size_and_the_budget() {
        let budget = Budget {
            max_text_tokens: 3,
            max_pairs: 1,
            max_translation_chars: 10,
        };
        assert!(budget.text_excess("abcd", "abcdefgh").is_none());
        let excess = budget.text_excess("abcd", "abcdefghi").expect("over");
        assert!(excess.contains("about 4 tokens") && excess.contains("budget is 3"));
        assert!(budget.translation_excess(1, [("true", "x")]).is_none());
        let pairs = budget.translation_excess(2, [("true", "x"), ("true", "y")]);
        assert!(pairs.expect("over").contains("translation 2 has 2"));
        let chars = budget.translation_excess(1, [("(and a b c)", "d")]);
        assert!(chars.expect("over").contains("12 characters"));
    }
}
