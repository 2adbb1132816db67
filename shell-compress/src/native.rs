//! Native builds: make, cmake (configure and `--build`) and ninja, with gcc/clang diagnostics, and the
//! compilers run by hand (`gcc -Wall -c a.c`, `clang -fsyntax-only`), whose output is those diagnostics.
//!
//! A build log is mostly the command lines of successful compiler runs and progress lines; what matters is
//! the diagnostics, the failing target and the last lines.

use std::sync::LazyLock;

use regex::Regex;

use crate::diag::{self, Severity};
use crate::family::{Families, Family};
use crate::plan::{Mark, NoteAt, Plan};
use crate::rules;

pub(crate) static MAKE: Family = Family::new("make", "make -j8", build);
pub(crate) static CMAKE: Family = Family::new("cmake", "cmake --build build", build);
pub(crate) static NINJA: Family = Family::new("ninja", "ninja -C build", build);
pub(crate) static CC: Family = Family::new("cc", "gcc -Wall -c main.c", build);

/// One family per build tool: their diagnostics are alike, but each is reported by its own name.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, _| match program {
        "make" | "gmake" => Some(&MAKE),
        "cmake" => Some(&CMAKE),
        "ninja" => Some(&NINJA),
        _ if is_compiler(program) => Some(&CC),
        _ => None,
    },
    members: &[&MAKE, &CMAKE, &NINJA, &CC],
};

/// gcc, clang and their C++ drivers, also as Debian names them by version (`gcc-12`, `clang-15`).
fn is_compiler(program: &str) -> bool {
    let name = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let name = if name.len() < program.len() { name.strip_suffix('-').unwrap_or(program) } else { name };
    matches!(name, "gcc" | "g++" | "cc" | "c++" | "clang" | "clang++")
}

static PROGRESS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(?:\[\s*\d+%\] (?:Building|Scanning)|\[\d+/\d+\] Building|Scanning dependencies of target",
        r"|Consolidate compiler generated dependencies|make\[\d+\]: (?:Entering|Leaving) directory)",
    ))
    .expect("build progress pattern compiles")
});

static COMPILER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:\[\d+/\d+\] )?(?:\S*/)?(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+|ld|ar|ranlib|as|nasm)(?:-\d+)?\s")
        .expect("compiler pattern compiles")
});

static GCC_HEADER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\S+:\d+:\d+: (warning|error|fatal error): ").expect("gcc pattern compiles"));

/// cmake configure chatter that reports a successful probe.
const CMAKE_PROBES: &[&str] = &[
    "-- The C compiler",
    "-- The CXX compiler",
    "-- Detecting ",
    "-- Check for working",
    "-- Looking for ",
    "-- Performing Test",
    "-- Found ",
];

/// The kind of progress line `line` is, named for the note counting them, if it is one.
fn progress_kind(line: &str) -> Option<&str> {
    if rules::starts_with_any(line, CMAKE_PROBES) {
        Some("cmake checks")
    } else if !PROGRESS.is_match(line) {
        None
    } else if line.starts_with("make[") {
        Some("Entering/Leaving directory")
    } else {
        Some("Building/Scanning")
    }
}

fn build(plan: &mut Plan, failed: bool) {
    plan.drop_counted("compiler invocations not shown", NoteAt::First, failed, |line| COMPILER.is_match(line));
    plan.drop_counted_by_kind("progress lines not shown", NoteAt::First, failed, progress_kind);
    // ninja prints the failing command right after `FAILED:`; that one says what broke.
    for i in 1..plan.len() {
        if plan.line(i - 1).starts_with("FAILED: ") {
            plan.set(i, Mark::Keep);
        }
    }
    let header = |line: &str| {
        GCC_HEADER.captures(line).map(|c| if &c[1] == "warning" { Severity::Warning } else { Severity::Error })
    };
    let preamble = |line: &str| {
        line.ends_with(':')
            && (line.contains(": In function")
                || line.contains(": At top level")
                || line.starts_with("In file included"))
    };
    let ends = |line: &str| COMPILER.is_match(line) || line.starts_with("make") || line.starts_with('[');
    let blocks = diag::blocks(plan, header, preamble, ends);
    for block in blocks.iter().filter(|b| b.severity == Severity::Error) {
        plan.set_range(block.lines.clone(), Mark::Must);
    }
    let header_line = |plan: &Plan, block: &diag::Block| {
        block.lines.clone().find(|&i| GCC_HEADER.is_match(plan.line(i))).unwrap_or(block.lines.start)
    };
    diag::summarize_warnings(plan, &blocks, failed, diag::Shorten::ToLocation, header_line, |line| {
        let message = GCC_HEADER.find(line).map_or(line, |m| &line[m.end()..]);
        diag::message_kind(message)
    });
}

#[cfg(test)]
mod tests {
    use crate::compress;

