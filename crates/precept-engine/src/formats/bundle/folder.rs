//! Writing a bundle folder whole or not at all: every file goes into a
//! temporary sibling folder, which is renamed to the bundle's name at the end.

use super::query::Answer;
use std::path::{Path, PathBuf};

/// Why a bundle could not be written.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error("{path}: {message}")]
    Io { path: PathBuf, message: String },
}

/// Writes `files` (path inside the folder, bytes) as the folder `out`. An
/// existing `out` must be empty; it is never partly overwritten.
pub fn write_folder(
    out: &Path,
    files: &[(String, Vec<u8>, Option<Answer>)],
) -> Result<(), BundleError> {
    let io = |path: &Path, e: std::io::Error| BundleError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    if out.exists() {
        let empty = out.is_dir()
            && std::fs::read_dir(out)
                .map_err(|e| io(out, e))?
                .next()
                .is_none();
        if !empty {
            return Err(BundleError::Io {
                path: out.to_path_buf(),
                message: "already exists and is not an empty folder; refusing to overwrite it"
                    .into(),
            });
        }
    }
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "bundle".into());
    let temp = parent.join(format!(".{name}.{}.partial", std::process::id()));
    let written = write_all(&temp, files);
    let placed = written.and_then(|()| {
        if out.exists() {
            std::fs::remove_dir(out).map_err(|e| io(out, e))?;
        }
        std::fs::rename(&temp, out).map_err(|e| io(out, e))
    });
    if placed.is_err() {
        let _ = std::fs::remove_dir_all(&temp);
    }
    placed
}

fn write_all(dir: &Path, files: &[(String, Vec<u8>, Option<Answer>)]) -> Result<(), BundleError> {
    let io = |path: &Path, e: std::io::Error| BundleError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    std::fs::create_dir_all(dir).map_err(|e| io(dir, e))?;
    for (file, bytes, _) in files {
        let path = dir.join(file);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).map_err(|e| io(folder, e))?;
        }
        std::fs::write(&path, bytes).map_err(|e| io(&path, e))?;
        #[cfg(unix)]
        if file.ends_with(".sh") {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
                .map_err(|e| io(&path, e))?;
        }
    }
    Ok(())
}
