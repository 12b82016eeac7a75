//! One translation: a question and answer (or a statement) become
//! premise–claim pairs over the model's vocabulary through one LLM
//! translator. The prompt is `prompts/translate_answer.v1.md`; a reply
//! whose pairs do not parse or type-check goes back once
//! (`prompts/translate_repair.v1.md`) with the errors and their positions.
//! What still fails is kept aside as rejected and never reaches the solver.

use super::cache::{CachedTranslation, RejectedPair, TranslationCache, translation_key};
use super::reply::{
    CheckedPair, CheckedReply, SCHEMA_NAME, UntranslatedQuote, WrittenPair, check_reply,
    reply_schema,
};
use super::vocabulary::TranslationVocabulary;
use crate::llm::prompts::{FRAGMENT_GRAMMAR, TRANSLATE_ANSWER, TRANSLATE_REPAIR, render};
use crate::llm::{LlmClient, LlmError, LlmRequest};
use serde::Serialize;
use std::sync::Arc;

/// The temperature of samples 2..k of one profile whose own temperature is
/// 0: identical samples would agree by construction and say nothing.
pub const DEFAULT_SAMPLE_TEMPERATURE: f32 = 0.7;

/// How each sample is asked to work: k samples of one profile read the text
/// in different orders, so that they can differ even where a server ignores
/// the temperature (ARC Alg. 1 needs independent translations). Sample n
/// takes approach n, cycling.
pub const APPROACHES: [&str; 3] = [
    "Work through the answer sentence by sentence, in the order it is written.",
    "Start from what the answer concludes: write each claim first, then collect into its premise every fact of the question and the answer that the claim depends on.",
    "Start from the situation: first list every fact the question and the answer state about the person or case, make them the premise, then write what the answer asserts as the claim.",
];

/// The approach line of sample `sample` (1-based).
pub fn approach(sample: usize) -> &'static str {
    APPROACHES[(sample.max(1) - 1) % APPROACHES.len()]
}

/// Tokens the translator may answer with.
const REPLY_MAX_TOKENS: u32 = 2_048;

/// One of the k redundant translators: a client (profile) and the sample
/// number, which is part of the prompt so each sample is its own cache entry.
#[derive(Debug, Clone)]
pub struct Translator {
    pub client: Arc<LlmClient>,
    /// 1-based.
    pub sample: usize,
    pub temperature: f32,
}

impl Translator {
    /// Protocol, server, model and sample: what makes two translators differ.
    pub fn identity(&self) -> String {
        let profile = self.client.profile();
        format!(
            "{} {} {} #{}",
            profile.protocol.as_str(),
            profile.base_url.trim_end_matches('/'),
            profile.model,
            self.sample
        )
    }
}

/// k samples of one profile, each with its own [`approach`]. The first is
/// asked at the profile's temperature; samples 2..k at that temperature, or
/// at [`DEFAULT_SAMPLE_TEMPERATURE`] when it is 0.
pub fn samples_of(client: Arc<LlmClient>, k: usize) -> Vec<Translator> {
    let own = client.profile().temperature;
    let varied = if own > 0.0 {
        own
    } else {
        DEFAULT_SAMPLE_TEMPERATURE
    };
    (1..=k.max(1))
        .map(|sample| Translator {
            client: client.clone(),
            sample,
            temperature: if sample == 1 { own } else { varied },
        })
        .collect()
}

/// One translator per client (k profiles), each at its own temperature.
pub fn one_per_profile(clients: Vec<Arc<LlmClient>>) -> Vec<Translator> {
    clients
        .into_iter()
        .enumerate()
        .map(|(index, client)| Translator {
            temperature: client.profile().temperature,
            client,
            sample: index + 1,
        })
        .collect()
}

/// What to translate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AnswerInput {
    /// Empty for a plain statement.
    pub question: String,
    pub answer: String,
}

impl AnswerInput {
    pub fn new(question: impl Into<String>, answer: impl Into<String>) -> AnswerInput {
        AnswerInput {
            question: question.into(),
            answer: answer.into(),
        }
    }

    /// A plain statement (no question).
    pub fn statement(text: impl Into<String>) -> AnswerInput {
        AnswerInput::new("", text)
    }
}

/// A pair of a translation, as shown and as the solver gets it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TranslatedPair {
    pub premise: String,
    pub claim: String,
    pub source: String,
    #[serde(skip)]
    pub checked: CheckedPair,
}

