//! The languages this crate understands and the per-grammar facts that every view needs.

use std::path::Path;

use crate::shebang;

/// A source language with a tree-sitter grammar behind it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    Rust,
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Go,
    Java,
    C,
    Cpp,
    CSharp,
    Ruby,
    Markdown,
    Json,
    Yaml,
    Toml,
}

/// Node kinds that the aggressive view treats specially.
pub(crate) struct Lexical {
    /// Comment nodes: removed by the aggressive view and skipped in signatures.
    pub comments: &'static [&'static str],
    /// Nodes whose bytes are kept verbatim (string-like literals, code blocks), because whitespace
    /// inside them is content.
    pub literals: &'static [&'static str],
    /// Comments starting with one of these are directives to a tool, not prose, so they are kept.
    pub directives: &'static [&'static str],
}

impl Language {
    /// Every supported language, in declaration order.
    pub const ALL: [Language; 15] = [
        Language::Rust,
        Language::Python,
        Language::JavaScript,
        Language::TypeScript,
        Language::Tsx,
        Language::Go,
        Language::Java,
        Language::C,
        Language::Cpp,
        Language::CSharp,
        Language::Ruby,
        Language::Markdown,
        Language::Json,
        Language::Yaml,
        Language::Toml,
    ];

    /// Guesses the language from a file name's extension (case-insensitive) or, for a few
    /// conventional extension-less files, from the whole name. `.h` is read as C.
    pub fn from_path(path: &Path) -> Option<Language> {
        let file_name = path.file_name()?.to_str()?;
        match file_name {
            "Rakefile" | "Gemfile" | "Guardfile" | "Podfile" => return Some(Language::Ruby),
            _ => {}
        }
        Language::from_extension(&path.extension()?.to_str()?.to_ascii_lowercase())
    }

    /// [`Language::from_path`], or for a script whose path says nothing of its language
    /// (`bin/thor`, see [`crate::reads_shebang`]), the language of the interpreter its `#!` line
    /// names: `#!/usr/bin/env ruby`, `#!/usr/bin/env -S python3 -u`. Only the first line of
    /// `source` is read. What reads a file's text uses this, so that its views, its symbols and
    /// its graph facts come from one reading.
    pub fn detect(path: &Path, source: &str) -> Option<Language> {
        Language::from_path(path).or_else(|| shebang::script_extension(path, source).and_then(Language::from_extension))
    }

    /// The language of files with the lowercase extension `ext`.
    fn from_extension(ext: &str) -> Option<Language> {
        Some(match ext {
            "rs" => Language::Rust,
            "py" | "pyi" | "pyw" => Language::Python,
            "js" | "mjs" | "cjs" | "jsx" => Language::JavaScript,
            "ts" | "mts" | "cts" => Language::TypeScript,
            "tsx" => Language::Tsx,
            "go" => Language::Go,
            "java" => Language::Java,
            "c" | "h" => Language::C,
            "cc" | "cpp" | "cxx" | "c++" | "hh" | "hpp" | "hxx" | "h++" | "ipp" | "inl" => Language::Cpp,
            "cs" => Language::CSharp,
            "rb" | "rake" | "gemspec" | "ru" => Language::Ruby,
            "md" | "markdown" => Language::Markdown,
            "json" | "jsonc" => Language::Json,
            "yaml" | "yml" => Language::Yaml,
            "toml" => Language::Toml,
            _ => return None,
        })
    }

    /// Whether it is a programming language, whose outline lists definitions; Markdown's lists
    /// headings and the data formats' keys.
    pub fn is_code(self) -> bool {
        !matches!(self, Language::Markdown | Language::Json | Language::Yaml | Language::Toml)
    }

