//! Keys are data: an embedded default table that a user file overrides entry
//! by entry. The help overlay and the README's key table come from it.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde::Deserialize;

/// Everything a key can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    ScreenRules,
    ScreenVariables,
    ScreenTests,
    ScreenVerify,
    ScreenVetting,
    ScreenFormalize,
    ScreenProbe,
    Formalize,
    Feedback,
    Mark,
    Merge,
    Split,
    AnswerMode,
    NextPane,
    PrevPane,
    Down,
    Up,
    PageDown,
    PageUp,
    Top,
    Bottom,
    Open,
    Edit,
    Add,
    Delete,
    Undo,
    Redo,
    Rerun,
    NextFailing,
    PrevFailing,
    NextFlipped,
    Approve,
    Lint,
    Coverage,
    Generate,
    Accept,
    Reject,
    ApplyFix,
    Consolidate,
    Filter,
    UncoveredOnly,
    NotPolicy,
    Search,
    Palette,
    Help,
    ToggleTheme,
    Quit,
    ForceQuit,
    Apply,
    Close,
    Why,
    CopyMarkdown,
    ConsultantMode,
    StrictReading,
    DiffBase,
}

const ACTION_NAMES: [(&str, Action); 55] = [
    ("screen_rules", Action::ScreenRules),
    ("screen_variables", Action::ScreenVariables),
    ("screen_tests", Action::ScreenTests),
    ("screen_verify", Action::ScreenVerify),
    ("screen_vetting", Action::ScreenVetting),
    ("screen_formalize", Action::ScreenFormalize),
    ("screen_probe", Action::ScreenProbe),
    ("formalize", Action::Formalize),
    ("feedback", Action::Feedback),
    ("mark", Action::Mark),
    ("merge", Action::Merge),
    ("split", Action::Split),
    ("answer_mode", Action::AnswerMode),
    ("next_pane", Action::NextPane),
    ("prev_pane", Action::PrevPane),
    ("down", Action::Down),
    ("up", Action::Up),
    ("page_down", Action::PageDown),
    ("page_up", Action::PageUp),
    ("top", Action::Top),
    ("bottom", Action::Bottom),
    ("open", Action::Open),
    ("edit", Action::Edit),
    ("add", Action::Add),
    ("delete", Action::Delete),
    ("undo", Action::Undo),
    ("redo", Action::Redo),
    ("rerun", Action::Rerun),
    ("next_failing", Action::NextFailing),
    ("prev_failing", Action::PrevFailing),
    ("next_flipped", Action::NextFlipped),
    ("approve", Action::Approve),
    ("lint", Action::Lint),
    ("coverage", Action::Coverage),
    ("generate", Action::Generate),
    ("accept", Action::Accept),
    ("reject", Action::Reject),
    ("apply_fix", Action::ApplyFix),
    ("consolidate", Action::Consolidate),
    ("filter", Action::Filter),
    ("uncovered_only", Action::UncoveredOnly),
    ("not_policy", Action::NotPolicy),
    ("search", Action::Search),
    ("palette", Action::Palette),
    ("help", Action::Help),
    ("toggle_theme", Action::ToggleTheme),
    ("quit", Action::Quit),
    ("force_quit", Action::ForceQuit),
    ("apply", Action::Apply),
    ("close", Action::Close),
    ("why", Action::Why),
    ("copy_markdown", Action::CopyMarkdown),
    ("consultant_mode", Action::ConsultantMode),
    ("strict_reading", Action::StrictReading),
    ("diff_base", Action::DiffBase),
];

