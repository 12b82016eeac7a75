//! The HTML report opened in headless Chromium (installed by
//! `scripts/setup.sh --tests`): it renders, the screenshot is not blank,
//! and the dumped DOM holds a rule's text. The browser runs with its
//! network features off and a throw-away profile; the page is a local file.

use crate::support;

use std::path::Path;
use std::process::Command;
use support::{copy_sample, precept, stderr};

const CHROMIUM: &str = "/usr/bin/chromium";

fn chromium(profile: &Path, extra: &[&str], page: &str) -> std::process::Output {
    assert!(
        Path::new(CHROMIUM).is_file(),
        "{CHROMIUM} is missing: run scripts/setup.sh --tests"
    );
    Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            &format!("--user-data-dir={}", profile.display()),
        ])
        .args(extra)
        .arg(page)
        .output()
        .expect("run chromium")
}

#[test]
fn the_report_renders_in_headless_chromium() {
    let project = copy_sample("airline-refunds");
    let dir = project.path();
    let page = dir.join("report.html");
    let out = precept(&[
        "report",
        dir.to_str().unwrap(),
        "--out",
        page.to_str().unwrap(),
        "--no-mutation",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let url = format!("file://{}", page.display());
    let profile = tempfile::tempdir().unwrap();

    let shot = dir.join("shot.png");
    let out = chromium(
        profile.path(),
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1200,900",
        ],
        &url,
    );
    assert!(
        shot.is_file(),
        "no screenshot: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut pixels = vec![0; reader.output_buffer_size().unwrap()];
    let frame = reader.next_frame(&mut pixels).unwrap();
    assert_eq!((frame.width, frame.height), (1200, 900));
    let channels = frame.color_type.samples();
    let bytes = &pixels[..frame.buffer_size()];
    let mut colours = std::collections::HashSet::new();
    let mut not_white = 0usize;
    for pixel in bytes.chunks(channels) {
        let rgb = (pixel[0], pixel[1], pixel[2]);
        colours.insert(rgb);
        if rgb != (255, 255, 255) {
            not_white += 1;
        }
    }
    let total = bytes.len() / channels;
    assert!(
        colours.len() > 20,
        "only {} colours: a blank page",
        colours.len()
    );
    assert!(
        not_white * 100 > total,
        "{not_white} of {total} pixels drawn: a blank page"
    );

    let out = chromium(profile.path(), &["--dump-dom"], &url);
    let dom = String::from_utf8_lossy(&out.stdout);
    assert!(
        dom.contains("(=&gt; (= disruptionReason DENIED_BOARDING) isRefundEligible)"),
        "R9's SMT-LIB in the rendered DOM: {}",
        &dom[..dom.len().min(2000)]
    );
    assert!(dom.contains("id=\"rule-R9\""), "R9's entry rendered");
}
