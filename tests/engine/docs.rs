//! The docs that are generated, kept in step: the workbench's key table
//! (docs/workbench.md) is the keymap the help overlay shows, and the
//! command reference (docs/cli.md) is each command's `--help` as clap
//! renders it. Run with UPDATE_DOCS=1 (`UPDATE_DOCS=1 cargo test --test engine docs::`) to
//! rewrite them after a change.

use clap::CommandFactory;
use precept::cli::Cli;
use precept::tui::input::keymap::Keymap;
use std::path::{Path, PathBuf};

fn doc(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("docs")
        .join(name)
}

/// Checks (or with UPDATE_DOCS=1 rewrites) the text between `<!-- KEY:begin
/// -->` and `<!-- KEY:end -->` in `file`.
fn generated_part(file: &str, key: &str, generated: &str) {
    let path = doc(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = (
        format!("<!-- {key}:begin -->\n"),
        format!("<!-- {key}:end -->"),
    );
    let start = text
        .find(&begin)
        .unwrap_or_else(|| panic!("{file} has no {begin}"))
        + begin.len();
    let stop = text
        .find(&end)
        .unwrap_or_else(|| panic!("{file} has no {end}"));
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let updated = format!("{}{generated}{}", &text[..start], &text[stop..]);
        std::fs::write(&path, updated).unwrap();
        return;
    }
    assert_eq!(
        &text[start..stop],
        generated,
        "docs/{file} is stale: run UPDATE_DOCS=1 cargo test --test engine docs::"
    );
}

#[test]
fn the_workbench_key_table_is_the_keymap() {
    generated_part("workbench.md", "keys", &Keymap::default().markdown_table());
}

/// Each command's long help, in the order `precept --help` lists them.
fn command_reference() -> String {
    let mut cli = Cli::command().name("precept").bin_name("precept");
    cli.build();
    let mut text = String::new();
    for command in cli.get_subcommands() {
        let name = command.get_name();
        if name == "help" {
            continue;
        }
        let mut command = command.clone().bin_name(format!("precept {name}"));
        let help = command.render_long_help().to_string();
        let help: Vec<&str> = help.lines().map(str::trim_end).collect();
        text.push_str(&format!(
            "### precept {name}\n\n```text\n{}\n```\n\n",
            help.join("\n").trim_end()
        ));
    }
    text
}

#[test]
fn the_command_reference_is_each_commands_help() {
    let reference = command_reference();
    assert!(reference.contains("### precept verify"), "{reference}");
    assert!(reference.contains("--strict"), "{reference}");
    generated_part("cli.md", "commands", &reference);
}
