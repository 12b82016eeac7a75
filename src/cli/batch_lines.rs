//! The files of `precept check-answers`: the input lines (`{"id",
//! "question", "answer"}`, a bad one reported with its line number), and
//! the results file, whose ids a resumed run skips.

use serde::Deserialize;
use serde_json::Value;
use std::collections::HashSet;
use std::io::Write;
use std::path::Path;

/// One answer to check, from line `line` of the input.
#[derive(Debug, Clone)]
pub struct BatchItem {
    pub line: usize,
    /// The id as JSON (a string or a number).
    pub id: Value,
    pub question: String,
    pub answer: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Line {
    id: Value,
    #[serde(default)]
    question: String,
    answer: String,
}

/// The key an id is known by: its JSON text.
pub fn id_key(id: &Value) -> String {
    id.to_string()
}

/// The input's items and its bad lines ("FILE:LINE: what was wrong").
pub fn read_items(path: &Path) -> Result<(Vec<BatchItem>, Vec<String>), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    let mut items = Vec::new();
    let mut bad = Vec::new();
    let mut seen = HashSet::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let parsed: Line = match serde_json::from_str(raw) {
            Ok(parsed) => parsed,
            Err(e) => {
                bad.push(format!(
                    "{}:{line}: expected {{\"id\", \"question\", \"answer\"}}: {e}",
                    path.display()
                ));
                continue;
            }
        };
        let problem = if !(parsed.id.is_string() || parsed.id.is_number()) {
            Some("expected the id to be a string or a number".to_string())
        } else if parsed.answer.trim().is_empty() {
            Some("expected an answer to check, found nothing".to_string())
        } else if !seen.insert(id_key(&parsed.id)) {
            Some(format!("the id {} is used by an earlier line", parsed.id))
        } else {
            None
        };
        match problem {
            Some(problem) => bad.push(format!("{}:{line}: {problem}", path.display())),
            None => items.push(BatchItem {
                line,
                id: parsed.id,
                question: parsed.question,
                answer: parsed.answer,
            }),
        }
    }
    Ok((items, bad))
}

/// The ids already in a results file. A last line cut short (the run was
/// killed while writing it) is cut off the file, so the answer is checked
/// again and the file stays one JSON object a line.
pub fn finished_ids(path: &Path) -> Result<HashSet<String>, String> {
    let mut ids = HashSet::new();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ids),
        Err(e) => return Err(format!("{}: cannot read: {e}", path.display())),
    };
    let complete = match text.rfind('\n') {
        Some(end) => end + 1,
        None => 0,
    };
    if complete < text.len() {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{}: cannot open: {e}", path.display()))?;
        file.set_len(complete as u64).map_err(|e| {
            format!(
                "{}: cannot cut the unfinished last line: {e}",
                path.display()
            )
        })?;
    }
    for (index, raw) in text[..complete].lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let value: Value = serde_json::from_str(raw).map_err(|e| {
            format!(
                "{}:{}: expected a result line (JSON with an id): {e}",
                path.display(),
                index + 1
            )
        })?;
        let id = value.get("id").ok_or_else(|| {
            format!(
                "{}:{}: expected a result line with an \"id\"",
                path.display(),
                index + 1
            )
        })?;
        ids.insert(id_key(id));
    }
    Ok(ids)
}

/// Appends one result line in a single write, and flushes it.
pub fn append_line(out: &mut std::fs::File, value: &Value) -> std::io::Result<()> {
    let mut line = value.to_string();
    line.push('\n');
    out.write_all(line.as_bytes())?;
    out.flush()
}
