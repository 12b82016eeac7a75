//! The prompts, kept as versioned Markdown files in `prompts/` and compiled
//! into the binary. A file holds a `<!-- system -->` part and a
//! `<!-- user -->` part; `{{name}}` placeholders are filled by [`render`].
//! A new wording gets a new file (`*.v2.md`), so the cache (keyed by the
//! whole prompt) and recorded replays stay tied to the wording they saw.

/// A prompt file of `prompts/` by its versioned stem: the name and the file
/// it is read from are one literal, so they cannot drift apart.
macro_rules! prompt_file {
    ($stem:literal) => {
        PromptFile {
            name: $stem,
            text: include_str!(concat!("../../../../prompts/", $stem, ".md")),
        }
    };
}

/// The fragment's grammar with examples, shared by every prompt that asks
/// for logic.
pub const FRAGMENT_GRAMMAR: &str = include_str!("../../../../prompts/fragment_grammar.v3.md");

/// Formalize one document span into a policy unit.
pub const FORMALIZE_SPAN: PromptFile = prompt_file!("formalize_span.v3");

/// The follow-up message of the refinement loop: the errors of the last
/// answer and a request for a corrected one.
pub const FORMALIZE_REPAIR: PromptFile = prompt_file!("formalize_repair.v2");

/// Translate a question and answer (or a statement) into premise–claim
/// pairs over a model's vocabulary (the answer verifier).
pub const TRANSLATE_ANSWER: PromptFile = prompt_file!("translate_answer.v2");

/// The one repair round of a translation: the parse and type errors of the
/// last answer, with their positions, and a request for a corrected one.
pub const TRANSLATE_REPAIR: PromptFile = prompt_file!("translate_repair.v1");

/// Repair from feedback: edits that address what the expert says is wrong
/// with the selected rules.
pub const REPAIR_FEEDBACK: PromptFile = prompt_file!("repair_feedback.v1");

/// Consolidation: review the composed vocabulary and propose links
/// (same meaning, opposite, implies, one of).
pub const CONSOLIDATE: PromptFile = prompt_file!("consolidate.v1");

/// The definition pass: one decision's rules and sentences, and a request
/// for its one definition (cases, requirements, exceptions).
pub const DEFINE: PromptFile = prompt_file!("define.v1");

/// The vocabulary pass: one section of the document, read before the spans
/// are formalized, proposes the shared types and variables.
pub const VOCABULARY_SECTION: PromptFile = prompt_file!("vocabulary_section.v3");

/// Probing a chatbot: a proved question's facts and claim worded the way a
/// customer would ask them (checked by a round trip before it is asked).
pub const VERBALIZE_QUESTION: PromptFile = prompt_file!("verbalize_question.v1");

/// A prompt file compiled into the binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PromptFile {
    /// The file's stem, with its version: `formalize_span.v1`.
    pub name: &'static str,
    pub text: &'static str,
}

const SYSTEM_MARK: &str = "<!-- system -->";
const USER_MARK: &str = "<!-- user -->";

impl PromptFile {
    /// The system part (empty when the file has no `<!-- system -->` mark).
    pub fn system(&self) -> &'static str {
        match (self.text.find(SYSTEM_MARK), self.text.find(USER_MARK)) {
            (Some(s), Some(u)) if s < u => self.text[s + SYSTEM_MARK.len()..u].trim(),
            (Some(s), None) => self.text[s + SYSTEM_MARK.len()..].trim(),
            _ => "",
        }
    }

    /// The user part (the whole file when it has no marks).
    pub fn user(&self) -> &'static str {
        match (self.text.find(SYSTEM_MARK), self.text.find(USER_MARK)) {
            (_, Some(u)) => self.text[u + USER_MARK.len()..].trim(),
            (Some(_), None) => "",
            (None, None) => self.text.trim(),
        }
    }
}

/// Fills `{{name}}` placeholders in one pass: a value is never scanned for
/// placeholders itself, so document text that happens to contain `{{…}}`
/// stays as written. A placeholder without a value is left as it is.
pub fn render(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 256);
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            out.push_str(&rest[open..]);
            return out;
        };
        let key = after[..close].trim();
        match values.iter().find(|(k, _)| *k == key) {
            Some((_, value)) => out.push_str(value),
            None => out.push_str(&rest[open..open + 2 + close + 2]),
        }
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_fills_placeholders_once_and_keeps_unknown_ones() {
        let text = render(
            "span {{ id }}: {{text}} {{missing}}",
            &[("id", "S1"), ("text", "pay {{id}} now")],
        );
        assert_eq!(text, "span S1: pay {{id}} now {{missing}}");
    }

    #[test]
    fn prompt_files_split_into_system_and_user_parts() {
        assert!(FORMALIZE_SPAN.system().contains("{{grammar}}"));
        assert!(FORMALIZE_SPAN.user().contains("{{span_text}}"));
        assert!(!FORMALIZE_SPAN.user().contains("<!--"));
        assert_eq!(FORMALIZE_REPAIR.system(), "");
        assert!(FORMALIZE_REPAIR.user().contains("{{errors}}"));
        assert!(FRAGMENT_GRAMMAR.contains("(=> t1 t2)"));
        assert!(TRANSLATE_ANSWER.system().contains("{{grammar}}"));
        for placeholder in ["{{types}}", "{{variables}}", "{{question}}", "{{answer}}"] {
            assert!(
                TRANSLATE_ANSWER.user().contains(placeholder),
                "{placeholder}"
            );
        }
        assert_eq!(TRANSLATE_REPAIR.system(), "");
        assert!(TRANSLATE_REPAIR.user().contains("{{errors}}"));
        assert!(TRANSLATE_REPAIR.user().contains("{{previous}}"));
    }
}
