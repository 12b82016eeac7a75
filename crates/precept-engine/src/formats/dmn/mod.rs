//! DMN 1.1–1.5 decision models: decision tables and literal-expression
//! decisions read into a policy model, and the TCK's test cases into logic
//! tests.
//!
//! - `xml`: reading the file (size cap, no DTDs) into `definitions`
//! - `feel_lexer`, `feel_cursor`, `feel_unary`, `feel_expression`: the FEEL subset
//! - `names`, `vocabulary`: DMN names as symbols, variables and enums
//! - `terms`, `cells`: literals and expressions as terms, cells as conditions
//! - `table_columns`: a table's columns and cells, read and typed
//! - `hit_policy`: rows as rules, per hit policy
//! - `import`: the whole model; `tck`: the test cases

pub mod cells;
pub mod definitions;
pub mod error;
pub mod feel_cursor;
pub mod feel_expression;
pub mod feel_lexer;
pub mod feel_unary;
pub mod hit_policy;
pub mod import;
pub mod names;
pub mod table_columns;
pub mod tck;
pub mod terms;
pub mod vocabulary;
pub mod xml;

pub use error::{DmnError, Place};
pub use import::{DmnModel, import_dmn};
pub use tck::import_test_cases;
pub use xml::{MAX_XML_BYTES, read_capped};
