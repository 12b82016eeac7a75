//! `precept check-answer DIR --question Q --answer A [--json] [--k N] [--threshold X]`
//!
//! Exit codes, as for `precept verify`: 0 when the answer was checked
//! (whatever the finding), 1 when `--expect` names another finding, 2 on
//! bad input or when no translation could be made (no LLM configured, the
//! server unreachable, nothing recorded for `--replay`).

use super::common::{Failure, Outcome, load_project, print_json, start_solver};
use super::llm_setup::{LlmArgs, llm_client};
use super::render;
use super::verify::parse_finding;
use clap::Args;
use precept_engine::answer::{
    AnswerInput, AnswerReport, AnswerVerifier, Budget, PairReport, TranslationCache, VerifyEvent,
    VerifyOptions, samples_of,
};
use precept_engine::llm::Cancel;
use precept_engine::model::CompiledModel;
use precept_engine::solve::FindingKind;
use std::fmt::Write;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Debug, Args)]
pub struct CheckAnswerArgs {
    /// The project directory
    pub dir: PathBuf,
    /// The question the answer replies to (leave out to check a plain statement)
    #[arg(long, default_value = "")]
    pub question: String,
    /// The answer (or statement) to check against the policy
    #[arg(long)]
    pub answer: String,
    /// Print the report as JSON
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub redundancy: RedundancyArgs,
    /// Largest question and answer, in estimated tokens (characters / 4)
    #[arg(long)]
    pub max_tokens: Option<usize>,
    /// Exit 1 unless the aggregate finding is this one (e.g. VALID)
    #[arg(long, value_parser = parse_finding)]
    pub expect: Option<FindingKind>,
    /// The solver deadline in milliseconds (default: the project's setting)
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// Assume nothing: without it, each exception of a definition that a
    /// pair's premise does not mention is assumed absent, and listed
    #[arg(long)]
    pub strict: bool,
    #[command(flatten)]
    pub llm: LlmArgs,
}

/// How many translations an answer check asks for, and the share of them a
/// pair needs (shared by `check-answer` and `eval`).
#[derive(Debug, Args)]
pub struct RedundancyArgs {
    /// How many redundant translations (samples of the profile)
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=16))]
    pub k: u32,
    /// The confidence a translated pair needs: a share of k such as 2/3 or 0.67 (default k/k)
    #[arg(long, default_value = "1")]
    pub threshold: String,
}

/// Reads a share such as `2/3`, `0.67` or `1`: more than 0, at most 1.
pub fn parse_threshold(text: &str) -> Result<f64, String> {
    let value = match text.split_once('/') {
        Some((numerator, denominator)) => {
            let n: f64 = numerator
                .trim()
                .parse()
                .map_err(|_| threshold_error(text))?;
            let d: f64 = denominator
                .trim()
                .parse()
                .map_err(|_| threshold_error(text))?;
            if d == 0.0 {
                return Err(threshold_error(text));
            }
            n / d
        }
        None => text.trim().parse().map_err(|_| threshold_error(text))?,
    };
    if value > 0.0 && value <= 1.0 {
        Ok(value)
    } else {
        Err(threshold_error(text))
    }
}

fn threshold_error(text: &str) -> String {
    format!(
        "--threshold {text}: expected a share of the translations above 0 and at most 1, such \
         as 2/3 or 0.67"
    )
}

pub fn run(args: &CheckAnswerArgs) -> Outcome {
    let threshold = parse_threshold(&args.redundancy.threshold).map_err(Failure::Input)?;
    if args.answer.trim().is_empty() {
        return Err(Failure::Input(
            "--answer: expected the answer (or statement) to check, found nothing".into(),
        ));
    }
    let (project, compiled) = load_project(&args.dir)?;
    let budget = Budget {
        max_text_tokens: args.max_tokens.unwrap_or(Budget::default().max_text_tokens),
        ..Budget::default()
    };
    let cache = project.cache_dir();
    let client = Arc::new(llm_client(&args.llm, cache.join("llm"))?);
    let worker = start_solver(&project, &compiled, args.timeout_ms)?;
    let verifier = AnswerVerifier::new(
        &project.model,
        &compiled,
        samples_of(client, args.redundancy.k as usize),
        VerifyOptions {
            threshold,
            budget,
            strict: args.strict,
        },
    )
    .with_cache(TranslationCache::in_project_cache(&cache));
    let show_progress = !args.json && std::io::stderr().is_terminal();
    let mut progress = |event: VerifyEvent| {
        if show_progress {
            eprintln!("{}", progress_line(&event, args.redundancy.k as usize));
        }
    };
    let input = AnswerInput::new(&args.question, &args.answer);
    let report = verifier
        .verify(&worker, &input, &mut progress, &Cancel::new())
        .map_err(|e| Failure::Input(e.to_string()))?;
    if args.json {
        print_json(&report)?;
    } else {
        print!("{}", report_text(&report, &compiled));
    }
    match args.expect {
        Some(expected) if expected != report.finding => {
            eprintln!("precept: expected {expected}, got {}", report.finding);
            Err(Failure::Check)
        }
        _ => Ok(()),
    }
}

