//! The prefilter: literals that must occur wherever a secret does, and the
//! rule each one wakes.
//!
//! Clean text costs one pass of each automaton below and nothing else. The
//! literals are split into groups of at most about fifteen because
//! aho-corasick's SIMD searcher (Teddy) stays near memory speed for a few
//! literals and falls to about a fifth of that when given all of them at
//! once (measured on the cargo registry's sources: one automaton of 49
//! literals 2.8 GB/s, groups of 10–17 at 9–14 GB/s each). The two formats
//! with no usable prefix go through the regex crate, whose inner-literal
//! search finds `:A` and `SK` faster than a group would.

use aho_corasick::{AhoCorasick, MatchKind};
use regex::bytes::Regex;

use crate::kind::Kind;
use crate::scan::{RunClass, Scan};
use crate::{formats, named, url};

/// What an anchor literal wakes.
#[derive(Clone, Copy)]
enum Rule {
    AwsKeyId,
    GoogleApiKey,
    GithubClassic,
    GithubPat,
    Gitlab,
    SlackXox,
    SlackApp,
    SlackWebhook,
    Stripe,
    StripeWebhook,
    SkDash,
    Npm,
    Pypi,
    Sendgrid,
    PrivateKey,
    Jwt,
    UrlUserinfo,
    Discord,
    Name,
}

const TOKENS: &[(&str, Rule)] = &[
    ("AKIA", Rule::AwsKeyId),
    ("ASIA", Rule::AwsKeyId),
    ("ABIA", Rule::AwsKeyId),
    ("ACCA", Rule::AwsKeyId),
    ("AIza", Rule::GoogleApiKey),
    ("ghp_", Rule::GithubClassic),
    ("gho_", Rule::GithubClassic),
    ("ghu_", Rule::GithubClassic),
    ("ghs_", Rule::GithubClassic),
    ("ghr_", Rule::GithubClassic),
    // `github_pat_` would put the common `git` in the searcher's fingerprint.
    ("hub_pat_", Rule::GithubPat),
    ("glpat-", Rule::Gitlab),
    ("gldt-", Rule::Gitlab),
    ("glrt-", Rule::Gitlab),
    ("glptt-", Rule::Gitlab),
];

const MORE_TOKENS: &[(&str, Rule)] = &[
    ("xox", Rule::SlackXox),
    ("xapp-", Rule::SlackApp),
    ("hooks.slack.com/", Rule::SlackWebhook),
    ("k_live_", Rule::Stripe),
    ("k_test_", Rule::Stripe),
    ("whsec_", Rule::StripeWebhook),
    ("sk-", Rule::SkDash),
    ("npm_", Rule::Npm),
    ("pypi-", Rule::Pypi),
    ("SG.", Rule::Sendgrid),
    ("PRIVATE KEY", Rule::PrivateKey),
    ("eyJ", Rule::Jwt),
    ("://", Rule::UrlUserinfo),
];

/// Secret words in names, in the three spellings names use (`api_key`,
/// `apiKey`, `API_KEY`); `uthorization` covers `Authorization` and `authorization`.
const NAMES: &[(&str, Rule)] = &[
    ("key", Rule::Name),
    ("Key", Rule::Name),
    ("KEY", Rule::Name),
    ("secret", Rule::Name),
    ("Secret", Rule::Name),
    ("SECRET", Rule::Name),
    ("token", Rule::Name),
    ("Token", Rule::Name),
    ("TOKEN", Rule::Name),
    ("pass", Rule::Name),
    ("Pass", Rule::Name),
    ("PASS", Rule::Name),
    ("pwd", Rule::Name),
    ("Pwd", Rule::Name),
    ("PWD", Rule::Name),
    ("uthorization", Rule::Name),
    ("UTHORIZATION", Rule::Name),
];

