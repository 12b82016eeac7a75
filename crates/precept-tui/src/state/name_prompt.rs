//! The one-line name prompt over the screen: renaming or merging a
//! cluster's variable, naming a saved test.

use ratatui_textarea::TextArea;

/// A one-line text prompt over the screen (rename, merge target).
pub struct NamePrompt {
    pub purpose: NamePurpose,
    pub input: TextArea<'static>,
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NamePurpose {
    /// Rename the cluster's variable.
    Rename { variable: String },
    /// Merge this variable into the one typed.
    MergeInto { variable: String },
    /// Name the verify question saved as a test expecting `expected`.
    SaveTest {
        expected: precept_engine::solve::FindingKind,
        natural_language: bool,
    },
}

impl NamePrompt {
    pub fn new(purpose: NamePurpose, placeholder: &str, initial: &str) -> NamePrompt {
        let mut input = TextArea::from([initial.to_string()]);
        input.set_placeholder_text(placeholder);
        input.move_cursor(ratatui_textarea::CursorMove::End);
        NamePrompt {
            purpose,
            input,
            error: None,
        }
    }

    pub fn text(&self) -> String {
        self.input.lines().join("").trim().to_string()
    }
}
