//! The one async runtime helper: LLM and embeddings requests run on tokio,
//! and synchronous callers (the CLI, the workbench's job threads) start a
//! runtime for them here, all alike.

/// A small multi-threaded runtime (two workers: the machine Precept targets
/// is a laptop, and the work is waiting on the network).
pub fn blocking_runtime() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("precept-llm")
        .enable_all()
        .build()
}

/// Whether the caller already runs inside a runtime (where blocking on
/// another one would panic).
pub fn inside_runtime() -> bool {
    tokio::runtime::Handle::try_current().is_ok()
}
