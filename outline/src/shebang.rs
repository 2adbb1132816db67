//! The language of a script without an extension (`bin/thor`, `bin/deploy`), read from its first
//! line: `#!/usr/bin/env ruby`, `#!/usr/bin/env -S python3.11 -u`, `#!/bin/bash`. Such a file was
//! read as plain text, its signatures and map a head of text, not an outline.
//!
//! The interpreter is turned into the extension its scripts would have, so the one map from
//! extensions to languages ([`crate::Language::from_path`], [`crate::TextFormat::from_path`], the
//! aggressive view's comment syntax) reads it: no second map of languages.

use std::path::Path;

/// The extension the interpreter of a script named by `path` stands for (see
/// [`interpreter_extension`]), when its path has no extension and its name says nothing of how
/// it is read (`bin/thor`, not `Rakefile`): see [`reads_shebang`].
pub(crate) fn script_extension(path: &Path, source: &str) -> Option<&'static str> {
    reads_shebang(path).then(|| interpreter_extension(source)).flatten()
}

/// Whether the language of the file at `path` is read from its `#!` line: it has no extension
/// (a `.txt` or `.png` file is no script, and reading every such file's head to make sure would
/// cost more than the odd `.cgi` script is worth), and its name names no language (`Rakefile`).
pub fn reads_shebang(path: &Path) -> bool {
    path.extension().is_none() && crate::Language::from_path(path).is_none()
}

/// The extension of scripts run by the interpreter `source`'s `#!` line names: its program's
/// name, past `env` and `env`'s options (`-S`, `-i`, `-u NAME`, `NAME=value`), without a
/// version (`python3.11`, `lua5.4`, `perl5`).
fn interpreter_extension(source: &str) -> Option<&'static str> {
    let line = source.strip_prefix('\u{feff}').unwrap_or(source).lines().next()?.strip_prefix("#!")?;
    let mut words = line.split_whitespace();
    let mut program = file_name(words.next()?);
    if program == "env" {
        // The program is the first word that is no option of env's nor a variable it sets.
        let mut takes_value = false;
        program = words
            .find(|word| {
                let skip = takes_value || word.starts_with('-') || word.contains('=');
                takes_value = matches!(*word, "-u" | "--unset" | "-C" | "--chdir");
                !skip
            })
            .map(file_name)?;
    }
    let name = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    Some(match name {
        "python" | "pypy" => "py",
        "ruby" | "jruby" => "rb",
        "node" | "nodejs" | "bun" => "js",
        "deno" | "ts-node" | "tsx" => "ts",
        "sh" | "bash" | "dash" | "ash" | "zsh" | "ksh" | "mksh" => "sh",
        "perl" => "pl",
        "lua" | "luajit" => "lua",
        "php" => "php",
        "kotlin" => "kts",
        "scala" => "sc",
        "groovy" => "groovy",
        "swift" => "swift",
        "elixir" => "exs",
        "julia" => "jl",
        "pwsh" => "ps1",
        "crystal" => "cr",
        "dart" => "dart",
        _ => return None,
    })
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interpreter_is_read_past_env_and_its_version() {
        for (line, extension) in [
            ("#!/usr/bin/env ruby\n", Some("rb")),
            ("#!/usr/bin/env python3\n", Some("py")),
            ("#!/usr/bin/python3.11 -u\n", Some("py")),
            ("#!/usr/bin/env -S python3 -u\n", Some("py")),
            ("#!/usr/bin/env -u HOME PYTHONPATH=. node --harmony\n", Some("js")),
            ("#! /bin/bash -e\n", Some("sh")),
            ("#!/bin/sh\n", Some("sh")),
            ("#!/usr/bin/perl -w\n", Some("pl")),
            ("#!/usr/bin/env lua5.4\n", Some("lua")),
            ("#!/usr/bin/env awk -f\n", None),
            ("#!/usr/bin/env\n", None),
            ("# not a shebang\n", None),
            ("", None),
        ] {
            assert_eq!(interpreter_extension(line), extension, "{line:?}");
        }
    }

    #[test]
    fn a_known_extension_wins_over_the_shebang() {
        let python = "#!/usr/bin/env python3\n";
        assert_eq!(script_extension(Path::new("bin/x"), python), Some("py"));
        assert_eq!(script_extension(Path::new("bin/x.cgi"), python), None);
        assert_eq!(script_extension(Path::new("tool.sh"), python), None);
        assert_eq!(script_extension(Path::new("Rakefile"), python), None);
        assert_eq!(script_extension(Path::new("README"), "text\n"), None);
    }
}
