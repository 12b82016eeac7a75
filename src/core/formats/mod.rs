//! Formats other tools speak: Amazon Bedrock's Automated Reasoning policy
//! JSON, and the audit bundle any SMT solver can re-check.

pub mod arc_policy;

pub mod bundle;
