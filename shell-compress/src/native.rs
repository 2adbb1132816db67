//! Native builds: make, cmake (configure and `--build`) and ninja, with gcc/clang diagnostics, and the
//! compilers run by hand (`gcc -Wall -c a.c`, `clang -fsyntax-only`), whose output is those diagnostics.
//!
//! A build log is mostly the command lines of successful compiler runs and progress lines; what matters is
//! the diagnostics, the failing target and the last lines.

use std::sync::LazyLock;

use regex::Regex;

use crate::diag::{self, Severity};
use crate::family::{Families, Family};
use crate::generic::GENERIC;
use crate::plan::{Mark, NoteAt, Plan};
use crate::rules;

pub(crate) static MAKE: Family = Family::new("make", "make -j8", build);
pub(crate) static CMAKE: Family = Family::new("cmake", "cmake --build build", build);
pub(crate) static NINJA: Family = Family::new("ninja", "ninja -C build", build);
pub(crate) static CC: Family = Family::new("cc", "gcc -Wall -c main.c", build);

/// One family per build tool: their diagnostics are alike, but each is reported by its own name. A compiler
/// run that builds nothing prints what it was asked for, which no build rule may touch: it is generic.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, args| match program {
        "make" | "gmake" => Some(&MAKE),
        "cmake" => Some(&CMAKE),
        "ninja" => Some(&NINJA),
        _ if is_compiler(program) => Some(if builds(args) { &CC } else { &GENERIC }),
        _ => None,
    },
    members: &[&MAKE, &CMAKE, &NINJA, &CC],
};

/// The C and C++ compiler drivers, by the tool name [`toolchain_tool`] finds in a program's name.
const COMPILERS: &[&str] = &["gcc", "g++", "cc", "c++", "clang", "clang++"];

/// The other toolchain programs a build log echoes the command lines of.
const BINUTILS: &[&str] = &["ld", "ar", "ranlib", "as", "nasm"];

/// gcc, clang and their C++ drivers under any name a toolchain installs them by (see [`toolchain_tool`]).
fn is_compiler(program: &str) -> bool {
    COMPILERS.contains(&toolchain_tool(program))
}

/// The tool a toolchain program runs, from its name: `gcc` for `gcc`, `gcc-12`, `aarch64-linux-gnu-gcc`,
/// `x86_64-w64-mingw32-gcc-12-posix`; `clang++` for `clang++-16`; `ar` for `gcc-ar`. Toolchains install their
/// programs under a target-triple prefix (a cross compiler: `arm-none-eabi-`, `avr-`), with a version suffix
/// (several versions side by side: `-12`, `-17.0`), and Debian's mingw ones with the thread model last
/// (`-posix`, `-win32`), so the tool is the last dash-separated word once those suffixes are off.
fn toolchain_tool(program: &str) -> &str {
    let name = program.strip_suffix("-posix").or_else(|| program.strip_suffix("-win32")).unwrap_or(program);
    let unversioned = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    // Only a version after a dash is one: `cc1` is gcc's compiler proper, no `cc`.
    let name = match unversioned.strip_suffix('-') {
        Some(bare) if unversioned.len() < name.len() => bare,
        _ => name,
    };
    name.rsplit('-').next().unwrap_or(name)
}

/// Whether a compiler run with `args` builds (compiles, checks, assembles or links sources), so that its
/// output is the diagnostics the build rules read. The driver also preprocesses (`-E`, and `-M`/`-MM`, which
/// list the headers a source includes), answers questions about itself (`--version`, `-dumpmachine`,
/// `-print-search-dirs`, `--help=warnings`, the commands `-###` would run, `-v` with nothing to build) and
/// writes what it made to standard output (`-S -o -`): that output is the text asked for, not a build's
/// report, and is no place for rules that drop lines starting with a compiler's name.
fn builds(args: &[String]) -> bool {
    const QUERIES: &[&str] =
        &["--version", "-dumpversion", "-dumpfullversion", "-dumpmachine", "-dumpspecs", "--target-help", "-###"];
    let (mut verbose, mut inputs) = (false, false);
    let mut words = args.iter().map(String::as_str);
    while let Some(arg) = words.next() {
        match arg {
            "-E" | "-M" | "-MM" | "-o-" => return false,
            "-o" if words.next() == Some("-") => return false,
            "-v" => verbose = true,
            _ if QUERIES.contains(&arg) || rules::starts_with_any(arg, &["-print-", "--print-", "--help"]) => {
                return false;
            }
            _ => inputs |= !arg.starts_with('-'),
        }
    }
    !verbose || inputs
}

/// Whether `line` is a toolchain command a build log echoes (`cc -c -o a.o a.c`, `[3/9] /usr/bin/c++ …`,
/// `aarch64-linux-gnu-gcc …`, `ar rcs libx.a a.o`), and not the banner a verbose run prints
/// (`gcc version 12.2.0 (Debian 12.2.0-14)`), which says which compiler ran.
fn is_invocation(line: &str) -> bool {
    let Some(words) = COMMAND.captures(line) else { return false };
    let tool = toolchain_tool(words[1].rsplit('/').next().unwrap_or(&words[1]));
    (COMPILERS.contains(&tool) || BINUTILS.contains(&tool)) && &words[2] != "version"
}

static PROGRESS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(?:\[\s*\d+%\] (?:Building|Scanning)|\[\d+/\d+\] Building|Scanning dependencies of target",
        r"|Consolidate compiler generated dependencies|make\[\d+\]: (?:Entering|Leaving) directory)",
    ))
    .expect("build progress pattern compiles")
});