    #[test]
    fn the_invocation_count_leaves_out_the_invocations_shown() {
        // A failed link: the failure's closing lines bring back the last compiler invocations.
        let mut raw: String = (1..=31).map(|i| format!("cc    -c -o f{i}.o f{i}.c\n")).collect();
        raw += "cc -o app f1.o f2.o main.o -lm -lnonexistentlib\n";
        raw += "/usr/bin/ld: cannot find -lnonexistentlib: No such file or directory\n";
        raw += "collect2: error: ld returned 1 exit status\nmake: *** [Makefile:4: app] Error 1\n";
        let text = compress("make", &raw, 2).text;
        let shown = text.lines().filter(|line| line.starts_with("cc ")).count();
        assert_eq!(shown, 7, "{text}");
        assert!(
            text.starts_with("… 25 compiler invocations not shown; 7 more shown\ncc    -c -o f26.o f26.c\n"),
            "{text}"
        );
    }

    #[test]
    fn directory_changes_and_progress_are_counted_by_kind() {
        let mut raw = String::new();
        for dir in ["lib", "src", "tools", "docs"] {
            raw += &format!("make[1]: Entering directory '/build/{dir}'\n");
            raw += &(0..5).map(|i| format!("[ {:>2}%] Building C object {dir}/f{i}.o\n", i * 20)).collect::<String>();
            raw += &format!("make[1]: Leaving directory '/build/{dir}'\n");
        }
        raw += "[100%] Built target app\n";
        let text = compress("make", &raw, 0).text;
        let note = "… 28 progress lines not shown: Entering/Leaving directory ×8, Building/Scanning ×20\n";
        assert!(text.starts_with(note), "{text}");
    }

    #[test]
    fn the_warning_note_counts_only_warnings_it_shortened() {
        let mut out: String = (0..30).map(|i| format!("cc -Wall -c src/f{i}.c -o src/f{i}.o\n")).collect();
        for k in 0..8 {
            out += &format!("src/w{k}.c:1:5: warning: unused variable ‘x{k}’ [-Wunused-variable]\n");
            out += &format!("    1 | int x{k};\n      |     ^\n");
        }
        out += "make: *** [Makefile:4: bad.o] Error 1\n";
        let text = compress("make all", &out, 2).text;
        // The last three warnings are among the output's last lines, which a failure shows whole.
        assert!(text.contains("… 2 more warnings shortened to message and location"), "{text}");
        assert!(!text.contains("int x3;") && !text.contains("int x4;"), "{text}");
        assert!(text.contains("    1 | int x5;\n"), "{text}");
    }

    #[test]
    fn identical_shortened_warnings_are_one_line_with_every_location() {
        let mut out = String::new();
        let at = [("src/a.c", 3), ("src/a.c", 9), ("src/a.c", 12), ("src/a.c", 20), ("src/b.c", 4), ("src/b.c", 8)];
        for (file, line) in at {
            out += &format!(
                "{file}:{line}:5: warning: comparison of integer expressions of different signedness [-Wsign-compare]\n"
            );
            out += &format!("   {line} |   if (i < n) {{\n      |         ^\n");
        }
        out += "gcc -o app a.o b.o\n";
        let text = compress("make", &out, 0).text;
        assert!(
            text.contains(
                "warning: comparison of integer expressions of different signedness [-Wsign-compare] ×3 (src/a.c:20:5, \
                 src/b.c:4:5, 8:5)\n"
            ),
            "{text}"
        );
        assert!(text.contains("src/a.c:12:5: warning: comparison"), "{text}");
        assert!(!text.contains("src/b.c:4:5: warning"), "{text}");
    }

    #[test]
    fn a_compiler_run_by_hand_is_read_as_a_build() {
        for command in
            ["gcc -Wall -c a.c", "/usr/bin/clang -fsyntax-only a.c", "gcc-12 a.c", "clang++-15 -c a.cc", "cc a.c"]
        {
            assert_eq!(crate::compress(command, "x\n", 0).family, "cc", "{command}");
        }
        assert_eq!(crate::compress("gccx a.c", "x\n", 0).family, "generic");
        // QA capture: gcc -Wall over two files printed 17 warnings; the generic view cut 11 of them with their
        // `file:line`. Each keeps its location now.
        let mut out = String::new();
        for file in ["w2.c", "w.c"] {
            for (line, col) in [(4, 23), (3, 18), (3, 15), (3, 12), (3, 9), (7, 42), (8, 42), (9, 42), (10, 42)] {
                out += &format!("{file}:{line}:{col}: warning: something about line {line} [-Wextra]\n");
                out += &format!("    {line} |     code();\n      |     ^\n");
            }
        }
        let text = crate::compress("gcc -Wall -Wextra -c w2.c w.c", &out, 0).text;
        assert!(!text.contains("omitted"), "{text}");
        for file in ["w2.c", "w.c"] {
            for (line, col) in [(4, 23), (3, 18), (3, 15), (3, 12), (3, 9), (7, 42), (8, 42), (9, 42), (10, 42)] {
                let position = format!("{line}:{col}");
                assert!(
                    text.contains(&format!("{file}:{position}")) || text.contains(&format!(", {position}")),
                    "{file}:{position}: {text}"
                );
            }
        }
    }
}
