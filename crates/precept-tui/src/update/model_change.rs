//! The end of every edit that changes the model's declarations or many
//! rules at once (a variable, a type, a lint fix, a consolidation, a
//! definition): the caches built again, the model saved, and on a change
//! of names or types the solver reloaded and every test rerun.

use super::runs::start_full_run;
use crate::state::app::App;
use crate::state::msg::Effect;

/// After a variable or type edit: save; a change of names or types reloads
/// the solver and reruns everything, a description change reruns nothing.
pub(super) fn finish_declaration_edit(
    app: &mut App,
    label: String,
    declarations_changed: bool,
) -> Vec<Effect> {
    app.recompile();
    super::navigation::rescroll(app);
    let mut effects = vec![Effect::SaveModel(Box::new(app.ws.model.clone()))];
    if declarations_changed {
        effects.push(Effect::LoadSolver(Box::new(app.ws.compiled.clone())));
        effects.push(start_full_run(app));
    }
    app.status.message = Some(label);
    effects
}