impl Action {
    pub fn from_name(name: &str) -> Option<Action> {
        ACTION_NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, a)| *a)
    }

    pub fn name(self) -> &'static str {
        ACTION_NAMES
            .iter()
            .find(|(_, a)| *a == self)
            .map(|(n, _)| *n)
            .unwrap_or("?")
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeymapFile {
    #[serde(default)]
    bind: Vec<BindEntry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BindEntry {
    on: Vec<String>,
    run: String,
    #[serde(default)]
    desc: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Binding {
    pub keys: Vec<String>,
    pub action: Action,
    pub desc: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Keymap {
    pub bindings: Vec<Binding>,
}

const DEFAULT_KEYMAP: &str = include_str!("default_keymap.toml");

impl Default for Keymap {
    fn default() -> Self {
        let mut keymap = Keymap {
            bindings: Vec::new(),
        };
        keymap
            .apply(DEFAULT_KEYMAP)
            .expect("the embedded keymap is valid");
        keymap
    }
}

/// Why a keymap file cannot be used: the entry at fault and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum KeymapError {
    #[error(transparent)]
    Toml(#[from] toml::de::Error),
    #[error("bind[{index}].run: unknown action \"{action}\"")]
    UnknownAction { index: usize, action: String },
    #[error(
        "bind[{index}].on: \"{key}\" is not a key (examples: \"j\", \"ctrl-s\", \"pagedown\", \"f1\")"
    )]
    NotAKey { index: usize, key: String },
}

impl Keymap {
    /// The defaults with a user file's entries applied on top.
    pub fn with_overrides(text: &str) -> Result<Keymap, KeymapError> {
        let mut keymap = Keymap::default();
        keymap.apply(text)?;
        Ok(keymap)
    }

    fn apply(&mut self, text: &str) -> Result<(), KeymapError> {
        let file: KeymapFile = toml::from_str(text)?;
        for (i, entry) in file.bind.iter().enumerate() {
            let action =
                Action::from_name(&entry.run).ok_or_else(|| KeymapError::UnknownAction {
                    index: i,
                    action: entry.run.clone(),
                })?;
            for key in &entry.on {
                if !is_valid_key(key) {
                    return Err(KeymapError::NotAKey {
                        index: i,
                        key: key.clone(),
                    });
                }
            }
            // A key moved to this action leaves the action it had.
            for binding in &mut self.bindings {
                binding.keys.retain(|k| !entry.on.contains(k));
            }
            match self.bindings.iter_mut().find(|b| b.action == action) {
                Some(binding) => {
                    binding.keys = entry.on.clone();
                    if let Some(desc) = &entry.desc {
                        binding.desc = desc.clone();
                    }
                }
                None => self.bindings.push(Binding {
                    keys: entry.on.clone(),
                    action,
                    desc: entry.desc.clone().unwrap_or_default(),
                }),
            }
        }
        Ok(())
    }

    pub fn action_for(&self, key: &KeyEvent) -> Option<Action> {
        let name = key_name(key)?;
        self.bindings
            .iter()
            .find(|b| b.keys.contains(&name))
            .map(|b| b.action)
    }

    /// The keys bound to an action, for hints ("ctrl-s").
    pub fn keys_for(&self, action: Action) -> String {
        self.bindings
            .iter()
            .find(|b| b.action == action)
            .map(|b| b.keys.join("/"))
            .unwrap_or_default()
    }

    /// The key table as Markdown, as the README shows it.
    pub fn markdown_table(&self) -> String {
        let mut out = String::from("| keys | action |\n|---|---|\n");
        for binding in &self.bindings {
            let keys: Vec<String> = binding
                .keys
                .iter()
                .map(|k| format!("`{}`", k.replace('|', "\\|")))
                .collect();
            out.push_str(&format!("| {} | {} |\n", keys.join(" "), binding.desc));
        }
        out
    }
}

const NAMED_KEYS: [&str; 15] = [
    "space",
    "enter",
    "esc",
    "tab",
    "backtab",
    "up",
    "down",
    "left",
    "right",
    "pageup",
    "pagedown",
    "home",
    "end",
    "backspace",
    "delete",
];

fn is_valid_key(key: &str) -> bool {
    let base = key
        .strip_prefix("ctrl-")
        .or_else(|| key.strip_prefix("alt-"))
        .unwrap_or(key);
    base.chars().count() == 1
        || NAMED_KEYS.contains(&base)
        || base
            .strip_prefix('f')
            .is_some_and(|n| n.parse::<u8>().is_ok_and(|n| (1..=12).contains(&n)))
}

/// The name of a key press in keymap notation.
pub fn key_name(key: &KeyEvent) -> Option<String> {
    let base = match key.code {
        KeyCode::Char(' ') => "space".into(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Enter => "enter".into(),
        KeyCode::Esc => "esc".into(),
        KeyCode::Tab => "tab".into(),
        KeyCode::BackTab => "backtab".into(),
        KeyCode::Up => "up".into(),
        KeyCode::Down => "down".into(),
        KeyCode::Left => "left".into(),
        KeyCode::Right => "right".into(),
        KeyCode::PageUp => "pageup".into(),
        KeyCode::PageDown => "pagedown".into(),
        KeyCode::Home => "home".into(),
        KeyCode::End => "end".into(),
        KeyCode::Backspace => "backspace".into(),
        KeyCode::Delete => "delete".into(),
        KeyCode::F(n) => format!("f{n}"),
        _ => return None,
    };
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        Some(format!("ctrl-{base}"))
    } else if key.modifiers.contains(KeyModifiers::ALT) {
        Some(format!("alt-{base}"))
    } else {
        Some(base)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn press(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, modifiers)
    }

    #[test]
    fn defaults_map_keys_to_actions() {
        let keymap = Keymap::default();
        assert_eq!(
            keymap.action_for(&press(KeyCode::Char('j'), KeyModifiers::NONE)),
            Some(Action::Down)
        );
        assert_eq!(
            keymap.action_for(&press(KeyCode::Char('s'), KeyModifiers::CONTROL)),
            Some(Action::Apply)
        );
        assert_eq!(
            keymap.action_for(&press(KeyCode::Char('G'), KeyModifiers::SHIFT)),
            Some(Action::Bottom)
        );
        assert_eq!(
            keymap.action_for(&press(KeyCode::Char('z'), KeyModifiers::NONE)),
            None
        );
    }

    #[test]
    fn a_user_entry_overrides_one_action_and_frees_its_keys() {
        let keymap =
            Keymap::with_overrides("[[bind]]\non = [\"ctrl-n\", \"j\"]\nrun = \"page_down\"\n")
                .unwrap();
        assert_eq!(
            keymap.action_for(&press(KeyCode::Char('j'), KeyModifiers::NONE)),
            Some(Action::PageDown)
        );
        assert_eq!(
            keymap.action_for(&press(KeyCode::Down, KeyModifiers::NONE)),
            Some(Action::Down)
        );
        assert_eq!(keymap.keys_for(Action::PageDown), "ctrl-n/j");
        assert_eq!(
            keymap.action_for(&press(KeyCode::Char('k'), KeyModifiers::NONE)),
            Some(Action::Up)
        );
    }

    #[test]
    fn bad_user_files_are_reported() {
        assert!(
            Keymap::with_overrides("[[bind]]\non = [\"x\"]\nrun = \"fly\"\n")
                .unwrap_err()
                .to_string()
                .contains("unknown action \"fly\"")
        );
        assert!(
            Keymap::with_overrides("[[bind]]\non = [\"hyper-x\"]\nrun = \"up\"\n")
                .unwrap_err()
                .to_string()
                .contains("is not a key")
        );
        assert!(Keymap::with_overrides("[[bind]\n").is_err());
    }
}
