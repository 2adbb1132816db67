//! The text of a `$'…'` word: bash's backslash escapes decoded, so
//! `cat $'\x2eenv'` is seen reading `.env` as the shell would.

/// `body` (between `$'` and `'`) decoded; `None` when an escape makes what
/// no text can hold as the shell passes it on: a NUL (which ends the
/// word), a byte past ASCII (a part of a UTF-8 character, or none), or a
/// control character by `\c`.
pub(crate) fn decode(body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len());
    let mut at = 0;
    while let Some(&b) = body.get(at) {
        at += 1;
        if b != b'\\' {
            out.push(b);
            continue;
        }
        let Some(&escape) = body.get(at) else {
            out.push(b'\\');
            break;
        };
        at += 1;
        let byte = match escape {
            b'a' => 0x07_u32,
            b'b' => 0x08,
            b'e' | b'E' => 0x1b,
            b'f' => 0x0c,
            b'n' => 0x0a,
            b'r' => 0x0d,
            b't' => 0x09,
            b'v' => 0x0b,
            b'\\' | b'\'' | b'"' | b'?' => u32::from(escape),
            b'0'..=b'7' => {
                at -= 1;
                number(body, &mut at, 8, 3)?
            }
            b'x' => number(body, &mut at, 16, 2)?,
            b'u' | b'U' => {
                let digits = if escape == b'u' { 4 } else { 8 };
                let code = number(body, &mut at, 16, digits)?;
                let c = char::from_u32(code).filter(|&c| c != '\0')?;
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                continue;
            }
            b'c' => return None,
            // Not an escape: the backslash stays.
            other => {
                out.extend_from_slice(&[b'\\', other]);
                continue;
            }
        };
        let byte = u8::try_from(byte).ok().filter(|&byte| byte != 0 && byte.is_ascii())?;
        out.push(byte);
    }
    Some(out)
}

/// Up to `max` digits in `radix` from `at` (at least one), as a number.
fn number(body: &[u8], at: &mut usize, radix: u32, max: usize) -> Option<u32> {
    let digits = body[*at..].iter().take(max).take_while(|b| char::from(**b).is_digit(radix)).count();
    let text = std::str::from_utf8(&body[*at..*at + digits]).ok()?;
    *at += digits;
    u32::from_str_radix(text, radix).ok()
}

#[cfg(test)]
mod tests {
    use super::decode;

    #[test]
    fn escapes_decode_as_bash_does() {
        let text = |body: &str| decode(body.as_bytes()).map(|bytes| String::from_utf8(bytes).unwrap());
        assert_eq!(text(r"\x2eenv").as_deref(), Some(".env"));
        assert_eq!(text(r"\056env").as_deref(), Some(".env"));
        assert_eq!(text(r"r\x6d").as_deref(), Some("rm"));
        assert_eq!(text(r"\u00e9\n\t\\\'\z").as_deref(), Some("é\n\t\\'\\z"));
        assert_eq!(text(r"\x41\x4142").as_deref(), Some("AA42"));
        for undecodable in [r"\0", r"\xff", r"\377", r"\cA", r"\x", r"\u"] {
            assert_eq!(text(undecodable), None, "{undecodable}");
        }
    }
}
