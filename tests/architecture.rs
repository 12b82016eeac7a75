//! The shape of the code (ARCHITECTURE.md): `src/core` knows nothing of the
//! terminal, the layers of `src/core` and the folders of `src/tui` each use
//! only the ones above them, update and view never use each other, and no
//! two files use each other.

use std::path::Path;

#[path = "support/rust_uses.rs"]
mod rust_uses;

use rust_uses::{
    FileGraph, SourceFile, absolute_path, crate_sources, module_paths, source, written_paths,
};

const TERMINAL_CRATES: [&str; 5] = [
    "ratatui",
    "crossterm",
    "ratatui_textarea",
    "tui_textarea",
    "syntect",
];

/// Every use of a terminal crate in a file of `src/core` ("src/core/x.rs:3").
fn terminal_uses(sources: &[SourceFile]) -> Vec<String> {
    let mut offenders = Vec::new();
    for file in sources
        .iter()
        .filter(|f| f.module.first().is_some_and(|m| m == "core"))
    {
        for path in written_paths(&file.code) {
            if TERMINAL_CRATES.contains(&path.segments[0].as_str()) {
                offenders.push(format!("src/{}:{}", file.path, path.line));
            }
        }
        for (number, line) in file.code.lines().enumerate() {
            if TERMINAL_CRATES
                .iter()
                .any(|krate| line.contains(&format!("extern crate {krate}")))
            {
                offenders.push(format!("src/{}:{}", file.path, number + 1));
            }
        }
    }
    offenders
}

#[test]
fn core_never_uses_terminal_crates() {
    let sources = crate_sources(&src());
    let core = sources
        .iter()
        .filter(|f| f.module.first().is_some_and(|m| m == "core"));
    assert!(core.count() > 10, "src/core looks empty");
    let offenders = terminal_uses(&sources);
    assert!(
        offenders.is_empty(),
        "src/core must not use terminal crates:\n{}",
        offenders.join("\n")
    );
}

/// The layers of `src/core`, in order: each may use only the layers above
/// it (ARCHITECTURE.md: the data path from the SMT-LIB fragment to export).
/// A layer is one or more folders or files of `src/core`.
const CORE_LAYERS: [(&str, &[&str]); 17] = [
    ("smt", &["smt"]),
    ("model", &["model"]),
    ("solve", &["solve"]),
    ("lint", &["lint"]),
    ("testgen", &["testgen", "test_runner"]),
    ("explain", &["explain"]),
    ("llm", &["llm"]),
    ("document", &["document"]),
    ("formalize", &["formalize"]),
    ("compose", &["compose"]),
    ("answer", &["answer"]),
    ("repair", &["repair"]),
    ("probe", &["probe"]),
    ("export", &["export"]),
    ("formats", &["formats"]),
    ("lifecycle", &["lifecycle"]),
    ("define", &["define"]),
];

/// The folders of `src/tui`, in the same sense (`tui/mod.rs`, the loop,
/// sits on top of all of them).
const TUI_LAYERS: [(&str, &[&str]); 7] = [
    ("style", &["style"]),
    ("input", &["input"]),
    ("state", &["state"]),
    ("measure", &["measure"]),
    ("effects", &["effects"]),
    ("update", &["update"]),
    ("view", &["view"]),
];

fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The layer (index into `layers`) of a module path below `root`.
fn layer_of(layers: &[(&str, &[&str])], root: &str, module: &[String]) -> Option<usize> {
    if module.first().map(String::as_str) != Some(root) {
        return None;
    }
    let part = module.get(1)?;
    layers
        .iter()
        .position(|(_, parts)| parts.contains(&part.as_str()))
}

/// Every use, in a file of a layer below `root`, of a path into a layer
/// further down the list ("src/core/model/history.rs:1: model uses solve").
fn upward_uses(sources: &[SourceFile], layers: &[(&str, &[&str])], root: &str) -> Vec<String> {
    let modules = module_paths(sources);
    let mut found = Vec::new();
    for file in sources {
        let Some(from) = layer_of(layers, root, &file.module) else {
            continue;
        };
        for path in written_paths(&file.code) {
            let Some(target) = absolute_path(&file.module, &path, &modules) else {
                continue;
            };
            if let Some(to) = layer_of(layers, root, &target)
                && to > from
            {
                found.push(format!(
                    "src/{}:{}: {} uses {}",
                    file.path, path.line, layers[from].0, layers[to].0
                ));
            }
        }
    }
    found
}

/// Every folder or file directly under `src/{root}` belongs to a layer.
fn unlayered(layers: &[(&str, &[&str])], root: &str) -> Vec<String> {
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(src().join(root)).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let name = name.strip_suffix(".rs").unwrap_or(&name).to_string();
        let module = [root.to_string(), name.clone()];
        if name != "mod" && layer_of(layers, root, &module).is_none() {
            missing.push(format!("src/{root}/{name}"));
        }
    }
    missing
}

