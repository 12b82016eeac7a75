//! Running `precept serve` as a child process on an ephemeral port of
//! 127.0.0.1, and talking to it with a real HTTP client.
#![allow(dead_code)]

use precept::model::import::import_smtlib;
use precept::model::{Project, Settings, TestSuite};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Served {
    pub child: Child,
    pub url: String,
    /// The server's log (its stderr).
    pub log: PathBuf,
    _stdout: BufReader<ChildStdout>,
    _scratch: tempfile::TempDir,
}

impl Served {
    /// Starts `command` (a `precept` command without `serve`'s arguments)
    /// as `serve DIR --addr 127.0.0.1:0 ARGS` and waits until it listens.
    pub fn start_with(mut command: Command, dir: &Path, args: &[&str]) -> Served {
        let scratch = tempfile::tempdir().unwrap();
        let log = scratch.path().join("serve.log");
        command
            .arg("serve")
            .arg(dir)
            .args(["--addr", "127.0.0.1:0"])
            .args(args)
            .env("NO_PROXY", "127.0.0.1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap());
        if !command
            .get_envs()
            .any(|(name, value)| name == "PRECEPT_CONFIG_DIR" && value.is_some())
        {
            command.env("PRECEPT_CONFIG_DIR", scratch.path());
        }
        let _ = rustls::crypto::ring::default_provider().install_default();
        let mut child = command.spawn().expect("start precept serve");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        let url = line
            .trim()
            .strip_prefix("precept serve: listening on ")
            .unwrap_or_else(|| {
                panic!(
                    "no address announced: {line:?}; log: {}",
                    std::fs::read_to_string(&log).unwrap_or_default()
                )
            })
            .to_string();
        Served {
            child,
            url,
            log,
            _stdout: stdout,
            _scratch: scratch,
        }
    }

    /// `precept serve DIR ARGS` with no LLM configured.
    pub fn start(dir: &Path, args: &[&str]) -> Served {
        let mut command = Command::new(env!("CARGO_BIN_EXE_precept"));
        command
            .env_remove("PRECEPT_LLM_BASE_URL")
            .env_remove("PRECEPT_LLM_MODEL")
            .env_remove("PRECEPT_LLM_PROTOCOL")
            .env_remove("PRECEPT_LLM_API_KEY_ENV")
            .env_remove("OPENAI_API_KEY")
            .env_remove("ANTHROPIC_API_KEY");
        Served::start_with(command, dir, args)
    }

    /// Started and ready (its model warm).
    pub fn ready(dir: &Path, args: &[&str]) -> Served {
        let served = Served::start(dir, args);
        served.wait_ready();
        served
    }

    pub fn wait_ready(&self) {
        let client = client();
        let deadline = Instant::now() + Duration::from_secs(60);
        while Instant::now() < deadline {
            if let Ok(reply) = client.get(format!("{}/readyz", self.url)).send()
                && reply.status() == 200
            {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("the server never became ready; log:\n{}", self.log_text());
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    pub fn post(&self, path: &str, body: &serde_json::Value) -> Reply {
        Reply::of(
            client()
                .post(format!("{}{path}", self.url))
                .json(body)
                .send()
                .expect("the server answers"),
        )
    }

    pub fn get(&self, path: &str) -> Reply {
        Reply::of(
            client()
                .get(format!("{}{path}", self.url))
                .send()
                .expect("the server answers"),
        )
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A reply read whole: status, headers and body.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub text: String,
}

impl Reply {
    pub fn of(response: reqwest::blocking::Response) -> Reply {
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().unwrap_or_default();
        Reply {
            status,
            headers,
            text,
        }
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }

    pub fn header(&self, name: &str) -> Option<String> {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    }
}

pub fn client() -> reqwest::blocking::Client {
    // reqwest is built without a TLS provider of its own (plain HTTP here).
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::blocking::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
}

/// A project in `dir` from SMT-LIB declarations and assertions, with no
/// tests.
pub fn smtlib_project(dir: &Path, smtlib: &str) {
    let model = import_smtlib(smtlib).expect("valid SMT-LIB");
    Project::create(dir, model, TestSuite::default(), Settings::default()).unwrap();
}

/// Replaces the model of the project in `dir` with one from SMT-LIB, the
/// way a deploy would: written beside it, then renamed over it.
pub fn replace_model(dir: &Path, smtlib: &str) {
    let scratch = tempfile::tempdir().unwrap();
    smtlib_project(scratch.path(), smtlib);
    let staged = dir.join(".model.json.new");
    std::fs::copy(scratch.path().join("model.json"), &staged).unwrap();
    std::fs::rename(&staged, dir.join("model.json")).unwrap();
}

impl Served {
    /// Posts JSON to a server known by its URL (for client threads).
    pub fn post_to(url: &str, path: &str, body: &serde_json::Value) -> Reply {
        Reply::of(
            client()
                .post(format!("{url}{path}"))
                .json(body)
                .send()
                .expect("the server answers"),
        )
    }
}

impl Reply {
    /// Posts `body` as it is (perhaps not JSON at all).
    pub fn raw(served: &Served, path: &str, body: &str) -> Reply {
        Reply::of(
            client()
                .post(format!("{}{path}", served.url))
                .header("Content-Type", "application/json")
                .body(body.to_string())
                .send()
                .expect("the server answers"),
        )
    }
}

/// An llm.toml in `dir` with `profiles` (name, protocol, base URL, model),
/// no key needed; the first is the default.
pub fn llm_toml(dir: &Path, profiles: &[(&str, &str, &str, &str)]) {
    let mut text = format!("default = \"{}\"\n", profiles[0].0);
    for (name, protocol, url, model) in profiles {
        text.push_str(&format!(
            "[[profile]]\nname = \"{name}\"\nprotocol = \"{protocol}\"\nbase_url = \"{url}\"\n\
             model = \"{model}\"\napi_key_env = \"\"\n"
        ));
    }
    std::fs::write(dir.join("llm.toml"), text).unwrap();
}

/// `precept serve PROJECT --guard PROFILE --guard-k 1 ARGS` with the LLM
/// configuration of `config` alone (none from the environment), once ready.
pub fn guard(project: &Path, config: &Path, profile: &str, args: &[&str]) -> Served {
    let mut command = Command::new(env!("CARGO_BIN_EXE_precept"));
    command
        .env("PRECEPT_CONFIG_DIR", config)
        .env_remove("PRECEPT_LLM_BASE_URL")
        .env_remove("PRECEPT_LLM_MODEL")
        .env_remove("PRECEPT_LLM_PROTOCOL")
        .env_remove("PRECEPT_LLM_API_KEY_ENV");
    let mut all = vec!["--guard", profile, "--guard-k", "1"];
    all.extend_from_slice(args);
    let served = Served::start_with(command, project, &all);
    served.wait_ready();
    served
}
