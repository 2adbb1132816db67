//! Inputs that must not break the outline: empty, broken, huge, deeply nested; and determinism.

use std::path::Path;
use std::time::Instant;

use lean_ctx_outline::{
    KeywordFamily, Kind, Language, aggressive, keyword_outline, outline, render_map, render_signatures,
};

#[test]
fn empty_and_blank_files_have_empty_outlines() {
    for language in Language::ALL {
        for source in ["", "\n\n   \n"] {
            let outline = outline(language, source);
            assert_eq!(outline.degraded, None, "{language:?}");
            assert!(outline.items.is_empty() && outline.imports.is_empty(), "{language:?}: {outline:?}");
            assert_eq!(render_signatures(&outline), "");
            assert_eq!(render_map(&outline), "");
            assert_eq!(aggressive(language, source), "", "{language:?}");
        }
    }
}

#[test]
fn syntax_errors_still_outline_what_parses() {
    let cases: [(Language, &str, &[&str]); 4] = [
        (
            Language::Rust,
            "use std::io;\n\npub fn before(a: u8) -> u8 { a }\n\nfn broken( {\n    let = ;\n\npub struct After { x: u8 }\n\nimpl After {\n    pub fn method(&self) {}\n}\n",
            &["before", "After", "method"],
        ),
        (
            Language::Python,
            "import os\n\ndef before():\n    pass\n\ndef broken(:\n    return )\n\nclass After:\n    def method(self):\n        pass\n",
            &["before", "After", "method"],
        ),
        (
            Language::TypeScript,
            "export function before(): void {}\nconst x = {{{;\nexport class After {\n  method(): void {}\n}\n",
            &["before", "After", "method"],
        ),
        (Language::Json, "{\n  \"ok\": 1,\n  \"bad\": [1, 2,,\n  \"after\": true\n}\n", &["ok"]),
    ];
    for (language, source, names) in cases {
        let outline = outline(language, source);
        assert_eq!(outline.degraded, None);
        let signatures = render_signatures(&outline);
        for name in names {
            assert!(signatures.contains(name), "{language:?}: `{name}` missing:\n{signatures}");
        }
    }
}

#[test]
fn five_megabyte_file_is_outlined() {
    let mut source = String::new();
    let mut count = 0;
    while source.len() < 5 << 20 {
        source.push_str(&format!(
            "/// Item {count}.\npub fn function_{count}(a: u32, b: &str) -> Result<u32, String> {{\n    let x = a + {count}; // add\n    if b.is_empty() {{ return Err(\"empty\".into()); }}\n    Ok(x * 2)\n}}\n\npub struct Record{count} {{ field: Vec<u8> }}\n\n"
        ));
        count += 1;
    }
    let started = Instant::now();
    let outline = outline(Language::Rust, &source);
    let parsed = started.elapsed();
    let signatures = render_signatures(&outline);
    println!(
        "{} bytes, {} definitions: outline {parsed:?}, + render {:?}",
        source.len(),
        outline.items.len(),
        started.elapsed()
    );
    assert_eq!(outline.items.len(), count * 2);
    assert_eq!(outline.items.iter().filter(|d| d.kind == Kind::Function).count(), count);
    // Speed is not asserted: on a very loaded machine a debug build may hit the parse time budget,
    // and then the heuristic outline (which finds the same items) must be the one returned.
    match &outline.degraded {
        // Each struct's private field is counted on its line.
        None => assert!(signatures.ends_with(&format!("pub struct Record{} {{ +1 private }}\n", count - 1))),
        Some(reason) => {
            assert_eq!(reason, "parse exceeded its time budget");
            println!("note: parse time budget hit; heuristic outline used");
        }
    }
}

#[test]
fn input_over_the_parse_limit_gets_the_heuristic_outline() {
    let source = "def handler(event):\n    return event\n\n".repeat(250_000);
    let started = Instant::now();
    let outline = outline(Language::Python, &source);
    println!("{} bytes: heuristic outline in {:?}", source.len(), started.elapsed());
    assert!(outline.degraded.as_deref().is_some_and(|reason| reason.contains("parse limit")), "{:?}", outline.degraded);
    assert_eq!(outline.items.len(), 250_000);
    assert!(render_map(&outline).starts_with("[outline incomplete: lines 1-750000 not parsed (input is "));
}

