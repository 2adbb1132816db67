//! An archive a program makes or changes is an edit of its file.

use super::*;

/// `Edit(./config/**)` denied, as in the QA project (guard2).
fn config() -> (Setup, Permissions, PathBuf) {
    let s = Setup::new();
    s.project(&permissions(r#"{"deny": ["Edit(./config/**)"]}"#));
    for name in ["config/app.ini", "a.txt", "src/a.rs"] {
        s.file(name);
    }
    let p = s.load();
    let file = s.project_file();
    (s, p, file)
}

#[test]
fn an_archive_written_is_an_edit_of_it() {
    let (s, p, file) = config();
    let denied = deny("Edit(./config/**)", &file);
    // A review: each wrote the archive over config/app.ini unchecked.
    for (command, part) in [
        ("tar -cf config/app.ini src", "`tar` writes `config/app.ini`"),
        ("tar -rf config/app.ini a.txt", "`tar` writes `config/app.ini`"),
        ("tar -uf config/app.ini a.txt", "`tar` writes `config/app.ini`"),
        ("tar -Af config/app.ini /tmp/other.tar", "`tar` writes `config/app.ini`"),
        ("tar --create --file=config/x.tar src", "`tar` writes `config/x.tar`"),
        ("tar -czfconfig/x.tgz src", "`tar` writes `config/x.tgz`"),
        ("tar cf config/x.tar src", "`tar` writes `config/x.tar`"),
        ("tar -cf /tmp/a.tar -f config/x.tar src", "`tar` writes `config/x.tar`"),
        ("tar --delete -f config/x.tar a.txt", "`tar` writes `config/x.tar`"),
        ("jar cf config/app.ini -C src .", "`jar` writes `config/app.ini`"),
        ("jar --update --file=config/a.jar a.txt", "`jar` writes `config/a.jar`"),
        ("ar rcs config/app.ini src/a.rs", "`ar` writes `config/app.ini`"),
        ("ar d config/lib.a a.o", "`ar` writes `config/lib.a`"),
        ("zip config/app.ini a.txt", "`zip` writes `config/app.ini`"),
        ("zip -m config/c.zip a.txt", "`zip` writes `config/c.zip`"),
        ("zip -r config/app src", "`zip` writes `config/app.zip`"),
        ("zip -r /tmp/in.zip src -O config/out.zip", "`zip` writes `config/out.zip`"),
    ] {
        assert_eq!(p.check_shell(command, &s.root), because(denied.clone(), part), "{command}");
    }
    // To its output, elsewhere, or only read.
    for command in [
        "tar -c -f - config > /tmp/c.tar",
        "tar -cz config > /tmp/c.tgz",
        "tar -cf /tmp/c.tar config",
        "tar -tf config/x.tar",
        "zip -r - config > /tmp/c.zip",
        "zip -r /tmp/c.zip config",
        "jar cf /tmp/c.jar config",
        "jar tf config/a.jar",
        "ar t config/lib.a",
        "ar rcs /tmp/lib.a config/app.ini",
    ] {
        assert_eq!(p.check_shell(command, &s.root), Verdict::Allow, "{command}");
    }
}
