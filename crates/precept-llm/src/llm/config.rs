//! Which LLM server to talk to: profiles from the user's `llm.toml`,
//! environment overrides, and a local Ollama as the last candidate.
//!
//! Keys are never read from files: a profile names the environment
//! variable that holds its key, and the client reads it at request time.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::request::LlmError;

/// The name of the configuration file inside the user's config directory.
pub const CONFIG_FILE: &str = "llm.toml";
/// Where a local Ollama listens by default.
pub const OLLAMA_URL: &str = "http://127.0.0.1:11434";
/// Model offered with a detected Ollama when none is named.
pub const OLLAMA_DEFAULT_MODEL: &str = "qwen2.5:7b";
/// Default OpenAI endpoint and model (used when only `OPENAI_API_KEY` is set).
pub const OPENAI_URL: &str = "https://api.openai.com";
pub const OPENAI_DEFAULT_MODEL: &str = "gpt-4.1-mini";
/// Default Anthropic endpoint and model (used when only `ANTHROPIC_API_KEY` is set).
pub const ANTHROPIC_URL: &str = "https://api.anthropic.com";
pub const ANTHROPIC_DEFAULT_MODEL: &str = "claude-sonnet-4-5";

/// Environment variables read by [`resolve_profile`].
pub const ENV_BASE_URL: &str = "PRECEPT_LLM_BASE_URL";
pub const ENV_MODEL: &str = "PRECEPT_LLM_MODEL";
pub const ENV_PROTOCOL: &str = "PRECEPT_LLM_PROTOCOL";
pub const ENV_API_KEY_ENV: &str = "PRECEPT_LLM_API_KEY_ENV";
pub const ENV_OPENAI_KEY: &str = "OPENAI_API_KEY";
pub const ENV_ANTHROPIC_KEY: &str = "ANTHROPIC_API_KEY";

/// The wire protocol a server speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// `POST /v1/chat/completions` with `response_format: json_schema`
    /// (OpenAI, Ollama, vLLM, llama.cpp server, LM Studio).
    #[serde(alias = "openai-compatible", alias = "open_ai")]
    OpenAi,
    /// `POST /v1/messages` with a forced tool.
    Anthropic,
}

impl Protocol {
    pub fn parse(text: &str) -> Option<Protocol> {
        match text.trim().to_ascii_lowercase().as_str() {
            "openai" | "open_ai" | "openai-compatible" => Some(Protocol::OpenAi),
            "anthropic" => Some(Protocol::Anthropic),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Protocol::OpenAi => "openai",
            Protocol::Anthropic => "anthropic",
        }
    }

    /// The environment variable that holds this protocol's key by default.
    pub fn default_key_env(self) -> &'static str {
        match self {
            Protocol::OpenAi => ENV_OPENAI_KEY,
            Protocol::Anthropic => ENV_ANTHROPIC_KEY,
        }
    }
}

/// One configured server. Holds the *name* of the key's environment
/// variable, never the key.
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    pub name: String,
    pub protocol: Protocol,
    pub base_url: String,
    pub model: String,
    pub api_key_env: Option<String>,
    pub temperature: f32,
    pub concurrency: usize,
    pub timeout: Duration,
}

impl Profile {
    /// A profile with the usual defaults (temperature 0, 4 parallel
    /// requests, 120 s per request, the protocol's default key variable).
    pub fn new(name: &str, protocol: Protocol, base_url: &str, model: &str) -> Profile {
        Profile {
            name: name.to_string(),
            protocol,
            base_url: base_url.to_string(),
            model: model.to_string(),
            api_key_env: Some(protocol.default_key_env().to_string()),
            temperature: 0.0,
            concurrency: 4,
            timeout: Duration::from_secs(120),
        }
    }
}

