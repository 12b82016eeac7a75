//! Embedders besides the lexical default: the OpenAI-compatible
//! `/v1/embeddings` client against the scripted server on 127.0.0.1 (never
//! the internet), and — with `--features minilm` and the model installed by
//! `scripts/setup-minilm.sh` — the local all-MiniLM-L6-v2.

use crate::support;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use precept::compose::embed::{Embedder, cosine, variable_text};
use precept::llm::embeddings::{EmbedError, OpenAiEmbedder, project_cache_dir};
use precept::llm::{ClientOptions, LlmError, Mode, Profile, Protocol, RetryPolicy};
use serde_json::{Value, json};
use support::llm_server::{Action, EMBEDDINGS_PATH, Recorded, Server, ok};

const KEY_VAR: &str = "PRECEPT_TEST_EMBED_KEY";
const SECRET: &str = "sk-test-0123456789-very-secret";

/// A deterministic vector for `text`: its length, its first byte, 1.
fn vector_for(text: &str) -> Vec<f32> {
    let first = text.bytes().next().unwrap_or(0);
    vec![text.len() as f32, f32::from(first), 1.0]
}

fn inputs(request: &Recorded) -> Vec<String> {
    request.body["input"]
        .as_array()
        .expect("input is an array")
        .iter()
        .map(|t| t.as_str().expect("input texts are strings").to_string())
        .collect()
}

/// A well-formed reply for `request`, items listed in reverse index order
/// (servers need not sort them).
fn reversed_reply(request: &Recorded) -> Action {
    let data: Vec<Value> = inputs(request)
        .iter()
        .enumerate()
        .rev()
        .map(|(i, t)| json!({"object": "embedding", "index": i, "embedding": vector_for(t)}))
        .collect();
    ok(json!({"object": "list", "model": "test-embed", "data": data}))
}

fn profile(server: &Server) -> Profile {
    let mut profile = Profile::new("embed", Protocol::OpenAi, &server.url, "test-embed");
    profile.api_key_env = Some(KEY_VAR.into());
    profile.timeout = Duration::from_secs(10);
    profile
}

fn options(cache_dir: Option<&Path>, mode: Mode) -> ClientOptions {
    ClientOptions {
        mode,
        cache_dir: cache_dir.map(Path::to_path_buf),
        retry: RetryPolicy {
            max_retries: 2,
            base_delay: Duration::from_millis(5),
            max_delay: Duration::from_millis(20),
        },
        env: Arc::new(|name| (name == KEY_VAR).then(|| SECRET.to_string())),
        use_env_proxy: false,
    }
}

