//! ctx_repomap: the project's most central definitions, ranked by PageRank over the code graph's
//! references (personalised by the files this session touched), as an outline within a token
//! budget. The daemon renders the text, since only it can count its tokens; this module checks
//! the arguments and gives the answer its JSON shape.

use lean_ctx_proto::v1::{MapFile, RepomapRequest, RepomapResponse, RequestContext};
use serde_json::{Value, json};

use super::{Answer, Result};
use crate::backend::Backend;

#[derive(Debug, Clone, Default)]
pub struct RepomapArgs {
    /// `None`: the daemon's default (1,024).
    pub max_tokens: Option<u32>,
    /// A directory or file to restrict the map to; empty: the whole project.
    pub path: String,
}

pub async fn repomap(backend: &Backend, ctx: RequestContext, args: RepomapArgs) -> Result<Answer> {
    let request = RepomapRequest { ctx: Some(ctx), max_tokens: args.max_tokens, path: args.path };
    let out = backend.graph().repomap(request).await?.into_inner();
    Ok(Answer::ok(out.text.clone(), to_json(&out)))
}

fn file_json(f: &MapFile) -> Value {
    let definitions: Vec<Value> = f
        .definitions
        .iter()
        .filter_map(|d| {
            let def = d.definition.as_ref()?;
            Some(json!({"file": def.file, "line": def.line, "name": def.name, "kind": def.kind, "rank": d.rank}))
        })
        .collect();
    json!({"path": f.path, "rank": f.rank, "definitions": definitions, "outline": f.outline, "twins": f.twins})
}

fn to_json(out: &RepomapResponse) -> Value {
    json!({
        "root": out.root,
        "max_tokens": out.max_tokens,
        "tokens": out.tokens,
        "files": out.files.iter().map(file_json).collect::<Vec<_>>(),
        "total_definitions": out.total_definitions,
        "omitted_definitions": out.omitted_definitions,
        "omitted_files": out.omitted_files,
        "personalised_by": out.personalised_by,
        "unpersonalised": out.unpersonalised,
        "references": {"exact": out.exact, "likely": out.likely, "ambiguous": out.ambiguous},
        "complete": out.complete,
        "note": out.note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use lean_ctx_proto::v1::{CodeDefinition, MapDefinition};

    #[test]
    fn json_names_each_file_with_its_ranked_definitions_and_what_was_left_out() {
        let def = CodeDefinition { file: "src/store.rs".into(), line: 3, name: "Store".into(), kind: "struct".into() };
        let out = RepomapResponse {
            root: "/p".into(),
            text: "src/store.rs:\n3-9 pub struct Store\n[4 definitions left out (2 files not shown)]\n".into(),
            tokens: 20,
            max_tokens: 64,
            files: vec![MapFile {
                path: "src/store.rs".into(),
                rank: 0.5,
                definitions: vec![MapDefinition { definition: Some(def), rank: 0.5 }],
                outline: "3-9 pub struct Store\n".into(),
                twins: vec![],
            }],
            total_definitions: 5,
            omitted_definitions: 4,
            omitted_files: 2,
            unpersonalised: "no session".into(),
            exact: 7,
            ..Default::default()
        };
        let json = to_json(&out);
        assert_eq!(json["files"][0]["definitions"][0]["name"], "Store");
        assert_eq!(json["files"][0]["outline"], "3-9 pub struct Store\n");
        assert_eq!((json["omitted_definitions"].as_u64(), json["omitted_files"].as_u64()), (Some(4), Some(2)));
        assert_eq!(json["references"]["exact"], 7);
        assert_eq!(json["unpersonalised"], "no session");
    }
}
