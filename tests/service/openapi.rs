//! `GET /openapi.json`: an OpenAPI 3.1 description that a validator
//! accepts, served without a token, and covering every route the router
//! serves (with either guard).

use crate::support;

use precept::llm::config::{Profile, Protocol};
use precept::service::guard::Guard;
use precept::service::guard::chatbot::Chatbot;
use precept::service::openapi::document;
use precept::service::options::{GuardOptions, StreamMode};
use precept::service::router::routes;
use std::path::Path;
use std::sync::Arc;
use support::service::{Served, smtlib_project};

fn guard(protocol: Protocol) -> Arc<Guard> {
    Arc::new(Guard {
        chatbot: Chatbot::new(Profile::new("bot", protocol, "http://127.0.0.1:9", "m")).unwrap(),
        options: GuardOptions {
            profile: "bot".into(),
            block: false,
            block_message: String::new(),
            revise: 0,
            k: 1,
            stream: StreamMode::Hold,
        },
    })
}

#[test]
fn every_route_the_router_serves_is_described() {
    let description = document();
    let mut served = Vec::new();
    for guarded in [None, Some(Protocol::OpenAi), Some(Protocol::Anthropic)] {
        served.extend(
            routes(guarded.map(guard))
                .into_iter()
                .map(|(m, p, _)| (m, p)),
        );
    }
    assert!(served.iter().any(|(_, path)| *path == "/v1/messages"));
    for (method, path) in served {
        let item = description
            .paths
            .paths
            .get(path)
            .unwrap_or_else(|| panic!("{path} is served but not described"));
        let operation = match method.as_str() {
            "GET" => item.get.as_ref(),
            "POST" => item.post.as_ref(),
            other => panic!("{other} {path}: no such method expected"),
        };
        assert!(operation.is_some(), "{method} {path} is not described");
    }
}

#[test]
fn the_served_description_is_valid_openapi_3_1_and_needs_no_token() {
    let project = tempfile::tempdir().unwrap();
    smtlib_project(
        project.path(),
        "(declare-const member Bool)(declare-const discount Bool)(assert (=> member discount))",
    );
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_precept"));
    command.env("PRECEPT_SERVE_TOKEN", "s3cret");
    let served = Served::start_with(
        command,
        project.path(),
        &["--token-env", "PRECEPT_SERVE_TOKEN"],
    );
    let reply = served.get("/openapi.json");
    assert_eq!(reply.status, 200, "{}", reply.text);
    let description = reply.json();
    assert!(description["openapi"].as_str().unwrap().starts_with("3.1"));
    assert!(description["paths"]["/v1/verify"]["post"]["requestBody"].is_object());
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("openapi.json");
    std::fs::write(&file, &reply.text).unwrap();

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let packages = root.join(".deps/py");
    assert!(
        packages.join("openapi_spec_validator").is_dir(),
        "openapi-spec-validator is not installed: run ./scripts/setup.sh --tests"
    );
    let out = std::process::Command::new(std::env::var("PYTHON").unwrap_or("python3".into()))
        .args([
            "-c",
            "import json, sys\n\
             from openapi_spec_validator import validate\n\
             from openapi_spec_validator.validation.validators import OpenAPIV31SpecValidator\n\
             validate(json.load(open(sys.argv[1])), cls=OpenAPIV31SpecValidator)\n\
             print('valid')",
        ])
        .arg(&file)
        .env("PYTHONPATH", &packages)
        .output()
        .unwrap();
    assert!(
        out.status.success() && String::from_utf8_lossy(&out.stdout).contains("valid"),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
