//! Native builds: make, cmake (configure and `--build`) and ninja, with gcc/clang diagnostics.
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

/// One family per build tool: their diagnostics are alike, but each is reported by its own name.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, _| match program {
        "make" | "gmake" => Some(&MAKE),
        "cmake" => Some(&CMAKE),
        "ninja" => Some(&NINJA),
        _ => None,
    },
    members: &[&MAKE, &CMAKE, &NINJA],
};

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
}
