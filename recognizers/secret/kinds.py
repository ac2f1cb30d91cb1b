"""Every kind a SECRET finding may carry, each declared once: the one list settings check
``secret_kinds`` against (``redactor.config.SECRET_KINDS``) and the kinds the detectors
report (a :class:`~recognizers.secret.common.Hit` holds a :class:`Kind`, not a string).

A finding's kind is in its recognizer name (``SecretRecognizer:github_token``, see
:func:`recognizers.secret.common.secret_kind`).  Kinds are declared here rather than in
the detector modules so that this list costs no pattern compilation: it is imported
with ``redactor.config``, on the hook's path.  Presidio-free, standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of secret: its name and what it is."""

    #: The name settings and findings use (``SecretRecognizer:github_token``).
    name: str
    #: What it is, for a reader.
    about: str


# ------------------------------------------------- provider formats (formats.py)

AWS_ACCESS_KEY: Final = Kind("aws_access_key", "AWS access key id (AKIA...)")
#: Also the value of a key that names one (AWS_SECRET_ACCESS_KEY=..., assignments.py).
AWS_SECRET_KEY: Final = Kind("aws_secret_key", "AWS secret access key")
ARTIFACTORY_TOKEN: Final = Kind("artifactory_token", "JFrog Artifactory API token")
AZURE_STORAGE_KEY: Final = Kind("azure_storage_key", "Azure storage account key")
#: Also the password of any ``scheme://user:password@host`` (web.py).
CONNECTION_STRING_PASSWORD: Final = Kind("connection_string_password",
                                         "the password of a URL or connection string")
DISCORD_TOKEN: Final = Kind("discord_token", "Discord bot token")
GITHUB_TOKEN: Final = Kind("github_token", "GitHub token (ghp_, github_pat_...)")
GITLAB_TOKEN: Final = Kind("gitlab_token", "GitLab token (glpat-...)")
MAILCHIMP_KEY: Final = Kind("mailchimp_key", "Mailchimp API key")
OPENAI_KEY: Final = Kind("openai_key", "OpenAI API key")
PYPI_TOKEN: Final = Kind("pypi_token", "PyPI upload token")
SENDGRID_KEY: Final = Kind("sendgrid_key", "SendGrid API key")
SLACK_TOKEN: Final = Kind("slack_token", "Slack token (xox...)")
SLACK_WEBHOOK: Final = Kind("slack_webhook", "Slack incoming webhook URL")
SQUARE_SECRET: Final = Kind("square_secret", "Square OAuth secret")
STRIPE_KEY: Final = Kind("stripe_key", "Stripe live key")
TELEGRAM_TOKEN: Final = Kind("telegram_token", "Telegram bot token")
TWILIO_KEY: Final = Kind("twilio_key", "Twilio key")
ANTHROPIC_KEY: Final = Kind("anthropic_key", "Anthropic API key")
GOOGLE_API_KEY: Final = Kind("google_api_key", "Google API key (AIza...)")
NPM_TOKEN: Final = Kind("npm_token", "npm access token")

# ------------------------------------------------- web credentials (web.py)

JWT: Final = Kind("jwt", "JSON Web Token whose header decodes to a JSON object")
BEARER_TOKEN: Final = Kind("bearer_token", "the credential of Authorization: Bearer")
BASIC_AUTH: Final = Kind("basic_auth", "the user:password of Authorization: Basic")
AUTHORIZATION: Final = Kind("authorization", "the credential of another Authorization scheme")

# ------------------------------------------------- private keys (pem.py)

PRIVATE_KEY: Final = Kind("private_key", "a private key: PEM block, PuTTY file or base64 PEM")

# ------------------------------------------------- assignments (assignments.py, commands.py)

PASSWORD_ASSIGNMENT: Final = Kind("password_assignment",
                                  "the value of a password key, or a command line's password")
SECRET_ASSIGNMENT: Final = Kind("secret_assignment", "the value of a secret or token key")
HIGH_ENTROPY: Final = Kind("high_entropy",
                           "a random-looking value of a weaker key (key, auth, session...)")

# ------------------------------------------------- Kubernetes manifests (kubernetes.py)

KUBERNETES_SECRET: Final = Kind("kubernetes_secret", "a value of a Kubernetes Secret's data")

#: Every declared kind.
DECLARED: Final[tuple[Kind, ...]] = tuple(
    value for value in dict(globals()).values() if isinstance(value, Kind))

#: The names of every kind, sorted.
KINDS: Final[tuple[str, ...]] = tuple(sorted(kind.name for kind in DECLARED))
