//! The reply cache and its modes, and configuration.

use super::*;

// ---------------------------------------------------------------------------
// Cache and modes.

#[test]
fn cache_hit_makes_no_request_and_holds_no_key() {
    let server = Server::start();
    let cache = tempfile::tempdir().unwrap();
    server.script(
        ANTHROPIC_PATH,
        vec![anthropic_reply(json!({"answer": "cached", "score": 7}))],
    );
    let client = client(&server, Protocol::Anthropic, Mode::Live, Some(cache.path()));
    let first = complete_blocking(&client, &request("q")).unwrap();
    assert!(!first.from_cache);
    assert_eq!(server.requests().len(), 1);
    assert_eq!(server.requests()[0].headers["x-api-key"], SECRET);

    let second = complete_blocking(&client, &request("q")).unwrap();
    assert!(second.from_cache);
    assert_eq!(second.json, first.json);
    assert_eq!(server.requests().len(), 1, "no request for a cache hit");
    assert_eq!(server.connections(), 1);

    let files = files_in(cache.path());
    assert_eq!(files.len(), 1);
    for text in &files {
        assert!(!text.contains(SECRET), "the key leaked into the cache");
        assert!(!text.contains("0123456789abcd"));
    }
    // A different prompt is a different key.
    server.script(
        ANTHROPIC_PATH,
        vec![anthropic_reply(json!({"answer": "other", "score": 8}))],
    );
    let third = complete_blocking(&client, &request("other")).unwrap();
    assert!(!third.from_cache);
    assert_eq!(files_in(cache.path()).len(), 2);
}

