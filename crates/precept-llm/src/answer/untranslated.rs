//! What of the input no translation covered: the quotes the translations
//! marked untranslated, located in the question and answer, or the whole
//! answer when nothing of it was translated.

use super::locate::{TextPart, locate_in};
use super::report::UntranslatedSpan;
use super::translate::{AnswerInput, Translation};

/// The untranslated statements of all translations, located in the input
/// (quotes that cannot be found there are dropped: they are not the text's).
pub fn untranslated_spans(
    input: &AnswerInput,
    translations: &[Translation],
) -> Vec<UntranslatedSpan> {
    let mut spans: Vec<UntranslatedSpan> = Vec::new();
    for translation in translations {
        for quote in &translation.untranslated {
            let Some(found) = locate_in(&input.question, &input.answer, &quote.text) else {
                continue;
            };
            let reason = quote.reason.trim().to_string();
            match spans
                .iter_mut()
                .find(|s| s.part == found.part && s.start == found.start && s.end == found.end)
            {
                Some(span) => {
                    if !span.reported_by.contains(&translation.number) {
                        span.reported_by.push(translation.number);
                    }
                    if !reason.is_empty() && !span.reasons.contains(&reason) {
                        span.reasons.push(reason);
                    }
                }
                None => spans.push(UntranslatedSpan {
                    part: found.part,
                    start: found.start,
                    end: found.end,
                    text: found.text,
                    reasons: if reason.is_empty() {
                        Vec::new()
                    } else {
                        vec![reason]
                    },
                    reported_by: vec![translation.number],
                }),
            }
        }
    }
    spans.sort_by_key(|s| (s.part == TextPart::Answer, s.start));
    spans
}

/// When nothing was translated and no quote could be located, the whole
/// answer is what went untranslated.
pub fn whole_answer_untranslated(
    input: &AnswerInput,
    translations: &[Translation],
) -> Vec<UntranslatedSpan> {
    let text = input.answer.trim_end();
    let start = text.len() - text.trim_start().len();
    if start >= text.len() {
        return Vec::new();
    }
    vec![UntranslatedSpan {
        part: TextPart::Answer,
        start,
        end: text.len(),
        text: text[start..].to_string(),
        reasons: Vec::new(),
        reported_by: translations
            .iter()
            .filter(|t| t.error.is_none())
            .map(|t| t.number)
            .collect(),
    }]
}
