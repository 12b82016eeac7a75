//! `manifest.json`: what the bundle claims, file by file. Every entry of an
//! array sits on one line, so `recheck.sh` can read it with `sed` alone.

use serde::Serialize;
use sha2::{Digest, Sha256};
use std::fmt::Write;

/// The SHA-256 of `bytes`, in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for byte in digest {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

/// One file of the bundle; a query carries the answer a solver must give.
#[derive(Debug, Clone, Serialize)]
pub struct FileEntry {
    pub file: String,
    pub sha256: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<&'static str>,
}

/// A rule and where the expert stands on it.
#[derive(Debug, Clone, Serialize)]
pub struct RuleEntry {
    pub id: String,
    pub review: &'static str,
    pub expression: String,
}

/// A test: what the expert expects, what Precept found, and the queries
/// behind the finding.
#[derive(Debug, Clone, Serialize)]
pub struct TestEntry {
    pub id: String,
    pub name: String,
    /// `logic test` or `answer check`.
    pub kind: &'static str,
    pub expected: String,
    pub actual: Option<String>,
    pub queries: Vec<String>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// Where the source document is, by name and hash.
#[derive(Debug, Clone, Serialize)]
pub struct SourceEntry {
    pub file: String,
    pub sha256: String,
}

/// The whole manifest.
#[derive(Debug, Clone)]
pub struct Manifest {
    pub precept_version: String,
    pub solver: String,
    pub source_document: Option<SourceEntry>,
    /// Whether the rules are consistent (None: the solver could not tell).
    pub model_consistent: Option<bool>,
    pub rules: Vec<RuleEntry>,
    pub tests: Vec<TestEntry>,
    pub files: Vec<FileEntry>,
}

impl Manifest {
    /// Pretty JSON with one array entry per line, ending in a newline.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\n  \"bundle_format\": 1,\n");
        let _ = writeln!(
            out,
            "  \"precept_version\": {},\n  \"solver\": {},",
            json(&self.precept_version),
            json(&self.solver)
        );
        let _ = writeln!(
            out,
            "  \"source_document\": {},\n  \"model_consistent\": {},",
            json(&self.source_document),
            json(&self.model_consistent)
        );
        lines(&mut out, "rules", &self.rules, true);
        lines(&mut out, "tests", &self.tests, true);
        lines(&mut out, "files", &self.files, false);
        out.push_str("}\n");
        out
    }
}

fn json(value: &impl Serialize) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "null".into())
}

fn lines<T: Serialize>(out: &mut String, key: &str, items: &[T], comma: bool) {
    let _ = writeln!(out, "  \"{key}\": [");
    for (i, item) in items.iter().enumerate() {
        let separator = if i + 1 < items.len() { "," } else { "" };
        let _ = writeln!(out, "    {}{separator}", json(item));
    }
    let _ = writeln!(out, "  ]{}", if comma { "," } else { "" });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_are_the_standard_sha256() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn the_manifest_is_json_with_one_file_per_line() {
        let manifest = Manifest {
            precept_version: "0.1.0".into(),
            solver: "Z3".into(),
            source_document: None,
            model_consistent: Some(true),
            rules: vec![],
            tests: vec![],
            files: vec![
                FileEntry {
                    file: "model.smt2".into(),
                    sha256: "00".into(),
                    expected: Some("sat"),
                },
                FileEntry {
                    file: "README.md".into(),
                    sha256: "11".into(),
                    expected: None,
                },
            ],
        };
        let text = manifest.to_json();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["files"][0]["expected"], "sat");
        assert!(
            text.lines()
                .any(|l| l == r#"    {"file":"model.smt2","sha256":"00","expected":"sat"},"#),
            "{text}"
        );
    }
}
