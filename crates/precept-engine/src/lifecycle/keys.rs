//! The reviewer's Ed25519 key: made by `precept keygen` in the user's
//! config folder (`PRECEPT_CONFIG_DIR` overrides it), read by `precept
//! sign`. The file holds the 32-byte secret as hex; only its owner may read
//! it.

use super::LifecycleError;
use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use std::path::{Path, PathBuf};

pub const KEY_FILE: &str = "signing-key.ed25519";

/// Where the key lives in `config_dir`.
pub fn key_path(config_dir: &Path) -> PathBuf {
    config_dir.join(KEY_FILE)
}

/// Lowercase hex of bytes.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes of hex text, or None when it is not an even run of hex digits.
pub fn from_hex(text: &str) -> Option<Vec<u8>> {
    let text = text.trim();
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

/// The key of a 32-byte secret.
pub fn signing_key(secret: &[u8; 32]) -> SigningKey {
    SigningKey::from_bytes(secret)
}

/// The public key (hex) of a signing key.
pub fn public_hex(key: &SigningKey) -> String {
    to_hex(key.verifying_key().as_bytes())
}

/// Signs `message`; the signature as hex.
pub fn sign_hex(key: &SigningKey, message: &[u8]) -> String {
    to_hex(&key.sign(message).to_bytes())
}

/// Whether `signature` (hex) is `public_key`'s (hex) signature of `message`.
pub fn verify_hex(public_key: &str, message: &[u8], signature: &str) -> bool {
    let (Some(public), Some(signature)) = (from_hex(public_key), from_hex(signature)) else {
        return false;
    };
    let (Ok(public), Ok(signature)) = (
        <[u8; 32]>::try_from(public.as_slice()),
        <[u8; 64]>::try_from(signature.as_slice()),
    ) else {
        return false;
    };
    let Ok(public) = VerifyingKey::from_bytes(&public) else {
        return false;
    };
    public
        .verify(message, &Signature::from_bytes(&signature))
        .is_ok()
}

/// Makes a new key in `config_dir` from the system's randomness; an
/// existing key is never overwritten.
pub fn generate(config_dir: &Path) -> Result<SigningKey, LifecycleError> {
    let path = key_path(config_dir);
    if path.exists() {
        return Err(LifecycleError::file(
            &path,
            "a signing key already exists here; it is kept (move it away first to make a new one)",
        ));
    }
    let mut secret = [0u8; 32];
    let mut random = std::fs::File::open("/dev/urandom")
        .map_err(|e| LifecycleError::file(Path::new("/dev/urandom"), e.to_string()))?;
    std::io::Read::read_exact(&mut random, &mut secret)
        .map_err(|e| LifecycleError::file(Path::new("/dev/urandom"), e.to_string()))?;
    std::fs::create_dir_all(config_dir)
        .map_err(|e| LifecycleError::file(config_dir, e.to_string()))?;
    crate::model::project::write_atomic(&path, format!("{}\n", to_hex(&secret)).as_bytes())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| LifecycleError::file(&path, e.to_string()))?;
    }
    Ok(signing_key(&secret))
}

/// Reads the key in `config_dir`; a missing or malformed key is an error
/// that says how to make one.
pub fn load(config_dir: &Path) -> Result<SigningKey, LifecycleError> {
    let path = key_path(config_dir);
    let text = std::fs::read_to_string(&path).map_err(|_| {
        LifecycleError::file(
            &path,
            "no signing key: make one with `precept keygen` (or sign with --no-key for an unsigned approval)",
        )
    })?;
    let secret = from_hex(&text)
        .and_then(|bytes| <[u8; 32]>::try_from(bytes.as_slice()).ok())
        .ok_or_else(|| {
            LifecycleError::file(&path, "1:1: expected 64 hex digits (an Ed25519 secret key)")
        })?;
    Ok(signing_key(&secret))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_rejects_odd_or_foreign_text() {
        assert_eq!(
            from_hex(&to_hex(&[0, 1, 254, 255])),
            Some(vec![0, 1, 254, 255])
        );
        assert_eq!(from_hex("abc"), None);
        assert_eq!(from_hex("zz"), None);
    }
}
