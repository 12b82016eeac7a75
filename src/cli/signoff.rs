//! Reviewer sign-off: `precept keygen`, `precept sign DIR@N --reviewer NAME
//! [--role …] [--note …]` and `precept verify-signatures DIR`.

use super::common::{Failure, Outcome, print_json};
use clap::Args;
use precept_engine::lifecycle::clock::now_utc;
use precept_engine::lifecycle::keys::{generate, key_path, load, public_hex};
use precept_engine::lifecycle::reference::ModelRef;
use precept_engine::lifecycle::signoff::{
    Approval, CheckStatus, rules_needing_review, sign, verify,
};
use precept_engine::llm::config::user_config_dir;
use std::path::PathBuf;

fn config_dir() -> Result<PathBuf, Failure> {
    user_config_dir().ok_or_else(|| {
        Failure::Input("no config folder for this user (set PRECEPT_CONFIG_DIR)".into())
    })
}

#[derive(Debug, Args)]
pub struct KeygenArgs {}

pub fn run_keygen(_args: &KeygenArgs) -> Outcome {
    let dir = config_dir()?;
    let key = generate(&dir)?;
    println!("wrote {}", key_path(&dir).display());
    println!("public key {}", public_hex(&key));
    Ok(())
}

#[derive(Debug, Args)]
pub struct SignArgs {
    /// The version approved: DIR@N
    pub version: String,
    /// Who approves it
    #[arg(long)]
    pub reviewer: String,
    /// In what capacity (e.g. "policy owner")
    #[arg(long, default_value = "")]
    pub role: String,
    #[arg(long, default_value = "")]
    pub note: String,
    /// Record the approval without an Ed25519 signature
    #[arg(long)]
    pub no_key: bool,
    #[arg(long)]
    pub json: bool,
}

pub fn run_sign(args: &SignArgs) -> Outcome {
    let reference = ModelRef::parse(&args.version)?;
    let Some(n) = reference.version else {
        return Err(Failure::Input(format!(
            "{}: expected a version to sign, DIR@N (the draft cannot be signed)",
            args.version
        )));
    };
    let key = if args.no_key {
        None
    } else {
        Some(load(&config_dir()?)?)
    };
    let approval = Approval {
        reviewer: &args.reviewer,
        role: &args.role,
        note: &args.note,
        key: key.as_ref(),
        timestamp: &now_utc(),
    };
    let record = sign(&reference.project, n, &approval)?;
    if args.json {
        return print_json(&record);
    }
    let how = if record.signature.is_some() {
        "signed"
    } else {
        "recorded (unsigned)"
    };
    println!(
        "{how}: version {n} of {} (sha256 {}) approved by {}",
        reference.project.display(),
        record.sha256,
        record.reviewer
    );
    Ok(())
}

#[derive(Debug, Args)]
pub struct VerifySignaturesArgs {
    /// The project directory
    pub dir: PathBuf,
    #[arg(long)]
    pub json: bool,
}

pub fn run_verify(args: &VerifySignaturesArgs) -> Outcome {
    let checked = verify(&args.dir)?;
    let review = rules_needing_review(&args.dir, &checked)?;
    let failed = checked.iter().any(|c| {
        matches!(
            c.status,
            CheckStatus::Broken { .. } | CheckStatus::BadSignature
        )
    });
    if args.json {
        let needs: Vec<_> = review
            .iter()
            .map(|(id, v)| serde_json::json!({"id": id, "approved_in": v}))
            .collect();
        print_json(&serde_json::json!({"signoffs": checked, "needs_review": needs}))?;
    } else {
        if checked.is_empty() {
            println!("{}: no sign-offs", args.dir.display());
        }
        for c in &checked {
            let r = &c.record;
            let status = match &c.status {
                CheckStatus::Valid => "valid signature".to_string(),
                CheckStatus::Unsigned => "unsigned, content unchanged".to_string(),
                CheckStatus::Broken { changed } => {
                    format!("BROKEN: changed since signing: {}", changed.join(", "))
                }
                CheckStatus::BadSignature => {
                    "BROKEN: the signature does not match the record".into()
                }
            };
            println!(
                "version {} by {} at {}: {status}",
                r.version, r.reviewer, r.timestamp
            );
        }
        for (id, version) in &review {
            println!("rule {id}: approved in signed version {version}, edited since: needs review");
        }
    }
    if failed { Err(Failure::Check) } else { Ok(()) }
}
