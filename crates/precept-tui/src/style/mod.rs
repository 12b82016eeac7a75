//! How things look: colour themes (`theme`) and SMT-LIB highlighting
//! (`highlight`).

pub mod highlight;
pub mod theme;
