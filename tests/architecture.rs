//! `src/core` knows nothing of the terminal: no file under it mentions a
//! terminal crate (DESIGN.md, "Core without a terminal").

use std::path::Path;

const TERMINAL_CRATES: [&str; 5] = [
    "ratatui",
    "crossterm",
    "ratatui_textarea",
    "tui_textarea",
    "syntect",
];

/// Every `file:line: code` of `files` whose code (comments left out)
/// matches `bad`.
fn lines_matching(files: &[std::path::PathBuf], bad: impl Fn(&str) -> bool) -> Vec<String> {
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        for (number, line) in text.lines().enumerate() {
            if bad(line.split("//").next().unwrap_or("")) {
                found.push(format!(
                    "{}:{}: {}",
                    file.display(),
                    number + 1,
                    line.trim()
                ));
            }
        }
    }
    found
}

fn rust_files(dir: &Path, found: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn core_never_uses_terminal_crates() {
    let mut files = Vec::new();
    rust_files(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core"),
        &mut files,
    );
    assert!(files.len() > 10, "src/core looks empty");
    let offenders = lines_matching(&files, |code| {
        TERMINAL_CRATES.iter().any(|krate| {
            code.contains(&format!("{krate}::"))
                || code.contains(&format!("use {krate}"))
                || code.contains(&format!("extern crate {krate}"))
        })
    });
    assert!(
        offenders.is_empty(),
        "src/core must not use terminal crates:\n{}",
        offenders.join("\n")
    );
}

/// The layers of `src/core`, in order: each may use only the layers above
/// it (ARCHITECTURE: the data path from the SMT-LIB fragment to the answer
/// verifier). A layer is one or more folders or files of `src/core`.
const CORE_LAYERS: [(&str, &[&str]); 12] = [
    ("smt", &["smt"]),
    ("model", &["model", "graph"]),
    ("solve", &["solve"]),
    ("lint", &["lint"]),
    ("testgen", &["testgen", "test_runner"]),
    ("llm", &["llm"]),
    ("document", &["document"]),
    ("formalize", &["formalize"]),
    ("compose", &["compose"]),
    ("answer", &["answer"]),
    ("repair", &["repair"]),
    ("export", &["export"]),
];

/// Upward uses that exist today and are still to be removed by the layout
/// work (each entry must still occur, so that the list only shrinks).
const KNOWN_UPWARD: [(&str, &str, &str); 0] = [];

/// The layer of a `src/core` folder or file name.
fn layer_of(part: &str) -> Option<usize> {
    CORE_LAYERS
        .iter()
        .position(|(_, parts)| parts.contains(&part))
}

/// Every (file, line, from layer, to layer) where a file of `src/core` uses
/// a path into another layer (`crate::core::x`, or `super::super::x` from a
/// file directly in a layer's folder). `files` are (path below src/core,
/// text).
fn core_uses(files: &[(String, String)]) -> Vec<(String, usize, usize, usize)> {
    let mut uses = Vec::new();
    for (path, text) in files {
        let mut parts = path.split('/');
        let first = parts.next().unwrap_or_default();
        let first = first.strip_suffix(".rs").unwrap_or(first);
        let Some(from) = layer_of(first) else {
            continue;
        };
        let depth = path.matches('/').count();
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            let mut targets: Vec<&str> = Vec::new();
            for (prefix, allowed) in [("crate::core::", true), ("super::super::", depth == 1)] {
                if !allowed {
                    continue;
                }
                let mut rest = code;
                while let Some(at) = rest.find(prefix) {
                    rest = &rest[at + prefix.len()..];
                    let name: &str = rest
                        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                        .next()
                        .unwrap_or("");
                    targets.push(name);
                }
            }
            for target in targets {
                if let Some(to) = layer_of(target)
                    && to != from
                {
                    uses.push((path.clone(), number + 1, from, to));
                }
            }
        }
    }
    uses
}

fn core_files() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    files
        .into_iter()
        .map(|p| {
            let relative = p
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (relative, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// The upward uses that are not known, and the known ones no longer found.
fn layering_problems(files: &[(String, String)]) -> (Vec<String>, Vec<String>) {
    let uses = core_uses(files);
    let name = |layer: usize| CORE_LAYERS[layer].0;
    let unknown = uses
        .iter()
        .filter(|(_, _, from, to)| to > from)
        .filter(|(_, _, from, to)| {
            !KNOWN_UPWARD
                .iter()
                .any(|(f, t, _)| *f == name(*from) && *t == name(*to))
        })
        .map(|(path, line, from, to)| {
            format!("src/core/{path}:{line}: {} uses {}", name(*from), name(*to))
        })
        .collect();
    let stale = KNOWN_UPWARD
        .iter()
        .filter(|(f, t, _)| {
            !uses
                .iter()
                .any(|(_, _, from, to)| name(*from) == *f && name(*to) == *t)
        })
        .map(|(f, t, why)| format!("{f} -> {t} ({why})"))
        .collect();
    (unknown, stale)
}

#[test]
fn core_layers_only_use_the_layers_above_them() {
    let files = core_files();
    let (unknown, stale) = layering_problems(&files);
    assert!(
        unknown.is_empty(),
        "imports that point up the layer list:\n{}",
        unknown.join("\n")
    );
    assert!(
        stale.is_empty(),
        "these known upward uses are gone: remove them from KNOWN_UPWARD:\n{}",
        stale.join("\n")
    );
}

/// The layering check itself catches a planted violation (the model using
/// the solver), and resolves `super::super::` paths.
#[test]
fn the_layering_check_catches_a_planted_violation() {
    let planted = vec![
        (
            "model/history.rs".to_string(),
            "use crate::core::solve::SolverWorker;\n".to_string(),
        ),
        (
            "smt/parser.rs".to_string(),
            "fn f() { super::super::formalize::run(); } // crate::core::llm in a comment\n"
                .to_string(),
        ),
        (
            "formalize/run.rs".to_string(),
            "use crate::core::model::PolicyModel;\n".to_string(),
        ),
    ];
    let (unknown, _) = layering_problems(&planted);
    assert_eq!(
        unknown,
        [
            "src/core/model/history.rs:1: model uses solve",
            "src/core/smt/parser.rs:1: smt uses formalize"
        ]
    );
    // Every folder of src/core belongs to a layer.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/core");
    for entry in std::fs::read_dir(&root).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let name = name.strip_suffix(".rs").unwrap_or(&name).to_string();
        assert!(
            name == "mod" || layer_of(&name).is_some(),
            "src/core/{name} is in no layer of CORE_LAYERS"
        );
    }
}

/// In the workbench, `update` (what keys and messages do) never uses the
/// components (what is drawn), and the components never use `update`: both
/// use the state, the queries and the text measuring below them.
#[test]
fn update_and_view_do_not_import_each_other() {
    let tui = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tui");
    let mut offenders = Vec::new();
    for (folder, forbidden) in [
        (
            "update",
            ["crate::tui::components", "super::super::components"],
        ),
        ("components", ["crate::tui::update", "super::super::update"]),
    ] {
        let mut files = Vec::new();
        rust_files(&tui.join(folder), &mut files);
        assert!(!files.is_empty(), "src/tui/{folder} is empty");
        offenders.extend(lines_matching(&files, |code| {
            forbidden.iter().any(|f| code.contains(f))
        }));
    }
    assert!(
        offenders.is_empty(),
        "update and view import each other:\n{}",
        offenders.join("\n")
    );
}
