//! The aggressive view per language: comments go, comment-like text in literals stays, and the
//! code tokens are exactly those of the input.

use tree_sitter::Tree;

use crate::{Language, aggressive, parse};

/// Per language: a source with comments (each containing `CMT`), literals that look like
/// comments, blank lines, trailing whitespace and inner space runs; and texts that must survive.
const CASES: &[(Language, &str, &[&str])] = &[
    (
        Language::Rust,
        "//! CMT crate doc\nuse std::fmt; // CMT trailing\n\n/* CMT block */\nfn main() {\n    let s = \"// not a comment\";   \n    let r = r#\"/* also not */\"#;\n\n\n    let t = \"line one\n    \nline three\"; /* CMT */ let  x  =  1;\n    let y = x/*CMT*/+1;\n}\n",
        &["\"// not a comment\"", "r#\"/* also not */\"#", "\"line one\n    \nline three\"", "let x = 1;", "x +1"],
    ),
    (
        Language::Python,
        "#!/usr/bin/env python3\n# CMT header\nimport os  # CMT trailing\n\n\ndef f(x):\n    \"\"\"Docstring # not a comment.\"\"\"\n    s = '# nope'\n    t = \"\"\"a\n\n    b\"\"\"   \n    return  x  +  1   # CMT\n",
        &[
            "#!/usr/bin/env python3\nimport os\n",
            "\"\"\"Docstring # not a comment.\"\"\"",
            "'# nope'",
            "\"\"\"a\n\n    b\"\"\"\n",
            "    return x + 1\n",
        ],
    ),
    (
        Language::JavaScript,
        "// CMT\nconst url = \"http://example.com/*not*/\"; /* CMT */\nconst re = /\\/\\/  x/g;\nconst tpl = `a  // b\n  c`;\nfunction f(a /* CMT */, b) {\n\n  return a  +  b; // CMT\n}\n",
        &["\"http://example.com/*not*/\"", "/\\/\\/  x/g", "`a  // b\n  c`", "function f(a , b) {", "return a + b;"],
    ),
    (
        Language::TypeScript,
        "/** CMT */\nexport interface A {\n  // CMT\n  b: string; /* CMT */\n}\nconst s: string = '// not';\n",
        &["export interface A {", "b: string;", "'// not'"],
    ),
    (
        Language::Tsx,
        "// CMT\nconst el = <div title=\"a  // b\">{/* CMT */}text</div>;\n",
        &["title=\"a  // b\"", "text</div>"],
    ),
    (
        Language::Go,
        "//go:build linux\n\n// Package p CMT.\npackage p\n\nimport \"fmt\" // CMT\n\n/* CMT block */\nfunc F() string {\n\ts := \"// not a comment\"\n\tr := `raw /* not */\n\n\tx`\n\treturn  fmt.Sprint(s,  r) // CMT\n}\n",
        &["//go:build linux", "\"// not a comment\"", "`raw /* not */\n\n\tx`", "\treturn fmt.Sprint(s, r)\n"],
    ),
    (
        Language::Java,
        "/** CMT javadoc */\nclass A {\n    // CMT\n    String s = \"/* not */ // not\";\n    String t = \"\"\"\n        text  block // not\n        \"\"\";\n    int f(int a /* CMT */) { return a; }\n}\n",
        &["\"/* not */ // not\"", "\"\"\"\n        text  block // not\n        \"\"\"", "int f(int a ) { return a; }"],
    ),
    (
        Language::C,
        "#include <stdio.h> // CMT\n#define GREETING \"hi  // not\"  /* CMT */\n/* CMT */\nint main(void) {\n    char *s = \"/* not */\";\n    char c = '/';\n    return  0; // CMT\n}\n",
        &["#include <stdio.h>\n", "#define GREETING \"hi  // not\"\n", "\"/* not */\"", "'/'", "    return 0;\n"],
    ),
    (
        Language::Cpp,
        "// CMT\nnamespace n {\nauto s = R\"(raw // not\n  /* not */)\";\nint f() { return 1; } /* CMT */\n}\n",
        &["R\"(raw // not\n  /* not */)\"", "int f() { return 1; }\n"],
    ),
    (
        Language::CSharp,
        "// CMT\nclass A {\n    /// <summary>CMT</summary>\n    string s = @\"verbatim // not\";\n    string t = $\"interp {1} /* not */\";\n    int F() => 1; /* CMT */\n}\n",
        &["@\"verbatim // not\"", "$\"interp {1} /* not */\"", "    int F() => 1;\n"],
    ),
    (
        Language::Ruby,
        "#!/usr/bin/env ruby -w\n# CMT\n=begin\nCMT block\n=end\ns = '# nope'\nt = <<~EOS\n  heredoc # not a comment\n\n  kept\nEOS\ndef f(x)\n  x  +  1 # CMT\nend\n",
        &["#!/usr/bin/env ruby -w\ns = '# nope'", "  heredoc # not a comment\n\n  kept\nEOS\n", "  x + 1\n"],
    ),
    (
        Language::Json,
        "{\n  // CMT\n  \"url\": \"http://x//y\",   \n\n  \"a\":   1\n}\n",
        &["\"url\": \"http://x//y\",\n", "\"a\": 1\n"],
    ),
    (
        Language::Yaml,
        "# CMT\nkey: \"value # not\"   \nplain: a  b  c\nblock: |\n  line # not\n\n\n  after blank\nlist:\n  - x # CMT\n",
        &["key: \"value # not\"\n", "plain: a  b  c\n", "block: |\n  line # not\n\n\n  after blank\n", "  - x\n"],
    ),
    (
        Language::Toml,
        "# CMT\ntitle = \"a # not\"  # CMT\nmulti = \"\"\"\nline  # not\n\nend\"\"\"\n\n[table]\nkey  =  1\n",
        &["title = \"a # not\"\n", "\"\"\"\nline  # not\n\nend\"\"\"", "key = 1\n"],
    ),
];

