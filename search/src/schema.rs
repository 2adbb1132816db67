//! The index schema. Bump [`SCHEMA_VERSION`] whenever a field, a tokenizer or
//! the meaning of a stored value changes: an index of another version is
//! deleted and rebuilt rather than read with wrong assumptions. What the
//! symbol extractor finds is versioned by its fingerprint
//! ([`crate::SearchConfig::extractor_version`]), with no bump: see [`index_version`].

use std::path::Path;

use tantivy::columnar::StrColumn;
use tantivy::schema::{FAST, Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions, Value};
use tantivy::tokenizer::{LowerCaser, RawTokenizer, TextAnalyzer};
use tantivy::{DocId, Index, SegmentReader, TantivyDocument, Term};

use crate::language::language_of;
use crate::paths::display;
use crate::symbols::{self, Symbol};
use crate::tokenizer::{CODE_TOKENIZER, CodeTokenizer};
use crate::walk::FileStamp;

// 3: symbol lines point at the declaration, not at attributes or decorators in front of it.
// 4: symbols are stored with their owner.
// 5: content leaves out what `SearchConfig::index_mask` masks (secrets and their markers).
// 6: a member defined outside its owner (`exports.parse = function`, a Go method in another file
//    than its type) is stored by its own name, with that owner.
// 7: a file-level JavaScript/TypeScript `let`/`var` is a symbol, and a C++ header with nlohmann's
//    macros keeps its classes' members: changes of the extractor its fingerprint's samples do
//    not show.
// 8: a symbol's owner is the path of the modules and types it is nested in (`Thor::Util`), so a
//    qualified search tells `Thor::Util.snake_case` from `Other::Util.snake_case`.
// 9: the keyword outline lists the cases and trait uses of a PHP type written on one line and
//    each of Lua's functions written one after another on a line: symbols the fingerprint's
//    samples do not show.
// 10: the keyword outline reads a line statement by statement (`fun a() {} fun b() {}`, `const A =
//    1; const B = 2;` list both), and quotes and comments in a head no longer hide a one-line
//    body's members or the function after an annotation: symbols the fingerprint's samples do
//    not show.
// 11: a Ruby alias named by a quoted symbol (`alias_method :'scan_tag_#', :x`), and a CommonJS export
//    of another name (`exports.Old = New`), are symbols, and each name of a declaration over
//    several lines is at its own line: changes the fingerprint's samples do not show.
// 12: a name an ES export list gives (`export { a as b }`, from this module or another) is a
//    symbol, and so is each name of a Python assignment binding a public one (`s = attributes`).
pub(crate) const SCHEMA_VERSION: u32 = 12;

/// What an index's `schema-version` file holds: [`SCHEMA_VERSION`], and the fingerprint of the
/// extractor its symbols came from when it has one (`4-1f0c…`). An extractor that finds other
/// symbols (an outline that lists more) gives another, so an index of unchanged files is rebuilt
/// rather than kept with the symbols the old one found.
pub(crate) fn index_version(extractor_version: &str) -> String {
    match extractor_version {
        "" => SCHEMA_VERSION.to_string(),
        fingerprint => format!("{SCHEMA_VERSION}-{fingerprint}"),
    }
}

/// Symbol names, whole and lowercased, for exact and prefix lookups.
const SYMBOL_NAME_TOKENIZER: &str = "symbol_name";

#[derive(Clone, Copy, Debug)]
pub(crate) struct Fields {
    /// Root-relative path: the document key (also a fast field for filtering).
    pub path: Field,
    pub language: Field,
    pub size: Field,
    pub mtime_ns: Field,
    /// File text through the code tokenizer; indexed, not stored (the file is read for snippets).
    pub content: Field,
    /// Symbol names through the code tokenizer, so bm25 favours definitions.
    pub symbol_words: Field,
    /// Symbol names as whole lowercased terms.
    pub symbol_names: Field,
    /// The symbol list as stored text (`symbols::encode`).
    pub symbols: Field,
}

