//! Themes are data (`themes/*.toml`): components ask for semantic styles
//! (`theme.border(focused)`), never build colours themselves.

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;
use std::collections::BTreeMap;

pub const BUILT_IN: [(&str, &str); 2] = [
    ("dark", include_str!("../../../../themes/dark.toml")),
    ("light", include_str!("../../../../themes/light.toml")),
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    #[serde(default)]
    name: String,
    /// A user theme may start from a built-in one and change single colours.
    #[serde(default)]
    base: Option<String>,
    #[serde(default)]
    colors: BTreeMap<String, String>,
}

/// The kind of token the SMT-LIB highlighter found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Syntax {
    Keyword,
    Number,
    Symbol,
    Value,
    Paren,
    Comment,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub name: String,
    colors: BTreeMap<String, Color>,
}

const COLOR_NAMES: [&str; 20] = [
    "background",
    "text",
    "dim",
    "accent",
    "border",
    "border_focused",
    "selected_bg",
    "selected_fg",
    "pass",
    "fail",
    "pending",
    "error",
    "span_highlight_bg",
    "uncovered",
    "emphasis",
    "keyword",
    "number",
    "symbol",
    "value",
    "paren",
];

fn parse_color(text: &str) -> Option<Color> {
    text.parse::<Color>().ok()
}

