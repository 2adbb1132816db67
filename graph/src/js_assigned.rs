//! JavaScript functions assigned to a property at module level, how code written before classes
//! gives an object or a constructor its methods: `app.handle = function handle(…) {…}` (express's
//! application.js, `app` being its `module.exports`), `Layer.prototype.handle_request = function
//! (…) {…}`. The outline names them by what they are assigned to; the graph reads them as members
//! of that object or type — `handle` of `app`, `handle_request` of `Layer`, what its instances
//! call — so `this.lazyrouter()` in one, `app.handle()` and a lookup of `app.handle` or
//! `Layer.prototype.handle_request` reach them as they reach a class's methods.

use lean_ctx_outline::Language;

/// (member, owner) for each name of a top-level definition the outline names `owner.member` or
/// `Owner.prototype.member`, and for each alias assigned with it (`res.contentType = res.type =
/// function`: `contentType` and `type` of `res`, one function called through either); the owner
/// is the last part of a dotted object (`fn` of `jQuery.fn.init`), as a receiver `jQuery.fn`
/// names the type `fn`. Empty for any other name (an alias chain whose first name is not a
/// member's), and for a CommonJS export, which is the module's own function (see
/// [`crate::commonjs::export_name`]).
pub(crate) fn members(language: Language, name: &str) -> Vec<(&str, &str)> {
    if !matches!(language, Language::JavaScript | Language::TypeScript | Language::Tsx) {
        return Vec::new();
    }
    let mut names = name.split(" = ").map(member).peekable();
    match names.peek() {
        Some(Some(_)) => names.flatten().collect(),
        _ => Vec::new(),
    }
}

/// (member, owner) for one assigned name, `app.handle` or `Layer.prototype.handle_request`.
fn member(name: &str) -> Option<(&str, &str)> {
    // `module.exports = function …` is the module's export, not a method of `module`.
    if name.trim() == "module.exports" {
        return None;
    }
    let (object, member) = name.trim().rsplit_once('.')?;
    let object = object.strip_suffix(".prototype").unwrap_or(object);
    let owner = object.rsplit('.').next().unwrap_or(object);
    let simple = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '$');
    (simple(member) && simple(owner) && owner != "prototype").then_some((member, owner))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owner_and_member_of_assigned_names() {
        let js = Language::JavaScript;
        assert_eq!(members(js, "app.handle"), [("handle", "app")]);
        assert_eq!(members(js, "Layer.prototype.handle_request"), [("handle_request", "Layer")]);
        assert_eq!(members(js, "res.contentType = res.type"), [("contentType", "res"), ("type", "res")]);
        assert_eq!(members(js, "jQuery.fn.init"), [("init", "fn")]);
        assert!(members(js, "handle").is_empty());
        assert!(members(js, "a[0].b").is_empty());
        assert!(members(js, "handle = res.send").is_empty());
        assert!(members(js, "module.exports").is_empty());
        assert!(members(Language::Go, "Server.Start").is_empty());
    }
}
