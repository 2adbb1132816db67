//! JavaScript functions assigned to a property at module level, how code written before classes
//! gives an object or a constructor its methods: `app.handle = function handle(…) {…}` (express's
//! application.js, `app` being its `module.exports`), `Layer.prototype.handle_request = function
//! (…) {…}`. The outline names them by what they are assigned to; the graph reads them as members
//! of that object or type — `handle` of `app`, `handle_request` of `Layer`, what its instances
//! call — so `this.lazyrouter()` in one, `app.handle()` and a lookup of `app.handle` or
//! `Layer.prototype.handle_request` reach them as they reach a class's methods.

use lean_ctx_outline::Language;

/// (member, owner) for a top-level definition the outline names `owner.member` or
/// `Owner.prototype.member` (the first of `res.contentType = res.type`, an alias assigned with
/// it); the owner is the last part of a dotted object (`fn` of `jQuery.fn.init`), as a receiver
/// `jQuery.fn` names the type `fn`. `None` for any other name, and for a CommonJS export, which is
/// the module's own function (see [`crate::commonjs::export_name`]).
pub(crate) fn member(language: Language, name: &str) -> Option<(&str, &str)> {
    if !matches!(language, Language::JavaScript | Language::TypeScript | Language::Tsx) {
        return None;
    }
    let first = name.split(" = ").next().unwrap_or(name);
    let (object, member) = first.rsplit_once('.')?;
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
        assert_eq!(member(js, "app.handle"), Some(("handle", "app")));
        assert_eq!(member(js, "Layer.prototype.handle_request"), Some(("handle_request", "Layer")));
        assert_eq!(member(js, "res.contentType = res.type"), Some(("contentType", "res")));
        assert_eq!(member(js, "jQuery.fn.init"), Some(("init", "fn")));
        assert_eq!(member(js, "handle"), None);
        assert_eq!(member(js, "a[0].b"), None);
        assert_eq!(member(Language::Go, "Server.Start"), None);
    }
}
