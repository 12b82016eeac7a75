//! `precept formalize DOC --out DIR`: a first policy model from a document,
//! span by span with an LLM, then composed (clustered, unified, deduped).

use super::llm_setup::{LlmArgs, llm_client};
use super::{Failure, Outcome};
use crate::core::formalize::cluster::DEFAULT_THRESHOLD;
use crate::core::formalize::compose::compose;
use crate::core::formalize::embed::{Embedder, LexicalEmbedder};
use crate::core::formalize::pipeline::{
    DEFAULT_SPAN_BUDGET, FormalizeEvent, formalize_spans_blocking, plan_spans,
};
use crate::core::formalize::record::{FormalizationRecord, SpanRecord};
use crate::core::formalize::span_job::{SpanOutcome, SpanSettings, SpanTask};
use crate::core::llm::prompts::FORMALIZE_SPAN;
use crate::core::model::project::{CACHE_DIR, MODEL_FILE, read_text, write_atomic};
use crate::core::model::{Project, SCHEMA_VERSION, Settings, TestSuite, compile};
use clap::Args;
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[derive(Debug, Args)]
pub struct FormalizeArgs {
    /// The policy document (.md, .txt or .html)
    pub document: PathBuf,
    /// The project directory to create
    #[arg(long)]
    pub out: PathBuf,
    /// Cosine similarity at which two variables of different spans are unified
    #[arg(long, default_value_t = DEFAULT_THRESHOLD)]
    pub threshold: f32,
    /// Rounds per span, the first included, before a span is reported as failed
    #[arg(long, default_value_t = 3)]
    pub max_rounds: u32,
    /// Spans longer than this many characters are cut at sentence ends
    #[arg(long, default_value_t = DEFAULT_SPAN_BUDGET)]
    pub span_budget: usize,
    /// The LLM cache folder (default: DIR/.cache/llm); point it at recorded replies to replay
    #[arg(long)]
    pub cache: Option<PathBuf>,
    #[command(flatten)]
    pub llm: LlmArgs,
}

pub fn run(args: &FormalizeArgs) -> Outcome {
    let document = read_text(&args.document)?;
    if args.out.join(MODEL_FILE).exists() {
        return Err(Failure::Input(format!(
            "{}: already holds a policy project; choose another --out",
            args.out.display()
        )));
    }
    if !(0.0..=1.0).contains(&args.threshold) {
        return Err(Failure::Input(format!(
            "--threshold {}: expected a cosine similarity between 0 and 1",
            args.threshold
        )));
    }
    let tasks = plan_spans(&document, args.span_budget.max(200));
    if tasks.is_empty() {
        return Err(Failure::Input(format!(
            "{}: no paragraphs, list items or table rows to formalize",
            args.document.display()
        )));
    }
    let cache = args
        .cache
        .clone()
        .unwrap_or_else(|| args.out.join(CACHE_DIR).join("llm"));
    let client = Arc::new(llm_client(&args.llm, cache)?);
    let settings = SpanSettings {
        max_rounds: args.max_rounds.max(1),
        ..SpanSettings::default()
    };
    let progress = progress_printer(tasks.clone());
    let outcomes = formalize_spans_blocking(client.clone(), &tasks, settings, progress)
        .map_err(|e| Failure::Input(e.to_string()))?;
    let failed = outcomes.iter().filter(|o| o.unit().is_none()).count();
    if failed == outcomes.len() {
        return Err(Failure::Input(format!(
            "{}: no span could be formalized (first problem: {})",
            args.document.display(),
            first_problem(&outcomes)
        )));
    }
    let embedder = LexicalEmbedder::new();
    let mut composition =
        compose(&document, &tasks, &outcomes, &embedder, args.threshold).map_err(Failure::Input)?;
    let issues = compile(&composition.model).issues;
    if let Some(issue) = issues.first() {
        return Err(Failure::Input(format!(
            "the composed model does not check ({issue}); nothing was written"
        )));
    }
    let doc_name = document_name(&args.document);
    composition.model.title = args
        .document
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let settings = Settings {
        document: Some(doc_name.clone()),
        ..Settings::default()
    };
    let (types, variables, rules) = (
        composition.model.types.len(),
        composition.model.variables.len(),
        composition.model.rules.len(),
    );
    let project = Project::create(&args.out, composition.model, TestSuite::default(), settings)?;
    write_atomic(&project.dir.join(&doc_name), document.as_bytes())?;
    let record = FormalizationRecord {
        schema_version: SCHEMA_VERSION,
        document: doc_name,
        llm_profile: client.profile().name.clone(),
        llm_model: client.profile().model.clone(),
        prompt: FORMALIZE_SPAN.name.into(),
        embedder: embedder.name().to_string(),
        threshold: args.threshold,
        spans: tasks
            .into_iter()
            .zip(outcomes)
            .map(|(task, outcome)| SpanRecord { task, outcome })
            .collect(),
        clusters: composition.clusters,
        rules: composition.origins,
        notes: composition.notes,
    };
    record.save(&project.dir)?;
    for note in &record.notes {
        println!("note: {note}");
    }
    println!(
        "formalized {} of {} spans into {}: {types} types, {variables} variables, {rules} rules \
         (all unreviewed)",
        record.spans.len() - failed,
        record.spans.len(),
        args.out.display()
    );
    if failed > 0 {
        println!(
            "{failed} span(s) failed; their problems are in {}",
            project
                .dir
                .join(crate::core::formalize::record::RECORD_FILE)
                .display()
        );
        return Err(Failure::Check);
    }
    Ok(())
}

fn document_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "policy.md".into())
}

fn first_problem(outcomes: &[SpanOutcome]) -> String {
    for outcome in outcomes {
        match outcome {
            SpanOutcome::Rejected { problems, .. } if !problems.is_empty() => {
                return problems[0].to_string();
            }
            SpanOutcome::Error { message, .. } => return message.clone(),
            _ => {}
        }
    }
    "cancelled".into()
}

/// Prints one line per finished span, and each repair round, to stderr.
fn progress_printer(tasks: Vec<SpanTask>) -> Arc<dyn Fn(FormalizeEvent) + Send + Sync> {
    let total = tasks.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    Arc::new(move |event| match event {
        FormalizeEvent::Planned { spans } => eprintln!("formalizing {spans} spans"),
        FormalizeEvent::Started { .. } => {}
        FormalizeEvent::Retrying {
            span,
            round,
            problems,
        } => eprintln!(
            "  {} round {round}: {} problem(s), first: {}",
            tasks[span].id,
            problems.len(),
            problems.first().map(|p| p.to_string()).unwrap_or_default()
        ),
        FormalizeEvent::Finished { span, counts } => {
            let n = done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
            if counts.failed {
                eprintln!("[{n}/{total}] {} failed", tasks[span].id);
            } else {
                eprintln!(
                    "[{n}/{total}] {}: {} types, {} variables, {} rules",
                    tasks[span].id, counts.types, counts.variables, counts.rules
                );
            }
        }
    })
}