#[test]
fn keyword_heads_left_open_are_joined_within_a_bound() {
    // 20,000 calls whose parentheses never close, then a head whose parameters close only on a
    // 200 kB line: a head is joined with its next lines only as far as the longest line a head is
    // read from, so the wide head is its own line (in Dart, a call: no function without its body).
    let calls = "foo(\n".repeat(20_000);
    let wide = "a: Int, ".repeat(25_000);
    let general = format!("{calls}fun wide(\n{wide}) {{}}\nfun after() {{}}\n");
    let typed = format!("{calls}void wide(\n{wide}) {{}}\nvoid after() {{}}\n");
    let cases: [(KeywordFamily, &str, &[&str]); 2] = [
        (KeywordFamily::General, &general, &["fun wide", "fun after()"]),
        (KeywordFamily::Typed, &typed, &["void after()"]),
    ];
    for (family, source, expected) in cases {
        let definitions = keyword_outline(source, family);
        let listed: Vec<&str> = definitions.iter().map(|definition| definition.signature.as_str()).collect();
        assert_eq!(listed, expected, "{family:?}");
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    let depth = 100_000;
    let cases = [
        (Language::Json, format!("{}{}", "[".repeat(depth), "]".repeat(depth))),
        (Language::Python, format!("x = {}{}\n", "(".repeat(depth / 2), ")".repeat(depth / 2))),
        (Language::Rust, format!("fn f() {{{}{}}}\n", "{".repeat(depth / 2), "}".repeat(depth / 2))),
        (Language::Rust, format!("{}{}\n", "mod m { ".repeat(depth / 10), "}".repeat(depth / 10))),
        (Language::Markdown, "> ".repeat(depth / 10) + "# deep\n"),
        // Objects of methods nest under keys; how deep is looked into is bounded.
        (
            Language::JavaScript,
            format!("module.exports = {{\n{}f() {{}}{}\n}};\n", "a: {".repeat(depth / 5), "}".repeat(depth / 5)),
        ),
    ];
    for (language, source) in cases {
        let outline = outline(language, &source);
        render_map(&outline);
        aggressive(language, &source);
    }
}

#[test]
fn views_are_byte_deterministic() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for entry in std::fs::read_dir(fixtures).unwrap() {
        for file in std::fs::read_dir(entry.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            let Some(language) = Language::from_path(&path) else { continue };
            let source = std::fs::read_to_string(&path).unwrap();
            let (first, second) = (outline(language, &source), outline(language, &source));
            assert_eq!(first, second);
            assert_eq!(render_signatures(&first), render_signatures(&second));
            assert_eq!(render_map(&first), render_map(&second));
            assert_eq!(aggressive(language, &source), aggressive(language, &source));
        }
    }
}

#[test]
fn languages_from_paths() {
    let cases = [
        ("src/lib.rs", Some(Language::Rust)),
        ("a/b.PY", Some(Language::Python)),
        ("x.pyi", Some(Language::Python)),
        ("app.mjs", Some(Language::JavaScript)),
        ("App.jsx", Some(Language::JavaScript)),
        ("index.d.ts", Some(Language::TypeScript)),
        ("App.tsx", Some(Language::Tsx)),
        ("main.go", Some(Language::Go)),
        ("A.java", Some(Language::Java)),
        ("buf.h", Some(Language::C)),
        ("shapes.hpp", Some(Language::Cpp)),
        ("shapes.cc", Some(Language::Cpp)),
        ("Inventory.cs", Some(Language::CSharp)),
        ("Rakefile", Some(Language::Ruby)),
        ("lib.gemspec", Some(Language::Ruby)),
        ("README.md", Some(Language::Markdown)),
        ("tsconfig.jsonc", Some(Language::Json)),
        ("ci.yml", Some(Language::Yaml)),
        ("Cargo.toml", Some(Language::Toml)),
        ("Makefile", None),
        ("notes.txt", None),
        ("no_extension", None),
    ];
    for (path, expected) in cases {
        assert_eq!(Language::from_path(Path::new(path)), expected, "{path}");
    }
    let names: Vec<&str> = Language::ALL.iter().map(|l| l.name()).collect();
    assert_eq!(
        names,
        [
            "rust",
            "python",
            "javascript",
            "typescript",
            "tsx",
            "go",
            "java",
            "c",
            "cpp",
            "csharp",
            "ruby",
            "markdown",
            "json",
            "yaml",
            "toml"
        ]
    );
}

