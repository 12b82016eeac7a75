//! Reviewer sign-off through the real binary: keys in a config folder of the
//! test's own (PRECEPT_CONFIG_DIR), signatures checked against the files as
//! they are, and the Ed25519 primitives against RFC 8032's test 1.

use crate::support;

use precept::lifecycle::keys::{public_hex, sign_hex, signing_key, verify_hex};
use serde_json::Value;
use std::fs;
use std::path::Path;
use std::process::Output;
use support::{copy_sample, precept_command, stderr, stdout};

fn run(config: &Path, args: &[&str]) -> Output {
    precept_command()
        .env("PRECEPT_CONFIG_DIR", config)
        .args(args)
        .output()
        .unwrap()
}

// RFC 8032, section 7.1, TEST 1 (the empty message).
const SECRET: &str = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";
const PUBLIC: &str = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";
const SIGNATURE: &str = "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b";

#[test]
fn keys_and_signatures_match_rfc_8032_test_1() {
    let secret: [u8; 32] = precept::lifecycle::keys::from_hex(SECRET)
        .unwrap()
        .try_into()
        .unwrap();
    let key = signing_key(&secret);
    assert_eq!(public_hex(&key), PUBLIC);
    assert_eq!(sign_hex(&key, b""), SIGNATURE);
    assert!(verify_hex(PUBLIC, b"", SIGNATURE));
    assert!(!verify_hex(PUBLIC, b"x", SIGNATURE), "another message");
    let mut tampered = SIGNATURE.to_string();
    tampered.replace_range(0..2, "e6");
    assert!(!verify_hex(PUBLIC, b"", &tampered), "another signature");
}

#[test]
fn signing_then_editing_breaks_the_signature_and_names_the_file() {
    let config = tempfile::tempdir().unwrap();
    let project = copy_sample("airline-refunds");
    let dir = project.path();
    let d = dir.to_str().unwrap();
    let at1 = format!("{d}@1");

    // No key yet: a clear error, and nothing recorded.
    assert_eq!(run(config.path(), &["version", d]).status.code(), Some(0));
    let out = run(config.path(), &["sign", &at1, "--reviewer", "Ada"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no signing key: make one with `precept keygen`"),
        "{}",
        stderr(&out)
    );
    assert!(!dir.join("signoffs.json").exists());

    let out = run(config.path(), &["keygen"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(config.path().join("signing-key.ed25519").is_file());
    let out = run(config.path(), &["keygen"]);
    assert_eq!(out.status.code(), Some(2), "an existing key is kept");

    let out = run(
        config.path(),
        &[
            "sign",
            &at1,
            "--reviewer",
            "Ada",
            "--role",
            "policy owner",
            "--json",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let record: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let manifest: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("versions/1/VERSION.json")).unwrap())
            .unwrap();
    assert_eq!(record["sha256"], manifest["sha256"]);
    assert_eq!(record["reviewer"], "Ada");
    assert_eq!(record["role"], "policy owner");
    assert_eq!(record["public_key"].as_str().unwrap().len(), 64);

    let out = run(config.path(), &["verify-signatures", d]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("version 1 by Ada"),
        "{}",
        stdout(&out)
    );
    assert!(stdout(&out).contains("valid signature"), "{}", stdout(&out));
    let listing = stdout(&run(config.path(), &["versions", d]));
    assert!(
        listing.contains("signed by Ada (policy owner)"),
        "{listing}"
    );

    // Editing the draft leaves the signed version intact, but an approved
    // rule edited since goes back to review.
    let model_path = dir.join("model.json");
    let edited = fs::read_to_string(&model_path)
        .unwrap()
        .replace("(> fareAmount 0.0)", "(>= fareAmount 0.0)");
    fs::write(&model_path, &edited).unwrap();
    let out = run(config.path(), &["verify-signatures", d]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("rule R2: approved in signed version 1, edited since: needs review"),
        "{}",
        stdout(&out)
    );

    // Editing the signed content itself breaks the signature.
    fs::write(dir.join("versions/1/model.json"), &edited).unwrap();
    let out = run(config.path(), &["verify-signatures", d, "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["signoffs"][0]["status"], "broken");
    assert_eq!(
        report["signoffs"][0]["changed"],
        serde_json::json!(["versions/1/model.json"])
    );

    // A tampered version cannot be signed.
    let out = run(config.path(), &["sign", &at1, "--reviewer", "Bo"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("tampered"), "{}", stderr(&out));
}

#[test]
fn an_edited_record_and_a_record_of_another_project_are_caught() {
    let config = tempfile::tempdir().unwrap();
    let project = copy_sample("airline-refunds");
    let other = copy_sample("park-admission");
    let (d, o) = (
        project.path().to_str().unwrap(),
        other.path().to_str().unwrap(),
    );
    assert_eq!(run(config.path(), &["keygen"]).status.code(), Some(0));
    for dir in [d, o] {
        assert_eq!(run(config.path(), &["version", dir]).status.code(), Some(0));
    }
    let out = run(
        config.path(),
        &["sign", &format!("{d}@1"), "--reviewer", "Ada"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let records = project.path().join("signoffs.json");
    let original = fs::read_to_string(&records).unwrap();
    fs::write(&records, original.replace("\"Ada\"", "\"Eve\"")).unwrap();
    let out = run(config.path(), &["verify-signatures", d]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("the signature does not match the record"),
        "{}",
        stdout(&out)
    );

    fs::write(other.path().join("signoffs.json"), &original).unwrap();
    let out = run(config.path(), &["verify-signatures", o]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("a record for another project"),
        "{}",
        stderr(&out)
    );
    let before = fs::read_to_string(other.path().join("signoffs.json")).unwrap();
    let out = run(
        config.path(),
        &["sign", &format!("{o}@1"), "--reviewer", "Ada"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        fs::read_to_string(other.path().join("signoffs.json")).unwrap(),
        before,
        "nothing changed"
    );
}
