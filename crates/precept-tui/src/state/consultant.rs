//! The verify screen's consultant mode (after IDP-Z3's Interactive
//! Consultant): the expert sets facts one by one on the model's input
//! variables, and the screen shows live what they force, which inputs are
//! still open (the irrelevant ones greyed) and which questions are worth
//! asking next.

use crate::state::list_cursor::ListCursor;
use precept_engine::explain::Explanation;
use precept_engine::workspace::JobId;
use ratatui_textarea::TextArea;

/// Ticks (about 100 ms each) before "working…" is shown.
pub const WORKING_AFTER_TICKS: u64 = 2;

/// One fact: an input variable and its value, written in SMT-LIB
/// (an enum value, `true`, `35.4`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    pub variable: String,
    pub value: String,
}

impl Fact {
    /// The fact as an SMT-LIB formula.
    pub fn formula(&self) -> String {
        match self.value.as_str() {
            "true" => self.variable.clone(),
            "false" => format!("(not {})", self.variable),
            value => format!("(= {} {value})", self.variable),
        }
    }
}

/// The facts as one premise (`true` when there are none).
pub fn premise_text(facts: &[Fact]) -> String {
    match facts {
        [] => "true".into(),
        [one] => one.formula(),
        many => format!(
            "(and {})",
            many.iter().map(Fact::formula).collect::<Vec<_>>().join(" ")
        ),
    }
}

/// Choosing the value of one input.
pub enum ValueEntry {
    /// One of an enumeration's values.
    Choice {
        variable: String,
        values: Vec<String>,
        cursor: usize,
    },
    /// A number, typed.
    Number {
        variable: String,
        input: Box<TextArea<'static>>,
        error: Option<String>,
    },
}

/// Which of the consultant's two lists has the keyboard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ConsultantFocus {
    #[default]
    Inputs,
    Forced,
}

#[derive(Default)]
pub struct Consultant {
    /// The model's input variables (no rule defines them), in declaration order.
    pub inputs: Vec<String>,
    /// What a fact can be set on: the inputs, then every variable a rule
    /// defines (on a draft the expert may know what a rule would decide; a
    /// fact there is an assumption the rules must agree with).
    pub variables: Vec<String>,
    pub facts: Vec<Fact>,
    pub input_cursor: ListCursor,
    pub forced_cursor: ListCursor,
    pub focus: ConsultantFocus,
    pub entry: Option<ValueEntry>,
    /// The claim the relevance is worked out for (the logic mode's claim,
    /// when it checks), as written.
    pub claim: Option<String>,
    /// The newest request; older replies are dropped.
    pub job: JobId,
    pub running: bool,
    /// The tick the newest request started at (for "working…").
    pub started: u64,
    pub explanation: Option<Explanation>,
    /// Why the facts could not be asked (they do not check).
    pub error: Option<String>,
    /// The model's revision the answer describes: an edit, undo or redo
    /// that changes the model asks again.
    pub model: u64,
    /// The history's change count last looked at (the revision is compared
    /// only when it moves).
    pub seen_changes: u64,
}

impl Consultant {
    pub fn fact_of(&self, variable: &str) -> Option<&Fact> {
        self.facts.iter().find(|f| f.variable == variable)
    }

    pub fn selected_input(&self) -> Option<&str> {
        self.variables
            .get(self.input_cursor.selected)
            .map(String::as_str)
    }

    /// Whether `variable` is one a rule defines (a fact on it is assumed).
    pub fn is_derived(&self, variable: &str) -> bool {
        !self.inputs.iter().any(|i| i == variable)
    }
}
