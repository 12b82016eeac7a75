//! Why the service could not start, load the project's model or reach the
//! chatbot it guards. Each message names the file, the flag or the address
//! at fault.

use precept_engine::llm::LlmError;
use precept_engine::model::ProjectError;
use precept_engine::solve::SolveError;
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Project(#[from] ProjectError),
    #[error("{dir}: cannot load the model into the solver: {source}")]
    Solver { dir: PathBuf, source: SolveError },
    #[error(transparent)]
    Llm(#[from] LlmError),
    #[error("--guard {profile}: {source}")]
    GuardProfile { profile: String, source: LlmError },
    #[error("--guard {profile}: cannot build the HTTP client: {source}")]
    GuardClient {
        profile: String,
        source: reqwest::Error,
    },
    #[error("--addr {addr}: cannot listen: {source}")]
    Listen {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("--addr {addr}: {source}")]
    Address {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("cannot start {what}: {source}")]
    Start {
        what: &'static str,
        source: std::io::Error,
    },
    #[error("the server stopped: {0}")]
    Stopped(std::io::Error),
    /// No model serves: why the last load failed, or that none was loaded.
    #[error("{0}")]
    NotServing(String),
}

pub type Result<T> = std::result::Result<T, Error>;
