//! The outline view of a text file that is not code: its headings where the format has them
//! (Markdown, reStructuredText, AsciiDoc, Org), else the head of the file with a first line that
//! says how much was left out. A large file is never returned whole without saying so.

use std::path::Path;

use crate::extract::markup::{Heading, nest};
use crate::keywords::{Family, keyword_outline};
use crate::shebang;
use crate::text::collapse;
use crate::{Language, outline, render};

/// The head of a file without headings stops after this many lines…
const HEAD_LINES: usize = 40;
/// …or once it holds this many characters (a line that alone is longer is cut).
const HEAD_CHARS: usize = 4_000;

/// Characters that can underline (and overline) a reStructuredText section title.
const RST_ADORNMENTS: &str = "=-`:'\"~^_*+#<>.!$%&(),/;?@[\\]{|}";

/// A text format, as far as its headings go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextFormat {
    Markdown,
    ReStructuredText,
    AsciiDoc,
    Org,
    /// No heading syntax: the view is the head of the file.
    Plain,
    /// Code in a language without a grammar here (Kotlin, Swift, PHP, shell, …): the view lists
    /// the lines that start a definition with a keyword (see [`crate::keywords`]).
    Code(Family),
}

impl TextFormat {
    /// By extension (case-insensitive); anything unknown is [`TextFormat::Plain`].
    pub fn from_path(path: &Path) -> TextFormat {
        let extension = path.extension().and_then(|ext| ext.to_str()).map(str::to_ascii_lowercase);
        TextFormat::from_extension(extension.as_deref())
    }

    /// [`TextFormat::from_path`], or for a script whose path says nothing of how it is read
    /// (`bin/deploy`), the format of the interpreter its `#!` line names (`#!/bin/bash` is shell).
    pub fn detect(path: &Path, source: &str) -> TextFormat {
        match shebang::script_extension(path, source) {
            Some(extension) => TextFormat::from_extension(Some(extension)),
            None => TextFormat::from_path(path),
        }
    }

    fn from_extension(extension: Option<&str>) -> TextFormat {
        match extension {
            Some("md" | "markdown" | "mdown" | "mkd") => TextFormat::Markdown,
            Some("rst" | "rest") => TextFormat::ReStructuredText,
            Some("adoc" | "asciidoc" | "asc") => TextFormat::AsciiDoc,
            Some("org") => TextFormat::Org,
            Some("sh" | "bash" | "zsh" | "ksh") => TextFormat::Code(Family::Shell),
            Some("dart" | "groovy" | "gradle") => TextFormat::Code(Family::Typed),
            Some(
                "kt" | "kts" | "swift" | "php" | "scala" | "sc" | "pl" | "pm" | "ex" | "exs" | "jl" | "nim" | "zig"
                | "sol" | "ps1" | "psm1" | "cr",
            ) => TextFormat::Code(Family::General),
            Some("lua") => TextFormat::Code(Family::Lua),
            _ => TextFormat::Plain,
        }
    }
}

/// A text file's view in the signatures and map modes, and whether it is its headings' outline:
/// a file's head shows some of its text instead, and saves nothing a reader wants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextOutline {
    pub text: String,
    pub headings: bool,
}

/// The outline of a text file, for both the signatures and the map modes: one `<start>-<end>`
/// line per heading, nested by level and written with Markdown's `#`s whatever the format:
///
/// ```text
/// 1-40 # Guide
///   5-22 ## Install
/// ```
///
/// A file without headings is shown from its start; when some of it is left out, the first line
/// says so: `[no headings: lines 1-40 of 2000 shown]`. Its text may start lines with digits (a
/// log's dates): whether it is an outline is said by [`TextOutline::headings`], never read back
/// from the text.
pub fn render_text_outline(format: TextFormat, source: &str) -> TextOutline {
    let outline = match format {
        TextFormat::Markdown => render::render_map(&outline(Language::Markdown, source)),
        TextFormat::ReStructuredText => render::render_items(&nest(&rst_headings(source), source)),
        TextFormat::AsciiDoc => render::render_items(&nest(&marked_headings(source, '=', is_asciidoc_fence), source)),
        TextFormat::Org => render::render_items(&nest(&marked_headings(source, '*', is_org_block), source)),
        TextFormat::Code(family) => {
            let listed = render::render_item_signatures(&keyword_outline(source, family));
            if listed.is_empty() { String::new() } else { format!("{}\n{listed}", family.note()) }
        }
        TextFormat::Plain => String::new(),
    };
    match render::lists_definitions(&outline) {
        true => TextOutline { text: outline, headings: true },
        false => TextOutline { text: head(source), headings: false },
    }
}