/// The outcome of one translator.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Translation {
    /// 1-based, in translator order.
    pub number: usize,
    pub translator: String,
    pub pairs: Vec<TranslatedPair>,
    pub untranslated: Vec<UntranslatedQuote>,
    pub rejected: Vec<RejectedPair>,
    /// LLM requests made: 0 from the cache, 1, or 2 with the repair round.
    pub rounds: u32,
    pub from_cache: bool,
    /// Why the translator gave nothing (the request failed, or the reply
    /// was unusable); such a translation counts as one with no pairs.
    pub error: Option<String>,
}

impl Translation {
    fn failed(number: usize, translator: String, rounds: u32, error: &LlmError) -> Translation {
        Translation {
            number,
            translator,
            pairs: Vec::new(),
            untranslated: Vec::new(),
            rejected: Vec::new(),
            rounds,
            from_cache: false,
            error: Some(error.to_string()),
        }
    }
}

/// Something that happened during one translation.
#[derive(Debug, Clone, PartialEq)]
pub enum TranslationStep {
    /// The reply had pairs that do not check; the repair round starts.
    Retrying { errors: Vec<String> },
}

/// The request of one round; `feedback` is empty in the first.
fn request(
    vocabulary: &TranslationVocabulary,
    input: &AnswerInput,
    translator: &Translator,
    samples: usize,
    feedback: &str,
) -> LlmRequest {
    let question = serde_json::Value::String(input.question.clone()).to_string();
    let answer = serde_json::Value::String(input.answer.clone()).to_string();
    let sample = translator.sample.to_string();
    let samples = samples.to_string();
    LlmRequest {
        system: render(TRANSLATE_ANSWER.system(), &[("grammar", FRAGMENT_GRAMMAR)]),
        prompt: render(
            TRANSLATE_ANSWER.user(),
            &[
                ("types", vocabulary.types_text.trim_end()),
                ("variables", vocabulary.variables_text.trim_end()),
                ("sample", &sample),
                ("samples", &samples),
                ("approach", approach(translator.sample)),
                ("question", &question),
                ("answer", &answer),
                ("feedback", feedback),
            ],
        ),
        schema_name: SCHEMA_NAME.to_string(),
        schema: reply_schema(),
        temperature: translator.temperature,
        max_tokens: REPLY_MAX_TOKENS,
    }
}

fn repair_feedback(errors: &[String], previous: &serde_json::Value) -> String {
    let errors: String = errors.iter().map(|e| format!("- {e}\n")).collect();
    let previous = serde_json::to_string_pretty(previous).unwrap_or_else(|_| previous.to_string());
    format!(
        "\n{}",
        render(
            TRANSLATE_REPAIR.user(),
            &[("errors", errors.trim_end()), ("previous", &previous)],
        )
    )
}

fn prompt_names() -> String {
    format!("{}+{}", TRANSLATE_ANSWER.name, TRANSLATE_REPAIR.name)
}

/// Translates `input` with one translator: from the cache when a stored
/// translation is not affected by vocabulary changes, else through the LLM
/// with at most one repair round.
pub async fn translate(
    vocabulary: &TranslationVocabulary,
    input: &AnswerInput,
    translator: &Translator,
    number: usize,
    samples: usize,
    cache: Option<&TranslationCache>,
    on_step: &(dyn Fn(TranslationStep) + Send + Sync),
) -> Translation {
    let identity = translator.identity();
    let key = translation_key(&prompt_names(), &identity, &input.question, &input.answer);
    if let Some(cache) = cache
        && let Ok(translation) = stored(cache, &key, vocabulary, number)
    {
        return translation;
    }
    let first = request(vocabulary, input, translator, samples, "");
    let mut rounds = 1;
    let mut checked = match ask(&translator.client, &first, vocabulary).await {
        Ok(checked) => checked,
        Err(error) => return Translation::failed(number, identity, rounds, &error),
    };
    if !checked.errors.is_empty() {
        let errors: Vec<String> = checked.errors.iter().map(ToString::to_string).collect();
        on_step(TranslationStep::Retrying {
            errors: errors.clone(),
        });
        let previous = serde_json::to_value(&checked.written).unwrap_or_default();
        let feedback = repair_feedback(&errors, &previous);
        let second = request(vocabulary, input, translator, samples, &feedback);
        rounds = 2;
        checked = match ask(&translator.client, &second, vocabulary).await {
            Ok(checked) => checked,
            Err(error) => return Translation::failed(number, identity, rounds, &error),
        };
    }
    let translation = assemble(number, identity.clone(), checked, rounds);
    if let Some(cache) = cache {
        // A cache that cannot be written only costs a request next time.
        let _ = cache.store(&to_cache(&translation, key, identity, input, vocabulary));
    }
    translation
}

