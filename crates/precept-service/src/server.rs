//! Binding the address and running the service until the process ends.

use super::guard::Guard;
use super::guard::chatbot::Chatbot;
use super::options::ServeOptions;
use super::reload::{reload, start_watching};
use super::router::router;
use super::state::ServiceState;
use crate::error::{Error, Result};
use precept_engine::llm::config::{
    ProfileSource, probe_tcp, process_env, resolve_profile, user_config_dir,
};
use precept_engine::llm::{ClientOptions, LlmClient, Mode};
use std::path::PathBuf;
use std::sync::Arc;

/// Serves until the process is stopped. Prints the address it listens on
/// (`precept serve: listening on http://…`) once bound, then loads the
/// model in the background: `/readyz` answers 503 until it is warm.
pub fn run(options: ServeOptions) -> Result<()> {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_target(false)
        .try_init();
    if !options.addr.ip().is_loopback() && options.token.is_none() {
        tracing::warn!(
            addr = %options.addr,
            "listening beyond this machine without a token: anyone who can reach it can use it"
        );
    }
    let translator = translator(options.translator_profile.as_deref());
    if let Err(reason) = &translator {
        tracing::warn!(reason = %reason, "no translator: /v1/check-answer will answer 503");
    }
    let guard = match &options.guard {
        Some(guarding) => Some(Arc::new(Guard {
            chatbot: Chatbot::for_profile(&guarding.profile)?,
            options: guarding.clone(),
        })),
        None => None,
    };
    let state = Arc::new(ServiceState::new(options, translator));
    let routes = router(Arc::clone(&state), guard);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("precept-serve")
        .build()
        .map_err(|source| Error::Start {
            what: "the server runtime",
            source,
        })?;
    runtime.block_on(async move {
        let addr = state.options.addr;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|source| Error::Listen { addr, source })?;
        let bound = listener
            .local_addr()
            .map_err(|source| Error::Address { addr, source })?;
        println!("precept serve: listening on http://{bound}");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        tracing::info!(addr = %bound, dir = %state.options.dir.display(), "listening");
        let loader = Arc::clone(&state);
        std::thread::Builder::new()
            .name("precept-load".into())
            .spawn(move || {
                let _ = reload(&loader, "startup");
                if let Some(every) = loader.options.watch_every {
                    start_watching(&loader, every);
                }
            })
            .map_err(|source| Error::Start {
                what: "loading the model",
                source,
            })?;
        axum::serve(listener, routes).await.map_err(Error::Stopped)
    })
}

/// The client that translates answers, from the user's LLM configuration
/// (never caching: the service writes nothing to the project).
pub fn translator(profile: Option<&str>) -> Result<Arc<LlmClient>> {
    let client = llm_client(profile)?;
    Ok(Arc::new(client))
}

/// A client for `profile` of the user's llm.toml (or the default one).
pub fn llm_client(profile: Option<&str>) -> Result<LlmClient> {
    let config_dir = user_config_dir().unwrap_or_else(|| PathBuf::from("."));
    let resolved = resolve_profile(&config_dir, profile, &process_env, &probe_tcp)?;
    if resolved.source == ProfileSource::DetectedOllama {
        tracing::info!(url = %resolved.profile.base_url, "using the local Ollama");
    }
    let options = ClientOptions {
        mode: Mode::Live,
        cache_dir: None,
        ..ClientOptions::default()
    };
    Ok(LlmClient::new(resolved.profile, options)?)
}
