//! Issue 4's end-to-end figures: `lctx run` overhead over running the
//! command directly, and tokens of real commands' output through lean-ctxd
//! beside the reference's `lean-ctx -c`, with a check that every error line
//! of a failing command survives in each.

use std::fmt::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use lean_ctxd::engine::tokens::count_uncached;

use crate::stats::{ms, summarize};

/// Commands run in the repository: a mix of families, one failing.
const COMMANDS: &[&str] = &[
    "git log --stat -n 40",
    "git status",
    "ls -la /usr/bin",
    "find daemon client -name '*.rs'",
    "grep -rn 'fn ' daemon/src",
    "seq 1 3000",
    "python3 -c \"import sys\nfor i in range(400): print('collecting', i)\nprint('ERROR: test_parse failed at tests/test_p.py:12', file=sys.stderr)\nsys.exit(1)\"",
];

fn sh(cmd: &str, dir: &Path) -> (String, i32) {
    let out = Command::new("/bin/sh").arg("-c").arg(format!("{cmd} 2>&1")).current_dir(dir).output().unwrap();
    (String::from_utf8_lossy(&out.stdout).into_owned(), out.status.code().unwrap_or(-1))
}

fn error_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.contains("ERROR") || l.contains("error:") || l.contains("FAILED")).collect()
}

pub fn run(bins: &Path, repo: &Path, reference: Option<&Path>, runs: usize) -> String {
    let home = tempfile::Builder::new().prefix("lctxs").tempdir_in("/tmp").expect("temp");
    let lctx = bins.join("lctx");
    let lctx_run = |cmd: &str| {
        let out = Command::new(&lctx)
            .args(["run", "--", cmd])
            .current_dir(repo)
            .env("LEAN_CTX_HOME", home.path())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    lctx_run("true");
    let mut out = String::new();
    let _ = writeln!(out, "### Shell ({runs} runs per timing)\n");
    let time = |program: &Path, args: &[&str]| {
        let samples = (0..runs)
            .map(|_| {
                let start = Instant::now();
                Command::new(program)
                    .args(args)
                    .env("LEAN_CTX_HOME", home.path())
                    .stdout(Stdio::null())
                    .status()
                    .unwrap();
                start.elapsed()
            })
            .collect();
        summarize(samples)
    };
    let direct = time(Path::new("/bin/true"), &[]);
    let through = time(&lctx, &["run", "--", "true"]);
    let _ = writeln!(out, "| whole process | p50 | p99 |");
    let _ = writeln!(out, "|---|---|---|");
    let _ = writeln!(out, "| `true` | {} | {} |", ms(direct.p50), ms(direct.p99));
    let _ = writeln!(out, "| `lctx run -- true` (warm daemon) | {} | {} |", ms(through.p50), ms(through.p99));
    let _ = writeln!(
        out,
        "\nOverhead of `lctx run` p50: **{}** (goal ≤ 5 ms)\n",
        ms(through.p50.saturating_sub(direct.p50))
    );

    let _ = writeln!(out, "| command | raw tokens | lean-ctxd | errors kept | lean-ctx -c | errors kept |");
    let _ = writeln!(out, "|---|---|---|---|---|---|");
    for cmd in COMMANDS {
        let (raw, _) = sh(cmd, repo);
        let errors = error_lines(&raw);
        let ours = lctx_run(cmd);
        let kept = |text: &str| errors.iter().all(|e| text.contains(e));
        let theirs = reference.map(|bin| {
            let out = Command::new(bin)
                .args(["-c", cmd])
                .current_dir(repo)
                .env("HOME", home.path())
                .stdin(Stdio::null())
                .output()
                .unwrap();
            String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
        });
        let shown = cmd.lines().next().unwrap_or(cmd);
        let shown = if shown.len() > 40 { format!("{}…", &shown[..40]) } else { shown.to_string() };
        let (their_tokens, their_kept) = match &theirs {
            Some(t) => (
                count_uncached(t).to_string(),
                if errors.is_empty() {
                    "—"
                } else if kept(t) {
                    "yes"
                } else {
                    "**no**"
                },
            ),
            None => ("—".into(), "—"),
        };
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {} |",
            shown.replace('|', "\\|"),
            count_uncached(&raw),
            count_uncached(&ours),
            if errors.is_empty() {
                "—"
            } else if kept(&ours) {
                "yes"
            } else {
                "**no**"
            },
            their_tokens,
            their_kept
        );
    }
    let _ = Command::new(&lctx).args(["daemon", "stop"]).env("LEAN_CTX_HOME", home.path()).output();
    out
}
