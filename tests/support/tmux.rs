//! A tmux server of a test's own, running one command in one pane: keys
//! in, the screen out, waits with a deadline. Dropping it kills the server
//! (and so the program in the pane).
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub struct Tmux {
    socket: String,
    /// The server's socket file, removed with the server.
    socket_path: Option<PathBuf>,
    /// How long a wait may take before the test fails.
    wait: Duration,
}

impl Tmux {
    /// Starts `command` in a `width`×`height` pane of a new server named
    /// after `name` and the test process.
    pub fn start(name: &str, command: &str, (width, height): (u16, u16), wait: Duration) -> Tmux {
        let mut tmux = Tmux {
            socket: format!("precept-{}-{name}", std::process::id()),
            socket_path: None,
            wait,
        };
        let (width, height) = (width.to_string(), height.to_string());
        let out = tmux.run(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "s",
            "-x",
            &width,
            "-y",
            &height,
            command,
        ]);
        assert!(out.status.success(), "tmux: {}", super::stderr(&out));
        let path = super::stdout(&tmux.run(&["display", "-p", "#{socket_path}"]));
        tmux.socket_path = Some(PathBuf::from(path.trim())).filter(|p| p.is_absolute());
        // Esc must reach the app at once, not wait for an escape sequence.
        tmux.run(&["set", "-g", "escape-time", "0"]);
        tmux
    }

    pub fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .env_remove("TMUX")
            .stdin(Stdio::null())
            .output()
            .expect("tmux runs")
    }

    /// Sends keys in tmux notation ("e", "C-s", "Escape", "Enter").
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "s"];
        args.extend_from_slice(keys);
        let out = self.run(&args);
        assert!(out.status.success(), "send-keys: {}", super::stderr(&out));
    }

    /// Types text literally.
    pub fn type_text(&self, text: &str) {
        let out = self.run(&["send-keys", "-t", "s", "-l", text]);
        assert!(out.status.success(), "send-keys: {}", super::stderr(&out));
    }

    pub fn screen(&self) -> String {
        super::stdout(&self.run(&["capture-pane", "-p", "-t", "s"]))
    }

    /// Waits until `done(screen)` holds; returns that screen.
    pub fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + self.wait;
        loop {
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            assert!(
                Instant::now() < deadline,
                "waited {:?} for {what}; the screen shows:\n{screen}",
                self.wait
            );
            std::thread::sleep(Duration::from_millis(40));
        }
    }

    /// Waits until the screen shows every one of `needles`; returns it.
    pub fn wait_for(&self, needles: &[&str]) -> String {
        self.wait_until(&format!("{needles:?}"), |screen| {
            needles.iter().all(|n| screen.contains(n))
        })
    }

    /// Waits until the screen no longer shows `needle`.
    pub fn wait_gone(&self, needle: &str) -> String {
        self.wait_until(&format!("{needle:?} to go"), |screen| {
            !screen.contains(needle)
        })
    }

    pub fn pane_pid(&self) -> u32 {
        let out = self.run(&["display", "-p", "-t", "s", "#{pane_pid}"]);
        super::stdout(&out).trim().parse().expect("a pane pid")
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
        if let Some(path) = &self.socket_path {
            let _ = std::fs::remove_file(path);
        }
    }
}
