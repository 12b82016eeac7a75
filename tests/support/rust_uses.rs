//! A small reader of this crate's own sources for the architecture tests:
//! which file uses which. It knows the module tree (`mod.rs`, `name.rs`),
//! reads `use` trees (groups, nesting, `self`, aliases, over several lines)
//! and inline `crate::`/`super::`/`self::` paths, and follows `pub use`
//! re-exports to the file that defines an item. Comments and string
//! literals are skipped. It is not a Rust parser: paths through macros or
//! `#[path]` attributes are not seen (the crate has none).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A source file: its module path (`["core", "model", "policy"]`, empty for
/// `lib.rs`) and its code with comments and string contents blanked.
pub struct SourceFile {
    pub path: String,
    pub module: Vec<String>,
    pub code: String,
}

/// Every `.rs` file under `src/` (relative paths like `core/model/edit.rs`),
/// or the given (path, text) pairs for a planted example.
pub fn crate_sources(root: &Path) -> Vec<SourceFile> {
    let mut found = Vec::new();
    walk(root, root, &mut found);
    found.sort_by(|a, b| a.path.cmp(&b.path));
    found
}

fn walk(root: &Path, dir: &Path, found: &mut Vec<SourceFile>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(root, &path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let relative = path.strip_prefix(root).unwrap().to_string_lossy();
            let text = std::fs::read_to_string(&path).unwrap();
            found.push(source(&relative.replace('\\', "/"), &text));
        }
    }
}

/// One file from its path below `src/` and its text.
pub fn source(path: &str, text: &str) -> SourceFile {
    let mut module: Vec<String> = path
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(
        module.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        module.pop();
    }
    SourceFile {
        path: path.to_string(),
        module,
        code: strip_comments_and_strings(text),
    }
}