/// Where the chosen profile came from.
#[derive(Debug, Clone, PartialEq)]
pub enum ProfileSource {
    /// A `[[profile]]` of this file (possibly with environment overrides).
    File(PathBuf),
    /// Environment variables alone.
    Environment,
    /// Nothing configured, but a local Ollama answered the probe: a
    /// candidate to offer the user, not a silent choice.
    DetectedOllama,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    pub profile: Profile,
    pub source: ProfileSource,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    /// The profile used when none is named (else the first).
    default: Option<String>,
    #[serde(default)]
    profile: Vec<ProfileEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileEntry {
    name: String,
    protocol: Protocol,
    base_url: String,
    model: String,
    api_key_env: Option<String>,
    temperature: Option<f32>,
    concurrency: Option<usize>,
    timeout_secs: Option<u64>,
}

/// The how-to text of [`LlmError::NotConfigured`] for `config_dir`.
pub fn how_to_configure(config_dir: &Path) -> String {
    let file = config_dir.join(CONFIG_FILE);
    format!(
        "no LLM server is configured. Either create {file} with a profile:\n\
         \n\
         [[profile]]\n\
         name = \"local\"\n\
         protocol = \"openai\"            # or \"anthropic\"\n\
         base_url = \"http://127.0.0.1:11434\"\n\
         model = \"{OLLAMA_DEFAULT_MODEL}\"\n\
         api_key_env = \"OPENAI_API_KEY\"  # the variable holding the key; \"\" for none\n\
         temperature = 0.0\n\
         concurrency = 4\n\
         timeout_secs = 120\n\
         \n\
         or set environment variables: {ENV_BASE_URL}, {ENV_MODEL}, {ENV_PROTOCOL} \
         (openai|anthropic) and {ENV_API_KEY_ENV} (the name of the variable holding the key); \
         or just {ENV_OPENAI_KEY} or {ENV_ANTHROPIC_KEY}; or start Ollama on {OLLAMA_URL}.",
        file = file.display()
    )
}

/// Picks the profile to use.
///
/// Order: the named (or default, or first) profile of `config_dir/llm.toml`
/// with environment overrides; else a profile from `PRECEPT_LLM_*`
/// variables; else `OPENAI_API_KEY` / `ANTHROPIC_API_KEY` with the
/// official endpoints; else a local Ollama if `probe(OLLAMA_URL)` says it
/// answers; else [`LlmError::NotConfigured`].
///
/// `env` reads an environment variable (pass [`process_env`]); `probe`
/// tells whether a server answers at a URL (pass [`probe_tcp`]).
pub fn resolve_profile(
    config_dir: &Path,
    wanted: Option<&str>,
    env: &dyn Fn(&str) -> Option<String>,
    probe: &dyn Fn(&str) -> bool,
) -> Result<Resolved, LlmError> {
    let var = |name: &str| env(name).filter(|v| !v.trim().is_empty());
    let env_protocol = match var(ENV_PROTOCOL) {
        Some(text) => Some(Protocol::parse(&text).ok_or_else(|| LlmError::Config {
            path: ENV_PROTOCOL.to_string(),
            message: format!("unknown protocol '{text}' (expected openai or anthropic)"),
        })?),
        None => None,
    };
    let apply_overrides = |profile: &mut Profile| {
        if let Some(protocol) = env_protocol {
            profile.protocol = protocol;
        }
        if let Some(url) = var(ENV_BASE_URL) {
            profile.base_url = url;
        }
        if let Some(model) = var(ENV_MODEL) {
            profile.model = model;
        }
        if let Some(key_env) = env(ENV_API_KEY_ENV) {
            profile.api_key_env = Some(key_env).filter(|k| !k.trim().is_empty());
        }
    };

    let path = config_dir.join(CONFIG_FILE);
    if let Some(mut profile) = load_file_profile(&path, wanted)? {
        apply_overrides(&mut profile);
        return Ok(Resolved {
            profile,
            source: ProfileSource::File(path),
        });
    }
    if let Some(name) = wanted {
        return Err(LlmError::NotConfigured {
            how_to: format!(
                "no profile named '{name}' in {}\n\n{}",
                path.display(),
                how_to_configure(config_dir)
            ),
        });
    }

    if var(ENV_BASE_URL).is_some() || var(ENV_MODEL).is_some() || env_protocol.is_some() {
        let protocol = env_protocol.unwrap_or(Protocol::OpenAi);
        let (url, model) = match protocol {
            Protocol::OpenAi => (OPENAI_URL, OPENAI_DEFAULT_MODEL),
            Protocol::Anthropic => (ANTHROPIC_URL, ANTHROPIC_DEFAULT_MODEL),
        };
        let mut profile = Profile::new("environment", protocol, url, model);
        apply_overrides(&mut profile);
        return Ok(Resolved {
            profile,
            source: ProfileSource::Environment,
        });
    }
    for (key, protocol, url, model) in [
        (
            ENV_OPENAI_KEY,
            Protocol::OpenAi,
            OPENAI_URL,
            OPENAI_DEFAULT_MODEL,
        ),
        (
            ENV_ANTHROPIC_KEY,
            Protocol::Anthropic,
            ANTHROPIC_URL,
            ANTHROPIC_DEFAULT_MODEL,
        ),
    ] {
        if var(key).is_some() {
            let mut profile = Profile::new(protocol.as_str(), protocol, url, model);
            apply_overrides(&mut profile);
            return Ok(Resolved {
                profile,
                source: ProfileSource::Environment,
            });
        }
    }
    if probe(OLLAMA_URL) {
        let mut profile =
            Profile::new("ollama", Protocol::OpenAi, OLLAMA_URL, OLLAMA_DEFAULT_MODEL);
        profile.api_key_env = None;
        apply_overrides(&mut profile);
        return Ok(Resolved {
            profile,
            source: ProfileSource::DetectedOllama,
        });
    }
    Err(LlmError::NotConfigured {
        how_to: how_to_configure(config_dir),
    })
}

/// The names of the profiles in `config_dir/llm.toml`, in file order, and
/// the default one (named by `default`, else the first); empty without a file.
pub fn profile_names(config_dir: &Path) -> Result<(Vec<String>, Option<String>), LlmError> {
    let path = config_dir.join(CONFIG_FILE);
    let Some(file) = read_config_file(&path)? else {
        return Ok((Vec::new(), None));
    };
    let names: Vec<String> = file.profile.into_iter().map(|p| p.name).collect();
    let default = file.default.or_else(|| names.first().cloned());
    Ok((names, default))
}

/// `llm.toml` read and parsed; None when there is no such file.
fn read_config_file(path: &Path) -> Result<Option<ConfigFile>, LlmError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(LlmError::Config {
                path: path.display().to_string(),
                message: e.to_string(),
            });
        }
    };
    toml::from_str(&text)
        .map(Some)
        .map_err(|e| LlmError::Config {
            path: path.display().to_string(),
            message: e.to_string(),
        })
}

