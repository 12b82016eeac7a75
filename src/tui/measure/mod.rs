//! Where things are on screen (`layout`) and how wide text is (`text`):
//! update needs both for page sizes and scrolling, view for drawing, so
//! they live here, below both.

pub mod layout;
pub mod text;
