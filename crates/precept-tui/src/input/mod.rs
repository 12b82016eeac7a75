//! Keys as data (`keymap`, with the defaults in `default_keymap.toml`) and
//! the rule editor's text buffer (`editor`).

pub mod editor;
pub mod keymap;
