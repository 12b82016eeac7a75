//! Amazon Bedrock Automated Reasoning policy definitions: `version`, `types`,
//! `variables`, `rules` (with ids and alternate expressions), and ARC's test
//! cases (`testCases`), read into a project and written back from one.

pub mod definition;
pub mod read;
pub mod write;

pub use definition::{ArcPolicy, looks_like_arc_policy};
pub use read::{ArcImport, ArcImportError, ArcProblem, read_arc_policy};
pub use write::{ArcExport, ArcLimits, ArcSource, write_arc_policy};