/// The leaf tokens of a tree without comments: what the compiler sees.
fn code_tokens(language: Language, source: &str, tree: &Tree) -> Vec<(String, String)> {
    let comments = language.lexical().comments;
    let mut tokens = Vec::new();
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        let comment = comments.contains(&node.kind());
        if !comment && node.child_count() == 0 {
            let text = &source[node.byte_range()];
            // A C macro body token runs to the end of the line, so it owns trailing spaces.
            let text = if node.kind() == "preproc_arg" { text.trim_end() } else { text };
            tokens.push((node.kind().to_string(), text.to_string()));
        }
        if (comment || !cursor.goto_first_child()) && !super::next_subtree(&mut cursor) {
            return tokens;
        }
    }
}

#[test]
fn comments_go_literals_and_code_stay() {
    for &(language, source, kept) in CASES {
        let output = aggressive(language, source);
        assert!(!output.contains("CMT"), "{language:?}: a comment survived:\n{output}");
        for text in kept {
            assert!(output.contains(text), "{language:?}: lost {text:?}:\n{output}");
        }
        let before = parse::parse(language, &parse::Source::new(source)).unwrap();
        let after = parse::parse(language, &parse::Source::new(&output)).unwrap();
        assert!(!before.root_node().has_error(), "{language:?}: the test input itself does not parse");
        assert!(!after.root_node().has_error(), "{language:?}: output does not parse:\n{output}");
        assert_eq!(
            code_tokens(language, source, &before),
            code_tokens(language, &output, &after),
            "{language:?}: code tokens changed:\n{output}"
        );
    }
}

#[test]
fn blank_lines_and_trailing_whitespace_go_outside_literals() {
    let source = "fn main() {   \n\n\n    let a  =  1;\t\n    // only a comment\n\n    let b = \"x  \n\n  y\";\n}\n\n";
    assert_eq!(aggressive(Language::Rust, source), "fn main() {\n    let a = 1;\n    let b = \"x  \n\n  y\";\n}\n");
}

#[test]
fn a_blank_line_ending_a_continuation_stays() {
    let python = "x = \"a\" \\\n\n\ny = 2\n";
    assert_eq!(aggressive(Language::Python, python), "x = \"a\" \\\n\ny = 2\n");
    let c = "#define A 1 \\\n\nint y;\n";
    assert_eq!(aggressive(Language::C, c), c);
}

#[test]
fn markdown_keeps_paragraph_breaks_and_code_blocks() {
    let source = "# Title   \n\n\n\nPara  with  spaces.  \n\n```sh\n# not a heading\n\n\necho  hi   \n```\n\n\n";
    let expected = "# Title\n\nPara  with  spaces.\n\n```sh\n# not a heading\n\n\necho  hi   \n```\n";
    assert_eq!(aggressive(Language::Markdown, source), expected);
}

#[test]
fn comment_between_tokens_keeps_them_apart() {
    assert_eq!(aggressive(Language::C, "int/*CMT*/x = a/*CMT*/-/*CMT*/-b;\n"), "int x = a - -b;\n");
    // A multi-line comment separates statements like a line break (Go/JS semicolon insertion).
    assert_eq!(
        aggressive(Language::Go, "package p\nvar a = 1/* CMT\n*/var b = 2\n"),
        "package p\nvar a = 1\nvar b = 2\n"
    );
}

#[test]
fn unparseable_input_is_returned_unchanged() {
    let huge = format!("// keep\n{}", " ".repeat(parse::MAX_PARSE_BYTES));
    assert_eq!(aggressive(Language::Rust, &huge), huge);
}
