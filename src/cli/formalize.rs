//! `precept formalize DOC --out DIR`: a first policy model from a document,
//! span by span with an LLM, then composed (clustered, unified, deduped).

use super::common::{Failure, Outcome};
use super::llm_setup::{LlmArgs, llm_client};
use clap::Args;
use precept_engine::compose::document_run::FormalizedDocument;
use precept_engine::formalization::{FormalizationError, check_options, formalize};
use precept_engine::formalize::span_runs::FormalizeEvent;
use precept_engine::model::project::{CACHE_DIR, MODEL_FILE, read_text, write_atomic};
use precept_engine::model::settings::{DEFAULT_SPAN_BUDGET, FormalizeOptions};
use precept_engine::model::{Project, Settings, TestSuite};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What embeds the variables for clustering (`--embedder`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum EmbedderKind {
    /// Words and character n-grams with tf-idf (offline, the default)
    #[default]
    Lexical,
    /// The OpenAI-compatible /v1/embeddings endpoint of the LLM profile
    Openai,
    /// all-MiniLM-L6-v2 on this machine (builds with --features minilm)
    Minilm,
}

impl From<EmbedderKind> for precept_engine::model::settings::EmbedderKind {
    fn from(kind: EmbedderKind) -> Self {
        match kind {
            EmbedderKind::Lexical => Self::Lexical,
            EmbedderKind::Openai => Self::Openai,
            EmbedderKind::Minilm => Self::Minilm,
        }
    }
}

#[derive(Debug, Args)]
pub struct FormalizeArgs {
    /// The policy document (.md, .txt or .html)
    pub document: PathBuf,
    /// The project directory to create
    #[arg(long)]
    pub out: PathBuf,
    /// Cosine similarity at which two variables of different spans are unified
    /// (default: 0.65 lexical, 0.80 minilm and openai)
    #[arg(long)]
    pub threshold: Option<f32>,
    /// What embeds the variables for clustering
    #[arg(long, value_enum, default_value_t = EmbedderKind::Lexical)]
    pub embedder: EmbedderKind,
    /// The embedding model of the LLM server, with --embedder openai
    #[arg(long, default_value = "text-embedding-3-small")]
    pub embedding_model: String,
    /// Rounds per span, the first included, before a span is reported as failed
    #[arg(long, default_value_t = 3)]
    pub max_rounds: u32,
    /// Spans longer than this many characters are cut at sentence ends
    #[arg(long, default_value_t = DEFAULT_SPAN_BUDGET)]
    pub span_budget: usize,
    /// The LLM cache folder (default: DIR/.cache/llm); point it at recorded replies to replay
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// Formalize each span on its own, without the vocabulary pass (to compare the two)
    #[arg(long)]
    pub span_only: bool,
    /// Skip the definition pass (by default, after composition each decision
    /// decided by several rules apart gets one definition, applied when its
    /// check shows no inconsistency; see `precept define`)
    #[arg(long)]
    pub no_definitions: bool,
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
    let options = FormalizeOptions {
        span_budget: args.span_budget,
        max_rounds: args.max_rounds.max(1),
        embedder: args.embedder.into(),
        embedding_model: args.embedding_model.clone(),
        threshold: args.threshold,
        span_only: args.span_only,
        definitions: !args.no_definitions,
    };
    check_options(&options).map_err(formalization_failure)?;
    let cache = args
        .cache
        .clone()
        .unwrap_or_else(|| args.out.join(CACHE_DIR).join("llm"));
    let client = Arc::new(llm_client(&args.llm, cache)?);
    let doc_name = document_name(&args.document);
    let timeout = std::time::Duration::from_millis(Settings::default().solver_timeout_ms);
    let FormalizedDocument { mut model, record } = formalize(
        client,
        &document,
        &doc_name,
        &options,
        &args.out.join(CACHE_DIR),
        timeout,
        progress_printer(),
    )
    .map_err(|e| match e {
        FormalizationError::Formalize(e) => {
            Failure::Input(format!("{}: {e}", args.document.display()))
        }
        other => formalization_failure(other),
    })?;
    model.title = args
        .document
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let failed = record.failed_spans();
    if !record.definitions.is_empty() {
        let defined: Vec<&str> = record
            .definitions
            .iter()
            .map(|d| d.variable.as_str())
            .collect();
        println!(
            "defined {} decision(s) in one definition each: {}",
            defined.len(),
            defined.join(", ")
        );
    }
    let (types, variables, rules) = (model.types.len(), model.variables.len(), model.rules.len());
    let project_settings = Settings {
        document: Some(doc_name.clone()),
        formalize: Some(options),
        ..Settings::default()
    };
    let project = Project::create(&args.out, model, TestSuite::default(), project_settings)?;
    write_atomic(&project.dir.join(&doc_name), document.as_bytes())?;
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
                .join(precept_engine::compose::record::RECORD_FILE)
                .display()
        );
        return Err(Failure::Check);
    }
    Ok(())
}

/// A formalization refused before or around the document's own problems.
fn formalization_failure(error: FormalizationError) -> Failure {
    match error {
        FormalizationError::Threshold(threshold) => Failure::Input(format!(
            "--threshold {threshold}: expected a cosine similarity between 0 and 1"
        )),
        other => Failure::Input(other.to_string()),
    }
}

fn document_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "policy.md".into())
}

/// Prints one line per finished span, and each repair round, to stderr.
fn progress_printer() -> Arc<dyn Fn(FormalizeEvent) + Send + Sync> {
    let ids = std::sync::Mutex::new(Vec::<String>::new());
    let done = std::sync::atomic::AtomicUsize::new(0);
    Arc::new(move |event| {
        let mut ids = ids.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let id = |ids: &[String], span: usize| ids.get(span).cloned().unwrap_or_default();
        match event {
            FormalizeEvent::Planned { spans } => {
                eprintln!("formalizing {} spans", spans.len());
                *ids = spans.into_iter().map(|t| t.id).collect();
            }
            FormalizeEvent::Started { .. } => {}
            FormalizeEvent::Retrying {
                span,
                round,
                problems,
            } => eprintln!(
                "  {} round {round}: {} problem(s), first: {}",
                id(&ids, span),
                problems.len(),
                problems.first().map(|p| p.to_string()).unwrap_or_default()
            ),
            FormalizeEvent::Vocabulary {
                sections,
                variables,
                types,
            } => eprintln!(
                "shared vocabulary: {variables} variables and {types} types from {sections} section part(s)"
            ),
            FormalizeEvent::Finished { span, counts } => {
                let n = done.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1;
                let total = ids.len();
                if counts.failed {
                    eprintln!("[{n}/{total}] {} failed", id(&ids, span));
                } else {
                    eprintln!(
                        "[{n}/{total}] {}: {} types, {} variables, {} rules",
                        id(&ids, span),
                        counts.types,
                        counts.variables,
                        counts.rules
                    );
                }
            }
        }
    })
}
