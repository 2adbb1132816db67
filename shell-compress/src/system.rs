//! System inspection and transfers: df, ps, env, curl and wget.

use std::sync::LazyLock;

use regex::Regex;

use crate::family::{Families, Family};
use crate::plan::{Mark, NoteAt, Plan};
use crate::rules;

pub(crate) static DF: Family = Family::new("df", "df -h", df);
pub(crate) static PS: Family = Family::new("ps", "ps aux", ps).folding_similar();
pub(crate) static ENV: Family = Family::new("env", "printenv", |plan, _| env(plan));
pub(crate) static CURL: Family = Family::new("curl", "curl -s https://x.invalid", |plan, _| transfer(plan));
pub(crate) static WGET: Family = Family::new("wget", "wget https://x.invalid/f", |plan, _| transfer(plan));

/// One family per program.
pub(crate) static FAMILIES: Families = Families {
    detect: |program, _| match program {
        "df" => Some(&DF),
        "ps" => Some(&PS),
        "env" | "printenv" => Some(&ENV),
        "curl" => Some(&CURL),
        "wget" => Some(&WGET),
        _ => None,
    },
    members: &[&DF, &PS, &ENV, &CURL, &WGET],
};

/// Filesystems that are not storage an agent can fill.
const PSEUDO_FS: &[&str] = &["tmpfs", "devtmpfs", "udev", "shm", "none", "efivarfs", "cgroup", "proc", "sysfs"];

/// `df`: pseudo filesystems and snap loop devices are counted, real ones stay.
fn df(plan: &mut Plan, failed: bool) {
    plan.drop_counted("pseudo filesystems (tmpfs, loop, …) not shown", NoteAt::End, failed, |line| {
        let device = line.split_whitespace().next().unwrap_or("");
        PSEUDO_FS.contains(&device) || device.starts_with("/dev/loop")
    });
}

/// `ps`: kernel threads are counted, long command lines shortened, and runs of near-identical processes
/// (workers differing only in pid and times) fold.
fn ps(plan: &mut Plan, failed: bool) {
    plan.max_line_chars = Some(200);
    plan.drop_counted("kernel threads not shown", NoteAt::End, failed, |line| {
        let command = line.split_whitespace().last().unwrap_or("");
        line.trim_end().ends_with(']')
            && line.split_whitespace().count() > 5
            && command.ends_with(']')
            && line.contains(" [")
    });
}

/// `env`/`printenv`: values such as `LS_COLORS` run to thousands of characters; they are shortened.
fn env(plan: &mut Plan) {
    plan.max_line_chars = Some(160);
}

static CURL_METER_HEADER: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*(?:% Total\s+% Received|Dload\s+Upload)").expect("curl header pattern compiles"));

static CURL_METER_ROW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*\d+\s+[\d.]+[kMG]?\s+\d+\s+[\d.]+[kMG]?\s+\d+\s+[\d.]+[kMG]?\s")
        .expect("curl row pattern compiles")
});

static WGET_DOTS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s*\d+K[ .,]+").expect("wget progress pattern compiles"));

/// curl's verbose-mode TLS and connection chatter; `* Connected to` and failures are kept.
const CURL_VERBOSE_NOISE: &[&str] = &[
    "*   Trying ",
    "* ALPN",
    "* TLS",
    "*  CA",
    "* SSL",
    "*  subject",
    "*  start date",
    "*  expire date",
    "*  subjectAltName",
    "*  issuer",
    "* using HTTP",
    "* h2h3",
    "* Using Stream",
    "} [",
    "{ [",
    "* Connection #",
    "* Mark bundle",
    "* old SSL",
];

/// curl and wget: progress meters (but the final meter row, which gives the size), dot progress, DNS and TLS
/// chatter go; request and response headers, the saved-file line and the body (cut when long) stay. The body
/// is what was asked for, so long lines are kept much longer than elsewhere.
fn transfer(plan: &mut Plan) {
    plan.max_line_chars = Some(2000);
    let last_row = (0..plan.len()).rev().find(|&i| CURL_METER_ROW.is_match(plan.line(i)));
    let lines = plan.lines();
    for i in (0..lines.len()).filter(|&i| CURL_METER_ROW.is_match(&lines[i]) && Some(i) != last_row) {
        plan.set(i, Mark::Drop);
    }
    plan.set_where(Mark::Drop, |line| {
        CURL_METER_HEADER.is_match(line)
            || WGET_DOTS.is_match(line)
            || rules::starts_with_any(line, CURL_VERBOSE_NOISE)
            || line.starts_with("Resolving ")
            || line.starts_with("Connecting to ")
    });
}
