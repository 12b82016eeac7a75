//! Helpers shared by the integration tests.
#![allow(dead_code)]

use precept::model::import::import_smtlib;
use precept::model::{CompiledModel, compile};
use precept::smt::Expr;
use precept::solve::SolverWorker;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn sample(name: &str) -> PathBuf {
    repo().join("samples").join(name)
}

/// A scratch copy of a sample project, so a test can edit it.
pub fn copy_sample(name: &str) -> tempfile::TempDir {
    copy_files(&sample(name))
}

/// A scratch copy of a project of the repository's test data
/// (`tests/data/`), so a test can edit it.
pub fn copy_test_data(part: &str) -> tempfile::TempDir {
    copy_files(&test_data(part))
}

/// A scratch folder holding copies of the files (not the folders) of `dir`.
fn copy_files(dir: &std::path::Path) -> tempfile::TempDir {
    let scratch = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, scratch.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    scratch
}

/// A folder of the repository's own test data (`tests/data/`), with its licence beside it.
pub fn test_data(part: &str) -> PathBuf {
    let dir = repo().join("tests").join("data").join(part);
    assert!(
        dir.is_dir(),
        "the test data folder {} is missing",
        dir.display()
    );
    dir
}

/// The built binary as a command, to add arguments and environment to.
pub fn precept_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_precept"))
}

/// The built binary configured (through the environment) to use the
/// scripted LLM server at `url`, with its user config in `config`.
pub fn precept_with_llm(url: &str, config: &std::path::Path) -> Command {
    let mut command = precept_command();
    command
        .env("PRECEPT_CONFIG_DIR", config)
        .env("PRECEPT_LLM_BASE_URL", url)
        .env("PRECEPT_LLM_MODEL", "scripted-model")
        .env("PRECEPT_LLM_PROTOCOL", "openai")
        .env("PRECEPT_LLM_API_KEY_ENV", "")
        .env("NO_PROXY", "127.0.0.1")
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY");
    command
}

pub fn precept(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_precept"))
        .args(args)
        .output()
        .expect("run precept")
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A compiled model from SMT-LIB declarations and assertions.
pub fn model(smtlib: &str) -> CompiledModel {
    let compiled = compile(&import_smtlib(smtlib).expect("valid SMT-LIB"));
    assert!(compiled.issues.is_empty(), "{:?}", compiled.issues);
    compiled
}

pub fn worker(model: &CompiledModel, timeout: Duration) -> SolverWorker {
    let worker = SolverWorker::spawn(timeout);
    worker.load(model.clone()).expect("model loads");
    worker
}

/// Parses and checks a formula against the model.
pub fn formula(model: &CompiledModel, text: &str) -> Expr {
    model
        .check_formula(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .1
}

/// The z3 command-line solver shipped with the pinned wheel.
pub fn z3_binary() -> PathBuf {
    let path = repo().join(".deps/z3/bin/z3");
    assert!(
        path.exists(),
        "run scripts/setup.sh first: {} is missing",
        path.display()
    );
    path
}
pub mod dmn;
pub mod evidence;
pub mod keys;
pub mod llm_server;
pub mod park_formalization;
pub mod random_groups;
pub mod service;
pub mod tmux;
pub mod workbench;

/// A project of its own in `dir`: two airline rules that conflict when a
/// passenger is denied boarding on a flight that operated (a conflicting
/// overlap, L206), and the test T1 "denied boarding is refunded" (VALID
/// expected), which fails until one rule becomes the other's exception.
pub fn overlap_project(dir: &std::path::Path) {
    smtlib_project(
        dir,
        "(declare-const operated Bool)(declare-const travelled Bool)(declare-const deniedBoarding Bool)(declare-const refund Bool)
         (assert (=> (and operated (not travelled)) (not refund)))
         (assert (=> deniedBoarding refund))
         (assert (=> deniedBoarding (not travelled)))",
        "(and operated deniedBoarding)",
    );
}

/// A project from SMT-LIB, each variable described after its name, with one
/// test T1 "denied boarding is refunded": `premise` proves `refund` VALID.
pub fn smtlib_project(dir: &std::path::Path, smtlib: &str, premise: &str) {
    use precept::model::{LogicTest, Project, Settings, TestSuite};
    let mut model = import_smtlib(smtlib).unwrap();
    for v in &mut model.variables {
        v.description = format!("whether the passenger's case is {}", v.name);
    }
    let mut tests = TestSuite::default();
    tests.tests.push(LogicTest::new(
        "T1",
        "denied boarding is refunded",
        premise,
        "refund",
        precept::solve::FindingKind::Valid,
    ));
    Project::create(dir, model, tests, Settings::default()).unwrap();
}

/// Sets rule `id`'s expression in the project's model.json, as an expert
/// editing the file would.
pub fn set_rule(dir: &std::path::Path, id: &str, expression: &str) {
    let path = dir.join("model.json");
    let mut model: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let rule = model["rules"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|r| r["id"] == id)
        .unwrap();
    rule["expression"] = serde_json::Value::String(expression.into());
    std::fs::write(&path, serde_json::to_string_pretty(&model).unwrap()).unwrap();
}

/// A local address that refuses connections: a socket bound to a free port
/// and never listening. While it lives no other test's server can take the
/// port, as one could take a dropped listener's port while a client retries.
pub struct RefusingAddress {
    _socket: socket2::Socket,
    pub port: u16,
}

impl RefusingAddress {
    pub fn new() -> RefusingAddress {
        let socket =
            socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
        let any_port: std::net::SocketAddr = "127.0.0.1:0".parse().unwrap();
        socket.bind(&any_port.into()).expect("bind a free port");
        let port = socket.local_addr().unwrap().as_socket().unwrap().port();
        RefusingAddress {
            _socket: socket,
            port,
        }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}
