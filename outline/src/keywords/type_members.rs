//! What a type's body declares without a definition keyword: an enum's cases (PHP's `case Active
//! = 'active';`, Swift's `case north, south`, Scala 3's `case Red extends Color(1)`) and PHP's
//! trait uses (`use LoggerAwareTrait, FooTrait { foo as bar; }`). Read as no definition, they
//! were in neither view: an enum showed no values, a class none of the methods its traits give it.

use super::MAX_LINE;
use super::code_chars::code_chars;
use crate::model::Kind;
use crate::text::signature_line;

/// The most lines a trait use's adaptation block is read over for its one-line signature; a
/// longer one is cut, as any long signature is.
const MAX_ADAPTATION_LINES: usize = 32;

/// A member of a type of `owner` kind that `lines[index]` declares without a keyword: its kind,
/// name and signature. An enum's case is a field named as its names, the signature being those
/// names (the views list them on the enum's line, as a Rust enum's variants); a trait use is
/// listed as a re-export is, by its statement, as it defines nothing of its own here.
pub(super) fn type_member(lines: &[&str], index: usize, owner: Kind) -> Option<(Kind, String, String)> {
    let line = lines[index].trim();
    match owner {
        Kind::Enum => {
            if let Some(names) = enum_case(line) {
                return Some((Kind::Field, names.clone(), names));
            }
            trait_use(lines, index)
        }
        Kind::Class | Kind::Trait => trait_use(lines, index),
        _ => None,
    }
}

/// The names an enum's `case` line declares, joined by `, `: each part's name, before its value
/// (`= 'active'`), its associated values (`(Int, Int)`) or its parent (`extends Color(1)`).
/// `None` when the line is no case or a part starts with no name.
fn enum_case(line: &str) -> Option<String> {
    let rest = line.strip_prefix("case ")?;
    let mut parts = vec![String::new()];
    let mut depth = 0usize;
    for (_, c) in code_chars(rest, Some("//")) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            ';' | '#' if depth == 0 => break,
            ',' if depth == 0 => parts.push(String::new()),
            _ => {}
        }
        if let Some(part) = parts.last_mut().filter(|_| depth == 0 && c != ',') {
            part.push(c);
        }
    }
    let names: Option<Vec<String>> = parts
        .iter()
        .map(|part| {
            let part = part.trim_start();
            let name: String = part.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            part.starts_with(|c: char| c.is_alphabetic() || c == '_').then_some(name)
        })
        .collect();
    Some(names?.join(", "))
}

/// PHP's trait use in a class, trait or enum: the traits it names, joined by `, `, and its
/// statement on one line, with its adaptation block (`{ foo as bar; A::baz insteadof B; }`,
/// written over the lines below), which names methods the type has under other names.
fn trait_use(lines: &[&str], index: usize) -> Option<(Kind, String, String)> {
    let line = lines[index].trim();
    let rest = line.strip_prefix("use ")?;
    let names_end = rest.find(['{', ';']).unwrap_or(rest.len());
    let names: Vec<&str> = rest[..names_end].split(',').map(str::trim).collect();
    let trait_name = |name: &&str| {
        name.starts_with(|c: char| c.is_alphabetic() || c == '_' || c == '\\')
            && name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '\\')
    };
    if !names.iter().all(trait_name) {
        return None;
    }
    let mut statement = line.to_string();
    if rest[names_end..].starts_with('{') && !line.contains('}') {
        let block = lines.iter().skip(index + 1).take(MAX_ADAPTATION_LINES);
        for next in block {
            if statement.len() + next.len() > MAX_LINE {
                break;
            }
            statement.push(' ');
            statement.push_str(next.trim());
            if next.trim_start().starts_with('}') {
                break;
            }
        }
    }
    Some((Kind::Export, names.join(", "), signature_line(&statement)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_enums_cases_are_named_without_their_values() {
        assert_eq!(enum_case("case Active = 'active';").as_deref(), Some("Active"));
        assert_eq!(enum_case("case Hearts;").as_deref(), Some("Hearts"));
        assert_eq!(enum_case("case north, south").as_deref(), Some("north, south"));
        assert_eq!(enum_case("case upc(Int, Int), qr(String)").as_deref(), Some("upc, qr"));
        assert_eq!(enum_case("case Red extends Color(0xff0000)").as_deref(), Some("Red"));
        // A comma in a value is no second case.
        assert_eq!(enum_case("case Pair = 'a, b'; // a, b").as_deref(), Some("Pair"));
        assert_eq!(enum_case("case 'x':"), None);
        assert_eq!(enum_case("cases = 1"), None);
    }

    #[test]
    fn a_trait_use_keeps_its_adaptations_on_one_line() {
        let lines = ["    use LoggerAwareTrait, FooTrait {", "        foo as bar;", "    }", "    use Other;"];
        assert_eq!(
            trait_use(&lines, 0),
            Some((
                Kind::Export,
                "LoggerAwareTrait, FooTrait".to_string(),
                "use LoggerAwareTrait, FooTrait { foo as bar; }".to_string()
            ))
        );
        assert_eq!(trait_use(&lines, 3), Some((Kind::Export, "Other".to_string(), "use Other".to_string())));
        assert_eq!(trait_use(&["use function strlen;"], 0), None);
    }
}
