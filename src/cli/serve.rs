//! `precept serve DIR [--addr 127.0.0.1:8787] [--token-env VAR] [--workers N]
//! [--guard PROFILE [--block] [--revise N]]`: the guardrail service.

use super::common::{Failure, Outcome};
use clap::Args;
use precept_service::{ServeOptions, run};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The project directory (only ever read)
    pub dir: PathBuf,
    /// The address to listen on (loopback by default; port 0 picks a free one)
    #[arg(long, default_value = "127.0.0.1:8787")]
    pub addr: SocketAddr,
    /// The environment variable holding the bearer token every request but /healthz and /openapi.json needs
    #[arg(long)]
    pub token_env: Option<String>,
    /// Solver workers, each with the model loaded (default: one per core)
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub workers: Option<u32>,
    /// Requests that may wait for a worker; more get 429 with Retry-After
    #[arg(long, default_value_t = 256)]
    pub queue: usize,
    /// Each request's solver deadline in milliseconds (default: the project's setting)
    #[arg(long)]
    pub timeout_ms: Option<u64>,
    /// How often to look for changes to the project's files, in milliseconds (0: never)
    #[arg(long, default_value_t = 500)]
    pub watch_ms: u64,
    /// The llm.toml profile that translates answers (default: its `default`)
    #[arg(long)]
    pub profile: Option<String>,
    #[command(flatten)]
    pub guard: super::serve_guard::GuardArgs,
}

pub fn run_command(args: &ServeArgs) -> Outcome {
    if !args
        .dir
        .join(precept_engine::model::project::MODEL_FILE)
        .is_file()
    {
        return Err(Failure::Input(format!(
            "{}: not a policy project (no {})",
            args.dir.display(),
            precept_engine::model::project::MODEL_FILE
        )));
    }
    let token = match &args.token_env {
        Some(var) => match std::env::var(var) {
            Ok(token) if !token.trim().is_empty() => Some(token.trim().to_string()),
            _ => {
                return Err(Failure::Input(format!(
                    "--token-env {var}: the variable is not set or empty; set it to the token \
                     clients must send"
                )));
            }
        },
        None => None,
    };
    let workers = args.workers.map(|n| n as usize).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let options = ServeOptions {
        dir: args.dir.clone(),
        addr: args.addr,
        token,
        workers,
        queue: args.queue,
        timeout: args.timeout_ms.map(Duration::from_millis),
        watch_every: (args.watch_ms > 0).then(|| Duration::from_millis(args.watch_ms)),
        translator_profile: args.profile.clone(),
        guard: args.guard.options()?,
    };
    run(options).map_err(|e| Failure::Input(e.to_string()))
}
