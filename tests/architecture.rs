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
const CORE_LAYERS: [(&str, &[&str]); 16] = [
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