#[test]
fn core_layers_only_use_the_layers_above_them() {
    let sources = crate_sources(&src());
    let upward = upward_uses(&sources, &CORE_LAYERS, "core");
    assert!(
        upward.is_empty(),
        "imports that point up the layer list:\n{}",
        upward.join("\n")
    );
    assert_eq!(unlayered(&CORE_LAYERS, "core"), Vec::<String>::new());
}

#[test]
fn workbench_folders_only_use_the_folders_above_them() {
    let sources = crate_sources(&src());
    let upward = upward_uses(&sources, &TUI_LAYERS, "tui");
    assert!(
        upward.is_empty(),
        "imports that point up the workbench's folders:\n{}",
        upward.join("\n")
    );
    assert_eq!(unlayered(&TUI_LAYERS, "tui"), Vec::<String>::new());
}

/// In the workbench, `update` (what keys and messages do) never uses `view`
/// (what is drawn), and `view` never uses `update`: both use the state and
/// the measuring below them.
#[test]
fn update_and_view_do_not_import_each_other() {
    let sources = crate_sources(&src());
    let modules = module_paths(&sources);
    let mut offenders = Vec::new();
    for (folder, forbidden) in [("update", "view"), ("view", "update")] {
        let files: Vec<&SourceFile> = sources
            .iter()
            .filter(|f| {
                f.module
                    .starts_with(&["tui".to_string(), folder.to_string()])
            })
            .collect();
        assert!(!files.is_empty(), "src/tui/{folder} is empty");
        for file in files {
            for path in written_paths(&file.code) {
                let target = absolute_path(&file.module, &path, &modules);
                if target.is_some_and(|t| t.starts_with(&["tui".into(), forbidden.into()])) {
                    offenders.push(format!("src/{}:{}", file.path, path.line));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "update and view import each other:\n{}",
        offenders.join("\n")
    );
}

/// What each top-level part of the crate may use: the core nothing but
/// itself, the service only the core (never the terminal front ends).
const FRONT_ENDS: [(&str, &[&str]); 2] = [("core", &["core"]), ("service", &["core", "service"])];

/// Every use, in a file of a top-level part of `FRONT_ENDS`, of a path into
/// a part it may not use ("src/service/x.rs:3: service uses tui").
fn front_end_uses(sources: &[SourceFile]) -> Vec<String> {
    let modules = module_paths(sources);
    let mut found = Vec::new();
    for file in sources {
        let Some((part, allowed)) = FRONT_ENDS
            .iter()
            .find(|(part, _)| file.module.first().is_some_and(|m| m == part))
        else {
            continue;
        };
        for path in written_paths(&file.code) {
            let Some(target) = absolute_path(&file.module, &path, &modules) else {
                continue;
            };
            if let Some(top) = target.first()
                && ["core", "service", "cli", "tui"].contains(&top.as_str())
                && !allowed.contains(&top.as_str())
            {
                found.push(format!(
                    "src/{}:{}: {part} uses {top}",
                    file.path, path.line
                ));
            }
        }
    }
    found
}

#[test]
fn the_service_uses_only_the_core_and_the_core_uses_no_front_end() {
    let sources = crate_sources(&src());
    assert!(
        sources
            .iter()
            .filter(|f| f.module.first().is_some_and(|m| m == "service"))
            .count()
            > 5,
        "src/service looks empty"
    );
    let offenders = front_end_uses(&sources);
    assert!(
        offenders.is_empty(),
        "imports across the crate's parts:\n{}",
        offenders.join("\n")
    );
    let planted = [
        source("service/router.rs", "use crate::tui::run;\n"),
        source("service/state.rs", "use crate::cli::common::Failure;\n"),
        source("core/model/x.rs", "use crate::service::ServeOptions;\n"),
        source("tui/mod.rs", "pub fn run() {}\n"),
        source("cli/common.rs", "pub struct Failure;\n"),
        source("service/mod.rs", "pub struct ServeOptions;\n"),
        source("core/mod.rs", "pub mod model;\n"),
    ];
    assert_eq!(
        front_end_uses(&planted),
        vec![
            "src/service/router.rs:1: service uses tui",
            "src/service/state.rs:1: service uses cli",
            "src/core/model/x.rs:1: core uses service",
        ]
    );
}

/// No two files of the crate use each other, directly or through others.
#[test]
fn no_import_cycle_between_files() {
    let sources = crate_sources(&src());
    assert!(sources.len() > 100, "src looks empty");
    let cycles = FileGraph::build(&sources).cycles();
    assert!(
        cycles.is_empty(),
        "files that use each other:\n{}",
        cycles
            .iter()
            .map(|c| c.join("\n  "))
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

/// The checks themselves catch planted violations: a terminal crate in the
/// core (not in a comment), an upward import (also
/// through `super::super::`, a group or a multi-line use tree, but not in a
/// comment or a string), update using view, and a cycle through a
/// re-export.
#[test]
fn the_checks_catch_planted_violations() {
    let planted = [
        source(
            "core/model/history.rs",
            "use crate::core::solve::SolverWorker;\n",
        ),
        source(
            "core/smt/parser.rs",
            "fn f() { super::super::formalize::run(); } // crate::core::llm\nconst S: &str = \"crate::core::llm\";\n",
        ),
        source(
            "core/formalize/run.rs",
            "use crate::core::model::PolicyModel;\n",
        ),
        source(
            "core/lint/mod.rs",
            "use crate::core::{\n    smt::Expr,\n    answer::{AnswerReport, eval},\n};\n",
        ),
    ];
    assert_eq!(
        upward_uses(&planted, &CORE_LAYERS, "core"),
        [
            "src/core/model/history.rs:1: model uses solve",
            "src/core/smt/parser.rs:1: smt uses formalize",
            "src/core/lint/mod.rs:1: lint uses answer",
            "src/core/lint/mod.rs:1: lint uses answer",
        ]
    );
    let tui = [source(
        "tui/update/keys.rs",
        "use crate::tui::view::render;\n",
    )];
    assert_eq!(
        upward_uses(&tui, &TUI_LAYERS, "tui"),
        ["src/tui/update/keys.rs:1: update uses view"]
    );

    // A cycle through a re-export: a.rs uses the item b.rs defines (named
    // through the folder's mod.rs), and b.rs uses a.rs.
    let cyclic = [
        source("lib.rs", "pub mod x;\n"),
        source("x/mod.rs", "mod a;\nmod b;\npub use b::Thing;\n"),
        source("x/a.rs", "use super::Thing;\npub fn helper() {}\n"),
        source(
            "x/b.rs",
            "pub struct Thing;\nfn f() { super::a::helper() }\n",
        ),
        source("x/c.rs", "use crate::x::Thing;\n"),
    ];
    let cycles = FileGraph::build(&cyclic).cycles();
    assert_eq!(
        cycles,
        [vec![
            "x/a.rs:1 uses x/b.rs".to_string(),
            "x/b.rs:2 uses x/a.rs".to_string()
        ]]
    );
}

/// The folder beside a checkout that the project's reference material sits
/// in; built from pieces so this file does not name it itself.
fn beside_the_checkout() -> String {
    ["..", "shared"].join("/")
}

/// Every place in `text` that reaches for the folder beside the checkout,
/// written as one path or joined piece by piece ("file:line").
fn shared_folder_mentions(path: &str, text: &str) -> Vec<String> {
    let pattern = beside_the_checkout();
    let joined = ["join(\"..\")", "join(\"shared\")"].concat();
    let lines: Vec<&str> = text.lines().collect();
    let mut offenders = Vec::new();
    let squeeze = |text: String| -> String {
        text.split_whitespace()
            .collect::<String>()
            .replace(".join", "join")
    };
    for (index, line) in lines.iter().enumerate() {
        // This line and the next, so a join split over two lines is seen
        // once, on the line where it starts.
        let here = squeeze(line.to_string());
        let window = squeeze(lines[index..(index + 2).min(lines.len())].concat());
        let joined_here = window.find(&joined).is_some_and(|at| at < here.len());
        if line.contains(&pattern) || joined_here {
            offenders.push(format!("{path}:{}", index + 1));
        }
    }
    offenders.dedup();
    offenders
}

/// Every text file under `dir`, with its path relative to the repository.
fn text_files(root: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            text_files(root, &path, out);
        } else if let Ok(text) = std::fs::read_to_string(&path) {
            let relative = path.strip_prefix(root).unwrap().display().to_string();
            out.push((relative, text));
        }
    }
}

/// The repository stands alone: nothing in `src/`, `tests/` or `benches/`
/// reads the reference folder that sits beside a developer's checkout (a
/// fresh clone has none). Test data lives in `tests/data/` with its licence.
#[test]
fn nothing_reads_the_folder_beside_the_checkout() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches"] {
        text_files(root, &root.join(dir), &mut files);
    }
    assert!(files.len() > 100, "src, tests and benches look empty");
    let offenders: Vec<String> = files
        .iter()
        .flat_map(|(path, text)| shared_folder_mentions(path, text))
        .collect();
    assert!(
        offenders.is_empty(),
        "files naming {} (copy what a test needs into tests/data/):\n{}",
        beside_the_checkout(),
        offenders.join("\n")
    );

    // Planted: a path written whole, one joined piece by piece over two
    // lines, and a harmless mention of the word.
    let planted = [
        (
            "tests/a.rs",
            format!("let p = \"{}/data/x\";\n", beside_the_checkout()),
        ),
        (
            "tests/b.rs",
            "let p = root\n    .join(\"..\")\n    .join(\"shared\")\n    .join(\"data\");\n"
                .to_string(),
        ),
        (
            "src/c.rs",
            "// rules sharing variables; \"shared\" mode\n".to_string(),
        ),
    ];
    let found: Vec<String> = planted
        .iter()
        .flat_map(|(path, text)| shared_folder_mentions(path, text))
        .collect();
    assert_eq!(found, ["tests/a.rs:1", "tests/b.rs:2"]);
}