/// Why a stored translation cannot be used as it is.
#[derive(Debug, Clone, PartialEq)]
pub enum StoredMiss {
    /// None was stored for this translator, question and answer.
    Missing,
    /// One was stored, but a change of the vocabulary affects it (see
    /// `cache.rs`); the entry says what it used.
    Affected(Box<CachedTranslation>),
    /// One was stored and is not affected, but a pair no longer checks.
    NoLongerChecks,
}

/// The translation `translator` stored for `input` in `cache`, when the
/// vocabulary allows using it as it is: exactly the translation
/// [`translate`] would take from the cache instead of asking the LLM. Never
/// asks one.
pub fn stored_translation(
    vocabulary: &TranslationVocabulary,
    input: &AnswerInput,
    translator: &Translator,
    number: usize,
    cache: &TranslationCache,
) -> Result<Translation, StoredMiss> {
    let key = translation_key(
        &prompt_names(),
        &translator.identity(),
        &input.question,
        &input.answer,
    );
    stored(cache, &key, vocabulary, number)
}

fn stored(
    cache: &TranslationCache,
    key: &str,
    vocabulary: &TranslationVocabulary,
    number: usize,
) -> Result<Translation, StoredMiss> {
    let cached = cache.load(key).ok_or(StoredMiss::Missing)?;
    if cached.affected_by(vocabulary) {
        return Err(StoredMiss::Affected(Box::new(cached)));
    }
    from_cache(&cached, vocabulary, number).ok_or(StoredMiss::NoLongerChecks)
}

/// One request, its reply checked.
async fn ask(
    client: &LlmClient,
    request: &LlmRequest,
    vocabulary: &TranslationVocabulary,
) -> Result<CheckedReply, LlmError> {
    let reply = client.complete(request).await?;
    check_reply(&reply.json, vocabulary).map_err(|reason| LlmError::InvalidReply {
        reason: reason.to_string(),
        raw_snippet: reply.raw.chars().take(400).collect(),
    })
}

fn assemble(number: usize, translator: String, checked: CheckedReply, rounds: u32) -> Translation {
    let rejected = checked
        .written
        .pairs
        .iter()
        .enumerate()
        .filter_map(|(index, pair)| {
            let errors: Vec<String> = checked
                .errors
                .iter()
                .filter(|e| e.pair == index)
                .map(ToString::to_string)
                .collect();
            (!errors.is_empty()).then(|| RejectedPair {
                premise: pair.premise.clone(),
                claim: pair.claim.clone(),
                source: pair.source.clone(),
                errors,
            })
        })
        .collect();
    Translation {
        number,
        translator,
        pairs: checked.pairs.into_iter().map(translated).collect(),
        untranslated: checked.written.untranslated,
        rejected,
        rounds,
        from_cache: false,
        error: None,
    }
}

fn translated(checked: CheckedPair) -> TranslatedPair {
    let (premise, claim) = checked.texts();
    TranslatedPair {
        premise,
        claim,
        source: checked.source.clone(),
        checked,
    }
}

fn to_cache(
    translation: &Translation,
    key: String,
    translator: String,
    input: &AnswerInput,
    vocabulary: &TranslationVocabulary,
) -> CachedTranslation {
    let exprs = translation
        .pairs
        .iter()
        .flat_map(|p| [&p.checked.premise, &p.checked.claim]);
    CachedTranslation {
        key,
        prompt: prompt_names(),
        translator,
        question: input.question.clone(),
        answer: input.answer.clone(),
        pairs: translation
            .pairs
            .iter()
            .map(|p| WrittenPair {
                premise: p.premise.clone(),
                claim: p.claim.clone(),
                source: p.source.clone(),
            })
            .collect(),
        untranslated: translation.untranslated.clone(),
        rejected: translation.rejected.clone(),
        rounds: translation.rounds,
        symbols: vocabulary.fingerprints_of(exprs),
        vocabulary: vocabulary.fingerprint().to_string(),
    }
}

/// A cached translation, re-checked against today's vocabulary (None when
/// a pair no longer checks: then it is asked for again).
fn from_cache(
    cached: &CachedTranslation,
    vocabulary: &TranslationVocabulary,
    number: usize,
) -> Option<Translation> {
    let reply = serde_json::json!({ "pairs": cached.pairs, "untranslated": [] });
    let checked = check_reply(&reply, vocabulary).ok()?;
    if !checked.errors.is_empty() {
        return None;
    }
    Some(Translation {
        number,
        translator: cached.translator.clone(),
        pairs: checked.pairs.into_iter().map(translated).collect(),
        untranslated: cached.untranslated.clone(),
        rejected: cached.rejected.clone(),
        rounds: 0,
        from_cache: true,
        error: None,
    })
}
