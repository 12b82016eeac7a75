//! The answer verifier (ARC §3.2, Alg. 1, Fig. 3): a question and answer,
//! or a plain statement, is translated k times into premise–claim pairs
//! over the model's vocabulary; the distinct pairs get a confidence from
//! how many translations entail them (decided by the solver); confident
//! pairs get the solver's finding against the model; everything aggregates
//! to the worst finding, with evidence and feedback.
//!
//! - `translate`: one translation (prompt, reply checks, one repair round)
//! - `reply`: the reply schema and what of a reply counts
//! - `vocabulary`: the vocabulary in the prompt, and its fingerprints
//! - `cache`: cached translations and when a vocabulary change affects them
//! - `confidence`: Alg. 1 — what a translation means, support, merging
//! - `budget`: size limits (TOO_COMPLEX)
//! - `locate`: finding a quote in the question or answer
//! - `untranslated`: what of the input no translation covered
//! - `report`: the result types and the aggregation
//! - `feedback`: actionable text from findings
//! - `condition`: the condition a SATISFIABLE claim needs, proved
//! - `pipeline`: the whole run, with progress events and cancellation
//! - `answer_tests`: natural-language tests and who is at fault
//! - `eval`: scoring the verifier on labelled answers

pub mod answer_tests;
pub mod budget;
pub mod cache;
pub mod condition;
pub mod confidence;
pub mod eval;
pub mod feedback;
pub mod locate;
pub mod pipeline;
pub mod reply;
pub mod report;
pub mod translate;
pub mod untranslated;
pub mod vocabulary;

pub use answer_tests::{AnswerTestOutcome, Fault, run_answer_tests};
pub use budget::Budget;
pub use cache::TranslationCache;
pub use pipeline::{AnswerVerifier, VerifyError, VerifyEvent, VerifyOptions};
pub use report::{AnswerReport, PairReport, UntranslatedSpan};
pub use translate::{AnswerInput, Translation, Translator, one_per_profile, samples_of};
