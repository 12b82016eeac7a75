//! The shape of the code (ARCHITECTURE.md) that Cargo's dependency graph
//! does not check: which crates each crate may depend on (no terminal or
//! HTTP-server crate below the front ends), the order of the modules inside
//! each crate, the workbench's update and view never using each other, and
//! no two files using each other.

use std::path::{Path, PathBuf};

use crate::rust_uses;

use rust_uses::{
    FileGraph, SourceFile, absolute_path, crate_sources, module_paths, source, written_paths,
};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn crate_src(name: &str) -> PathBuf {
    root().join("crates").join(name).join("src")
}

/// The crates under `crates/`, bottom up, each with the crates it may
/// depend on (besides these, only crates.io crates).
const CRATES: [(&str, &[&str]); 6] = [
    ("precept-logic", &[]),
    ("precept-solver", &["precept-logic"]),
    ("precept-llm", &["precept-solver"]),
    ("precept-engine", &["precept-llm"]),
    ("precept-tui", &["precept-engine"]),
    ("precept-service", &["precept-engine"]),
];

/// Crates.io crates only a front end may use: the terminal and the HTTP
/// server.
const FRONT_END_CRATES: [&str; 7] = [
    "ratatui",
    "crossterm",
    "ratatui-textarea",
    "syntect",
    "axum",
    "tracing-subscriber",
    "clap",
];

/// The dependency names of a Cargo.toml's `[dependencies]` table.
fn dependencies(manifest: &str) -> Vec<String> {
    let mut inside = false;
    let mut names = Vec::new();
    for line in manifest.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            continue;
        }
        if inside && let Some((name, _)) = line.split_once(['=', '.']) {
            let name = name.trim();
            if !name.is_empty() && !name.starts_with('#') {
                names.push(name.to_string());
            }
        }
    }
    names
}

/// Each crate depends only on the crates below it that it may use, and no
/// crate under the front ends uses the terminal or the HTTP server.
#[test]
fn each_crate_depends_only_on_the_crates_it_may_use() {
    let internal: Vec<&str> = CRATES.iter().map(|(name, _)| *name).collect();
    let mut offenders = Vec::new();
    for (name, allowed) in CRATES {
        let manifest =
            std::fs::read_to_string(root().join("crates").join(name).join("Cargo.toml")).unwrap();
        for dependency in dependencies(&manifest) {
            if internal.contains(&dependency.as_str()) && !allowed.contains(&dependency.as_str()) {
                offenders.push(format!("{name} depends on {dependency}"));
            }
            let front_end = ["precept-tui", "precept-service"].contains(&name);
            let terminal = ["ratatui", "crossterm", "ratatui-textarea", "syntect"];
            if FRONT_END_CRATES.contains(&dependency.as_str())
                && !(name == "precept-tui" && terminal.contains(&dependency.as_str()))
                && !(name == "precept-service" && dependency == "axum")
                && !(front_end && dependency == "tracing-subscriber")
            {
                offenders.push(format!("{name} uses the front ends' {dependency}"));
            }
        }
    }
    assert!(offenders.is_empty(), "{}", offenders.join("\n"));
    assert_eq!(
        dependencies(
            "[package]\nname = \"x\"\n[dependencies]\nz3 = \"1\"\nserde.workspace = true\n[dev-dependencies]\ntempfile = \"3\"\n"
        ),
        ["z3", "serde"]
    );
}