#[test]
fn long_signatures_keep_name_and_parameters_and_cut_on_a_character_boundary() {
    let parameters: Vec<String> = (0..4).map(|i| format!("argument_{i}: Vec<Option<String>>")).collect();
    let tail = "Résultat<HashMap<String, Vec<Option<Box<dyn Fn(u8) -> u8>>>>, Erreur>".repeat(8);
    let source = format!("fn große_funktion(π: f64,\n    {}) -> {tail} {{}}\n", parameters.join(",\n    "));
    let signature = &outline(Language::Rust, &source).items[0].signature;
    // At most 200 characters: a word the cut would split goes whole.
    assert!((190..=200).contains(&signature.chars().count()), "{signature}");
    // Over 120 characters the types lose what they nest; over 200 the return type is cut.
    let emptied: Vec<String> = (0..4).map(|i| format!("argument_{i}: Vec<…>")).collect();
    let core = format!("fn große_funktion(π: f64, {})", emptied.join(", "));
    assert!(signature.starts_with(&format!("{core} -> Résultat<HashMap<…>, Erreur>Résultat<")), "{signature}");
    assert!(signature.ends_with('…'));

    // Parameters past any reasonable length are bounded all the same.
    let parameters: Vec<String> = (0..40).map(|i| format!("argument_{i}: Vec<Option<String>>")).collect();
    let source = format!("fn große_funktion(π: f64,\n    {}) -> Résultat {{}}\n", parameters.join(",\n    "));
    let signature = &outline(Language::Rust, &source).items[0].signature;
    // Their types lose what is nested in them first, so every parameter name stays.
    assert!(signature.starts_with("fn große_funktion(π: f64, argument_0: Vec<…>, argument_1: Vec<…>"), "{signature}");
    assert!(signature.contains("argument_39: Vec<…>)"), "{signature}");
    assert!(signature.chars().count() <= 1_000);
    // Past the bound even without nested types, the line is cut all the same.
    let parameters: Vec<String> = (0..80).map(|i| format!("argument_{i}: Options")).collect();
    let source = format!("fn große_funktion(π: f64,\n    {}) -> Résultat {{}}\n", parameters.join(",\n    "));
    let signature = &outline(Language::Rust, &source).items[0].signature;
    assert!(signature.contains("argument_20") && signature.ends_with('…'), "{signature}");
    assert!(signature.chars().count() <= 1_000);
}

#[test]
fn crlf_line_endings() {
    let source = "class A:\r\n    def f(self):  # c\r\n        return 1\r\n\r\n\r\ndef g():\r\n    pass\r\n";
    let outline = outline(Language::Python, source);
    assert_eq!(render_signatures(&outline), "1-3 class A\n 2-3 def f(self)\n6-7 def g()\n");
    assert_eq!(
        aggressive(Language::Python, source),
        "class A:\n    def f(self):\n        return 1\ndef g():\n    pass\n"
    );
}

#[test]
fn syntax_errors_that_hide_no_definition_are_not_reported() {
    // Unknown macros trip the C grammar: in front of a declaration (the function is still
    // found) and as a statement without `;` inside a body.
    let source = "INLINE uint32_t rotr32(uint32_t w, uint32_t c) {\n  return (w >> c) | (w << (32 - c));\n}\n\n\
                  static void consume(lexer_t *self, bool skip) {\n  if (skip) {\n    LOG(\"skip\", self->lookahead)\n  } \
                  else {\n    LOG(\"consume\", self->lookahead)\n  }\n}\n";
    let found = outline(Language::C, source);
    let signatures = render_signatures(&found);
    assert!(signatures.contains("rotr32(uint32_t w, uint32_t c)") && signatures.contains("consume("), "{signatures}");
    assert_eq!(found.unparsed, [], "{signatures}");
    // A definition the same grammar loses is reported.
    let source = "#if defined(_WIN32)\nstatic int WIN_CDECL cmp(void* ctx, const void* lp) {\n#else\n\
                  static int cmp(const void *lp, void *ctx) {\n#endif\n  return 0;\n}\n";
    let lost = outline(Language::C, source);
    assert!(!lost.unparsed.is_empty(), "{}", render_signatures(&lost));
}

