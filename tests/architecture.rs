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
    let mut offenders = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (number, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for krate in TERMINAL_CRATES {
                if code.contains(&format!("{krate}::"))
                    || code.contains(&format!("use {krate}"))
                    || code.contains(&format!("extern crate {krate}"))
                {
                    offenders.push(format!(
                        "{}:{}: {}",
                        file.display(),
                        number + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "src/core must not use terminal crates:\n{}",
        offenders.join("\n")
    );
}
