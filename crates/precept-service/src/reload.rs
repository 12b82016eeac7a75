//! Loading the project into a new pool of warm workers and swapping it in,
//! on request or when the project's files change. A load that fails leaves
//! the model that was serving in service, and says why (log and /readyz).

use super::served_model::{ServedModel, fingerprint};
use super::state::ServiceState;
use crate::error::Error;
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

/// Loads the project and swaps it in; the new model's hash, or why it
/// failed. `why` says what asked for it ("startup", "requested", "changed").
pub fn reload(state: &ServiceState, why: &str) -> Result<String, Error> {
    let _one_at_a_time = state.reloading.lock().unwrap_or_else(|e| e.into_inner());
    let options = &state.options;
    let started = Instant::now();
    let counted = why != "startup";
    match ServedModel::load(&options.dir, options.workers, options.timeout) {
        Ok(model) => {
            let hash = model.hash.clone();
            state.swap_in(model);
            if counted {
                state.metrics.reload(true);
            }
            tracing::info!(
                why,
                model_hash = %hash,
                elapsed_ms = started.elapsed().as_secs_f64() * 1000.0,
                "model loaded"
            );
            Ok(hash)
        }
        Err(reason) => {
            state.load_failed(reason.to_string());
            if counted {
                state.metrics.reload(false);
            }
            let serving = state.current().map(|m| m.hash.clone());
            tracing::error!(
                why,
                reason = %reason,
                serving = serving.as_deref().unwrap_or("nothing"),
                "the model failed to load; the previous one keeps serving"
            );
            Err(reason)
        }
    }
}

/// Looks at the project's files every `every` and reloads when they
/// change (once they have stopped changing). Ends with the service.
pub fn watch_project(state: Weak<ServiceState>, every: Duration) {
    let Some(dir) = state.upgrade().map(|s| s.options.dir.clone()) else {
        return;
    };
    let mut seen = state
        .upgrade()
        .and_then(|s| s.current().map(|m| m.fingerprint.clone()))
        .unwrap_or_else(|| fingerprint(&dir));
    loop {
        std::thread::sleep(every);
        let now = fingerprint(&dir);
        if now == seen {
            continue;
        }
        // Let an editor or a copy finish writing.
        std::thread::sleep(every);
        let settled = fingerprint(&dir);
        if settled != now {
            continue;
        }
        seen = settled;
        let Some(state) = state.upgrade() else { return };
        let _ = reload(&state, "changed");
        drop(state);
    }
}

/// Starts [`watch_project`] on a thread of its own.
pub fn start_watching(state: &Arc<ServiceState>, every: Duration) {
    let weak = Arc::downgrade(state);
    let _ = std::thread::Builder::new()
        .name("precept-watch".into())
        .spawn(move || watch_project(weak, every));
}
