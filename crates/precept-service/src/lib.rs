//! The guardrail service (`precept serve`): a vetted model put to work over
//! HTTP. Warm solver workers answer verify, check-answer and explain
//! requests with the same JSON as the command line; the model reloads in
//! the background when the project changes; the guard proxy (`--guard`)
//! checks a chatbot's replies on their way back to the app.
//!
//! Uses only the engine (`precept-engine`). The parts: `options` (what the server was asked
//! to do), `metrics` (Prometheus text), `api_error` (error answers with
//! positions), `pool` (one model's warm workers, and the queue limit),
//! `served_model` (one loaded model with its pool), `lease` (one worker for
//! one request), `state` (the model being served, swapped atomically),
//! `on_worker` (running a job on a leased worker; a dropped request cancels
//! it), `reload` (loading a new model, watching the project), `endpoints/`,
//! `guard/` (the OpenAI-compatible proxy), `auth` (the bearer token),
//! `router`, `server` (binding and running).

pub mod admission;
pub mod api_error;
pub mod auth;
pub mod endpoints;
pub mod error;
pub mod guard;
pub mod metrics;
pub mod on_worker;
pub mod openapi;
pub mod options;
pub mod reload;
pub mod router;
pub mod served_model;
pub mod server;
pub mod state;

pub use options::{GuardOptions, ServeOptions};
pub use server::run;
