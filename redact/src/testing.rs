//! A planted corpus for measuring recall, shared by the crate's tests and
//! `lctx-bench redact`: every kind of secret, made up by a seeded PRNG (no
//! real secret is ever written down), in each context it can occur in.
//! Not part of the API.

/// The contexts a secret is planted in.
pub const CONTEXTS: &[&str] = &["dotenv", "yaml", "json", "toml", "shell_env", "source", "log", "url"];

/// One planted secret.
#[derive(Debug, Clone)]
pub struct Planted {
    pub kind: &'static str,
    pub context: &'static str,
    pub text: String,
    /// Pieces of the secret that must not survive redaction.
    pub secret: Vec<String>,
    /// What surrounds the secret and must survive: names, users, hosts.
    pub keep: Vec<String>,
}

/// splitmix64: small, seedable, good enough to make test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// `min + below(spread)` characters drawn from `alphabet`.
    pub fn string_n(&mut self, alphabet: &str, min: usize, spread: usize) -> String {
        let len = min + self.below(spread);
        self.string(alphabet, len)
    }

    /// `len` characters drawn from `alphabet`.
    pub fn string(&mut self, alphabet: &str, len: usize) -> String {
        let a = alphabet.as_bytes();
        (0..len).map(|_| a[self.below(a.len())] as char).collect()
    }
}

pub const UPPER_DIGITS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
pub const ALNUM: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
pub const B64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
pub const B64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
pub const HEX: &str = "0123456789abcdef";
const DIGITS: &str = "0123456789";

