//! `config`: config.toml parsing, reading every key back, and `set`.
//!
//! Input: the file's text; after a NUL byte, optionally `KEY=VALUE` to set
//! in a copy of that file.

use std::path::PathBuf;
use std::sync::LazyLock;

use lean_ctx_common::config::{self, KEYS};

static DIR: LazyLock<PathBuf> = LazyLock::new(|| crate::sandbox::dir("config"));

pub fn run(data: &[u8]) {
    let (text, assignment) = match data.iter().position(|b| *b == 0) {
        Some(nul) => (&data[..nul], Some(&data[nul + 1..])),
        None => (data, None),
    };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let file = DIR.join("config.toml");
    let parsed = config::parse(&file, text);
    if let Ok(cfg) = &parsed {
        for key in KEYS {
            cfg.get(key.name).expect("a key of KEYS cannot be read back");
        }
    }
    let Some((key, value)) = assignment.and_then(|a| std::str::from_utf8(a).ok()).and_then(|a| a.split_once('='))
    else {
        return;
    };
    std::fs::write(&file, text).expect("cannot write the config copy");
    let set = config::set(&file, &DIR.join("config.lock"), key, value);
    // A file that does not parse is never rewritten: the user's text would be lost.
    assert!(parsed.is_ok() || set.is_err(), "set rewrote a config that does not parse");
    let written = config::load(&file);
    match set {
        // What set wrote must parse again: the daemon reads it next.
        Ok(()) => {
            written.expect("set wrote a config that does not parse");
        }
        // A refused set leaves the file as it was.
        Err(_) => assert_eq!(
            std::fs::read_to_string(&file).expect("the config copy vanished"),
            text,
            "a refused set changed the file"
        ),
    }
}
