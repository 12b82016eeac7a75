//! Formats other tools speak: Amazon Bedrock's Automated Reasoning policy
//! JSON, DMN decision tables read into Precept's model and tests, and the
//! audit bundle any SMT solver can re-check.

pub mod arc_policy;
pub mod bundle;
pub mod dmn;
