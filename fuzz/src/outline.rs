//! `outline`: outlines and the aggressive view of arbitrary source, per
//! language, and the text outlines of prose formats.
//!
//! Input: one byte choosing the language (and prose format), then the source
//! (lossy UTF-8, as reads decode files).

use lean_ctx_outline::{
    Definition, KeywordFamily, Language, TextFormat, aggressive, outline, render_map, render_signatures,
    render_text_outline,
};

const FORMATS: [TextFormat; 9] = [
    TextFormat::Markdown,
    TextFormat::ReStructuredText,
    TextFormat::AsciiDoc,
    TextFormat::Org,
    TextFormat::Plain,
    TextFormat::Code(KeywordFamily::General),
    TextFormat::Code(KeywordFamily::Typed),
    TextFormat::Code(KeywordFamily::Shell),
    TextFormat::Code(KeywordFamily::Lua),
];

pub fn run(data: &[u8]) {
    let Some((&choice, source)) = data.split_first() else { return };
    let language = Language::ALL[usize::from(choice) % Language::ALL.len()];
    let source = String::from_utf8_lossy(source);

    let outlined = outline(language, &source);
    render_signatures(&outlined);
    render_map(&outlined);
    aggressive(language, &source);
    render_text_outline(FORMATS[usize::from(choice) % FORMATS.len()], &source);
    check_spans(language, &outlined.items);
}

/// Every definition's lines are in order: what reads point an agent at.
fn check_spans(language: Language, items: &[Definition]) {
    for item in items {
        assert!(
            item.start_line <= item.head_line && item.head_line <= item.end_line,
            "{language:?}: {} has lines {}..{} with its head at {}",
            item.name,
            item.start_line,
            item.end_line,
            item.head_line
        );
        check_spans(language, &item.children);
    }
}
