//! Text inside code, whose words define nothing: a here-document, a triple-quoted string, Perl's
//! and Ruby's documentation.

/// Which lines are text inside code, whatever their words and indentation: a here-document's
/// body and its closing word (`cat <<EOF`, PHP's `<<<EOT`), a triple-quoted string's lines after
/// its first (`"""`, `\'\'\'`), Perl's and Ruby's documentation (`=head1` … `=cut`, `=begin` …
/// `=end`). A `<<WORD` whose WORD closes no later line is an operator (`1 << WIDTH`).
pub(super) fn text_lines(lines: &[&str]) -> Vec<bool> {
    let mut text = vec![false; lines.len()];
    let mut at = 0;
    while at < lines.len() {
        let line = lines[at];
        let through = if line.starts_with('=') && line[1..].starts_with(char::is_alphabetic) {
            // The documentation's own lines too, to its `=cut` or `=end`.
            let end = lines[at..].iter().position(|l| l.starts_with("=cut") || l.starts_with("=end"));
            text[at] = true;
            end.map_or(lines.len() - 1, |offset| at + offset)
        } else if let Some(word) = here_document(line) {
            // The word alone on its line, or (PHP) followed by what ends the expression: a line
            // that only starts with it (`SHIFT = 3`) closes nothing.
            let closes = |l: &&str| {
                let rest = l.trim().strip_prefix(word.as_str());
                rest.is_some_and(|rest| rest.is_empty() || rest.starts_with([';', ',', ')', ']']))
            };
            lines[at + 1..].iter().position(closes).map_or(at, |offset| at + 1 + offset)
        } else {
            let quote = ["\"\"\"", "\'\'\'"].into_iter().find(|quote| line.matches(quote).count() % 2 == 1);
            quote.map_or(at, |quote| {
                let close = lines[at + 1..].iter().position(|l| l.contains(quote));
                close.map_or(at, |offset| at + 1 + offset)
            })
        };
        for flag in &mut text[at + 1..=through] {
            *flag = true;
        }
        at = through + 1;
    }
    text
}

/// The word a here-document that `line` opens ends at: `<<EOF`, `<< EOF`, `<<-'EOF'`, `<<~EOF`,
/// `<<"EOF"`, PHP's `<<<EOT`.
fn here_document(line: &str) -> Option<String> {
    let at = line.find("<<")?;
    let rest = line[at + 2..].trim_start_matches('<').trim_start_matches(['-', '~']).trim_start();
    let rest = rest.trim_start_matches(['\'', '"']);
    let word: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    word.starts_with(|c: char| c.is_alphabetic() || c == '_').then_some(word)
}