/// The first lines of `source`, with a note first when that is not all of it.
fn head(source: &str) -> String {
    let total = source.lines().count();
    let (mut shown, mut chars, mut lines) = (String::new(), 0, 0);
    for line in source.lines().take(HEAD_LINES) {
        let room = HEAD_CHARS.saturating_sub(chars);
        if room == 0 {
            break;
        }
        let cut: String = line.chars().take(room).collect();
        let whole = cut.len() == line.len();
        chars += cut.chars().count();
        shown.push_str(&cut);
        shown.push('\n');
        lines += 1;
        if !whole {
            return format!("[no headings: lines 1-{lines} of {total} shown, line {lines} cut]\n{shown}");
        }
    }
    if lines == total {
        return source.to_string();
    }
    format!("[no headings: lines 1-{lines} of {total} shown]\n{shown}")
}

/// reStructuredText section titles: a line underlined (and maybe overlined) by one repeated
/// punctuation character at least as long as it. Levels follow the order in which the styles
/// (character, with or without overline) first appear, as in docutils.
fn rst_headings(source: &str) -> Vec<Heading> {
    let lines: Vec<&str> = source.lines().collect();
    let mut styles: Vec<(char, bool)> = Vec::new();
    let mut headings = Vec::new();
    let mut index = 1;
    while index < lines.len() {
        let (title, underline) = (lines[index - 1], lines[index]);
        let above = index.checked_sub(2).map(|i| lines[i]);
        let Some(mark) = adornment(underline) else {
            index += 1;
            continue;
        };
        let text = title.trim();
        let overlined = above.and_then(adornment) == Some(mark);
        // Only an overlined title may be indented (centred between its lines).
        let is_title = !text.is_empty()
            && (overlined || !title.starts_with([' ', '\t']))
            && adornment(title).is_none()
            && underline.trim_end().chars().count() >= text.chars().count();
        if !is_title {
            index += 1;
            continue;
        }
        let style = (mark, overlined);
        let level = match styles.iter().position(|known| *known == style) {
            Some(position) => position + 1,
            None => {
                styles.push(style);
                styles.len()
            }
        };
        let line = u32::try_from(index).unwrap_or(u32::MAX);
        headings.push(Heading { level, text: collapse(text), line });
        index += 2;
    }
    headings
}

/// The character a line repeats, if it is an adornment (at least three of one punctuation mark).
fn adornment(line: &str) -> Option<char> {
    let line = line.trim_end();
    let first = line.chars().next()?;
    (RST_ADORNMENTS.contains(first) && line.chars().count() >= 3 && line.chars().all(|c| c == first)).then_some(first)
}

/// Headings written as a run of `marker`s, a space and the text at the start of a line
/// (AsciiDoc `== Section`, Org `** Section`), outside blocks where such lines are content.
fn marked_headings(source: &str, marker: char, toggles_block: fn(&str) -> bool) -> Vec<Heading> {
    let mut headings = Vec::new();
    let mut in_block = false;
    for (line, text) in (1..=u32::MAX).zip(source.lines()) {
        if toggles_block(text) {
            in_block = !in_block;
            continue;
        }
        let level = text.chars().take_while(|&c| c == marker).count();
        let rest = &text[level * marker.len_utf8()..];
        if in_block || !(1..=6).contains(&level) || !rest.starts_with(' ') || rest.trim().is_empty() {
            continue;
        }
        headings.push(Heading { level, text: collapse(rest), line });
    }
    headings
}

