//! Shell completions and man pages of lctx and lctx-shell, generated from
//! their clap definitions: each script names real subcommands and is valid
//! shell; each man page is roff that man renders.

use std::process::Command;

use lean_ctx_tests::{Home, bin, describe};

fn generated(home: &Home, program: &str, args: &[&str]) -> String {
    let out = home.command(bin(program)).args(args).output().unwrap();
    assert!(out.status.success(), "{program} {args:?}: {}", describe(&out));
    String::from_utf8(out.stdout).unwrap()
}

/// Whether `program` can be run here (zsh and fish are optional).
fn available(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok_and(|o| o.status.success())
}

/// `shell -n` on a script: it parses.
fn parses(shell: &str, script: &str, dir: &std::path::Path) {
    let file = dir.join(format!("completion.{shell}"));
    std::fs::write(&file, script).unwrap();
    let flag = if shell == "fish" { "--no-execute" } else { "-n" };
    let out = Command::new(shell).arg(flag).arg(&file).output().unwrap();
    assert!(out.status.success(), "{shell} rejects the script: {}", describe(&out));
}

#[test]
fn completion_scripts_name_the_real_subcommands_and_parse() {
    let home = Home::new();
    for (program, subcommands) in [
        ("lctx", &["read", "edit", "search", "knowledge", "gain", "service", "setup", "completions", "man"][..]),
        ("lctx-shell", &["init", "run", "status", "completions", "man"]),
    ] {
        for shell in ["bash", "zsh", "fish"] {
            let script = generated(&home, program, &["completions", shell]);
            for sub in subcommands {
                assert!(script.contains(sub), "{program} {shell} lacks `{sub}`");
            }
            assert!(!script.contains("frobnicate"));
            if available(shell) {
                parses(shell, &script, home.path());
            } else {
                assert!(shell != "bash", "bash is needed to check the bash script");
                eprintln!("{shell} is not installed: only the content of its script is checked");
            }
        }
        // The flags of a subcommand are offered too.
        let bash = generated(&home, program, &["completions", "bash"]);
        assert!(bash.contains("--help"), "{program}");
    }
    let lctx_bash = generated(&home, "lctx", &["completions", "bash"]);
    assert!(lctx_bash.contains("--old") && lctx_bash.contains("--limit"), "edit and listing flags complete");
    let out = home.lctx(&["completions", "powershell"]);
    assert_eq!(out.status.code(), Some(2), "{}", describe(&out));
}

/// The roff skeleton every page has: title, name, synopsis.
fn assert_roff(page: &str, title: &str) {
    assert!(page.contains(&format!(".TH {title} 1")), "{page}");
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH OPTIONS"] {
        assert!(page.contains(section), "{title} lacks {section}");
    }
}

/// What `man -l` renders of a page, when man is installed.
fn rendered(page: &std::path::Path) -> Option<String> {
    let out = Command::new("man").arg("-l").arg(page).env("MANPAGER", "cat").env("MANWIDTH", "100").output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn man_pages_render_for_the_program_and_each_subcommand() {
    let home = Home::new();
    let page = generated(&home, "lctx", &["man"]);
    assert_roff(&page, "lctx");
    assert!(page.contains(".SH SUBCOMMANDS") && page.contains("knowledge"), "subcommands listed");

    let dir = home.path().join("man1");
    let out = generated(&home, "lctx", &["man", "--dir", dir.to_str().unwrap()]);
    let mut pages: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    pages.sort();
    assert!(out.contains(&format!("wrote {} man pages", pages.len())), "{out}");
    for expected in ["lctx.1", "lctx-read.1", "lctx-knowledge-remember.1", "lctx-service-install.1", "lctx-man.1"] {
        assert!(pages.iter().any(|p| p == expected), "{expected} missing from {pages:?}");
    }
    let read = std::fs::read_to_string(dir.join("lctx-read.1")).unwrap();
    assert_roff(&read, "lctx-read");
    assert!(read.contains("signatures"), "the mode help is in the page");
    match rendered(&dir.join("lctx-read.1")) {
        Some(text) => {
            assert!(text.contains("lctx-read") && text.contains("--fresh"), "{text}");
            assert!(!text.contains(".SH") && !text.contains(".TH"), "rendered, not raw roff: {text}");
        }
        None => eprintln!("man is not installed: only the roff structure is checked"),
    }

    let shell_page = generated(&home, "lctx-shell", &["man"]);
    assert_roff(&shell_page, "lctx-shell");
}