/// The code with comments removed and string/char literal contents blanked
/// (newlines kept, so line numbers stay).
pub fn strip_comments_and_strings(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                if chars[i] == '\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && is_raw_start(&chars, i) {
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            j += 1;
            let closing: String = std::iter::once('"')
                .chain(std::iter::repeat_n('#', hashes))
                .collect();
            let closing: Vec<char> = closing.chars().collect();
            while j < chars.len() && !chars[j..].starts_with(&closing) {
                if chars[j] == '\n' {
                    out.push('\n');
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j + closing.len();
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                if chars.get(i) == Some(&'\n') {
                    out.push('\n');
                }
                i += 1;
            }
            out.push_str("\"\"");
            i += 1;
        } else if c == '\'' && is_char_literal(&chars, i) {
            let end = chars[i + 1..].iter().position(|&c| c == '\'').unwrap_or(0);
            out.push_str("' '");
            i += end + 2;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn is_raw_start(chars: &[char], at: usize) -> bool {
    let before_ok = at == 0 || !(chars[at - 1].is_alphanumeric() || chars[at - 1] == '_');
    let mut j = at + 1;
    while chars.get(j) == Some(&'#') {
        j += 1;
    }
    before_ok && chars.get(j) == Some(&'"')
}

/// `'a'`, `'\n'`, `'\''` but not a lifetime `'a`.
fn is_char_literal(chars: &[char], at: usize) -> bool {
    matches!(
        (chars.get(at + 1), chars.get(at + 2)),
        (Some('\\'), _) | (Some(_), Some('\''))
    )
}

/// A path as written, and the line it starts on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenPath {
    /// The inline modules (`mod tests { … }`) the path is written in.
    pub inner: Vec<String>,
    pub segments: Vec<String>,
    pub line: usize,
    /// Written in a `pub use` (a re-export).
    pub reexport: bool,
}

/// Every path of `code`: the leaves of each `use` tree and each inline
/// path (`a::b::c`, not preceded by `::`). Which of them stay in the crate
/// is decided later against the module tree.
pub fn written_paths(code: &str) -> Vec<WrittenPath> {
    let tokens = tokenize(code);
    let mut paths = Vec::new();
    // Inline modules open here: (name, brace depth inside them).
    let mut inner: Vec<(String, usize)> = Vec::new();
    let mut depth = 0;
    let mut i = 0;
    while i < tokens.len() {
        let (token, line) = &tokens[i];
        match token.as_str() {
            "{" => depth += 1,
            "}" => {
                if inner.last().is_some_and(|(_, d)| *d == depth) {
                    inner.pop();
                }
                depth = depth.saturating_sub(1);
            }
            "mod" if tokens.get(i + 2).is_some_and(|t| t.0 == "{") => {
                inner.push((tokens[i + 1].0.clone(), depth + 1));
            }
            _ => {}
        }
        let inside: Vec<String> = inner.iter().map(|(name, _)| name.clone()).collect();
        if token == "use" && (i == 0 || tokens[i - 1].0 != "::") {
            let reexport = i > 0 && tokens[i - 1].0 == "pub"
                || i > 3 && tokens[i - 1].0 == ")" && tokens[i - 4].0 == "pub";
            let mut leaves = Vec::new();
            i = use_tree(&tokens, i + 1, Vec::new(), &mut leaves);
            paths.extend(leaves.into_iter().map(|segments| WrittenPath {
                inner: inside.clone(),
                segments,
                line: *line,
                reexport,
            }));
            continue;
        }
        if is_ident(token)
            && tokens.get(i + 1).is_some_and(|t| t.0 == "::")
            && (i == 0 || tokens[i - 1].0 != "::")
        {
            let mut segments = vec![token.clone()];
            let mut j = i + 1;
            while tokens.get(j).is_some_and(|t| t.0 == "::")
                && tokens.get(j + 1).is_some_and(|t| is_ident(&t.0))
            {
                segments.push(tokens[j + 1].0.clone());
                j += 2;
            }
            paths.push(WrittenPath {
                inner: inside,
                segments,
                line: *line,
                reexport: false,
            });
            i = j;
            continue;
        }
        i += 1;
    }
    paths
}

/// Reads a use tree from `at`, pushing each leaf's full path; returns the
/// index after it.
fn use_tree(
    tokens: &[(String, usize)],
    mut at: usize,
    prefix: Vec<String>,
    leaves: &mut Vec<Vec<String>>,
) -> usize {
    let mut path = prefix;
    loop {
        let Some((token, _)) = tokens.get(at) else {
            return at;
        };
        match token.as_str() {
            "{" => {
                at += 1;
                loop {
                    at = use_tree(tokens, at, path.clone(), leaves);
                    match tokens.get(at).map(|t| t.0.as_str()) {
                        Some(",") => at += 1,
                        Some("}") => return at + 1,
                        _ => return at,
                    }
                    if tokens.get(at).is_some_and(|t| t.0 == "}") {
                        return at + 1;
                    }
                }
            }
            "::" => at += 1,
            "*" => {
                leaves.push(path);
                return at + 1;
            }
            "as" => at += 2,
            ";" | "," | "}" => {
                if !path.is_empty() {
                    if path.last().is_some_and(|s| s == "self") {
                        path.pop();
                    }
                    leaves.push(path);
                }
                return at;
            }
            name if is_ident(name) => {
                path.push(name.to_string());
                at += 1;
            }
            _ => return at + 1,
        }
    }
}

fn is_ident(token: &str) -> bool {
    token
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Identifiers and the punctuation a path needs, each with its line.
fn tokenize(code: &str) -> Vec<(String, usize)> {
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut chars = code.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c == '\n' {
            line += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let mut end = at + c.len_utf8();
            while let Some(&(i, d)) = chars.peek() {
                if d.is_alphanumeric() || d == '_' {
                    end = i + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            tokens.push((code[at..end].to_string(), line));
        } else if c == ':' && chars.peek().is_some_and(|&(_, d)| d == ':') {
            chars.next();
            tokens.push(("::".into(), line));
        } else if !c.is_whitespace() {
            tokens.push((c.to_string(), line));
        }
    }
    tokens
}

/// Which file uses which: an edge for every path that lands in another
/// file, following re-exports to the defining file. A path through a
/// re-export of another crate's item (`crate::model` in the solver, which
/// `lib.rs` forwards from the logic crate) names that crate, not the file
/// that forwards it.
pub struct FileGraph {
    pub files: Vec<String>,
    /// from → to → the first line of `from` that makes the edge.
    pub edges: BTreeMap<usize, BTreeMap<usize, usize>>,
}

/// Each file's module path, to the file's index.
pub fn module_paths(sources: &[SourceFile]) -> BTreeMap<Vec<String>, usize> {
    sources
        .iter()
        .enumerate()
        .map(|(i, s)| (s.module.clone(), i))
        .collect()
}

impl FileGraph {
    pub fn build(sources: &[SourceFile]) -> FileGraph {
        let by_module = module_paths(sources);
        let written: Vec<Vec<WrittenPath>> =
            sources.iter().map(|s| written_paths(&s.code)).collect();
        // Re-exports: (module, name) → the absolute path it stands for, and
        // the (module, name) re-exported from outside the crate.
        let mut reexports: BTreeMap<(Vec<String>, String), Vec<String>> = BTreeMap::new();
        let mut external: BTreeSet<(Vec<String>, String)> = BTreeSet::new();
        for (i, paths) in written.iter().enumerate() {
            for path in paths.iter().filter(|p| p.reexport) {
                match absolute_path(&sources[i].module, path, &by_module) {
                    Some(absolute) => {
                        if let Some(name) = absolute.last() {
                            reexports.insert((sources[i].module.clone(), name.clone()), absolute);
                        }
                    }
                    None => {
                        if let Some(name) = path.segments.last() {
                            external.insert((sources[i].module.clone(), name.clone()));
                        }
                    }
                }
            }
        }
        let forwarded = Forwarded {
            reexports: &reexports,
            external: &external,
        };
        let mut edges: BTreeMap<usize, BTreeMap<usize, usize>> = BTreeMap::new();
        for (from, paths) in written.iter().enumerate() {
            for path in paths {
                let Some(absolute) = absolute_path(&sources[from].module, path, &by_module) else {
                    continue;
                };
                if let Some(to) = defining_file(&absolute, &by_module, &forwarded, 0)
                    && to != from
                {
                    edges
                        .entry(from)
                        .or_default()
                        .entry(to)
                        .or_insert(path.line);
                }
            }
        }
        FileGraph {
            files: sources.iter().map(|s| s.path.clone()).collect(),
            edges,
        }
    }

    /// Every cycle as its files in order (one per strongly connected part
    /// with more than one file), each edge shown with the line making it.
    pub fn cycles(&self) -> Vec<Vec<String>> {
        let n = self.files.len();
        let mut index = vec![usize::MAX; n];
        let mut low = vec![0; n];
        let mut on_stack = vec![false; n];
        let mut stack = Vec::new();
        let mut counter = 0;
        let mut parts = Vec::new();
        for start in 0..n {
            if index[start] == usize::MAX {
                self.connect(
                    start,
                    &mut counter,
                    &mut index,
                    &mut low,
                    &mut on_stack,
                    &mut stack,
                    &mut parts,
                );
            }
        }
        parts
            .into_iter()
            .filter(|p: &Vec<usize>| p.len() > 1)
            .map(|part| self.describe(&part))
            .collect()
    }

    #[allow(clippy::too_many_arguments)]
    fn connect(
        &self,
        v: usize,
        counter: &mut usize,
        index: &mut [usize],
        low: &mut [usize],
        on_stack: &mut [bool],
        stack: &mut Vec<usize>,
        parts: &mut Vec<Vec<usize>>,
    ) {
        index[v] = *counter;
        low[v] = *counter;
        *counter += 1;
        stack.push(v);
        on_stack[v] = true;
        for &w in self.edges.get(&v).into_iter().flat_map(|e| e.keys()) {
            if index[w] == usize::MAX {
                self.connect(w, counter, index, low, on_stack, stack, parts);
                low[v] = low[v].min(low[w]);
            } else if on_stack[w] {
                low[v] = low[v].min(index[w]);
            }
        }
        if low[v] == index[v] {
            let mut part = Vec::new();
            while let Some(w) = stack.pop() {
                on_stack[w] = false;
                part.push(w);
                if w == v {
                    break;
                }
            }
            parts.push(part);
        }
    }

    /// The files of a strongly connected part, with each edge inside it.
    fn describe(&self, part: &[usize]) -> Vec<String> {
        let members: BTreeSet<usize> = part.iter().copied().collect();
        let mut lines = Vec::new();
        for &from in &members {
            for (&to, &line) in self.edges.get(&from).into_iter().flatten() {
                if members.contains(&to) {
                    lines.push(format!(
                        "{}:{} uses {}",
                        self.files[from], line, self.files[to]
                    ));
                }
            }
        }
        lines
    }
}

/// The path as an absolute module path (from the crate root, without
/// `crate`), or `None` when it leaves the crate (std, serde, …).
pub fn absolute_path(
    module: &[String],
    path: &WrittenPath,
    modules: &BTreeMap<Vec<String>, usize>,
) -> Option<Vec<String>> {
    let segments: &[String] = &path.segments;
    let mut base: Vec<String> = module.to_vec();
    base.extend(path.inner.iter().cloned());
    let mut rest = segments;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        Some("super") => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        Some(first) => {
            let mut child = base.clone();
            child.push(first.to_string());
            if !modules.contains_key(&child) {
                return None;
            }
        }
        None => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// A crate's re-exports: (module, name) → the absolute path it stands
/// for, and the (module, name) re-exported from another crate.
struct Forwarded<'a> {
    reexports: &'a BTreeMap<(Vec<String>, String), Vec<String>>,
    external: &'a BTreeSet<(Vec<String>, String)>,
}

/// The file that defines what `path` names: the deepest module file on the
/// path, or, when the next name is a re-export there, where it leads
/// (None when it leads out of the crate).
fn defining_file(
    path: &[String],
    modules: &BTreeMap<Vec<String>, usize>,
    forwarded: &Forwarded<'_>,
    depth: usize,
) -> Option<usize> {
    let deepest = (0..=path.len())
        .rev()
        .find(|&k| modules.contains_key(&path[..k]))?;
    let module = &path[..deepest];
    if let Some(name) = path.get(deepest) {
        let key = (module.to_vec(), name.clone());
        if forwarded.external.contains(&key) {
            return None;
        }
        if depth < 8
            && let Some(target) = forwarded.reexports.get(&key)
            && target.as_slice() != path
        {
            return defining_file(target, modules, forwarded, depth + 1);
        }
    }
    modules.get(module).copied()
}
