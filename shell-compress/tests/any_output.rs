//! The guarantees hold for output no fixture has: random mixes of every shape the structural rules look
//! for (paths, matches, tables, trees, tracebacks, progress bars), with error lines, unicode and long lines
//! thrown in, under a handful of commands. Generated from a fixed seed, so a failure is reproducible.

use lean_ctx_shell_compress::{Options, compress, compress_with};

/// xorshift64: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One line of a random shape; `n` varies names and numbers.
fn line(rng: &mut Rng, n: usize) -> String {
    let dirs = ["src", "src/parser", "tests", "node_modules/@x/y", "/usr/lib/ü", "docs"];
    let dir = dirs[rng.below(dirs.len())];
    match rng.below(14) {
        0 => format!("{dir}/file_{n}.rs"),
        1 => format!("{dir}/file_{}.py:{}:    let value_{n} = compute({n});", n % 7, n * 3 + 1),
        2 => format!("-rw-r--r-- 1 root root {:>6} Dec  1 07:11 name_{n}.txt", n * 37),
        3 => format!("pkg-{n}{}1.{n}.0    /site", " ".repeat(1 + n % 9)),
        4 => format!("│ ├── dep-{n}@1.0.{n}"),
        5 => "Traceback (most recent call last):".to_string(),
        6 => format!("  File \"{dir}/m.py\", line {n}, in f"),
        7 => format!("[{}{}] {}%", "#".repeat(n % 20), ".".repeat(20 - n % 20), n % 100),
        8 => format!("error: thing {n} went wrong at {dir}/lib.rs:{n}:5"),
        9 => format!("{}needle{}", "x".repeat(300 + n % 100), "y".repeat(50)),
        10 => format!("ValueError: bad value {n} — ünïcödé ✓"),
        11 => String::new(),
        12 => format!("plain log line {} with words", n % 5),
        _ => format!("____ test_case[{n}] ____"),
    }
}

#[test]
fn random_outputs_keep_the_guarantees() {
    let mut rng = Rng(0x5eed_cafe_f00d_d00d);
    let commands = ["find .", "grep -rn needle .", "ls -la", "pytest", "cargo test", "./run.sh", "npm ls", "pip list"];
    for case in 0..200 {
        let lines: Vec<String> = (0..rng.below(150) + 1)
            .map(|n| {
                // Runs of one shape are what the structural rules are for; mix them with noise.
                let repeat = if rng.below(3) == 0 { 1 } else { 8 };
                (0..repeat).map(|k| line(&mut Rng(rng.next() | 1), n * 8 + k)).collect::<Vec<_>>().join("\n")
            })
            .collect();
        let raw = lines.join("\n") + "\n";
        let command = commands[case % commands.len()];
        let exit = if case % 3 == 0 { 0 } else { 1 };
        let budget = [2_000, 50, 100_000][case % 3];
        let out = compress_with(command, &raw, exit, &Options::with_listing_budget(budget));
        assert_eq!(out, compress_with(command, &raw, exit, &Options::with_listing_budget(budget)), "case {case}");
        let trailer = if exit == 0 { String::new() } else { format!("[exit:{exit}]\n") };
        assert!(out.text.len() <= raw.len() + trailer.len(), "case {case} grew");
        assert!(out.text.ends_with(&trailer), "case {case}: exit line");
        if exit != 0 {
            for l in raw.lines().filter(|l| l.starts_with("error: ") || l.starts_with("ValueError")) {
                assert!(out.text.lines().any(|o| o.starts_with(l)), "case {case}: lost {l:?}");
            }
            for l in raw.lines().rev().filter(|l| !l.trim().is_empty()).take(10) {
                assert!(out.text.lines().any(|o| o.starts_with(l)), "case {case}: lost closing {l:?}");
            }
        }
    }
}

/// Found by the `shell_compress` fuzz target: a `commit` line whose object name has a non-ASCII
/// character where a hash is cut for the short form panicked. It is not a commit header.
#[test]
fn a_commit_line_with_a_non_hex_name_is_left_as_it_is() {
    let output = "commit a7caac746d3\u{fffd}d416bc5b4a2b3cb9fc84a0f6b460\nAuthor: Dev <dev@example.com>\nDate:   Fri\n\n    msg\n";
    let compressed = lean_ctx_shell_compress::compress("git log", output, 0);
    assert!(compressed.text.contains("commit a7caac746d3\u{fffd}d416bc5b4a2b3cb9fc84a0f6b460"), "{}", compressed.text);
}

#[test]
fn tiny_outputs_come_back_unchanged() {
    for (command, raw, exit) in [
        ("ls /nope", "ls: cannot access '/nope': No such file or directory\n", 2),
        ("git status", "fatal: not a git repository (or any of the parent directories): .git\n", 128),
        ("pytest", "no tests ran in 0.01s\n", 5),
        ("echo hi", "hi\n", 0),
    ] {
        let out = compress(command, raw, exit);
        assert!(!out.shortened, "{command}");
        let trailer = if exit == 0 { String::new() } else { format!("[exit:{exit}]\n") };
        assert_eq!(out.text, format!("{raw}{trailer}"), "{command}");
    }
}

#[test]
#[ignore]
fn timing_of_a_large_output() {
    let mut rng = Rng(7);
    let raw: String = (0..20_000).map(|n| line(&mut rng, n) + "\n").collect();
    for exit in [0, 1] {
        let start = std::time::Instant::now();
        let out = compress("./run.sh", &raw, exit);
        println!("exit {exit}: 20000 lines, {} bytes -> {} bytes in {:?}", raw.len(), out.text.len(), start.elapsed());
    }
}