/// AsciiDoc delimited blocks (listing `----`, literal `....`, example `====`, …) and fences.
fn is_asciidoc_fence(line: &str) -> bool {
    let line = line.trim_end();
    let Some(first) = line.chars().next() else { return false };
    line == "```" || ("-.=*+_/".contains(first) && line.len() >= 4 && line.chars().all(|c| c == first))
}

/// Org `#+BEGIN_SRC … #+END_SRC` and the like.
fn is_org_block(line: &str) -> bool {
    let line = line.trim_start().to_ascii_lowercase();
    line.starts_with("#+begin_") || line.starts_with("#+end_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_from_paths() {
        assert_eq!(TextFormat::from_path(Path::new("README.md")), TextFormat::Markdown);
        assert_eq!(TextFormat::from_path(Path::new("docs/index.RST")), TextFormat::ReStructuredText);
        assert_eq!(TextFormat::from_path(Path::new("guide.adoc")), TextFormat::AsciiDoc);
        assert_eq!(TextFormat::from_path(Path::new("notes.org")), TextFormat::Org);
        assert_eq!(TextFormat::from_path(Path::new("LICENSE")), TextFormat::Plain);
    }

    #[test]
    fn rst_levels_follow_first_use_of_each_style() {
        let source = "=====\nTitle\n=====\n\nIntro.\n\nInstall\n-------\n\nFrom pip\n~~~~~~~~\n\nUsage\n-----\n\n\
                      ===== =====\nA     B\n===== =====\n\n----\n\nToo long title\n---\n";
        assert_eq!(
            render_text_outline(TextFormat::ReStructuredText, source).text,
            "2-23 # Title\n 7-11 ## Install\n  10-11 ### From pip\n 13-23 ## Usage\n"
        );
    }

    #[test]
    fn asciidoc_and_org_headings_skip_blocks() {
        let asciidoc = "= Guide\n\n== Install\n\n----\n== not a heading\n----\n\n=== Linux\n\n== Usage\n";
        assert_eq!(
            render_text_outline(TextFormat::AsciiDoc, asciidoc).text,
            "1-11 # Guide\n 3-9 ## Install\n  9 ### Linux\n 11 ## Usage\n"
        );
        let org = "* Tasks\n** TODO Write\n#+BEGIN_SRC sh\n* not a heading\n#+END_SRC\n*bold* text\n* Notes\n";
        assert_eq!(render_text_outline(TextFormat::Org, org).text, "1-6 # Tasks\n 2-6 ## TODO Write\n7 # Notes\n");
    }

    #[test]
    fn without_headings_the_head_says_what_is_left_out() {
        let small = "one\ntwo\n";
        let whole = TextOutline { text: small.to_string(), headings: false };
        assert_eq!(render_text_outline(TextFormat::Plain, small), whole);
        assert_eq!(render_text_outline(TextFormat::Markdown, "just a paragraph\n").text, "just a paragraph\n");
        // Lines that start with numbers, as a log's do, are its text, not an outline's spans.
        let log: String = (1..=500).map(|i| format!("2024-01-01 12:00:{:02} INFO request {i}\n", i % 60)).collect();
        assert!(!render_text_outline(TextFormat::Plain, &log).headings);
        let large: String = (1..=500).map(|i| format!("line {i}\n")).collect();
        let view = render_text_outline(TextFormat::Org, &large).text;
        assert!(view.starts_with("[no headings: lines 1-40 of 500 shown]\nline 1\n"), "{view}");
        assert!(view.ends_with("line 40\n"));
        let minified = "x".repeat(10_000);
        let view = render_text_outline(TextFormat::Plain, &minified).text;
        assert!(view.starts_with("[no headings: lines 1-1 of 1 shown, line 1 cut]\n"), "{view}");
        assert_eq!(view.lines().nth(1).map(str::len), Some(HEAD_CHARS));
    }

    #[test]
    fn markdown_uses_its_grammar() {
        let source = "# Title\n\ntext\n\n## Part\n\n```\n# not a heading\n```\n";
        let outline = render_text_outline(TextFormat::Markdown, source);
        assert_eq!(outline, TextOutline { text: "1-9 # Title\n 5-9 ## Part\n".into(), headings: true });
    }
}