/// Why a theme file cannot be used: the key at fault and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum ThemeError {
    #[error(transparent)]
    Toml(#[from] toml::de::Error),
    #[error("base = \"{0}\": no such built-in theme (dark, light)")]
    UnknownBase(String),
    #[error("colors.{key}: unknown colour name; expected one of {}", COLOR_NAMES.join(", "))]
    UnknownColourName { key: String },
    #[error("colors.{key}: expected \"#rrggbb\" or a colour name, found \"{value}\"")]
    BadColour { key: String, value: String },
    #[error("colors.{0} is missing")]
    MissingColour(&'static str),
}

impl Theme {
    /// A built-in theme by name.
    pub fn built_in(name: &str) -> Option<Theme> {
        let (_, text) = BUILT_IN.iter().find(|(n, _)| *n == name)?;
        Theme::from_toml(text, None).ok()
    }

    /// Reads a theme file. `base` supplies colours the file leaves out.
    pub fn from_toml(text: &str, base: Option<&Theme>) -> Result<Theme, ThemeError> {
        let file: ThemeFile = toml::from_str(text)?;
        let start = match (&file.base, base) {
            (Some(name), _) => {
                Some(Theme::built_in(name).ok_or_else(|| ThemeError::UnknownBase(name.clone()))?)
            }
            (None, Some(theme)) => Some(theme.clone()),
            (None, None) => None,
        };
        let mut colors = start.map(|t| t.colors).unwrap_or_default();
        for (key, value) in &file.colors {
            if !COLOR_NAMES.contains(&key.as_str()) {
                return Err(ThemeError::UnknownColourName { key: key.clone() });
            }
            let color = parse_color(value).ok_or_else(|| ThemeError::BadColour {
                key: key.clone(),
                value: value.clone(),
            })?;
            colors.insert(key.clone(), color);
        }
        if let Some(missing) = COLOR_NAMES.iter().find(|n| !colors.contains_key(**n)) {
            return Err(ThemeError::MissingColour(missing));
        }
        Ok(Theme {
            name: if file.name.is_empty() {
                "custom".into()
            } else {
                file.name
            },
            colors,
        })
    }

    fn color(&self, name: &str) -> Color {
        self.colors.get(name).copied().unwrap_or(Color::Reset)
    }

    fn fg(&self, name: &str) -> Style {
        Style::default().fg(self.color(name))
    }

    /// The frame's base style: the theme's own background and text colour,
    /// painted under everything so the theme reads the same on any terminal.
    pub fn base(&self) -> Style {
        Style::default()
            .bg(self.color("background"))
            .fg(self.color("text"))
    }
    pub fn background(&self) -> Color {
        self.color("background")
    }
    /// Every background colour the theme paints: the base, the selection and
    /// the highlighted span.
    pub fn backgrounds(&self) -> [Color; 3] {
        [
            self.color("background"),
            self.color("selected_bg"),
            self.color("span_highlight_bg"),
        ]
    }
    pub fn text(&self) -> Style {
        self.fg("text")
    }
    pub fn dim(&self) -> Style {
        self.fg("dim")
    }
    pub fn accent(&self) -> Style {
        self.fg("accent")
    }
    pub fn title(&self, focused: bool) -> Style {
        if focused {
            self.fg("border_focused").add_modifier(Modifier::BOLD)
        } else {
            self.fg("dim")
        }
    }
    pub fn border(&self, focused: bool) -> Style {
        if focused {
            self.fg("border_focused")
        } else {
            self.fg("border")
        }
    }
    pub fn selected(&self) -> Style {
        Style::default()
            .bg(self.color("selected_bg"))
            .fg(self.color("selected_fg"))
            .add_modifier(Modifier::BOLD)
    }
    pub fn pass(&self) -> Style {
        self.fg("pass")
    }
    pub fn fail(&self) -> Style {
        self.fg("fail").add_modifier(Modifier::BOLD)
    }
    pub fn pending(&self) -> Style {
        self.fg("pending")
    }
    pub fn error(&self) -> Style {
        self.fg("error")
    }
    /// The document span of the selected rule.
    pub fn span_highlight(&self) -> Style {
        Style::default().bg(self.color("span_highlight_bg"))
    }
    /// Document spans that no rule formalizes.
    pub fn uncovered(&self) -> Style {
        self.fg("uncovered")
    }
    /// Values that differ between scenarios, flipped tests.
    pub fn emphasis(&self) -> Style {
        self.fg("emphasis").add_modifier(Modifier::BOLD)
    }
    pub fn syntax(&self, kind: Syntax) -> Style {
        match kind {
            Syntax::Keyword => self.fg("keyword"),
            Syntax::Number => self.fg("number"),
            Syntax::Symbol => self.fg("symbol"),
            Syntax::Value => self.fg("value"),
            Syntax::Paren => self.fg("paren"),
            Syntax::Comment => self.fg("dim").add_modifier(Modifier::ITALIC),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_themes_define_every_colour() {
        for (name, _) in BUILT_IN {
            let theme = Theme::built_in(name).expect(name);
            assert_eq!(theme.name, name);
        }
    }

    #[test]
    fn every_built_in_theme_paints_its_own_background() {
        let dark = Theme::built_in("dark").unwrap();
        let light = Theme::built_in("light").unwrap();
        assert_eq!(dark.base().bg, Some(Color::Rgb(0x1e, 0x21, 0x27)));
        assert_eq!(light.base().bg, Some(Color::Rgb(0xff, 0xff, 0xff)));
        assert_eq!(light.base().fg, light.text().fg);
        let error =
            Theme::from_toml("name = \"bare\"\n[colors]\ntext = \"red\"\n", None).unwrap_err();
        assert_eq!(error.to_string(), "colors.background is missing");
    }

    #[test]
    fn a_user_theme_overrides_single_colours_of_a_base() {
        let theme = Theme::from_toml(
            "base = \"dark\"\nname = \"mine\"\n[colors]\nfail = \"#ff0000\"\n",
            None,
        )
        .unwrap();
        assert_eq!(theme.fail().fg, Some(Color::Rgb(255, 0, 0)));
        assert_eq!(theme.pass(), Theme::built_in("dark").unwrap().pass());
    }

    #[test]
    fn bad_theme_files_say_what_is_wrong() {
        let error = Theme::from_toml("base = \"dark\"\n[colors]\nfail = \"blurple\"\n", None)
            .unwrap_err()
            .to_string();
        assert!(error.contains("colors.fail"), "{error}");
        let error = Theme::from_toml("base = \"dark\"\n[colors]\nfial = \"red\"\n", None)
            .unwrap_err()
            .to_string();
        assert!(error.contains("unknown colour name"), "{error}");
    }
}
