//! `precept serve` over real sockets: the endpoints, the guard proxy, numerals, split questions, and the LLM providers it and the CLI speak to.
//! One test binary for all of them, so a change relinks it once.

#[path = "../support/mod.rs"]
mod support;

mod guard_clients;
mod llm_providers;
mod openapi;
mod serve;
mod serve_guard;
mod serve_numerals;
mod serve_split;