#[test]
fn record_mode_always_asks_and_replay_mode_never_does() {
    let server = Server::start();
    let cache = tempfile::tempdir().unwrap();
    server.script(
        OPENAI_PATH,
        vec![
            openai_reply(r#"{"answer": "one", "score": 1}"#),
            openai_reply(r#"{"answer": "two", "score": 2}"#),
        ],
    );
    let record = client(&server, Protocol::OpenAi, Mode::Record, Some(cache.path()));
    assert_eq!(
        complete_blocking(&record, &request("q")).unwrap().json["answer"],
        "one"
    );
    assert_eq!(
        complete_blocking(&record, &request("q")).unwrap().json["answer"],
        "two"
    );
    assert_eq!(server.requests().len(), 2);

    let replay = client(&server, Protocol::OpenAi, Mode::Replay, Some(cache.path()));
    let reply = complete_blocking(&replay, &request("q")).unwrap();
    assert!(reply.from_cache);
    assert_eq!(reply.json["answer"], "two");
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn replay_with_a_missing_entry_errors_without_connecting() {
    let server = Server::start();
    let cache = tempfile::tempdir().unwrap();
    let replay = client(&server, Protocol::OpenAi, Mode::Replay, Some(cache.path()));
    let error = complete_blocking(&replay, &request("never recorded")).unwrap_err();
    assert!(matches!(error, LlmError::NotRecorded { .. }), "{error:?}");
    let message = error.to_string();
    assert!(
        message.contains("no recorded reply for this request"),
        "{message}"
    );
    assert!(message.contains("record mode"), "{message}");
    thread::sleep(Duration::from_millis(50));
    assert_eq!(server.connections(), 0);
}

#[test]
fn debug_output_masks_the_key() {
    let server = Server::start();
    let client = client(&server, Protocol::OpenAi, Mode::Live, None);
    let debug = format!("{client:?}");
    assert!(!debug.contains(SECRET), "{debug}");
    assert!(debug.contains(&mask_secret(SECRET)), "{debug}");
    assert_eq!(mask_secret(SECRET), "sk-…abcd");
    assert_eq!(mask_secret("short"), "…");
    let profile_debug = format!("{:?}", client.profile());
    assert!(!profile_debug.contains(SECRET));
}

// ---------------------------------------------------------------------------
// Configuration (no network: the Ollama probe is a closure).

fn env_of(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |name| map.get(name).cloned()
}

#[test]
fn nothing_configured_explains_the_file_and_the_variables() {
    let dir = tempfile::tempdir().unwrap();
    let error = resolve_profile(dir.path(), None, &env_of(&[]), &|_| false).unwrap_err();
    let LlmError::NotConfigured { how_to } = &error else {
        panic!("expected NotConfigured, got {error:?}")
    };
    let file = dir.path().join("llm.toml");
    assert!(how_to.contains(&file.display().to_string()), "{how_to}");
    for needle in [
        "[[profile]]",
        "protocol",
        "base_url",
        "model",
        "api_key_env",
        "PRECEPT_LLM_BASE_URL",
        "PRECEPT_LLM_MODEL",
        "PRECEPT_LLM_PROTOCOL",
        "PRECEPT_LLM_API_KEY_ENV",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        OLLAMA_URL,
    ] {
        assert!(how_to.contains(needle), "missing {needle} in {how_to}");
    }
}

#[test]
fn a_local_ollama_is_offered_when_the_probe_answers() {
    let dir = tempfile::tempdir().unwrap();
    let probed = Mutex::new(Vec::new());
    let resolved = resolve_profile(dir.path(), None, &env_of(&[]), &|url| {
        probed.lock().unwrap().push(url.to_string());
        true
    })
    .unwrap();
    assert_eq!(resolved.source, ProfileSource::DetectedOllama);
    assert_eq!(resolved.profile.base_url, "http://127.0.0.1:11434");
    assert_eq!(resolved.profile.protocol, Protocol::OpenAi);
    assert_eq!(resolved.profile.api_key_env, None);
    assert_eq!(*probed.lock().unwrap(), vec![OLLAMA_URL.to_string()]);
}

#[test]
fn profiles_come_from_llm_toml_with_environment_overrides() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("llm.toml"),
        r#"
default = "claude"

[[profile]]
name = "local"
protocol = "openai"
base_url = "http://127.0.0.1:8000"
model = "qwen"
api_key_env = ""

[[profile]]
name = "claude"
protocol = "anthropic"
base_url = "https://api.anthropic.com"
model = "claude-x"
temperature = 0.2
concurrency = 3
timeout_secs = 30
"#,
    )
    .unwrap();
    let never = |_: &str| -> bool { panic!("no probe when a file is configured") };
    let resolved = resolve_profile(dir.path(), None, &env_of(&[]), &never).unwrap();
    assert_eq!(
        resolved.source,
        ProfileSource::File(dir.path().join("llm.toml"))
    );
    let p = &resolved.profile;
    assert_eq!(p.name, "claude");
    assert_eq!(p.protocol, Protocol::Anthropic);
    assert_eq!(p.api_key_env.as_deref(), Some("ANTHROPIC_API_KEY"));
    assert_eq!(p.concurrency, 3);
    assert_eq!(p.timeout, Duration::from_secs(30));
    assert!((p.temperature - 0.2).abs() < 1e-6);

    let local = resolve_profile(dir.path(), Some("local"), &env_of(&[]), &never).unwrap();
    assert_eq!(local.profile.api_key_env, None);
    assert_eq!(local.profile.base_url, "http://127.0.0.1:8000");

    let env = env_of(&[
        ("PRECEPT_LLM_BASE_URL", "http://10.0.0.1:9000"),
        ("PRECEPT_LLM_MODEL", "other-model"),
        ("PRECEPT_LLM_PROTOCOL", "openai"),
        ("PRECEPT_LLM_API_KEY_ENV", "MY_KEY"),
    ]);
    let overridden = resolve_profile(dir.path(), Some("local"), &env, &never).unwrap();
    assert_eq!(overridden.profile.base_url, "http://10.0.0.1:9000");
    assert_eq!(overridden.profile.model, "other-model");
    assert_eq!(overridden.profile.api_key_env.as_deref(), Some("MY_KEY"));

    let missing = resolve_profile(dir.path(), Some("nope"), &env_of(&[]), &never).unwrap_err();
    assert!(
        missing.to_string().contains("no profile named 'nope'"),
        "{missing}"
    );
}

#[test]
fn a_malformed_llm_toml_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("llm.toml"),
        "[[profile]]\nname = \"x\"\nprotocol = \"smoke-signals\"\n",
    )
    .unwrap();
    let error = resolve_profile(dir.path(), None, &env_of(&[]), &|_| false).unwrap_err();
    assert!(matches!(error, LlmError::Config { .. }), "{error:?}");
    assert!(error.to_string().contains("llm.toml"), "{error}");
}

#[test]
fn api_key_variables_pick_official_endpoints_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let env = env_of(&[("ANTHROPIC_API_KEY", "sk-ant-xxxxxxxxxxxx")]);
    let resolved = resolve_profile(dir.path(), None, &env, &|_| false).unwrap();
    assert_eq!(resolved.source, ProfileSource::Environment);
    assert_eq!(resolved.profile.protocol, Protocol::Anthropic);
    assert_eq!(resolved.profile.base_url, config::ANTHROPIC_URL);
    assert_eq!(
        resolved.profile.api_key_env.as_deref(),
        Some("ANTHROPIC_API_KEY")
    );
    // The profile holds the variable's name, never the key.
    assert!(!format!("{resolved:?}").contains("sk-ant-"));

    let env = env_of(&[("OPENAI_API_KEY", "sk-xxxxxxxxxxxxxxx")]);
    let resolved = resolve_profile(dir.path(), None, &env, &|_| false).unwrap();
    assert_eq!(resolved.profile.protocol, Protocol::OpenAi);
    assert_eq!(resolved.profile.base_url, config::OPENAI_URL);
}
