use clap::Parser;
use precept::cli::{Cli, run};
use std::process::ExitCode;

fn main() -> ExitCode {
    restore_default_sigpipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let _ = error.print();
            return if error.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Some(command) => run(command),
        None => precept::cli::open(std::path::Path::new(".")),
    }
}

/// Rust ignores SIGPIPE, so printing to a closed pipe (`precept show DIR |
/// head`) is an error every `println!` turns into a panic. Unix tools end
/// quietly instead: the default action does that for every command at once.
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread starts; setting
    // a signal's disposition to the default has no other effect.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