/// A command line as a build log echoes it, ninja's step counter before it: the program and the next word.
static COMMAND: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^(?:\[\d+/\d+\] )?(\S+)\s+(\S*)").expect("command pattern compiles"));

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
    plan.drop_counted("compiler invocations not shown", NoteAt::First, failed, is_invocation);
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
    let ends = |line: &str| is_invocation(line) || line.starts_with("make") || line.starts_with('[');
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
        for command in ["gccx a.c", "gcc12 a.c", "cc1 a.c", "gcc-ar rcs lib.a a.o", "clang-format -i a.c"] {
            assert_eq!(crate::compress(command, "x\n", 0).family, "generic", "{command}");
        }
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

    #[test]
    fn cross_compilers_and_versioned_names_are_compilers_and_their_invocations_are_counted() {
        for command in [
            "aarch64-linux-gnu-gcc -Wall -c a.c",
            "x86_64-w64-mingw32-g++ -c a.cc",
            "x86_64-w64-mingw32-gcc-12-posix -c a.c",
            "arm-none-eabi-gcc -mcpu=cortex-m4 -c a.c",
            "avr-gcc -mmcu=atmega328p -c a.c",
            "x86_64-linux-gnu-gcc-12 -c a.c",
            "gcc-12 -c a.c",
            "clang-17 -c a.c",
            "clang++-16 -c a.cc",
            "/usr/bin/c++ -c a.cc",
        ] {
            assert_eq!(crate::compress(command, "x\n", 0).family, "cc", "{command}");
        }
        // The programs beside them in a toolchain are no compilers: a preprocessor, an archiver, a formatter.
        for command in ["x86_64-linux-gnu-cpp-12 a.c", "aarch64-linux-gnu-gcc-ar rcs lib.a a.o", "clang-tidy a.c"] {
            assert_eq!(crate::compress(command, "x\n", 0).family, "generic", "{command}");
        }
        // A cross build's log echoes its compiler's and archiver's command lines, counted as a native one's are.
        let mut raw: String = (1..=30).map(|i| format!("aarch64-linux-gnu-gcc -O2 -c -o f{i}.o f{i}.c\n")).collect();
        raw += "aarch64-linux-gnu-ar rcs libf.a f1.o f2.o\n[100%] Built target f\n";
        let text = crate::compress("make CC=aarch64-linux-gnu-gcc", &raw, 0).text;
        assert_eq!(text, "… 31 compiler invocations not shown\n[100%] Built target f\n");
    }

    #[test]
    fn compiler_runs_that_build_nothing_print_what_was_asked_for() {
        for command in [
            "gcc -E a.c",
            "gcc -dM -E -x c /dev/null",
            "cpp a.c",
            "gcc -M a.c",
            "clang -MM -MT a.o a.c",
            "gcc --version",
            "aarch64-linux-gnu-gcc -dumpmachine",
            "gcc -dumpversion",
            "gcc -print-search-dirs",
            "gcc -print-prog-name=ld",
            "clang --print-targets",
            "gcc -Q --help=warnings",
            "gcc -### -c a.c",
            "gcc -v",
            "gcc -O2 -S -o - a.c",
        ] {
            assert_eq!(crate::compress(command, "x\n", 0).family, "generic", "{command}");
        }
        // Builds that also write dependency files, verbose builds and builds naming their dump files build.
        for command in ["gcc -MMD -MF a.d -c a.c", "gcc -v -c a.c", "gcc -dumpbase a -c a.c", "gcc -o app a.c"] {
            assert_eq!(crate::compress(command, "x\n", 0).family, "cc", "{command}");
        }
        // As gcc 12 prints `gcc -v`: its last line names the compiler, which the build rules took for an
        // invocation and counted away.
        let mut raw = String::from("Using built-in specs.\nCOLLECT_GCC=gcc\n");
        raw += "COLLECT_LTO_WRAPPER=/usr/lib/gcc/x86_64-linux-gnu/12/lto-wrapper\nTarget: x86_64-linux-gnu\n";
        raw += "Configured with: ../src/configure -v --with-pkgversion='Debian 12.2.0-14+deb12u1' --enable-shared\n";
        raw += "Thread model: posix\nSupported LTO compression algorithms: zlib zstd\n";
        raw += "gcc version 12.2.0 (Debian 12.2.0-14+deb12u1) \n";
        let text = crate::compress("gcc -v", &raw.repeat(2), 0).text;
        assert!(text.contains("\ngcc version 12.2.0 (Debian 12.2.0-14+deb12u1)"), "{text}");
        assert!(!text.contains("invocations"), "{text}");
    }

    #[test]
    fn a_verbose_builds_version_banner_is_shown() {
        let mut raw = String::from("Using built-in specs.\nCOLLECT_GCC=gcc\nTarget: x86_64-linux-gnu\n");
        raw += "gcc version 12.2.0 (Debian 12.2.0-14+deb12u1) \n";
        raw += &(1..=50).map(|i| format!("COLLECT_GCC_OPTIONS='-v' '-c' '-o' 'f{i}.o'\n")).collect::<String>();
        let out = crate::compress("gcc -v -c a.c", &raw, 0);
        let text = out.text;
        assert!(out.shortened && text.contains("lines omitted"), "{text}");
        assert!(text.contains("\ngcc version 12.2.0 (Debian 12.2.0-14+deb12u1)\n"), "{text}");
        assert!(!text.contains("invocations"), "{text}");
    }
}