fn load_file_profile(path: &Path, wanted: Option<&str>) -> Result<Option<Profile>, LlmError> {
    let Some(file) = read_config_file(path)? else {
        return Ok(None);
    };
    let name = wanted.map(str::to_string).or(file.default.clone());
    let entry = match &name {
        Some(name) => file.profile.into_iter().find(|p| &p.name == name),
        None => file.profile.into_iter().next(),
    };
    let Some(entry) = entry else {
        return match (wanted, &file.default) {
            (None, Some(default)) => Err(LlmError::Config {
                path: path.display().to_string(),
                message: format!("default = '{default}' names no [[profile]]"),
            }),
            _ => Ok(None),
        };
    };
    if entry.concurrency == Some(0) {
        return Err(LlmError::Config {
            path: path.display().to_string(),
            message: format!("profile '{}': concurrency must be at least 1", entry.name),
        });
    }
    let mut profile = Profile::new(&entry.name, entry.protocol, &entry.base_url, &entry.model);
    if let Some(key_env) = entry.api_key_env {
        profile.api_key_env = Some(key_env).filter(|k| !k.trim().is_empty());
    }
    if let Some(t) = entry.temperature {
        profile.temperature = t;
    }
    if let Some(c) = entry.concurrency {
        profile.concurrency = c;
    }
    if let Some(s) = entry.timeout_secs {
        profile.timeout = Duration::from_secs(s.max(1));
    }
    Ok(Some(profile))
}

/// Reads a variable from the process environment.
/// The user's config folder (`llm.toml`, keymap, theme): `PRECEPT_CONFIG_DIR`
/// if set, else the platform's (`~/.config/precept` on Linux).
pub fn user_config_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PRECEPT_CONFIG_DIR") {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "precept").map(|d| d.config_dir().to_path_buf())
}

pub fn process_env(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// Whether something accepts TCP connections at `url`'s host and port
/// (within 300 ms). Used as the Ollama probe; not called by tests.
pub fn probe_tcp(url: &str) -> bool {
    use std::net::{TcpStream, ToSocketAddrs};
    let rest = url.split("://").nth(1).unwrap_or(url);
    let host_port = rest.split('/').next().unwrap_or(rest);
    let Ok(addrs) = host_port.to_socket_addrs() else {
        return false;
    };
    addrs
        .into_iter()
        .any(|addr| TcpStream::connect_timeout(&addr, Duration::from_millis(300)).is_ok())
}
