//! The real `precept` binary's workbench in a tmux pane of a server of its
//! own, with a config folder of its own (kept as long as the session), and
//! optionally an LLM profile pointing at a scripted server.

use super::tmux::Tmux;
use std::path::Path;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_precept");

/// A path or URL quoted for the pane's shell.
pub fn quote(text: &str) -> String {
    assert!(!text.contains('\''), "{text}");
    format!("'{text}'")
}

/// How a workbench session is opened.
pub struct Open<'a> {
    /// The pane's size.
    pub size: (u16, u16),
    /// The pane's process is precept itself (for kill -9); otherwise the
    /// pane prints "EXITED <code>" when precept ends and stays open.
    pub exec: bool,
    /// The scripted LLM server the translator profile points at.
    pub llm_url: Option<&'a str>,
    /// How long a wait may take before the test fails.
    pub wait: Duration,
}

impl Default for Open<'_> {
    fn default() -> Self {
        Open {
            size: (100, 30),
            exec: false,
            llm_url: None,
            wait: Duration::from_secs(15),
        }
    }
}

pub struct Workbench {
    tmux: Tmux,
    _config: tempfile::TempDir,
}

impl std::ops::Deref for Workbench {
    type Target = Tmux;
    fn deref(&self) -> &Tmux {
        &self.tmux
    }
}

impl Workbench {
    /// Opens the workbench on `dir` in a tmux server named after `name`.
    pub fn open(name: &str, dir: &Path, how: Open<'_>) -> Workbench {
        let config = tempfile::tempdir().unwrap();
        let mut env = format!(
            "env -u OPENAI_API_KEY -u ANTHROPIC_API_KEY PRECEPT_CONFIG_DIR={}",
            quote(config.path().to_str().unwrap())
        );
        if let Some(url) = how.llm_url {
            env.push_str(&format!(
                " PRECEPT_LLM_BASE_URL={} PRECEPT_LLM_MODEL=scripted PRECEPT_LLM_PROTOCOL=openai \
                 PRECEPT_LLM_API_KEY_ENV= NO_PROXY=127.0.0.1",
                quote(url)
            ));
        }
        let run = format!("{env} {} open {}", quote(BIN), quote(dir.to_str().unwrap()));
        let command = if how.exec {
            format!("exec {run}")
        } else {
            format!("{run}; echo \"EXITED $?\"; exec sleep 60")
        };
        Workbench {
            tmux: Tmux::start(name, &command, how.size, how.wait),
            _config: config,
        }
    }
}