/// The first two characters a Discord token can start with (see
/// [`formats::discord`]).
const DISCORD: &[(&str, Rule)] = &[
    ("MD", Rule::Discord),
    ("MT", Rule::Discord),
    ("Mj", Rule::Discord),
    ("Mz", Rule::Discord),
    ("ND", Rule::Discord),
    ("NT", Rule::Discord),
    ("Nj", Rule::Discord),
    ("Nz", Rule::Discord),
    ("OD", Rule::Discord),
    ("OT", Rule::Discord),
    ("Oj", Rule::Discord),
    ("Oz", Rule::Discord),
];

struct Group {
    searcher: AhoCorasick,
    rules: Vec<Rule>,
}

pub(crate) struct Anchors {
    groups: Vec<Group>,
    telegram: Regex,
    twilio: Regex,
}

impl Anchors {
    pub(crate) fn new() -> Anchors {
        let groups = [TOKENS, MORE_TOKENS, NAMES, DISCORD]
            .iter()
            .map(|group| Group {
                searcher: AhoCorasick::builder()
                    .match_kind(MatchKind::LeftmostFirst)
                    .build(group.iter().map(|(literal, _)| literal))
                    .expect("anchor literals build"),
                rules: group.iter().map(|(_, rule)| *rule).collect(),
            })
            .collect();
        Anchors {
            groups,
            telegram: Regex::new(r"[0-9]{5,16}:A[A-Za-z0-9_-]{34}").expect("telegram regex"),
            twilio: Regex::new(r"SK[0-9a-f]{32}").expect("twilio regex"),
        }
    }

    /// Runs every rule whose anchor occurs in the text; spans land in `scan`.
    pub(crate) fn scan(&self, scan: &mut Scan) {
        let text = scan.text;
        for group in &self.groups {
            for m in group.searcher.find_iter(text) {
                fire(group.rules[m.pattern().as_usize()], scan, m.start(), m.end());
            }
        }
        for m in self.telegram.find_iter(text) {
            formats::telegram(scan, m.start(), m.end());
        }
        for m in self.twilio.find_iter(text) {
            formats::twilio(scan, m.start(), m.end());
        }
    }
}

fn fire(rule: Rule, scan: &mut Scan, start: usize, end: usize) {
    match rule {
        Rule::AwsKeyId => formats::aws_key_id(scan, start),
        Rule::GoogleApiKey => formats::prefixed(scan, start, 4, RunClass::B64Url, 35..=35, Kind::GoogleApiKey),
        Rule::GithubClassic => formats::prefixed(scan, start, 4, RunClass::Alnum, 36..=251, Kind::GithubToken),
        Rule::GithubPat => {
            if start >= 3 && &scan.text[start - 3..start] == b"git" {
                formats::prefixed(scan, start - 3, 11, RunClass::Word, 50..=244, Kind::GithubToken);
            }
        }
        Rule::Gitlab => formats::prefixed(scan, start, end - start, RunClass::B64Url, 20..=255, Kind::GitlabToken),
        Rule::SlackXox => formats::slack_xox(scan, start),
        Rule::SlackApp => formats::prefixed(scan, start, 5, RunClass::AlnumDash, 20..=255, Kind::SlackToken),
        Rule::SlackWebhook => formats::slack_webhook(scan, start),
        Rule::Stripe => formats::stripe(scan, start),
        Rule::StripeWebhook => formats::prefixed(scan, start, 6, RunClass::Alnum, 24..=255, Kind::StripeWebhookSecret),
        Rule::SkDash => formats::sk_dash(scan, start),
        Rule::Npm => formats::prefixed(scan, start, 4, RunClass::Alnum, 36..=36, Kind::NpmToken),
        Rule::Pypi => formats::pypi(scan, start),
        Rule::Sendgrid => formats::sendgrid(scan, start),
        Rule::PrivateKey => formats::private_key(scan, start),
        Rule::Jwt => formats::jwt(scan, start),
        Rule::UrlUserinfo => url::userinfo(scan, start),
        Rule::Discord => formats::discord(scan, start),
        Rule::Name => named::assignment(scan, start, end),
    }
}
