//! Why a correction of the vocabulary (a merge, split or rename, or a
//! consolidation link) does not fit the model; the model is left as it was.

/// Why a vocabulary correction was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CorrectionError {
    #[error("there is no variable '{0}'")]
    NoVariable(String),
    #[error("'{0}' cannot be merged into itself")]
    MergeIntoItself(String),
    #[error("'{from}' is {from_sort} and '{into}' is {into_sort}: a merge never changes a type")]
    TypesDiffer {
        from: String,
        from_sort: String,
        into: String,
        into_sort: String,
    },
    #[error("'{0}' has no cluster in the formalization record")]
    NoCluster(String),
    #[error("'{0}' stands for one unit variable: nothing to split")]
    NothingToSplit(String),
    #[error("'{name}' has no member {member}")]
    NoMember { name: String, member: String },
    #[error("'{0}' is not a usable variable name")]
    BadName(String),
    #[error("'{0}' is already in use")]
    NameTaken(String),
    #[error("'{name}' is {sort}, not Bool")]
    NotBool { name: String, sort: String },
    /// A text from the LLM (a reason, a description) that cannot be kept.
    #[error("{what} {problem}")]
    BadText { what: String, problem: String },
    /// A link that does not say anything (a variable its own negation).
    #[error("{0}")]
    EmptyLink(String),
    /// A one-of group that is not one.
    #[error("{0}")]
    BadGroup(String),
    #[error("{rule}: {message}")]
    RuleDoesNotParse { rule: String, message: String },
}