#[test]
fn a_large_module_bound_to_a_function_called_at_once_is_read_in_one_pass() {
    // Each statement of such a body asks whether it is at the module's level, and each entry of
    // the returned object whether the body declared it: answered once per module, not per
    // statement and entry (cubic before, 45 s in a debug build at this size).
    let count = 1_500;
    let assignments: String = (0..count).map(|i| format!("  api.p{i} = function () {{}};\n")).collect();
    let entries: Vec<String> = (0..count).map(|i| format!("a{i}: b{i}")).collect();
    let source = format!(
        "var api = (function () {{\n  var api = {{}};\n{assignments}  function last() {{}}\n  return {{ {}, z: last }};\n}})();\n",
        entries.join(", ")
    );
    let started = Instant::now();
    let views = outline(Language::JavaScript, &source);
    println!("{count} statements and entries: {:?}", started.elapsed());
    let map = render_map(&views);
    assert!(map.starts_with("1-"), "{map}");
    assert!(map.contains(&format!("api.p{}", count - 1)) && map.contains("fn last"), "{map}");
}

#[test]
fn nested_macro_calls_are_parsed_again_within_a_bound() {
    // Each nesting level is parsed again on its own; past the bound the region is named.
    let depth = 5_000;
    let source = format!("{}pub fn deep() {{}}{}\n", "m! { ".repeat(depth), "}".repeat(depth));
    let started = Instant::now();
    let deep = outline(Language::Rust, &source);
    println!("{depth} nested macro calls: {:?}", started.elapsed());
    assert_eq!(deep.unparsed, [(1, 1)]);
    assert!(render_map(&deep).starts_with("[outline incomplete: line 1 not parsed]\n"));
    // Two or three levels, as real code nests them, are outlined.
    let shallow =
        outline(Language::Rust, "cfg_net! {\n    cfg_unix! {\n        cfg_io! { pub fn shallow() {} }\n    }\n}\n");
    assert_eq!(render_map(&shallow), "3 fn shallow\n");
}

#[test]
fn a_declaration_the_grammar_cannot_read_is_reported_with_its_lines() {
    // Generic call signatures at the start of a line, unindented: the second parse that
    // separates indented ones cannot help, so the lines are named instead of dropped silently.
    let source = "export const both: {\n<A extends (...a: Array<any>) => any>(f: A): A\n\
                  <A extends (...a: Array<any>) => any>(f: A, n: number): A\n} = pick\n\n\
                  export function after(x: number): number {\n  return x\n}\n";
    let found = outline(Language::TypeScript, source);
    let signatures = render_signatures(&found);
    assert!(!found.unparsed.is_empty(), "{signatures}");
    assert!(signatures.starts_with("[outline incomplete: line"), "{signatures}");
}

#[test]
fn a_shortened_head_keeps_its_whole_text_for_tools_that_read_types() {
    let source = "class Client:\n    def _init_transport(\n        self,\n        verify: VerifyTypes = True,\n        cert: CertTypes | None = None,\n        http1: bool = True,\n        http2: bool = False,\n        limits: Limits = DEFAULT_LIMITS,\n        transport: BaseTransport | None = None,\n        app: typing.Callable[..., typing.Any] | None = None,\n        trust_env: bool = True,\n    ) -> BaseTransport:\n        return transport\n\n    def close(self) -> None:\n        pass\n";
    let outline = outline(Language::Python, source);
    let methods = &outline.items[0].children;
    let long = &methods[0];
    // The view names the parameters, marking their dropped types, and keeps the return type.
    assert_eq!(
        long.signature,
        "def _init_transport(self, verify…, cert…, http1…, http2…, limits…, transport…, app…, trust_env…) -> BaseTransport"
    );
    let uncut = long.uncut.as_deref().expect("the whole head is kept");
    assert!(uncut.ends_with(") -> BaseTransport"), "{uncut}");
    assert!(uncut.contains("typing.Callable[..., typing.Any]"), "{uncut}");
    assert_eq!(methods[1].signature, "def close(self) -> None");
    assert_eq!(methods[1].uncut, None, "a head shown whole is not stored twice");
}