/// The modules of each crate, in order: each may use only the ones before
/// it (ARCHITECTURE.md: the data path from the SMT-LIB fragment to the
/// definition pass; the workbench's folders from style to view). Each
/// crate's `error` gathers the errors of the modules before it (in the
/// workbench, those up to `effects`, and the one `update` refuses with).
/// A layer: its name and the top-level modules of the crate in it.
type Layer = (&'static str, &'static [&'static str]);

const LAYERS: [(&str, &[Layer]); 5] = [
    (
        "precept-logic",
        &[
            ("smt", &["smt"]),
            ("model", &["model"]),
            ("document", &["document"]),
            ("error", &["error"]),
        ],
    ),
    (
        "precept-solver",
        &[
            ("solve", &["solve"]),
            ("lint", &["lint"]),
            ("testgen", &["testgen", "test_runner"]),
            ("explain", &["explain"]),
            ("error", &["error"]),
        ],
    ),
    (
        "precept-llm",
        &[
            ("llm", &["llm"]),
            ("formalize", &["formalize"]),
            ("compose", &["compose"]),
            ("answer", &["answer"]),
            ("repair", &["repair"]),
            ("probe", &["probe"]),
            ("error", &["error"]),
        ],
    ),
    (
        "precept-engine",
        &[
            ("scheduler", &["scheduler"]),
            ("export", &["export"]),
            ("formats", &["formats"]),
            ("lifecycle", &["lifecycle"]),
            ("define", &["define"]),
            ("formalization", &["formalization"]),
            ("workspace", &["workspace"]),
            ("jobs", &["jobs"]),
            ("error", &["error"]),
        ],
    ),
    (
        "precept-tui",
        &[
            ("style", &["style"]),
            ("input", &["input"]),
            ("state", &["state"]),
            ("measure", &["measure"]),
            ("effects", &["effects"]),
            ("error", &["error"]),
            ("update", &["update"]),
            ("view", &["view"]),
        ],
    ),
];

/// The layer (index into `layers`) of a module path of a crate.
fn layer_of(layers: &[(&str, &[&str])], module: &[String]) -> Option<usize> {
    let part = module.first()?;
    layers
        .iter()
        .position(|(_, parts)| parts.contains(&part.as_str()))
}

/// Every use, in a file of a crate's layer, of a path into a layer further
/// down the list ("crates/precept-logic/src/model/x.rs:1: model uses
/// document").
fn upward_uses(krate: &str, sources: &[SourceFile], layers: &[(&str, &[&str])]) -> Vec<String> {
    let modules = module_paths(sources);
    let mut found = Vec::new();
    for file in sources {
        let Some(from) = layer_of(layers, &file.module) else {
            continue;
        };
        for path in written_paths(&file.code) {
            let Some(target) = absolute_path(&file.module, &path, &modules) else {
                continue;
            };
            if let Some(to) = layer_of(layers, &target)
                && to > from
            {
                found.push(format!(
                    "crates/{krate}/src/{}:{}: {} uses {}",
                    file.path, path.line, layers[from].0, layers[to].0
                ));
            }
        }
    }
    found
}

/// Every folder or file directly under a crate's `src/` belongs to a layer.
fn unlayered(krate: &str, layers: &[(&str, &[&str])]) -> Vec<String> {
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(crate_src(krate)).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let name = name.strip_suffix(".rs").unwrap_or(&name).to_string();
        if name != "lib" && layer_of(layers, std::slice::from_ref(&name)).is_none() {
            missing.push(format!("crates/{krate}/src/{name}"));
        }
    }
    missing
}

#[test]
fn each_crates_modules_only_use_the_ones_before_them() {
    for (krate, layers) in LAYERS {
        let sources = crate_sources(&crate_src(krate));
        assert!(sources.len() > 5, "crates/{krate}/src looks empty");
        let upward = upward_uses(krate, &sources, layers);
        assert!(
            upward.is_empty(),
            "imports that point up the module list:\n{}",
            upward.join("\n")
        );
        assert_eq!(unlayered(krate, layers), Vec::<String>::new());
    }
}

/// In the workbench, `update` (what keys and messages do) never uses `view`
/// (what is drawn), and `view` never uses `update`: both use the state and
/// the measuring below them.
#[test]
fn update_and_view_do_not_import_each_other() {
    let sources = crate_sources(&crate_src("precept-tui"));
    let modules = module_paths(&sources);
    let mut offenders = Vec::new();
    for (folder, forbidden) in [("update", "view"), ("view", "update")] {
        let files: Vec<&SourceFile> = sources
            .iter()
            .filter(|f| f.module.starts_with(&[folder.to_string()]))
            .collect();
        assert!(!files.is_empty(), "the workbench's {folder} is empty");
        for file in files {
            for path in written_paths(&file.code) {
                let target = absolute_path(&file.module, &path, &modules);
                if target.is_some_and(|t| t.starts_with(&[forbidden.into()])) {
                    offenders.push(format!(
                        "crates/precept-tui/src/{}:{}",
                        file.path, path.line
                    ));
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

/// No two files of a crate use each other, directly or through others.
#[test]
fn no_import_cycle_between_files() {
    let mut crates: Vec<PathBuf> = CRATES.iter().map(|(name, _)| crate_src(name)).collect();
    crates.push(root().join("src"));
    for src in crates {
        let sources = crate_sources(&src);
        let cycles = FileGraph::build(&sources).cycles();
        assert!(
            cycles.is_empty(),
            "files of {} that use each other:\n{}",
            src.display(),
            cycles
                .iter()
                .map(|c| c.join("\n  "))
                .collect::<Vec<_>>()
                .join("\n\n")
        );
    }
}

/// The checks themselves catch planted violations: an upward import (also
/// through `super::super::`, a group or a multi-line use tree, but not in a
/// comment or a string), update using view, and a cycle through a
/// re-export.
#[test]
fn the_checks_catch_planted_violations() {
    let logic = LAYERS[0].1;
    let planted = [
        source("smt/parser.rs", "use crate::model::PolicyModel;\n"),
        source(
            "model/history.rs",
            "fn f() { super::super::document::split(); } // crate::document\nconst S: &str = \"crate::document\";\n",
        ),
        source("document/split.rs", "use crate::model::PolicyModel;\n"),
        source(
            "model/mod.rs",
            "use crate::{\n    smt::Expr,\n    document::{Span, split},\n};\n",
        ),
    ];
    assert_eq!(
        upward_uses("precept-logic", &planted, logic),
        [
            "crates/precept-logic/src/smt/parser.rs:1: smt uses model",
            "crates/precept-logic/src/model/history.rs:1: model uses document",
            "crates/precept-logic/src/model/mod.rs:1: model uses document",
            "crates/precept-logic/src/model/mod.rs:1: model uses document",
        ]
    );
    let tui = [source("update/keys.rs", "use crate::view::render;\n")];
    assert_eq!(
        upward_uses("precept-tui", &tui, LAYERS[4].1),
        ["crates/precept-tui/src/update/keys.rs:1: update uses view"]
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

    // No cycle through a module another crate's lib.rs forwards: x.rs
    // names the other crate's `model`, not lib.rs, though lib.rs uses
    // error.rs, which uses x.rs.
    let forwarded = [
        source(
            "lib.rs",
            "pub use other::{document, model};\npub mod error;\npub mod x;\npub use error::Error;\n",
        ),
        source("error.rs", "use crate::x::XError;\npub enum Error {}\n"),
        source("x.rs", "use crate::model::Policy;\npub struct XError;\n"),
    ];
    assert!(FileGraph::build(&forwarded).cycles().is_empty());
    // Through one of the crate's own re-exports it is still a cycle.
    let own = [
        source(
            "lib.rs",
            "pub mod error;\npub mod x;\npub use error::Error;\n",
        ),
        source("error.rs", "use crate::x::XError;\npub enum Error {}\n"),
        source("x.rs", "use crate::Error;\npub struct XError;\n"),
    ];
    assert_eq!(FileGraph::build(&own).cycles().len(), 1);
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

/// The repository stands alone: nothing in `src/`, `crates/`, `tests/` or `benches/`
/// reads the reference folder that sits beside a developer's checkout (a
/// fresh clone has none). Test data lives in `tests/data/` with its licence.
#[test]
fn nothing_reads_the_folder_beside_the_checkout() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "crates", "tests", "benches"] {
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