/// Standard base64 (with padding) or base64url (without).
pub fn base64(bytes: &[u8], url: bool) -> String {
    let alphabet = if url { B64URL } else { B64 }.as_bytes();
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(alphabet[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
        if !url {
            out.extend(std::iter::repeat_n('=', 3 - chunk.len()));
        }
    }
    out
}

/// A password as people make them: letters and digits with a few symbols,
/// starting with a letter.
fn password(rng: &mut Rng) -> String {
    let len = 12 + rng.below(9);
    let mut p: Vec<char> = rng.string(ALNUM, len).chars().collect();
    p[0] = rng.string("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", 1).chars().next().unwrap_or('a');
    for _ in 0..2 {
        let at = 1 + rng.below(len - 1);
        p[at] = rng.string("!%^*-_+=~", 1).chars().next().unwrap_or('-');
    }
    p.into_iter().collect()
}

/// A secret of `kind` as it would appear in the wild, and (for kinds that
/// are part of a larger string) the string that holds it.
struct Made {
    /// What is written in the text.
    whole: String,
    /// What must disappear.
    secret: Vec<String>,
    /// What must stay.
    keep: Vec<String>,
    /// A name to assign it to in config contexts (`GITHUB_TOKEN`…).
    name: &'static str,
}

fn made(whole: String, name: &'static str) -> Made {
    Made { secret: vec![whole.clone()], whole, keep: Vec::new(), name }
}

fn make(kind: &str, rng: &mut Rng) -> Made {
    match kind {
        "aws_access_key_id" => {
            made(format!("{}{}", rng.pick(&["AKIA", "ASIA"]), rng.string(UPPER_DIGITS, 16)), "AWS_ACCESS_KEY_ID")
        }
        "aws_secret_access_key" => made(rng.string(B64, 40), "AWS_SECRET_ACCESS_KEY"),
        "google_api_key" => made(format!("AIza{}", rng.string(B64URL, 35)), "MAPS_BROWSER_CREDENTIAL"),
        "github_token" => {
            let whole = if rng.below(2) == 0 {
                format!("{}{}", rng.pick(&["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]), rng.string(ALNUM, 36))
            } else {
                format!("github_pat_{}_{}", rng.string(ALNUM, 22), rng.string(ALNUM, 59))
            };
            made(whole, "GH_CREDENTIAL")
        }
        "gitlab_token" => made(format!("glpat-{}", rng.string(B64URL, 20)), "GITLAB_CREDENTIAL"),
        "slack_token" => made(
            format!(
                "{}-{}-{}-{}",
                rng.pick(&["xoxb", "xoxp", "xoxa", "xoxs"]),
                rng.string(DIGITS, 12),
                rng.string(DIGITS, 13),
                rng.string(ALNUM, 24)
            ),
            "SLACK_BOT_CREDENTIAL",
        ),
        "slack_webhook" => {
            let path = format!(
                "T{}/B{}/{}",
                rng.string(UPPER_DIGITS, 10),
                rng.string(UPPER_DIGITS, 10),
                rng.string(ALNUM, 24)
            );
            Made {
                whole: format!("https://hooks.slack.com/services/{path}"),
                secret: vec![path],
                keep: vec!["https://hooks.slack.com/services/".into()],
                name: "SLACK_WEBHOOK_URL",
            }
        }
        "stripe_key" => made(
            format!("{}{}", rng.pick(&["sk_live_", "rk_live_", "sk_test_"]), rng.string_n(ALNUM, 24, 76)),
            "STRIPE_CREDENTIAL",
        ),
        "stripe_webhook_secret" => made(format!("whsec_{}", rng.string(ALNUM, 32)), "STRIPE_WEBHOOK_SIGNING"),
        "openai_key" => {
            let whole = if rng.below(2) == 0 {
                format!("sk-proj-{}", rng.string_n(B64URL, 48, 100))
            } else {
                format!("sk-{}T3BlbkFJ{}", rng.string(ALNUM, 20), rng.string(ALNUM, 20))
            };
            made(whole, "OPENAI_CREDENTIAL")
        }
        "anthropic_key" => made(format!("sk-ant-api03-{}AA", rng.string(B64URL, 93)), "ANTHROPIC_CREDENTIAL"),
        "npm_token" => made(format!("npm_{}", rng.string(ALNUM, 36)), "NPM_CREDENTIAL"),
        "pypi_token" => made(format!("pypi-AgEIcHlwaS5vcmc{}", rng.string_n(B64URL, 70, 100)), "PYPI_CREDENTIAL"),
        "sendgrid_key" => {
            made(format!("SG.{}.{}", rng.string(B64URL, 22), rng.string(B64URL, 43)), "SENDGRID_CREDENTIAL")
        }
        "twilio_key" => made(format!("SK{}", rng.string(HEX, 32)), "TWILIO_API_KEY_SID"),
        "discord_bot_token" => {
            let first = 1 + rng.below(9);
            let id = format!("{first}{}", rng.string_n(DIGITS, 17, 2));
            made(
                format!("{}.{}.{}", base64(id.as_bytes(), true), rng.string(B64URL, 6), rng.string_n(B64URL, 27, 12)),
                "DISCORD_BOT",
            )
        }
        "telegram_bot_token" => {
            let first = 1 + rng.below(9);
            made(format!("{first}{}:A{}", rng.string_n(DIGITS, 7, 3), rng.string(B64URL, 34)), "TELEGRAM_BOT")
        }
        "azure_storage_key" => {
            let key = base64(&(0..64).map(|_| rng.next_u64() as u8).collect::<Vec<_>>(), false);
            let account = format!("acct{}", rng.string(DIGITS, 4));
            Made {
                whole: format!(
                    "DefaultEndpointsProtocol=https;AccountName={account};AccountKey={key};EndpointSuffix=core.windows.net"
                ),
                secret: vec![key],
                keep: vec![format!("AccountName={account}"), "EndpointSuffix=core.windows.net".into()],
                name: "AZURE_STORAGE_CONNECTION_STRING",
            }
        }
        "private_key" => {
            let label = *rng.pick(&["RSA ", "EC ", "OPENSSH ", "", "ENCRYPTED "]);
            let lines: Vec<String> = (0..4).map(|_| rng.string(B64, 64)).collect();
            Made {
                whole: format!(
                    "-----BEGIN {label}PRIVATE KEY-----\n{}\n-----END {label}PRIVATE KEY-----",
                    lines.join("\n")
                ),
                secret: lines.into_iter().chain(["PRIVATE KEY-----".to_string()]).collect(),
                keep: Vec::new(),
                name: "TLS_PRIVATE_KEY",
            }
        }
        "jwt" => {
            let header = base64(br#"{"alg":"HS256","typ":"JWT"}"#, true);
            let payload =
                format!(r#"{{"sub":"{}","iat":{}}}"#, rng.string(ALNUM, 12), 1_700_000_000 + rng.below(10_000_000));
            made(format!("{header}.{}.{}", base64(payload.as_bytes(), true), rng.string(B64URL, 43)), "SESSION_JWT")
        }
        "connection_password" => {
            let pw = rng.string_n(ALNUM, 14, 10);
            let user = format!("svc_{}", rng.string("abcdefghijklmnopqrstuvwxyz", 5));
            let host = format!("db{}.internal.example.com", rng.below(100));
            let scheme = *rng.pick(&["postgres", "postgresql", "mysql", "mongodb+srv", "redis", "amqp"]);
            Made {
                whole: format!("{scheme}://{user}:{pw}@{host}:5432/app"),
                secret: vec![format!(":{pw}@")],
                keep: vec![format!("{scheme}://{user}:"), format!("@{host}:5432/app")],
                name: "DATABASE_URL",
            }
        }
        "url_password" => {
            let pw = rng.string_n(ALNUM, 12, 10);
            let user = format!("deploy{}", rng.below(100));
            Made {
                whole: format!("https://{user}:{pw}@git.example.com/org/repo.git"),
                secret: vec![format!(":{pw}@")],
                keep: vec![format!("https://{user}:"), "@git.example.com/org/repo.git".into()],
                name: "REMOTE_URL",
            }
        }
        "authorization" => {
            let credential = if rng.below(2) == 0 {
                format!("Bearer {}", rng.string(B64URL, 40))
            } else {
                let userpass = format!("alice:{}", rng.string(ALNUM, 16));
                format!("Basic {}", base64(userpass.as_bytes(), false))
            };
            let secret = credential.split(' ').nth(1).unwrap_or_default().to_string();
            Made {
                secret: vec![secret],
                keep: vec![credential.split(' ').next().unwrap_or_default().into()],
                whole: credential,
                name: "Authorization",
            }
        }
        "password" => made(password(rng), "DB_PASSWORD"),
        "secret" => made(rng.string_n(ALNUM, 32, 32), "CLIENT_SECRET"),
        "token" => {
            let t = if rng.below(2) == 0 { rng.string(HEX, 40) } else { rng.string(ALNUM, 32) };
            made(t, "AUTH_TOKEN")
        }
        "api_key" => {
            let k = if rng.below(2) == 0 { rng.string(HEX, 32) } else { rng.string_n(B64URL, 24, 20) };
            made(k, "API_KEY")
        }
        other => unreachable!("no generator for {other}"),
    }
}

/// Every kind, by marker name.
pub const KINDS: &[&str] = &[
    "aws_access_key_id",
    "aws_secret_access_key",
    "google_api_key",
    "github_token",
    "gitlab_token",
    "slack_token",
    "slack_webhook",
    "stripe_key",
    "stripe_webhook_secret",
    "openai_key",
    "anthropic_key",
    "npm_token",
    "pypi_token",
    "sendgrid_key",
    "twilio_key",
    "discord_bot_token",
    "telegram_bot_token",
    "azure_storage_key",
    "private_key",
    "jwt",
    "connection_password",
    "url_password",
    "authorization",
    "password",
    "secret",
    "token",
    "api_key",
];

/// Kinds found only through their name (no shape of their own).
const NAMED_ONLY: &[&str] = &["aws_secret_access_key", "password", "secret", "token", "api_key"];

/// Contexts where a kind cannot sensibly occur: a key block or an
/// `Authorization` header inside a URL, an Azure connection string as a URL.
fn applies(kind: &str, context: &str) -> bool {
    !(context == "url" && matches!(kind, "private_key" | "authorization" | "azure_storage_key"))
}

/// Lowercase name for YAML/JSON/TOML (`DB_PASSWORD` → `db_password`), or
/// camelCase for JSON (`clientSecret`) to cover both spellings.
fn lower(name: &str) -> String {
    name.to_ascii_lowercase()
}

fn camel(name: &str) -> String {
    let mut out = String::new();
    for (i, word) in name.split('_').enumerate() {
        let w = word.to_ascii_lowercase();
        if i == 0 {
            out.push_str(&w);
        } else {
            let mut c = w.chars();
            out.extend(c.next().map(|f| f.to_ascii_uppercase()));
            out.push_str(c.as_str());
        }
    }
    out
}

/// The text for `kind` in `context`. Format kinds appear bare where a
/// context has no name (a string argument, a log message, a URL path);
/// named kinds always sit under their name, since that is how they are found.
fn plant(kind: &'static str, context: &'static str, m: &Made, rng: &mut Rng) -> (String, Vec<String>) {
    let w = &m.whole;
    let name = m.name;
    let named = NAMED_ONLY.contains(&kind) || kind == "authorization";
    let multiline = w.contains('\n');
    let mut keep = m.keep.clone();
    let text = match context {
        "dotenv" if kind == "authorization" => format!("# api\nAUTH_HEADER=\"Authorization: {w}\"\nTIMEOUT=30\n"),
        "dotenv" if multiline => format!("APP_ENV=production\n{name}=\"{w}\"\nPORT=8080\n"),
        "dotenv" => format!("APP_ENV=production\nexport {name}={w}\nPORT=8080\n"),
        "yaml" if multiline => {
            format!("tls:\n  {}: |\n    {}\n  port: 443\n", lower(name), w.replace('\n', "\n    "))
        }
        "yaml" if kind == "authorization" => format!("request:\n  headers:\n    Authorization: {w}\n  retries: 3\n"),
        "yaml" => format!("service:\n  region: eu-west-1\n  {}: \"{w}\"\n  retries: 3\n", lower(name)),
        "json" if kind == "authorization" => format!("{{\"headers\": {{\"Authorization\": \"{w}\"}}, \"retries\": 3}}"),
        "json" => format!(
            "{{\n  \"region\": \"eu-west-1\",\n  \"{}\": \"{}\",\n  \"retries\": 3\n}}",
            camel(name),
            w.replace('\n', "\\n")
        ),
        "toml" if multiline => format!("[tls]\n{} = \"\"\"\n{w}\n\"\"\"\nport = 443\n", lower(name)),
        "toml" => format!("[service]\nregion = \"eu-west-1\"\n{} = \"{w}\"\nretries = 3\n", lower(name)),
        "shell_env" if kind == "authorization" => format!("HOME=/home/dev\nHTTP_AUTHORIZATION={w}\nSHELL=/bin/bash\n"),
        "shell_env" => {
            format!("HOME=/home/dev\nLANG=C.UTF-8\n{name}={w}\nPATH=/usr/local/bin:/usr/bin:/bin\nSHELL=/bin/bash\n")
        }
        "source" if kind == "authorization" => {
            format!("    headers = {{\"Authorization\": \"{w}\", \"Accept\": \"application/json\"}}\n")
        }
        "source" if named => {
            let var = *rng.pick(&["const {c} = \"{w}\";", "{l} = \"{w}\"", "let {l} = \"{w}\";", "{c} := \"{w}\""]);
            var.replace("{c}", &camel(name)).replace("{l}", &lower(name)).replace("{w}", w) + "\n"
        }
        "source" if multiline => format!("    let pem = \"{}\";\n    load(pem)?;\n", w.replace('\n', "\\n")),
        "source" => {
            let call = *rng.pick(&[
                "    client = Client(\"{w}\")\n",
                "    let client = Client::new(\"{w}\");\n",
                "    const client = new Client('{w}');\n",
            ]);
            call.replace("{w}", w)
        }
        "log" if kind == "authorization" => {
            format!("2026-12-01T10:00:00Z DEBUG http: curl -H 'Authorization: {w}' https://api.example.com/v1/me\n")
        }
        "log" if named => {
            format!("2026-12-01T10:00:00Z DEBUG config: user=alice {}={w} region=eu-west-1\n", lower(name))
        }
        "log" if multiline => {
            format!("2026-12-01T10:00:00Z ERROR tls: could not parse key:\n{w}\n2026-12-01T10:00:01Z INFO retrying\n")
        }
        "log" => format!("2026-12-01T10:00:00Z INFO worker: connecting with {w} to the api (attempt 2)\n"),
        "url" if named => format!("GET https://api.example.com/v1/items?{}={w}&limit=10 200\n", lower(name)),
        "url" if !m.keep.is_empty() => format!("see {w} for details\n"),
        "url" => format!("fetch https://ci.example.com/hooks/{w}/run?ref=main now\n"),
        other => unreachable!("no context {other}"),
    };
    if matches!(context, "dotenv" | "shell_env") && !named {
        keep.push(format!("{name}="));
    }
    (text, keep)
}

/// Every kind in every context that applies, `per_cell` samples each.
pub fn planted_corpus(seed: u64, per_cell: usize) -> Vec<Planted> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for &kind in KINDS {
        for &context in CONTEXTS {
            if !applies(kind, context) {
                continue;
            }
            for _ in 0..per_cell {
                let m = make(kind, &mut rng);
                let (text, keep) = plant(kind, context, &m, &mut rng);
                out.push(Planted { kind, context, text, secret: m.secret.clone(), keep });
            }
        }
    }
    out
}

/// Whether `planted` was redacted as it should be: no piece of the secret
/// left, a marker of its kind in its place, the surroundings intact.
pub fn check(planted: &Planted, redacted: &str) -> Result<(), String> {
    if let Some(s) = planted.secret.iter().find(|s| redacted.contains(s.as_str())) {
        return Err(format!("secret piece {s:?} survived"));
    }
    let marker = format!("[REDACTED:{}]", planted.kind);
    if !redacted.contains(&marker) {
        return Err(format!("no {marker}"));
    }
    if let Some(k) = planted.keep.iter().find(|k| !redacted.contains(k.as_str())) {
        return Err(format!("{k:?} was lost"));
    }
    Ok(())
}