    /// A stable lowercase identifier, suitable for logs and wire formats.
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "rust",
            Language::Python => "python",
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::Go => "go",
            Language::Java => "java",
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::CSharp => "csharp",
            Language::Ruby => "ruby",
            Language::Markdown => "markdown",
            Language::Json => "json",
            Language::Yaml => "yaml",
            Language::Toml => "toml",
        }
    }

    /// The tree-sitter grammar, for queries over a tree from [`crate::outline_and_tree`].
    pub fn grammar(self) -> tree_sitter::Language {
        match self {
            Language::Rust => tree_sitter_rust::LANGUAGE.into(),
            Language::Python => tree_sitter_python::LANGUAGE.into(),
            Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Language::Go => tree_sitter_go::LANGUAGE.into(),
            Language::Java => tree_sitter_java::LANGUAGE.into(),
            Language::C => tree_sitter_c::LANGUAGE.into(),
            Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Language::CSharp => tree_sitter_c_sharp::LANGUAGE.into(),
            Language::Ruby => tree_sitter_ruby::LANGUAGE.into(),
            Language::Markdown => tree_sitter_md::LANGUAGE.into(),
            Language::Json => tree_sitter_json::LANGUAGE.into(),
            Language::Yaml => tree_sitter_yaml::LANGUAGE.into(),
            Language::Toml => tree_sitter_toml_ng::LANGUAGE.into(),
        }
    }

    pub(crate) fn lexical(self) -> &'static Lexical {
        const NONE: &[&str] = &[];
        match self {
            Language::Rust => &Lexical {
                comments: &["line_comment", "block_comment"],
                literals: &["string_literal", "raw_string_literal", "char_literal"],
                directives: NONE,
            },
            Language::Python => &Lexical { comments: &["comment"], literals: &["string"], directives: NONE },
            Language::JavaScript | Language::TypeScript | Language::Tsx => &Lexical {
                comments: &["comment", "html_comment"],
                literals: &["string", "template_string", "regex", "jsx_text", "template_literal_type"],
                directives: NONE,
            },
            Language::Go => &Lexical {
                comments: &["comment"],
                literals: &["interpreted_string_literal", "raw_string_literal", "rune_literal"],
                // `//go:build`, `//go:embed`, `//go:generate` and legacy `// +build` change what the code means.
                directives: &["//go:", "// +build"],
            },
            Language::Java => &Lexical {
                comments: &["line_comment", "block_comment"],
                literals: &["string_literal", "character_literal"],
                directives: NONE,
            },
            Language::C | Language::Cpp => &Lexical {
                comments: &["comment"],
                // A macro body (`preproc_arg`) is raw text to the grammar, so strings in it are not
                // string nodes: keep it whole.
                literals: &["string_literal", "raw_string_literal", "char_literal", "system_lib_string", "preproc_arg"],
                directives: NONE,
            },
            Language::CSharp => &Lexical {
                comments: &["comment"],
                literals: &[
                    "string_literal",
                    "verbatim_string_literal",
                    "raw_string_literal",
                    "interpolated_string_expression",
                    "character_literal",
                ],
                directives: NONE,
            },
            Language::Ruby => &Lexical {
                comments: &["comment"],
                literals: &[
                    "string",
                    "heredoc_body",
                    "regex",
                    "subshell",
                    "delimited_symbol",
                    "string_array",
                    "symbol_array",
                    "character",
                    "uninterpreted",
                ],
                directives: NONE,
            },
            Language::Markdown => &Lexical {
                comments: NONE,
                literals: &["fenced_code_block", "indented_code_block", "html_block"],
                directives: NONE,
            },
            Language::Json => &Lexical { comments: &["comment"], literals: &["string"], directives: NONE },
            // Plain scalars keep their inner spacing (`a:  b  c` has the value `b  c`).
            Language::Yaml => &Lexical {
                comments: &["comment"],
                literals: &["plain_scalar", "double_quote_scalar", "single_quote_scalar", "block_scalar"],
                directives: NONE,
            },
            Language::Toml => &Lexical { comments: &["comment"], literals: &["string"], directives: NONE },
        }
    }
}