pub(crate) fn schema() -> Schema {
    let mut builder = Schema::builder();
    let code = |record| {
        TextOptions::default()
            .set_indexing_options(TextFieldIndexing::default().set_tokenizer(CODE_TOKENIZER).set_index_option(record))
    };
    builder.add_text_field("path", STRING | STORED | FAST);
    builder.add_text_field("language", STRING | STORED);
    builder.add_u64_field("size", STORED);
    builder.add_u64_field("mtime_ns", STORED);
    builder.add_text_field("content", code(IndexRecordOption::WithFreqs));
    builder.add_text_field("symbol_words", code(IndexRecordOption::WithFreqs));
    builder.add_text_field(
        "symbol_names",
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(SYMBOL_NAME_TOKENIZER)
                .set_index_option(IndexRecordOption::Basic),
        ),
    );
    builder.add_text_field("symbols", STORED);
    builder.build()
}

impl Fields {
    pub(crate) fn of(schema: &Schema) -> tantivy::Result<Fields> {
        Ok(Fields {
            path: schema.get_field("path")?,
            language: schema.get_field("language")?,
            size: schema.get_field("size")?,
            mtime_ns: schema.get_field("mtime_ns")?,
            content: schema.get_field("content")?,
            symbol_words: schema.get_field("symbol_words")?,
            symbol_names: schema.get_field("symbol_names")?,
            symbols: schema.get_field("symbols")?,
        })
    }

    pub(crate) fn path_term(&self, rel: &Path) -> Term {
        Term::from_field_text(self.path, &display(rel))
    }

    pub(crate) fn document(&self, rel: &Path, stamp: FileStamp, text: &str, symbols: &[Symbol]) -> TantivyDocument {
        let mut doc = TantivyDocument::default();
        doc.add_text(self.path, display(rel));
        doc.add_text(self.language, language_of(rel));
        doc.add_u64(self.size, stamp.size);
        doc.add_u64(self.mtime_ns, stamp.mtime_ns);
        doc.add_text(self.content, text);
        for symbol in symbols {
            doc.add_text(self.symbol_words, &symbol.name);
            doc.add_text(self.symbol_names, &symbol.name);
        }
        doc.add_text(self.symbols, symbols::encode(symbols));
        doc
    }

    pub(crate) fn stored_path(&self, doc: &TantivyDocument) -> Option<String> {
        doc.get_first(self.path).and_then(|v| v.as_str()).map(str::to_string)
    }

    pub(crate) fn stored_stamp(&self, doc: &TantivyDocument) -> FileStamp {
        let get = |field| doc.get_first(field).and_then(|v| v.as_u64()).unwrap_or(0);
        FileStamp { size: get(self.size), mtime_ns: get(self.mtime_ns) }
    }

    pub(crate) fn stored_symbols(&self, doc: &TantivyDocument) -> Vec<Symbol> {
        doc.get_first(self.symbols).and_then(|v| v.as_str()).map(symbols::decode).unwrap_or_default()
    }
}

/// A segment's `path` fast field: a document's path without reading the stored document.
pub(crate) struct PathColumn {
    column: StrColumn,
    buffer: String,
}

impl PathColumn {
    pub(crate) fn of(segment: &SegmentReader) -> tantivy::Result<PathColumn> {
        let column = segment
            .fast_fields()
            .str("path")?
            .ok_or_else(|| tantivy::TantivyError::SchemaError("the path field is not a fast field".to_string()))?;
        Ok(PathColumn { column, buffer: String::new() })
    }

    /// The root-relative path of `doc`, `None` for a document without one.
    pub(crate) fn path(&mut self, doc: DocId) -> Option<&Path> {
        let ord = self.column.term_ords(doc).next()?;
        self.buffer.clear();
        self.column.ord_to_str(ord, &mut self.buffer).unwrap_or(false).then(|| Path::new(&self.buffer))
    }
}

/// Tokenizers live outside the index files and must be registered on every open.
pub(crate) fn register_tokenizers(index: &Index) {
    index.tokenizers().register(CODE_TOKENIZER, CodeTokenizer::default());
    index
        .tokenizers()
        .register(SYMBOL_NAME_TOKENIZER, TextAnalyzer::builder(RawTokenizer::default()).filter(LowerCaser).build());
}
