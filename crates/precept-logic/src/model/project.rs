//! A policy project on disk: a directory with the document, `model.json`,
//! `tests.json`, `precept.json` (settings) and a git-ignored `.cache/`.
//! Every write goes to a temporary file that is then renamed into place.

use super::compile::{CompiledModel, compile};
use super::policy::{PolicyModel, SCHEMA_VERSION};
use super::settings::Settings;
use super::test_suite::TestSuite;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

pub const MODEL_FILE: &str = "model.json";
pub const TESTS_FILE: &str = "tests.json";
pub const SETTINGS_FILE: &str = "precept.json";
pub const CACHE_DIR: &str = ".cache";

/// Largest project file Precept will read (a policy model is text; anything
/// bigger is almost certainly the wrong file).
const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    #[error("{path}: {message}")]
    Io { path: PathBuf, message: String },
    /// A file that is not valid JSON or does not fit the schema.
    #[error("{path}:{line}:{column}: {field}: {message}")]
    Malformed {
        path: PathBuf,
        line: usize,
        column: usize,
        field: String,
        message: String,
    },
    /// A model whose content is inconsistent (a rule that does not parse, an
    /// unknown type, ...).
    #[error("{path}:{line}: {field} ('{subject}'): {message}")]
    Invalid {
        path: PathBuf,
        line: usize,
        field: String,
        subject: String,
        message: String,
    },
}

/// A loaded project.
#[derive(Debug, Clone)]
pub struct Project {
    pub dir: PathBuf,
    pub settings: Settings,
    pub model: PolicyModel,
    pub tests: TestSuite,
    pub document: Option<String>,
}

impl Project {
    /// Reads a project and checks that its model compiles. Any problem is an
    /// error naming the file, the line and the field.
    pub fn load(dir: &Path) -> Result<Project, ProjectError> {
        let project = Project::load_unchecked(dir)?;
        project.compile_strict()?;
        Ok(project)
    }

    /// Reads a project without checking rule expressions (the workbench opens
    /// models with draft rules so they can be fixed).
    pub fn load_unchecked(dir: &Path) -> Result<Project, ProjectError> {
        if !dir.is_dir() {
            return Err(ProjectError::Io {
                path: dir.to_path_buf(),
                message: "not a project directory (it does not exist or is a file)".into(),
            });
        }
        let settings_path = dir.join(SETTINGS_FILE);
        let settings: Settings = if settings_path.exists() {
            read_json(&settings_path)?
        } else {
            Settings::default()
        };
        if let Some((field, message)) = settings.out_of_range() {
            let text = fs::read_to_string(&settings_path).unwrap_or_default();
            let line = text
                .lines()
                .position(|l| l.contains(&format!("\"{field}\"")))
                .map_or(1, |i| i + 1);
            return Err(ProjectError::Malformed {
                path: settings_path,
                line,
                column: 1,
                field: field.into(),
                message,
            });
        }
        let model: PolicyModel = read_json(&dir.join(MODEL_FILE))?;
        check_version(&dir.join(MODEL_FILE), model.schema_version)?;
        let tests_path = dir.join(TESTS_FILE);
        let tests: TestSuite = if tests_path.exists() {
            read_json(&tests_path)?
        } else {
            TestSuite::default()
        };
        check_version(&tests_path, tests.schema_version)?;
        let document = match &settings.document {
            Some(name) => Some(read_text(&dir.join(name))?),
            None => None,
        };
        Ok(Project {
            dir: dir.to_path_buf(),
            settings,
            model,
            tests,
            document,
        })
    }

    /// Compiles the model; the first issue becomes an error located in `model.json`.
    pub fn compile_strict(&self) -> Result<CompiledModel, ProjectError> {
        let compiled = compile(&self.model);
        if let Some(issue) = compiled.issues.first() {
            let path = self.dir.join(MODEL_FILE);
            let text = fs::read_to_string(&path).unwrap_or_default();
            return Err(ProjectError::Invalid {
                line: line_of_subject(&text, &issue.field, &issue.subject),
                path,
                field: issue.field.clone(),
                subject: issue.subject.clone(),
                message: issue.message.clone(),
            });
        }
        Ok(compiled)
    }

    /// Creates a new project directory (it must not hold a model yet).
    pub fn create(
        dir: &Path,
        model: PolicyModel,
        tests: TestSuite,
        settings: Settings,
    ) -> Result<Project, ProjectError> {
        if dir.join(MODEL_FILE).exists() {
            return Err(ProjectError::Io {
                path: dir.join(MODEL_FILE),
                message: "already exists; refusing to overwrite a project".into(),
            });
        }
        fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
        let project = Project {
            dir: dir.to_path_buf(),
            settings,
            model,
            tests,
            document: None,
        };
        project.save_all()?;
        Ok(project)
    }

    pub fn save_all(&self) -> Result<(), ProjectError> {
        self.save_settings()?;
        self.save_model()?;
        self.save_tests()?;
        let ignore = self.dir.join(".gitignore");
        if !ignore.exists() {
            write_atomic(&ignore, format!("{CACHE_DIR}/\n").as_bytes())?;
        }
        Ok(())
    }

    pub fn save_model(&self) -> Result<(), ProjectError> {
        write_json(&self.dir.join(MODEL_FILE), &self.model)
    }

