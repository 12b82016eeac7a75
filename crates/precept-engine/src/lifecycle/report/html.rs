//! The few HTML helpers the report is written with. Every piece of text
//! from the project (rule ids, descriptions, the document, reviewers'
//! notes) passes through [`esc`] before it reaches the page, so no text
//! can open a tag or an attribute.

use std::fmt::Write;

/// Text made safe for an element's content or a quoted attribute value.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// An `id` attribute value for a named thing (`rule-R3`): letters, digits,
/// `-` and `_` kept, anything else written as `.` and its code point, so
/// two different names never share an anchor.
pub fn anchor(prefix: &str, name: &str) -> String {
    let mut out = String::from(prefix);
    out.push('-');
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            out.push(c);
        } else {
            let _ = write!(out, ".{:x}", c as u32);
        }
    }
    out
}

/// A link to a rule's entry in the rules section.
pub fn rule_link(id: &str) -> String {
    format!(
        "<a href=\"#{}\" class=\"rule-ref\">{}</a>",
        anchor("rule", id),
        esc(id)
    )
}

/// A table with a header row; the cells are HTML already.
pub fn table(class: &str, header: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = format!("<table class=\"{}\"><thead><tr>", esc(class));
    for h in header {
        let _ = write!(out, "<th>{}</th>", esc(h));
    }
    out.push_str("</tr></thead><tbody>");
    for row in rows {
        out.push_str("<tr>");
        for cell in row {
            let _ = write!(out, "<td>{cell}</td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

/// A status word as a coloured badge (`ok`, `bad`, `warn`, `info`).
pub fn badge(kind: &str, text: &str) -> String {
    format!("<span class=\"badge {}\">{}</span>", esc(kind), esc(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_characters_are_escaped() {
        assert_eq!(
            esc("<script>alert('x') & \"y\"</script>"),
            "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;"
        );
    }

    #[test]
    fn anchors_keep_names_apart() {
        assert_eq!(anchor("rule", "R1"), "rule-R1");
        assert_ne!(anchor("rule", "a b"), anchor("rule", "a_b"));
        assert!(!anchor("rule", "\"><x").contains('"'));
    }
}
