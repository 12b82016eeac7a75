//! The user's configuration folder (from `directories`, or
//! `PRECEPT_CONFIG_DIR`): `config.toml` keeps the chosen theme, `theme.toml`
//! overrides single colours, `keymap.toml` overrides single keys. A bad file
//! is reported and the defaults are used.

use crate::input::keymap::Keymap;
use crate::style::theme::Theme;
use precept_engine::model::ProjectError;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

#[derive(Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfigFile {
    #[serde(default)]
    theme: Option<String>,
}

pub struct UserConfig {
    pub dir: Option<PathBuf>,
    pub theme: Theme,
    pub keymap: Keymap,
    /// Problems found in the user's files, to show in the status line.
    pub problems: Vec<String>,
}

pub use precept_engine::llm::config::user_config_dir as config_dir;

fn read_optional(path: &Path, problems: &mut Vec<String>) -> Option<String> {
    if !path.exists() {
        return None;
    }
    match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(e) => {
            problems.push(format!("{}: {e}", path.display()));
            None
        }
    }
}

impl UserConfig {
    pub fn load(dir: Option<PathBuf>) -> UserConfig {
        let mut problems = Vec::new();
        let dark = Theme::built_in("dark").expect("built-in dark theme");
        let Some(dir) = dir else {
            return UserConfig {
                dir: None,
                theme: dark,
                keymap: Keymap::default(),
                problems,
            };
        };
        let config_path = dir.join("config.toml");
        let config: ConfigFile = match read_optional(&config_path, &mut problems) {
            Some(text) => toml::from_str(&text).unwrap_or_else(|e| {
                problems.push(format!(
                    "{}: {e}; using the defaults",
                    config_path.display()
                ));
                ConfigFile::default()
            }),
            None => ConfigFile::default(),
        };
        let chosen = config.theme.as_deref().unwrap_or("dark");
        let mut theme = Theme::built_in(chosen).unwrap_or_else(|| {
            problems.push(format!(
                "{}: theme = \"{chosen}\": no such theme (dark, light); using dark",
                config_path.display()
            ));
            dark.clone()
        });
        let theme_path = dir.join("theme.toml");
        if let Some(text) = read_optional(&theme_path, &mut problems) {
            match Theme::from_toml(&text, Some(&theme)) {
                Ok(custom) => theme = custom,
                Err(e) => problems.push(format!(
                    "{}: {e}; using the {} theme",
                    theme_path.display(),
                    theme.name
                )),
            }
        }
        let keymap_path = dir.join("keymap.toml");
        let keymap = match read_optional(&keymap_path, &mut problems) {
            Some(text) => Keymap::with_overrides(&text).unwrap_or_else(|e| {
                problems.push(format!(
                    "{}: {e}; using the default keys",
                    keymap_path.display()
                ));
                Keymap::default()
            }),
            None => Keymap::default(),
        };
        UserConfig {
            dir: Some(dir),
            theme,
            keymap,
            problems,
        }
    }
}

/// Why the chosen theme was not remembered.
#[derive(Debug, thiserror::Error)]
pub enum ThemeChoiceError {
    #[error("{}: {source}", dir.display())]
    Folder {
        dir: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Toml(#[from] toml::ser::Error),
    #[error(transparent)]
    Write(#[from] ProjectError),
}

/// Remembers the chosen theme in `config.toml`.
pub fn write_theme_choice(dir: &Path, name: &str) -> Result<(), ThemeChoiceError> {
    std::fs::create_dir_all(dir).map_err(|source| ThemeChoiceError::Folder {
        dir: dir.to_path_buf(),
        source,
    })?;
    let text = toml::to_string(&ConfigFile {
        theme: Some(name.to_string()),
    })?;
    precept_engine::model::project::write_atomic(&dir.join("config.toml"), text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_theme_choice_is_kept_and_bad_files_fall_back() {
        let dir = tempfile::tempdir().unwrap();
        write_theme_choice(dir.path(), "light").unwrap();
        let config = UserConfig::load(Some(dir.path().to_path_buf()));
        assert_eq!(config.theme.name, "light");
        assert!(config.problems.is_empty(), "{:?}", config.problems);
        std::fs::write(
            dir.path().join("keymap.toml"),
            "[[bind]]\non = [\"x\"]\nrun = \"nope\"\n",
        )
        .unwrap();
        let config = UserConfig::load(Some(dir.path().to_path_buf()));
        assert_eq!(config.keymap, Keymap::default());
        assert!(
            config.problems[0].contains("keymap.toml")
                && config.problems[0].contains("unknown action"),
            "{:?}",
            config.problems
        );
    }
}