    pub fn save_tests(&self) -> Result<(), ProjectError> {
        write_json(&self.dir.join(TESTS_FILE), &self.tests)
    }

    pub fn save_settings(&self) -> Result<(), ProjectError> {
        write_json(&self.dir.join(SETTINGS_FILE), &self.settings)
    }

    pub fn cache_dir(&self) -> PathBuf {
        self.dir.join(CACHE_DIR)
    }
}

/// Writes the document spans marked as not policy into the project's
/// `precept.json`, keeping its other settings as they are on disk.
pub fn save_not_policy(dir: &Path, not_policy: &[String]) -> Result<(), ProjectError> {
    let path = dir.join(SETTINGS_FILE);
    let mut settings: Settings = if path.exists() {
        read_json(&path)?
    } else {
        Settings::default()
    };
    settings.not_policy = not_policy.to_vec();
    write_json(&path, &settings)
}

fn check_version(path: &Path, version: u32) -> Result<(), ProjectError> {
    if version == 0 || version > SCHEMA_VERSION {
        return Err(ProjectError::Malformed {
            path: path.to_path_buf(),
            line: 1,
            column: 1,
            field: "schema_version".into(),
            message: format!(
                "version {version} is not supported; this Precept reads versions 1 to {SCHEMA_VERSION}"
            ),
        });
    }
    Ok(())
}

fn io_error(path: &Path, error: std::io::Error) -> ProjectError {
    ProjectError::Io {
        path: path.to_path_buf(),
        message: error.to_string(),
    }
}

/// Reads a UTF-8 text file, refusing huge and binary files with a clear message.
pub fn read_text(path: &Path) -> Result<String, ProjectError> {
    let meta = fs::metadata(path).map_err(|e| io_error(path, e))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(ProjectError::Io {
            path: path.to_path_buf(),
            message: format!("is {} bytes; the limit is {MAX_FILE_BYTES}", meta.len()),
        });
    }
    let bytes = fs::read(path).map_err(|e| io_error(path, e))?;
    if bytes.contains(&0) {
        return Err(ProjectError::Io {
            path: path.to_path_buf(),
            message: "is a binary file (it contains NUL bytes), not text".into(),
        });
    }
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        ProjectError::Io {
            path: path.to_path_buf(),
            message: format!("is not UTF-8 text (invalid byte at offset {offset})"),
        }
    })
}

/// Where and why JSON text does not fit `T`.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonProblem {
    pub line: usize,
    pub column: usize,
    /// The field path, or "(top level)".
    pub field: String,
    /// serde's message without its " at line L column C" (given apart).
    pub message: String,
}

/// Parses JSON text into `T`; a problem names the line, column and field path.
pub fn parse_json_text<T: DeserializeOwned>(text: &str) -> Result<T, JsonProblem> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let result: Result<T, _> = serde_path_to_error::deserialize(&mut deserializer);
    result.map_err(|error| {
        let field = error.path().to_string();
        let inner = error.into_inner();
        let message = inner.to_string();
        // serde_json appends " at line L column C"; the position is reported separately.
        let message = match message.rfind(" at line ") {
            Some(cut) => message[..cut].to_string(),
            None => message,
        };
        JsonProblem {
            line: inner.line(),
            column: inner.column(),
            field: if field == "." {
                "(top level)".into()
            } else {
                field
            },
            message,
        }
    })
}

/// Reads a JSON file into `T`; errors name the line, column and field path.
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, ProjectError> {
    let text = read_text(path)?;
    parse_json_text(&text).map_err(|problem| ProjectError::Malformed {
        path: path.to_path_buf(),
        line: problem.line,
        column: problem.column,
        field: problem.field,
        message: problem.message,
    })
}

/// Writes pretty JSON (two-space indent, trailing newline) atomically.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), ProjectError> {
    let mut text = serde_json::to_string_pretty(value).map_err(|e| ProjectError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    text.push('\n');
    write_atomic(path, text.as_bytes())
}

/// Writes `bytes` to a temporary file beside `path`, syncs it and renames it
/// into place, so a crash leaves either the old or the new file, never half.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), ProjectError> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Unique per process and per write, so concurrent writes never share a temporary file.
    static WRITES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let serial = WRITES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let temp = dir.join(format!(".{name}.{}.{serial}.tmp", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut file = fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&temp, path)?;
        Ok(())
    };
    write().map_err(|e| {
        let _ = fs::remove_file(&temp);
        io_error(path, e)
    })
}

/// The line of `model.json` where the entry named `subject` sits, found by
/// its `"id"`/`"name"` key; 1 when it cannot be found.
fn line_of_subject(text: &str, field: &str, subject: &str) -> usize {
    let key = if field.starts_with("rules") {
        "\"id\""
    } else {
        "\"name\""
    };
    let quoted = serde_json::to_string(subject).unwrap_or_default();
    let mut search_from = 0;
    while let Some(found) = text[search_from..].find(key) {
        let at = search_from + found;
        let rest = text[at + key.len()..].trim_start();
        if let Some(after_colon) = rest.strip_prefix(':')
            && after_colon.trim_start().starts_with(&quoted)
        {
            return text[..at].matches('\n').count() + 1;
        }
        search_from = at + key.len();
    }
    1
}
