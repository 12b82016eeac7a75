//! The bundle's `README.md`: what a reviewer is looking at, in plain words.

use std::fmt::Write;

/// The figures the README quotes.
pub struct ReadmeFacts<'a> {
    pub title: &'a str,
    pub rules: usize,
    pub tests: usize,
    pub queries: usize,
    pub whole_model_queries: bool,
    /// What `model.smt2` must answer (None: the solver could not tell).
    pub model_answer: Option<&'a str>,
    pub source_document: Option<&'a str>,
}

pub fn readme_text(facts: &ReadmeFacts) -> String {
    let mut out = String::new();
    let title = if facts.title.is_empty() {
        "a policy model"
    } else {
        facts.title
    };
    let _ = writeln!(out, "# Audit bundle: {title}\n");
    out.push_str(
        "This folder lets you check, with any SMT solver and without Precept, what \
         Precept says about a policy model and its tests.\n\n## What is here\n\n",
    );
    let verdict = match facts.model_answer {
        Some("sat") => "A solver must answer `sat`: the rules can all hold at once.",
        Some(_) => {
            "A solver must answer `unsat`: the rules contradict each other, \
             whatever the facts."
        }
        None => "The solver could not tell whether the rules can all hold at once.",
    };
    let _ = writeln!(
        out,
        "- `model.smt2`: the whole model in SMT-LIB, {} rule(s), each a named \
         assertion whose name is the rule's id. {verdict}",
        facts.rules
    );
    if let Some(document) = facts.source_document {
        let _ = writeln!(
            out,
            "- `{document}`: the policy document the rules were written from."
        );
    }
    let _ = writeln!(
        out,
        "- `queries/`: {} solver question(s) behind the findings of {} test(s). \
         Each file ends in `(check-sat)`, and its first lines say what it asks \
         and the answer expected (`sat` or `unsat`).",
        facts.queries, facts.tests
    );
    out.push_str(
        "- `manifest.json`: the SHA-256 of every file, the versions of Precept and \
         of the solver that produced the findings, each test's expected and actual \
         finding with its queries, and the review status of every rule \
         (`approved`, `needs_change` or `unreviewed`).\n\
         - `recheck.sh`: runs `z3`, and `cvc5` if it is installed, over every query, \
         compares the answers with the manifest and checks every hash.\n\n",
    );
    out.push_str(
        "## How a finding becomes queries\n\n\
         For a test with premise P and claim C over the rules M:\n\n\
         - `*.premise.smt2` asks M and P. `unsat` means the premise is IMPOSSIBLE \
         under the rules.\n\
         - `*.not-claim.smt2` asks M, P and not C. `unsat` means the claim follows: VALID.\n\
         - `*.claim.smt2` asks M, P and C. `unsat` means the claim is refuted: INVALID.\n\
         - When all three are `sat`, the finding is SATISFIABLE: it depends on facts \
         the premise leaves open.\n\
         - `*.evidence.smt2` (VALID, INVALID, IMPOSSIBLE) asks the same question \
         with only the rules Precept cites as its evidence. `unsat` shows that \
         those rules alone suffice, so the evidence is checked, not only the verdict.\n\n",
    );
    if facts.whole_model_queries {
        out.push_str(
            "Every query carries all the rules (the model is not known to be \
             consistent, so no rule may be left out).\n\n",
        );
    } else {
        out.push_str(
            "To stay small, a query carries only the rules that share variables, \
             directly or through other rules, with its premise and claim. This is \
             sound because `model.smt2` is `sat`: the rules left out mention none \
             of the query's variables, and they can all be satisfied at the same \
             time, so adding them cannot change the answer.\n\n",
        );
    }
    out.push_str(
        "## How to re-check\n\n\
         Run `sh recheck.sh` in this folder with `z3` on your PATH (and `cvc5` if \
         you have it). It prints a `FAIL` line naming every file that was changed \
         or whose answer disagrees, and exits 1; it exits 0 when everything agrees.\n\n\
         A bundle can be forged as a whole, so compare the SHA-256 of \
         `manifest.json` that `recheck.sh` prints with the one published with \
         the bundle.\n\n\
         ## What a solver cannot re-check\n\n\
         Whether the rules say what the document means is for a person to judge: \
         read each rule (its id is its name in `model.smt2`) next to the document. \
         Findings a solver did not decide (TOO_COMPLEX), and the translation of \
         answers from words into formulas by a language model, have no queries; \
         the manifest notes them.\n",
    );
    out
}
