//! The kinds of secret, and the names they show in `[REDACTED:kind]`.
//!
//! The names are part of what users and agents see, so they are stable:
//! add kinds, never rename one.

macro_rules! kinds {
    ($($variant:ident => $name:literal,)*) => {
        /// A kind of secret.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Kind {
            $($variant,)*
        }

        impl Kind {
            /// Every kind, in declaration order.
            pub const ALL: &'static [Kind] = &[$(Kind::$variant,)*];

            /// The name shown in the marker, snake_case.
            pub fn name(self) -> &'static str {
                match self {
                    $(Kind::$variant => $name,)*
                }
            }
        }
    };
}

kinds! {
    AwsAccessKeyId => "aws_access_key_id",
    AwsSecretAccessKey => "aws_secret_access_key",
    GoogleApiKey => "google_api_key",
    GithubToken => "github_token",
    GitlabToken => "gitlab_token",
    SlackToken => "slack_token",
    SlackWebhook => "slack_webhook",
    StripeKey => "stripe_key",
    StripeWebhookSecret => "stripe_webhook_secret",
    OpenaiKey => "openai_key",
    AnthropicKey => "anthropic_key",
    NpmToken => "npm_token",
    PypiToken => "pypi_token",
    SendgridKey => "sendgrid_key",
    TwilioKey => "twilio_key",
    DiscordBotToken => "discord_bot_token",
    TelegramBotToken => "telegram_bot_token",
    AzureStorageKey => "azure_storage_key",
    PrivateKey => "private_key",
    Jwt => "jwt",
    ConnectionPassword => "connection_password",
    UrlPassword => "url_password",
    Authorization => "authorization",
    Password => "password",
    Secret => "secret",
    Token => "token",
    ApiKey => "api_key",
}
