//! No false positives on ordinary code and configuration: the values here
//! sit under secret-looking names, next to anchors and in lockfiles, and
//! none of them is a secret.

use lean_ctx_redact::Redactor;

fn assert_clean(label: &str, text: &str) {
    let out = Redactor::new().redact(text);
    assert!(out.is_clean(), "{label}: found {:?}\n{}", out.found, out.text);
    assert!(matches!(out.text, std::borrow::Cow::Borrowed(_)), "{label}: clean text must come back borrowed");
}

#[test]
fn rust() {
    assert_clean(
        "rust",
        r#"
pub struct Config {
    pub api_key: String,
    pub password: Option<String>,
    #[serde(rename = "apiKey")]
    pub token: Token,
}
const KEY_LEN: usize = 32;
pub const PKCS_9_AT_CHALLENGE_PASSWORD: crate::ObjectIdentifier =
    crate::ObjectIdentifier::new_unwrap("1.2.840.113549.1.9.7");
pub const IFLA_BOND_AD_INFO_PARTNER_KEY: _bindgen_ty_28 = _bindgen_ty_28::IFLA_BOND_AD_INFO_PARTNER_KEY;
fn load() -> Result<Config> {
    let token = std::env::var("GITHUB_TOKEN")?;
    let secret_key = SecretKey::from_bytes(&bytes)?;
    let api_key = config.api_key.clone();
    let key = hex!("000102030405060708090a0b0c0d0e0f");
    let expected = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    let password = rpassword::prompt_password("Password: ")?;
    map.insert(key, value);
    match token { Token::Ident(name) => name, _ => unreachable!() }
    assert_eq!(base64::encode(b"hello world"), "aGVsbG8gd29ybGQ=");
    const PEM_HEADER: &str = "-----BEGIN RSA PRIVATE KEY-----";
    if line.starts_with("-----BEGIN PRIVATE KEY-----") { parse(line) }
}
"#,
    );
}

#[test]
fn python() {
    assert_clean(
        "python",
        r#"
import os
API_KEY = os.environ["API_KEY"]
SECRET_KEY = os.getenv("SECRET_KEY", "changeme")
password = getpass.getpass()
token = request.headers.get("Authorization")
self.secret_key = secret_key
nid_key = self._lib.NID_aes_256_cbc
RegEnumKey = win32api.RegEnumKey
password_hash = bcrypt.hashpw(password, bcrypt.gensalt())
url = f"postgres://{user}:{password}@{host}:5432/{db}"
dsn = "mysql://%s:%s@%s/%s" % (user, password, host, name)
DATABASES = {"default": {"ENGINE": "django.db.backends.postgresql", "PASSWORD": "", "HOST": "localhost"}}
METADATA_KEY = 'pydantic-mypy-metadata'
ACCESS_KEY = 'AWS_ACCESS_KEY_ID'
def sign(self, private_key: ed25519.Ed25519PrivateKey, data: bytes) -> bytes: ...
"#,
    );
}

#[test]
fn javascript_and_go() {
    assert_clean(
        "js/ts",
        r#"
const apiKey = process.env.OPENAI_API_KEY;
const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
const token = await getToken({ scope: "repo" });
export const passwordSchema = z.string().min(8);
const config = { apiKey: cfg.apiKey, secret: undefined, token: null };
"#,
    );
    assert_clean(
        "go",
        r#"
type Credentials struct {
	Password string `json:"password"`
	APIKey   string `json:"api_key"`
}
token := os.Getenv("TOKEN")
apiKey := cfg.APIKey
"#,
    );
}

#[test]
fn ci_and_compose_yaml() {
    assert_clean(
        "github actions",
        r#"
jobs:
  build:
    steps:
      - uses: actions/cache@v4
        with:
          key: ${{ runner.os }}-cargo-${{ hashFiles('**/Cargo.lock') }}
      - run: cargo publish
        env:
          CARGO_REGISTRY_TOKEN: ${{ secrets.CARGO_REGISTRY_TOKEN }}
          GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}
"#,
    );
    assert_clean(
        "compose and kubernetes",
        r#"
services:
  db:
    image: postgres:16
    environment:
      POSTGRES_PASSWORD: postgres
      MYSQL_ROOT_PASSWORD: example
      REDIS_URL: redis://:${REDIS_PASSWORD}@redis:6379/0
env:
  - name: DB_PASSWORD
    valueFrom:
      secretKeyRef:
        name: db-secret
        key: password
"#,
    );
}

#[test]
fn lockfiles() {
    assert_clean(
        "Cargo.lock",
        r#"
[[package]]
name = "aho-corasick"
version = "1.1.5"
source = "registry+https://github.com/rust-lang/crates.io-index"
checksum = "c982642fa9e8606056828ee9a8505737230110bb1099153c79efe865c59d12ba"
"#,
    );
    assert_clean(
        "package-lock.json",
        r#"
    "node_modules/lodash": {
      "version": "4.17.21",
      "resolved": "https://registry.npmjs.org/lodash/-/lodash-4.17.21.tgz",
      "integrity": "sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg=="
    }
"#,
    );
    assert_clean(
        "yarn, poetry, go.sum",
        r#"
lodash@^4.17.21:
  resolved "https://registry.yarnpkg.com/lodash/-/lodash-4.17.21.tgz#679591c564c3bffaae8454cf0b3df370c3d6911c"
  integrity sha512-v2kDEe57lecTulaDIuNTPy3Ry4gLGJ6Z1O3vE1krgXZNrsQ+LFTGHVxVjcXPs17LhbZVGedAJv8XZ1tvj5FvSg==
files = [
    {file = "requests-2.31.0.tar.gz", hash = "sha256:942c5a758f98d790eaed1a29cb6eefc7ffb0d1cf7af05c3d2791656dbd6ad1e1"},
]
golang.org/x/text v0.14.0 h1:ScX5w1eTa3QqT8oi6+ziP7dTV1S2+ALU0bI+0zXKWiQ=
"#,
    );
}

#[test]
fn identifiers_uuids_urls_and_documented_dummies() {
    assert_clean(
        "uuids and ids",
        r#"
id: 123e4567-e89b-12d3-a456-426614174000
token_id = "550e8400-e29b-41d4-a716-446655440000"
"result_key": "VpcEndpointConnections",
"nextToken": "eyJ2IjoiMSIsInMiOjEsImMiOi",
commit 9fceb02d0ae598e95dc970b74767f19372d61af8
"#,
    );
    assert_clean(
        "urls",
        r#"
https://github.com/rust-lang/rust
postgres://localhost/app
ssh://git@github.com/org/repo.git
https://user:pass@example.com/
postgres://postgres:postgres@localhost:5432/test
mysql://root:password@127.0.0.1:3306/app
amqp://guest:guest@localhost:5672/
"#,
    );
    assert_clean(
        "documented dummies and placeholders",
        r#"
AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE
AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY
GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
OPENAI_API_KEY=sk-your-key-here
API_KEY=<your-api-key>
API_KEY=your_api_key_here
SECRET_KEY=please-change-me-in-production
DB_PASSWORD=P@55w0rd!
export TOKEN=$(cat ~/.token)
PWD=/home/dev/project
OLDPWD=/home/dev
"#,
    );
    assert_clean(
        "public key material",
        "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUeVx0\n-----END CERTIFICATE-----\n-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n",
    );
}
