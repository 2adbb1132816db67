//! Before lctx-shell runs a command itself, lean-ctxd's permission rules get
//! their say: Claude Code's `Bash(…)` deny rules, lean-ctx's `shell_deny`,
//! Read/Edit rules on the files the command names, and ask rules that no one
//! in this shell could be asked about (see `Engine::check_command`).
//!
//! Only commands the hook wraps reach lctx-shell, so only they are checked.
//! Like the rest of lctx-shell this fails open: when lean-ctxd cannot be
//! asked in time the command runs, with a note saying it was not checked.

use std::ffi::OsString;
use std::time::Duration;

use lean_ctx_proto::v1::{CheckRequest, Permission};

use crate::engine::{self, Failure};
use crate::hooks::sh;

/// The whole check, daemon start-up or fallback child included.
const DEADLINE: Duration = Duration::from_secs(3);

/// What to do with a command before running it.
#[derive(Debug, PartialEq, Eq)]
pub enum Decision {
    Run,
    /// Do not run it; tell the agent why (the rule and its file).
    Refuse(String),
}

pub fn decide(command: &[OsString]) -> Decision {
    let line = command_line(command);
    let answer = engine::exchange(DEADLINE, async |backend, ctx| {
        let request = CheckRequest { ctx: Some(ctx), command: line.clone() };
        let response = backend.shell().check(tonic::Request::new(request)).await.map_err(|s| backend.explain(&s))?;
        Ok(response.into_inner())
    });
    match answer {
        Ok(answer) => match answer.permission() {
            Permission::Deny | Permission::Ask => Decision::Refuse(answer.message),
            Permission::Allow | Permission::Unspecified => Decision::Run,
        },
        Err(Failure::NoEngine) => Decision::Run,
        Err(Failure::Failed(why)) => {
            eprintln!("lctx-shell: the permission rules were not checked ({why}); running the command anyway");
            Decision::Run
        }
    }
}

/// The command as a shell would read it back: words that hold anything
/// special are single-quoted, so a `;` inside an argument is not taken for
/// a second command.
fn command_line(command: &[OsString]) -> String {
    let plain = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric() || b"_-./:=@%+,^".contains(&b));
    command
        .iter()
        .map(|word| word.to_string_lossy())
        .map(|word| if plain(&word) { word.into_owned() } else { sh::quote(&word) })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(words: &[&str]) -> String {
        command_line(&words.iter().map(OsString::from).collect::<Vec<_>>())
    }

    #[test]
    fn plain_words_stay_bare_and_the_rest_is_quoted() {
        assert_eq!(line(&["git", "push", "origin", "main"]), "git push origin main");
        assert_eq!(line(&["git", "commit", "-m", "a; rm -rf x"]), "git commit -m 'a; rm -rf x'");
        assert_eq!(line(&["echo", "", "it's"]), r"echo '' 'it'\''s'");
        assert_eq!(line(&["ls", "--color=auto", "src/a.rs"]), "ls --color=auto src/a.rs");
    }
}