fn texts(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn embedder(server: &Server, cache_dir: Option<&Path>, mode: Mode) -> OpenAiEmbedder {
    OpenAiEmbedder::new(profile(server), options(cache_dir, mode)).expect("embedder")
}

#[test]
fn batches_and_orders_by_index() {
    let server = Server::start();
    server.respond_with(reversed_reply);
    let embedder = embedder(&server, None, Mode::Live).with_batch_size(2);
    let items = texts(&["alpha", "bb", "charlie", "d", "echo echo"]);
    let vectors = embedder.embed(&items).unwrap();
    assert_eq!(vectors.len(), items.len());
    for (text, vector) in items.iter().zip(&vectors) {
        assert_eq!(vector, &vector_for(text), "{text}");
    }
    let requests = server.requests();
    let sizes: Vec<usize> = requests.iter().map(|r| inputs(r).len()).collect();
    assert_eq!(sizes, [2, 2, 1]);
    for request in &requests {
        assert_eq!(request.path, EMBEDDINGS_PATH);
        assert_eq!(request.body["model"], "test-embed");
    }
    assert_eq!(embedder.name(), "openai-embeddings:test-embed");
    // Nothing to embed: no request.
    assert!(embedder.embed(&[]).unwrap().is_empty());
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn duplicate_texts_are_asked_for_once() {
    let server = Server::start();
    server.respond_with(reversed_reply);
    let embedder = embedder(&server, None, Mode::Live);
    let items = texts(&["same", "other", "same"]);
    let vectors = embedder.embed(&items).unwrap();
    assert_eq!(vectors[0], vectors[2]);
    assert_eq!(inputs(&server.requests()[0]), ["same", "other"]);
}

#[test]
fn key_is_sent_as_bearer_and_never_cached_or_shown() {
    let server = Server::start();
    server.respond_with(reversed_reply);
    let project_cache = tempfile::tempdir().unwrap();
    let cache = project_cache_dir(project_cache.path());
    let embedder = embedder(&server, Some(&cache), Mode::Live);
    embedder.embed(&texts(&["a variable", "another"])).unwrap();
    let request = &server.requests()[0];
    assert_eq!(
        request.headers.get("authorization").map(String::as_str),
        Some(format!("Bearer {SECRET}").as_str())
    );
    let mut files = 0;
    for entry in std::fs::read_dir(&cache).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        files += 1;
        assert!(
            !bytes.windows(SECRET.len()).any(|w| w == SECRET.as_bytes()),
            "the key is in a cache file"
        );
    }
    assert_eq!(files, 2);
    assert!(!format!("{embedder:?}").contains(SECRET));

    // No key configured: no authorization header at all.
    let mut keyless = profile(&server);
    keyless.api_key_env = None;
    let embedder = OpenAiEmbedder::new(keyless, options(None, Mode::Live)).unwrap();
    embedder.embed(&texts(&["x"])).unwrap();
    assert!(!server.requests()[1].headers.contains_key("authorization"));
}

#[test]
fn cache_answers_repeated_texts_and_replay_never_asks() {
    let server = Server::start();
    server.respond_with(reversed_reply);
    let dir = tempfile::tempdir().unwrap();
    let first = embedder(&server, Some(dir.path()), Mode::Live);
    let a = first.embed(&texts(&["one", "two"])).unwrap();
    assert_eq!(server.requests().len(), 1);

    // A new embedder (a later run) reads the cache; only "three" is asked.
    let second = embedder(&server, Some(dir.path()), Mode::Live);
    let b = second.embed(&texts(&["two", "three", "one"])).unwrap();
    assert_eq!(b[0], a[1]);
    assert_eq!(b[2], a[0]);
    assert_eq!(server.requests().len(), 2);
    assert_eq!(inputs(&server.requests()[1]), ["three"]);

    // Replay: cached texts work, a new one is an error naming the cache.
    let replay = embedder(&server, Some(dir.path()), Mode::Replay);
    assert_eq!(replay.embed(&texts(&["one"])).unwrap(), vec![a[0].clone()]);
    let error = replay.embed_blocking(&texts(&["four"])).unwrap_err();
    assert!(matches!(error, EmbedError::NotRecorded { .. }), "{error}");
    assert!(error.to_string().contains("four"), "{error}");
    assert_eq!(server.requests().len(), 2);

    // Record: always asks, and overwrites.
    let record = embedder(&server, Some(dir.path()), Mode::Record);
    record.embed(&texts(&["one"])).unwrap();
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn corrupt_cache_file_is_an_error_naming_it() {
    let server = Server::start();
    server.respond_with(reversed_reply);
    let dir = tempfile::tempdir().unwrap();
    embedder(&server, Some(dir.path()), Mode::Live)
        .embed(&texts(&["one"]))
        .unwrap();
    let file = std::fs::read_dir(dir.path())
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    std::fs::write(&file, b"abc").unwrap();
    let error = embedder(&server, Some(dir.path()), Mode::Live)
        .embed(&texts(&["one"]))
        .unwrap_err()
        .to_string();
    assert!(
        error.contains(&file.display().to_string()) && error.contains("delete the file"),
        "{error}"
    );
}

#[test]
fn malformed_reply_is_a_clear_error() {
    let server = Server::start();
    server.script(
        EMBEDDINGS_PATH,
        vec![Action::Respond {
            status: 200,
            headers: vec![],
            body: "{\"data\": [".into(),
        }],
    );
    let error = embedder(&server, None, Mode::Live)
        .embed_blocking(&texts(&["x"]))
        .unwrap_err();
    assert!(matches!(error, EmbedError::InvalidReply { .. }), "{error}");
    let message = error.to_string();
    assert!(message.contains("not JSON"), "{message}");
    assert!(message.contains(&server.url), "{message}");
}

#[test]
fn wrong_count_and_bad_numbers_are_errors() {
    let server = Server::start();
    server.script(
        EMBEDDINGS_PATH,
        vec![
            ok(json!({"data": [{"index": 0, "embedding": [1.0, 2.0]}]})),
            ok(json!({"data": [
                {"index": 0, "embedding": [1.0, 2.0]},
                {"index": 1, "embedding": [1.0, "NaN"]}
            ]})),
            ok(json!({"data": [
                {"index": 1, "embedding": [1.0, 2.0]},
                {"index": 1, "embedding": [1.0, 2.0]}
            ]})),
        ],
    );
    let embedder = embedder(&server, None, Mode::Live);
    let pair = texts(&["a", "b"]);
    let count = embedder.embed(&pair).unwrap_err().to_string();
    assert!(count.contains("expected 2 embeddings"), "{count}");
    let number = embedder.embed(&pair).unwrap_err().to_string();
    assert!(number.contains("data[1].embedding [1]"), "{number}");
    let index = embedder.embed(&pair).unwrap_err().to_string();
    assert!(index.contains("index 1 occurs twice"), "{index}");
}

#[test]
fn dimensions_must_agree_across_batches() {
    let server = Server::start();
    server.script(
        EMBEDDINGS_PATH,
        vec![
            ok(json!({"data": [{"index": 0, "embedding": [1.0, 2.0]}]})),
            ok(json!({"data": [{"index": 0, "embedding": [1.0, 2.0, 3.0]}]})),
        ],
    );
    let error = embedder(&server, None, Mode::Live)
        .with_batch_size(1)
        .embed(&texts(&["a", "b"]))
        .unwrap_err()
        .to_string();
    assert!(error.contains("3 dimensions"), "{error}");
}

#[test]
fn retries_server_errors_then_succeeds() {
    let server = Server::start();
    server.script(
        EMBEDDINGS_PATH,
        vec![
            Action::Respond {
                status: 500,
                headers: vec![],
                body: "overloaded".into(),
            },
            Action::Respond {
                status: 429,
                headers: vec![],
                body: "slow down".into(),
            },
        ],
    );
    server.respond_with(reversed_reply);
    let vectors = embedder(&server, None, Mode::Live)
        .embed(&texts(&["a"]))
        .unwrap();
    assert_eq!(vectors, vec![vector_for("a")]);
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn gives_up_after_the_retries_and_does_not_retry_client_errors() {
    let server = Server::start();
    let fail = |status: u16| Action::Respond {
        status,
        headers: vec![],
        body: format!("failure {status}"),
    };
    server.script(EMBEDDINGS_PATH, vec![fail(503), fail(503), fail(503)]);
    let embedder = embedder(&server, None, Mode::Live);
    let error = embedder.embed_blocking(&texts(&["a"])).unwrap_err();
    assert!(
        matches!(
            error,
            EmbedError::Request {
                source: LlmError::Http { status: 503, .. },
                ..
            }
        ),
        "{error}"
    );
    assert_eq!(server.requests().len(), 3);

    server.script(EMBEDDINGS_PATH, vec![fail(401)]);
    let error = embedder.embed(&texts(&["a"])).unwrap_err().to_string();
    assert!(
        error.contains("401") && error.contains("failure 401"),
        "{error}"
    );
    assert_eq!(server.requests().len(), 4);
}

#[test]
fn anthropic_profiles_have_no_embeddings() {
    let profile = Profile::new("claude", Protocol::Anthropic, "http://127.0.0.1:9", "m");
    let error = OpenAiEmbedder::new(profile, ClientOptions::default())
        .unwrap_err()
        .to_string();
    assert!(
        error.to_string().contains("no embeddings endpoint"),
        "{error}"
    );
}

#[test]
fn blocking_embed_inside_a_runtime_is_an_error_not_a_panic() {
    let server = Server::start();
    server.respond_with(reversed_reply);
    let embedder = embedder(&server, None, Mode::Live);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let error = runtime.block_on(async { embedder.embed(&texts(&["a"])) });
    assert!(error.unwrap_err().to_string().contains("embed_async"));
    let vectors = runtime
        .block_on(embedder.embed_async(&texts(&["a"])))
        .unwrap();
    assert_eq!(vectors, vec![vector_for("a")]);
}

#[test]
fn variable_texts_round_trip_through_the_client() {
    // The texts the clustering embeds reach the server unchanged.
    let server = Server::start();
    server.respond_with(reversed_reply);
    let text = variable_text("isMarried", "Whether the applicant is married");
    embedder(&server, None, Mode::Live)
        .embed(std::slice::from_ref(&text))
        .unwrap();
    assert_eq!(inputs(&server.requests()[0]), [text]);
    assert_eq!(cosine(&vector_for("a"), &vector_for("a")), 1.0);
}

#[cfg(feature = "minilm")]
mod minilm {
    use std::path::PathBuf;
    use std::sync::OnceLock;

    use precept::compose::embed::{Embedder, cosine, variable_text};
    use precept::compose::embed_minilm::{ENV_MINILM_DIR, MINILM_THRESHOLD, MiniLmEmbedder};

    use crate::variable_pairs::{Scored, labelled_pairs, quality};

    /// The model directory: `PRECEPT_MINILM_DIR`, else the checkout's
    /// `.deps/minilm` (where `scripts/setup-minilm.sh` puts it).
    fn model_dir() -> PathBuf {
        std::env::var_os(ENV_MINILM_DIR)
            .filter(|d| !d.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".deps/minilm"))
    }

    /// The model, loaded once; `None` (with a message) when not installed.
    fn model() -> Option<&'static MiniLmEmbedder> {
        static MODEL: OnceLock<Option<MiniLmEmbedder>> = OnceLock::new();
        MODEL
            .get_or_init(|| match MiniLmEmbedder::load(&model_dir()) {
                Ok(model) => Some(model),
                Err(error) => {
                    eprintln!("skipping the MiniLM tests: {error}");
                    None
                }
            })
            .as_ref()
    }

    fn var(name: &str, description: &str) -> String {
        variable_text(name, description)
    }

    #[test]
    fn paraphrases_are_closer_than_unrelated_variables() {
        let Some(model) = model() else { return };
        let texts = vec![
            var("isMarried", "Whether the applicant is married"),
            var("hasSpouse", "Whether the claimant has a husband or wife"),
            var("refundAmount", "Refund in dollars paid to the passenger"),
        ];
        let v = model.embed(&texts).unwrap();
        let (paraphrase, unrelated) = (cosine(&v[0], &v[1]), cosine(&v[0], &v[2]));
        println!("isMarried~hasSpouse {paraphrase:.3}, isMarried~refundAmount {unrelated:.3}");
        assert!(paraphrase > unrelated + 0.2, "{paraphrase} vs {unrelated}");
    }

    #[test]
    fn vectors_are_unit_length_and_differ_between_texts() {
        // With the shipped fixed padding to 128 tokens and an unmasked
        // mean, all of these would have cosine ≈ 0.9+.
        let Some(model) = model() else { return };
        let texts: Vec<String> = [
            "refund amount",
            "the visitor's age in years",
            "Whether the flight operated",
            "VAT registration threshold in pounds",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let v = model.embed(&texts).unwrap();
        for x in &v {
            assert_eq!(x.len(), 384);
            let norm: f32 = x.iter().map(|a| a * a).sum::<f32>().sqrt();
            assert!((norm - 1.0).abs() < 1e-4, "norm {norm}");
        }
        for i in 0..v.len() {
            for j in i + 1..v.len() {
                let c = cosine(&v[i], &v[j]);
                assert!(c < 0.6, "{:?} ~ {:?}: {c}", texts[i], texts[j]);
            }
        }
    }

    #[test]
    fn a_text_embeds_the_same_alone_and_beside_a_longer_one() {
        // Batch padding must not leak into the vector.
        let Some(model) = model() else { return };
        let short = "refund amount".to_string();
        let long = "Admission fee in dollars the visitor owes, including the processing \
                    fee and any seasonal adjustment, before tax"
            .to_string();
        let alone = model.embed(std::slice::from_ref(&short)).unwrap();
        let together = model.embed(&[long, short]).unwrap();
        let c = cosine(&alone[0], &together[1]);
        assert!(c > 0.9999, "cosine {c}");
        assert!(model.embed(&[]).unwrap().is_empty());
    }

    /// About 70 s in an unoptimised build, a few seconds with `--release`:
    /// `cargo test --release --features minilm --test embedders -- --ignored`.
    #[test]
    #[ignore = "slow without optimisation; run with --release --ignored"]
    fn labelled_pairs_quality_at_the_minilm_threshold() {
        // The figures documented on MINILM_THRESHOLD (precision 0.885,
        // recall 0.852 on tests/data/variable_pairs.json), with some slack.
        let Some(model) = model() else { return };
        let pairs = labelled_pairs();
        let mut texts = Vec::new();
        for pair in &pairs {
            texts.push(var(&pair.a.name, &pair.a.description));
            texts.push(var(&pair.b.name, &pair.b.description));
        }
        let v = model.embed(&texts).unwrap();
        let scored: Vec<Scored> = pairs
            .iter()
            .enumerate()
            .map(|(k, pair)| Scored {
                similarity: cosine(&v[2 * k], &v[2 * k + 1]),
                same_sort: pair.a.sort == pair.b.sort,
                contrast: pair.contrast(),
                label: pair.same,
            })
            .collect();
        let q = quality(&scored, MINILM_THRESHOLD);
        println!(
            "MiniLM at {MINILM_THRESHOLD}: precision {:.3} recall {:.3}",
            q.precision, q.recall
        );
        assert!(q.precision >= 0.85, "precision {:.3}", q.precision);
        assert!(q.recall >= 0.8, "recall {:.3}", q.recall);
    }

    #[test]
    fn the_install_folder_or_the_model_folder_both_load() {
        let Some(model) = model() else { return };
        assert!(model.model_dir().join("model.safetensors").is_file());
        assert_eq!(model.name(), "all-MiniLM-L6-v2");
    }
}

#[cfg(feature = "minilm")]
#[test]
fn minilm_missing_directory_says_how_to_install() {
    use precept::compose::embed_minilm::MiniLmEmbedder;
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nothing-here");
    let error = MiniLmEmbedder::load(&missing).unwrap_err().to_string();
    assert!(error.contains(&missing.display().to_string()), "{error}");
    assert!(error.contains("setup-minilm.sh"), "{error}");
    // An existing directory without the files names what is missing.
    let error = MiniLmEmbedder::load(dir.path()).unwrap_err().to_string();
    assert!(error.contains("model.safetensors"), "{error}");
}
