//! How `precept probe` writes its report: text for the terminal, Markdown
//! for `--report` (the failures with their proved chains and sources) and
//! JUnit XML for `--junit` (one test case per answer judged).

use precept_engine::probe::Verdict;
use precept_engine::probe::rates::{Breakdown, Rate};
use precept_engine::probe::report::ProbeReport;
use std::collections::BTreeMap;
use std::fmt::Write;

fn rate_text(rate: &Rate) -> String {
    format!(
        "{}/{} = {:.1}% (95% CI {:.1}–{:.1}%)",
        rate.count,
        rate.of,
        rate.rate * 100.0,
        rate.low * 100.0,
        rate.high * 100.0
    )
}

/// The report for the terminal.
pub fn text(report: &ProbeReport) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "asked {} answer(s); {} question(s) discarded by the round trip",
        report.asked, report.discarded
    );
    let _ = writeln!(
        out,
        "hallucination  {}",
        rate_text(&report.rates.hallucination)
    );
    let _ = writeln!(
        out,
        "incomplete     {}",
        rate_text(&report.rates.incomplete)
    );
    let _ = writeln!(
        out,
        "inconsistent   {}",
        rate_text(&report.rates.inconsistent)
    );
    for request in &report.requests {
        let _ = writeln!(
            out,
            "requests to {} ({}): {} sent, {} from the cache",
            request.role, request.profile, request.sent, request.cached
        );
    }
    breakdown_text(&mut out, "by rule", &report.by_rule);
    breakdown_text(&mut out, "by kind", &report.by_kind);
    let failures = report.failures();
    if !failures.is_empty() {
        let _ = writeln!(out, "failures:");
    }
    for (result, follow_up) in failures {
        match follow_up {
            None => {
                let _ = writeln!(
                    out,
                    "  {} [{}] {}: {} (expected {})",
                    result.id, result.kind, result.verdict, result.detail, result.expected
                );
            }
            Some(index) => {
                let f = &result.follow_ups[index];
                let _ = writeln!(
                    out,
                    "  {} follow-up {}: {} (asked \"{}\", replied \"{}\")",
                    result.id,
                    index + 1,
                    f.verdict,
                    f.question,
                    f.answer.trim()
                );
            }
        }
    }
    if let Some(reason) = &report.stopped {
        let _ = writeln!(out, "stopped early: {reason}");
    }
    out
}

fn breakdown_text(out: &mut String, title: &str, groups: &BTreeMap<String, Breakdown>) {
    let failing: Vec<_> = groups
        .iter()
        .filter(|(_, b)| b.hallucination.count + b.incomplete.count + b.inconsistent.count > 0)
        .collect();
    if failing.is_empty() {
        return;
    }
    let _ = writeln!(out, "{title}:");
    for (key, b) in failing {
        let _ = writeln!(
            out,
            "  {key}: {} asked, {} hallucination, {} incomplete, {} inconsistent",
            b.asked, b.hallucination.count, b.incomplete.count, b.inconsistent.count
        );
    }
}

/// The Markdown report.
pub fn markdown(report: &ProbeReport) -> String {
    let mut out = String::from("# Chatbot probe\n\n");
    let _ = writeln!(
        out,
        "{} answer(s) judged, {} question(s) discarded by the round trip.\n",
        report.asked, report.discarded
    );
    out.push_str("| rate | share (95% Wilson interval) |\n|---|---|\n");
    for (name, rate) in [
        ("hallucination", &report.rates.hallucination),
        ("incomplete", &report.rates.incomplete),
        ("inconsistent", &report.rates.inconsistent),
    ] {
        let _ = writeln!(out, "| {name} | {} |", rate_text(rate));
    }
    for (title, groups) in [("By rule", &report.by_rule), ("By kind", &report.by_kind)] {
        let _ = writeln!(
            out,
            "\n## {title}\n\n| | asked | hallucination | incomplete | inconsistent |\n|---|---|---|---|---|"
        );
        for (key, b) in groups {
            let _ = writeln!(
                out,
                "| {key} | {} | {} | {} | {} |",
                b.asked, b.hallucination.count, b.incomplete.count, b.inconsistent.count
            );
        }
    }
    out.push_str("\n## Requests\n\n");
    for request in &report.requests {
        let _ = writeln!(
            out,
            "- {} (`{}`): {} sent, {} from the cache",
            request.role, request.profile, request.sent, request.cached
        );
    }
    out.push_str("\n## Failures\n");
    for result in &report.results {
        let failing_follow_up = result
            .follow_ups
            .iter()
            .any(|f| f.verdict != Verdict::Correct);
        if result.verdict == Verdict::Correct && !failing_follow_up {
            continue;
        }
        let _ = writeln!(
            out,
            "\n### {} ({}, {})\n\n- **question:** {}\n- **answer:** {}\n- **expected:** {}\n- **finding:** {}\n- **why:** {}\n- **rules:** {}",
            result.id,
            result.kind,
            result.verdict,
            result.question,
            result.answer.trim(),
            result.expected,
            result.finding,
            result.detail,
            result.rules.join(", ")
        );
        if !result.chain.is_empty() {
            out.push_str("- **proved chain:**\n");
            for (index, step) in result.chain.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "  {}. {} ({}){}",
                    index + 1,
                    step.english,
                    step.rules.join(", "),
                    if step.source.is_empty() {
                        String::new()
                    } else {
                        format!(" — “{}”", step.source)
                    }
                );
            }
        }
        if !result.sources.is_empty() {
            out.push_str("- **source sentences:**\n");
            for sentence in &result.sources {
                let _ = writeln!(out, "  - “{sentence}”");
            }
        }
        for f in &result.follow_ups {
            let _ = writeln!(
                out,
                "- **follow-up ({}):** asked “{}”, replied “{}” ({})",
                f.verdict,
                f.question,
                f.answer.trim(),
                f.detail
            );
        }
    }
    if let Some(reason) = &report.stopped {
        let _ = writeln!(out, "\nThe run stopped early: {reason}");
    }
    out
}

/// JUnit XML: one test case per answer (follow-ups included); anything
/// but a correct answer is a failure.
pub fn junit_xml(suite: &str, report: &ProbeReport) -> String {
    let failures = report.failures().len();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        xml,
        "<testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\">",
        escape(suite),
        report.asked
    );
    let mut case = |name: String, verdict: Verdict, message: String| {
        let _ = write!(
            xml,
            "  <testcase classname=\"{}\" name=\"{}\"",
            escape(suite),
            escape(&name)
        );
        if verdict == Verdict::Correct {
            xml.push_str("/>\n");
        } else {
            let _ = writeln!(
                xml,
                ">\n    <failure message=\"{}: {}\"/>\n  </testcase>",
                verdict,
                escape(&message)
            );
        }
    };
    for result in &report.results {
        case(
            format!("{} ({}): {}", result.id, result.kind, result.question),
            result.verdict,
            result.detail.clone(),
        );
        for (index, f) in result.follow_ups.iter().enumerate() {
            case(
                format!("{} follow-up {}: {}", result.id, index + 1, f.question),
                f.verdict,
                f.detail.clone(),
            );
        }
    }
    xml.push_str("</testsuite>\n");
    xml
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