fn progress_line(event: &VerifyEvent, k: usize) -> String {
    match event {
        VerifyEvent::Started { translations } => format!("translating ({translations}×)…"),
        VerifyEvent::Retrying {
            translation,
            errors,
        } => format!(
            "translation {translation} of {k}: repairing {} error(s)",
            errors.len()
        ),
        VerifyEvent::Translated { translation } => format!(
            "translation {} of {k}: {} pair(s){}",
            translation.number,
            translation.pairs.len(),
            if translation.from_cache {
                " (cached)"
            } else {
                ""
            }
        ),
        VerifyEvent::Solving { pairs } => format!("solving {pairs} pair(s)…"),
    }
}

/// The report as text: the aggregate, each pair with its confidence and
/// evidence, the untranslated statements, and the feedback.
pub fn report_text(report: &AnswerReport, model: &CompiledModel) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: {}",
        report.finding,
        report.verdict(&model.glossary)
    );
    if let Some(reason) = &report.reason {
        let _ = writeln!(out, "  reason: {reason}");
    }
    for (index, pair) in report.pairs.iter().enumerate() {
        out.push_str(&pair_text(index, pair, report.k, model));
    }
    for span in &report.untranslated {
        let part = match span.part {
            precept_engine::answer::locate::TextPart::Question => "question",
            precept_engine::answer::locate::TextPart::Answer => "answer",
        };
        let _ = writeln!(
            out,
            "  untranslated ({part} bytes {}..{}): \"{}\"{}",
            span.start,
            span.end,
            span.text,
            span.reasons
                .first()
                .map(|r| format!(" — {r}"))
                .unwrap_or_default()
        );
    }
    for translation in &report.translations {
        if let Some(error) = &translation.error {
            let _ = writeln!(out, "  translation {} failed: {error}", translation.number);
        }
    }
    let _ = writeln!(out, "  feedback:");
    for line in report.feedback.lines() {
        let _ = writeln!(out, "    {line}");
    }
    out
}

fn pair_text(index: usize, pair: &PairReport, k: usize, model: &CompiledModel) -> String {
    let mut out = String::new();
    let supporters: Vec<String> = pair
        .supporting_translations
        .iter()
        .map(ToString::to_string)
        .collect();
    let _ = writeln!(
        out,
        "  pair {}: {}, confidence {}/{k}{}",
        index + 1,
        pair.finding,
        pair.supporting_translations.len(),
        if supporters.is_empty() {
            String::new()
        } else {
            format!(" (translations {})", supporters.join(", "))
        }
    );
    if !pair.source.trim().is_empty() {
        let _ = writeln!(out, "    from: \"{}\"", pair.source.trim());
    }
    out.push_str(&render::finding_text(&pair.evidence, model, 4));
    if let Some(disagreement) = &pair.disagreement
        && pair.finding == FindingKind::TranslationAmbiguous
    {
        let _ = writeln!(
            out,
            "    translations {} and {} differ",
            disagreement
                .supporting
                .map_or("(none)".to_string(), |n| n.to_string()),
            disagreement.dissenting
        );
        if let (Some(scenario), Some(satisfies)) =
            (&disagreement.scenario, disagreement.scenario_satisfies)
        {
            let _ = writeln!(
                out,
                "    a scenario where only translation {satisfies} holds:"
            );
            out.push_str(&render::scenario_table(&[("value", scenario)], 6));
        }
    }
    if let Some(reason) = &pair.undecided {
        let _ = writeln!(out, "    confidence undecided: {reason}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_shares_of_k() {
        assert_eq!(parse_threshold("1"), Ok(1.0));
        assert!((parse_threshold("2/3").unwrap() - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(parse_threshold(" 0.5 "), Ok(0.5));
        for bad in ["0", "1.5", "3/2", "2/0", "most", "-1"] {
            let error = parse_threshold(bad).unwrap_err();
            assert!(error.contains("--threshold"), "{bad}: {error}");
        }
    }
}
