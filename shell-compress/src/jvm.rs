//! JVM builds: Gradle and Maven.

use crate::detect::has_flag;
use crate::diag;
use crate::family::{Families, Family};
use crate::passthrough::PASSTHROUGH;
use crate::plan::{Mark, NoteAt, Plan};
use crate::rules;

pub(crate) static GRADLE: Family = Family::new("gradle", "./gradlew build", gradle);
pub(crate) static MAVEN: Family = Family::new("maven", "mvn -B test", maven);

/// Gradle (unless it watches with `--continuous`) and Maven, wrapper scripts included.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, args| match program {
        "gradle" | "gradlew" if has_flag(args, &["--continuous", "-t"]) => Some(&PASSTHROUGH),
        "gradle" | "gradlew" => Some(&GRADLE),
        "mvn" | "mvnw" => Some(&MAVEN),
        _ => None,
    },
    members: &[&GRADLE, &MAVEN],
};

/// Gradle's advice blocks and console chatter that say nothing about this build.
const GRADLE_NOISE: &[&str] = &[
    "Starting a Gradle Daemon",
    "* Get more help at",
    "Deprecated Gradle features were used",
    "You can use '--warning-mode all'",
    "See https://docs.gradle.org",
    "<-------------> ",
];

/// Gradle: task lines (`> Task :x`, `:x UP-TO-DATE`) and the generic `* Try:` advice go; compiler output,
/// `* What went wrong:` and the `BUILD …` verdict stay.
fn gradle(plan: &mut Plan, failed: bool) {
    plan.drop_counted("task lines not shown", NoteAt::First, failed, is_task_line);
    let mut in_try = false;
    for i in 0..plan.len() {
        let line = plan.line(i);
        if line.starts_with("* ") {
            in_try = line == "* Try:";
        }
        if in_try || rules::starts_with_any(line, GRADLE_NOISE) {
            plan.set(i, Mark::Drop);
        }
    }
}

/// `> Task :compileJava`, `:compileJava UP-TO-DATE` (Gradle before 5 prints bare `:task`).
fn is_task_line(line: &str) -> bool {
    let task = line.strip_prefix("> Task ").unwrap_or(line);
    let mut words = task.split_whitespace();
    words.next().is_some_and(|t| {
        t.starts_with(':')
            && t.len() > 1
            && t[1..].chars().all(|c| c.is_alphanumeric() || c == ':' || c == '-' || c == '_')
    }) && words.all(|w| matches!(w, "UP-TO-DATE" | "NO-SOURCE" | "SKIPPED" | "FROM-CACHE"))
}

/// Maven: download progress, blank `[INFO]` lines and rule lines go; `[WARNING]` lines beyond the first few
/// are counted; `[ERROR]` and the reactor summary stay.
fn maven(plan: &mut Plan, failed: bool) {
    plan.drop_counted("artifact downloads not shown", NoteAt::First, failed, |line| {
        let body = info_body(line).unwrap_or(line);
        body.starts_with("Downloading from ") || body.starts_with("Downloaded from ") || body.starts_with("Progress (")
    });
    plan.set_where(Mark::Drop, |line| info_body(line).is_some_and(|body| body.chars().all(|c| c == '-')));
    diag::summarize_warning_lines(
        plan,
        failed,
        |line| line.starts_with("[WARNING] "),
        |line| diag::message_kind(line.trim_start_matches("[WARNING] ")).chars().take(60).collect(),
    );
}

/// The text of an `[INFO]` line, or `None` for other lines.
fn info_body(line: &str) -> Option<&str> {
    line.strip_prefix("[INFO]").map(str::trim)
}
