//! The "why" overlay: the derivation chain of a test's finding (or of a
//! value the consultant's facts force), step by step, each step tied to its
//! rules and the sentence of the policy they formalize.

use crate::state::list_cursor::ListCursor;
use precept_engine::explain::{Ask, Chain};
use precept_engine::solve::FindingKind;
use precept_engine::workspace::JobId;

/// What the overlay explains.
#[derive(Debug, Clone, PartialEq)]
pub enum WhySubject {
    /// A test's actual finding (and, when it fails, the expected one).
    Test { id: String, expected: FindingKind },
    /// A value the consultant's facts force.
    Forced { variable: String },
}

/// Where a failing test's expected and actual findings part ways.
#[derive(Debug, Clone, PartialEq)]
pub enum Parting {
    /// Index of the first step after which the chain's conclusion already
    /// follows, so the expected finding no longer can.
    AtStep(usize),
    /// Said plainly: why the point cannot be located.
    Unlocated(String),
}

/// What came back.
#[derive(Debug, Clone, PartialEq)]
pub enum WhyContent {
    /// The solver is still working.
    Working,
    Chain(Chain),
    /// No chain: why not, and for a SATISFIABLE finding the inputs that
    /// would decide it.
    NoChain {
        reason: String,
        ask: Vec<Ask>,
    },
    Failed(String),
}

#[derive(Debug, Clone, PartialEq)]
pub struct WhyState {
    pub subject: WhySubject,
    /// The finding the chain explains (None while working, or for a forced value).
    pub actual: Option<FindingKind>,
    pub content: WhyContent,
    pub parting: Option<Parting>,
    /// The selected step.
    pub cursor: ListCursor,
    pub job: JobId,
}

impl WhyState {
    pub fn new(subject: WhySubject, job: JobId) -> WhyState {
        WhyState {
            subject,
            actual: None,
            content: WhyContent::Working,
            parting: None,
            cursor: ListCursor::default(),
            job,
        }
    }

    pub fn chain(&self) -> Option<&Chain> {
        match &self.content {
            WhyContent::Chain(chain) => Some(chain),
            _ => None,
        }
    }

    /// The overlay's title: what is explained.
    pub fn title(&self) -> String {
        match &self.subject {
            WhySubject::Test { id, .. } => match self.actual {
                Some(kind) => format!("Why {id} is {}", kind.name()),
                None => format!("Why {id}"),
            },
            WhySubject::Forced { variable } => format!("Why {variable} is forced"),
        }
    }

    /// The file the Markdown goes to, relative to the project folder.
    pub fn markdown_path(&self) -> String {
        let stem = match &self.subject {
            WhySubject::Test { id, .. } => id.clone(),
            WhySubject::Forced { variable } => format!("forced-{variable}"),
        };
        let safe: String = stem
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        format!("explain/{safe}.md")
    }
}
