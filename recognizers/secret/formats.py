"""Provider tokens by their fixed formats, with the patterns of Yelp's detect-secrets.

AWS access keys, GitHub, GitLab, Slack, Stripe, SendGrid, OpenAI, PyPI, Azure storage
keys...  Only the plugins whose patterns run in linear time are used: the IBM,
SoftLayer, Cloudant, keyword, NPM and JWT plugins backtrack badly on crafted lines
(upstream PR #977) and are replaced by the other detectors of this package.  Their
patterns are searched with ``finditer``, so each finding has its offsets (detect-secrets
itself scans line by line and reports none).  detect-secrets is imported on first use.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

from recognizers.secret.common import FORMAT_SCORE, Hit
from recognizers.secret.filters import placeholder
from recognizers.secret.kinds import (
    ANTHROPIC_KEY,
    ARTIFACTORY_TOKEN,
    AWS_ACCESS_KEY,
    AWS_SECRET_KEY,
    AZURE_STORAGE_KEY,
    CONNECTION_STRING_PASSWORD,
    DISCORD_TOKEN,
    GITHUB_TOKEN,
    GITLAB_TOKEN,
    GOOGLE_API_KEY,
    MAILCHIMP_KEY,
    NPM_TOKEN,
    OPENAI_KEY,
    PYPI_TOKEN,
    SENDGRID_KEY,
    SLACK_TOKEN,
    SLACK_WEBHOOK,
    SQUARE_SECRET,
    STRIPE_KEY,
    TELEGRAM_TOKEN,
    TWILIO_KEY,
    Kind,
)

#: detect-secrets plugins used, with the kind each denylist pattern reports and the
#: group holding the value (0: the whole match).  A pattern marked None is not used:
#: Artifactory's ``AP[0-9A-F]…`` hits ordinary upper-case words of SAP logs.
PLUGINS: Final = (
    ("aws", "AWSKeyDetector", ((AWS_ACCESS_KEY, 0), (AWS_SECRET_KEY, 1))),
    ("artifactory", "ArtifactoryDetector", ((ARTIFACTORY_TOKEN, 0), None)),
    ("azure_storage_key", "AzureStorageKeyDetector", ((AZURE_STORAGE_KEY, 0),)),
    ("basic_auth", "BasicAuthDetector", ((CONNECTION_STRING_PASSWORD, 1),)),
    ("discord", "DiscordBotTokenDetector", ((DISCORD_TOKEN, 0),)),
    ("github_token", "GitHubTokenDetector", ((GITHUB_TOKEN, 0),)),
    ("gitlab_token", "GitLabTokenDetector", ((GITLAB_TOKEN, 0),) * 7),
    ("mailchimp", "MailchimpDetector", ((MAILCHIMP_KEY, 0),)),
    ("openai", "OpenAIDetector", ((OPENAI_KEY, 0),)),
    ("pypi_token", "PypiTokenDetector", ((PYPI_TOKEN, 0),) * 2),
    ("sendgrid", "SendGridDetector", ((SENDGRID_KEY, 0),)),
    ("slack", "SlackDetector", ((SLACK_TOKEN, 0), (SLACK_WEBHOOK, 0))),
    ("square_oauth", "SquareOAuthDetector", ((SQUARE_SECRET, 0),)),
    ("stripe", "StripeDetector", ((STRIPE_KEY, 0),)),
    ("telegram_token", "TelegramBotTokenDetector", ((TELEGRAM_TOKEN, 0),)),
    ("twilio", "TwilioKeyDetector", ((TWILIO_KEY, 0),) * 2),
)

#: Formats detect-secrets 1.5.0 does not know, in the same shape: (kind, pattern).
_EXTRA_FORMATS: Final = (
    (ANTHROPIC_KEY, r"sk-ant-[a-z]{3,8}\d{2}-[A-Za-z0-9_-]{80,120}"),
    (OPENAI_KEY, r"sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,200}"),
    (GITHUB_TOKEN, r"github_pat_[A-Za-z0-9_]{60,100}"),
    (GOOGLE_API_KEY, r"AIza[0-9A-Za-z_-]{35}"),
    (NPM_TOKEN, r"npm_[A-Za-z0-9]{36}"),
)

#: Substrings every match of a format holds, tested with ``in`` before its pattern
#: runs (a pattern without a literal start costs a regex step at every character).
_NEEDLES: Final[dict[str, tuple[str, ...]]] = {
    "aws_access_key": ("A3T", "ABIA", "ACCA", "AKIA", "ASIA"),
    "aws_secret_key": ("aws", "AWS", "Aws"),
    "artifactory_token": ("AKC",),
    "azure_storage_key": ("AccountKey=",),
    "connection_string_password": ("://",),
    "discord_token": (".",),
    "github_token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "gitlab_token": ("glpat-", "gldt-", "glft-", "glsoat-", "glrt-", "GR1348941", "glcbt-",
                     "glimt-", "glptt-", "glagent-", "gloas-"),
    "mailchimp_key": ("-us",),
    "openai_key": ("sk-",),
    "anthropic_key": ("sk-ant-",),
    "pypi_token": ("pypi-",),
    "sendgrid_key": ("SG.",),
    # detect-secrets reads Slack's tokens in any case: every case of the start.
    "slack_token": ("xox", "xoX", "xOx", "xOX", "Xox", "XoX", "XOx", "XOX"),
    "slack_webhook": ("hooks.slack.com",),
    "square_secret": ("sq0csp-",),
    "stripe_key": ("k_live_",),
    "telegram_token": (":",),
    "twilio_key": ("AC", "SK"),
    "google_api_key": ("AIza",),
    "npm_token": ("npm_",),
}

#: Formats whose pattern starts without a literal: a fast pattern for a part every
#: match holds, and how far the match may reach before and after that part.  The
#: format's pattern then runs only on that window (matches equal: a window holds every
#: character a match and its look-arounds read).
#: Patterns whose length has no bound run in windows too, so that the prefilter's
#: reach (FORMAT_REACH after a format's start) holds every match; OpenAI's backtracks
#: on a run of "sk-" and only runs near its fixed middle part.  Keyed by plugin and
#: pattern index.
_CORES: Final[dict[tuple[str, int], tuple[str, int, int]]] = {
    ("ArtifactoryDetector", 0): ("AKC", 1, 1_000),
    ("MailchimpDetector", 0): (r"-us\d", 33, 4),
    ("TelegramBotTokenDetector", 0): (r":[0-9A-Za-z_-]{35}", 11, 37),
    ("DiscordBotTokenDetector", 0): (r"\.[a-zA-Z\d_-]{6}\.", 27, 36),
    ("AWSKeyDetector", 1): ("(?i:aws)", 1, 90),
    ("OpenAIDetector", 0): ("T3BlbkFJ", 240, 24),
    ("BasicAuthDetector", 0): ("://", 0, 1_000),
    ("PypiTokenDetector", 0): ("pypi-", 0, 1_000),
    ("PypiTokenDetector", 1): ("pypi-", 0, 1_000),
    ("SlackDetector", 0): ("[xX][oO][xX]", 0, 1_000),
    ("SlackDetector", 1): ("hooks[.]slack[.]com", 8, 1_000),
}
#: Formats run in windows (above) whose matches all hold a part that a fast pattern finds:
#: a window without one is not searched.  AWS's secret key pattern (``aws``, up to twenty
#: characters, a key word, up to twenty more, a quoted key of forty) backtracks at every
#: ``aws`` of a CloudTrail record (an ARN, ``awsRegion``) to find no quoted key: 20 ms per
#: MB.  Written with both cases in their classes, and compiled with re.ASCII alone: the
#: formats' ASCII classes read alike whatever their case flag (IGNORECASE doubled the
#: search's time).  Keyed as _CORES.
_QUOTED_AWS_KEY: Final = "['\"][0-9a-zA-Z/+]{40}['\"]"
_REQUIRED: Final[dict[tuple[str, int], str]] = {("AWSKeyDetector", 1): _QUOTED_AWS_KEY}
#: How far after a format's literal start its match may run (windows above included).
FORMAT_REACH: Final = 1_100

#: The separators detect-secrets' Artifactory pattern includes around a token.
_BOUNDARY_CHARS: Final = frozenset(' \t\r\n\f\v=:"')

#: A token's neighbours may not continue it.
_NO_RUN_BEFORE: Final = frozenset(string.ascii_letters + string.digits + "_")
_NO_RUN_AFTER: Final = r"(?![A-Za-z0-9_])"

#: The prefilter's triggers of the provider formats' literal starts (but "://", which has
#: its own): each start with what every match of its formats holds right after it, where
#: the start alone is a piece of common words (``ec2-user`` holds "-us", ``disk-usage``
#: "sk-", ``npm_config_cache`` "npm_"): a SECRET region reaches kilobytes around its hit.
#: Case as written, as the needles are (:func:`provider_tokens`), and what a pattern that
#: ignores case reads in any case after them (Slack's ``xoxB-``), or in any case at all
#: (Slack's ``XOXB-``).
FORMAT_TRIGGERS: Final = (
    "(?:A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA)[0-9A-Z]{16}",  # detect-secrets' AWS key pattern
    "AKC[a-zA-Z0-9]{10}", "AccountKey=",
    "gh[pousr]_[A-Za-z0-9_]{36}", "github_pat_",
    "glpat-", "gldt-", "glft-", "glsoat-", "glrt-", "GR1348941", "glcbt-", "glimt-",
    "glptt-", "glagent-", "gloas-",
    "-us[0-9]",  # Mailchimp: 32 characters, "-us" and the datacenter's number
    "sk-[A-Za-z0-9_-]{20}",  # OpenAI's and Anthropic's keys run on for 20 and more
    "pypi-AgE", "SG[.][a-zA-Z0-9_-]{22}[.]", "[xX][oO][xX][aboprsABOPRS]-", "hooks[.]slack[.]com",
    "sq0csp-", "k_live_", "AIza[0-9A-Za-z_-]{35}", "npm_[A-Za-z0-9]{36}",
)


@dataclass(frozen=True, slots=True)
class _Format:
    kind: Kind
    pattern: re.Pattern[str]
    group: int
    needles: tuple[str, ...]
    core: tuple[re.Pattern[str], int, int] | None = None
    required: re.Pattern[str] | None = None

    def matches(self, text: str) -> Iterator[re.Match[str]]:
        if self.core is None:
            yield from self.pattern.finditer(text)
            return
        core, before, after = self.core
        required = self.required
        if required is not None and required.search(text) is None:
            return  # (one search of the text: a CloudTrail log holds no quoted key)
        # Windows around the core's hits, merged where they overlap: each character is
        # searched once.  A match must end before its window does (or at the text's end),
        # so that the window held everything it read.
        windows: list[list[int]] = []
        for hit in core.finditer(text):
            low, high = max(0, hit.start() - before), min(len(text), hit.end() + after)
            if windows and low <= windows[-1][1]:
                windows[-1][1] = max(windows[-1][1], high)
            else:
                windows.append([low, high])
        for low, high in windows:
            if required is not None and required.search(text, low, high) is None:
                continue  # no match lacks it (and a match lies within its window)
            for match in self.pattern.finditer(text, low, high):
                if match.end() < high or high == len(text):
                    yield match


@functools.cache
def compiled_formats() -> tuple[_Format, ...]:
    """The provider patterns, bounded so that a longer token does not hold one."""
    import importlib

    formats: list[_Format] = []
    for module, name, uses in PLUGINS:
        plugin = getattr(importlib.import_module(f"detect_secrets.plugins.{module}"), name)
        patterns = list(plugin.denylist)
        if len(patterns) != len(uses):
            raise RuntimeError(f"detect-secrets {name}: {len(patterns)} patterns, "
                               f"expected {len(uses)}")
        for index, (pattern, use) in enumerate(zip(patterns, uses, strict=True)):
            if use is None:
                continue
            kind, group = use
            source = pattern.pattern
            if group == 0 and kind is not ARTIFACTORY_TOKEN:  # that one bounds itself
                # The start is checked in Python (_NO_RUN_BEFORE): a look-behind first
                # would cost a regex step at every character instead of a literal search.
                source = f"(?:{source}){_NO_RUN_AFTER}"
            # ASCII classes only: \d and \w of detect-secrets' patterns are meant so.
            flags = (pattern.flags & ~re.UNICODE) | re.ASCII
            core = _CORES.get((name, index))
            required = _REQUIRED.get((name, index))
            formats.append(_Format(kind, re.compile(source, flags), group, _NEEDLES[kind.name],
                                   None if core is None else (re.compile(core[0], re.ASCII),
                                                              core[1], core[2]),
                                   None if required is None
                                   else re.compile(required, re.ASCII)))
    for kind, source in _EXTRA_FORMATS:
        formats.append(_Format(kind, re.compile(f"{source}{_NO_RUN_AFTER}", re.ASCII), 0,
                               _NEEDLES[kind.name]))
    return tuple(formats)


#: detect-secrets' AWS secret-key pattern (``aws``, up to twenty characters, a key word,
#: up to twenty more, a quoted key of forty; case ignored), as a prefilter trigger: in
#: the syntax both re and hyperscan read, without its lazy quantifiers (whether a match
#: ends somewhere does not depend on them).  tests/unit/test_secret_needles.py holds it
#: to the plugin's pattern.
AWS_KEY_TRIGGER: Final = "(?i:aws).{0,20}(?i:key|pwd|pw|password|pass|token).{0,20}" \
    + _QUOTED_AWS_KEY
#: Its longest match ("password" is the longest key word).
AWS_KEY_TRIGGER_CHARS: Final = 3 + 20 + len("password") + 20 + 1 + 40 + 1


@functools.cache
def _needles() -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Each needle of the formats, with the formats (their indexes) it opens."""
    opens: dict[str, list[int]] = {}
    for index, entry in enumerate(compiled_formats()):
        for needle in entry.needles:
            opens.setdefault(needle, []).append(index)
    return tuple((needle, tuple(indexes)) for needle, indexes in opens.items())


#: From this length up (a batch's region, not a JSON value), the needles a text holds are
#: found in one hyperscan scan, when hyperscan is installed: asked one by one, each absent
#: needle read the whole text (27 ms per MB of a CloudTrail log for the fifty needles).
NEEDLE_SCAN_FROM: Final = 1 << 16


@functools.cache
def _needle_database() -> Any:
    """A hyperscan database of the needles (ASCII), each reported once per scan; None
    without hyperscan."""
    from recognizers._text import literal_database

    return literal_database([needle for needle, _ in _needles()], once=True)


def _formats_wanted(text: str) -> list[int]:
    """The formats (their indexes, in order) of which ``text`` holds a needle."""
    needles = _needles()
    database = _needle_database() if len(text) >= NEEDLE_SCAN_FROM else None
    if database is None:
        return sorted({index for needle, indexes in needles if needle in text
                       for index in indexes})
    import hyperscan

    held: set[int] = set()

    def on_match(ident: int, start: int, end: int, flags: int, context: object) -> None:
        held.add(ident)

    # The needles are ASCII: found in the UTF-8 bytes exactly where they stand in the
    # text.  A scratch per scan: one may not serve two threads at once.
    database.scan(text.encode("utf-8", "surrogatepass"), match_event_handler=on_match,
                  scratch=hyperscan.Scratch(database))
    return sorted({index for ident in held for index in needles[ident][1]})


def provider_tokens(text: str) -> Iterator[Hit]:
    """The provider tokens of ``text``, by their formats (those of which it holds a
    needle, asked needle by needle: a short text, a JSON value, holds few of them)."""
    formats = compiled_formats()
    wanted = _formats_wanted(text)
    for entry in (formats[index] for index in wanted):
        for match in entry.matches(text):
            start, end = match.span(entry.group)
            if end <= start:
                continue
            if entry.kind is ARTIFACTORY_TOKEN:
                # Its pattern holds the blank or quote on either side: the token only.
                while start < end and text[start] in _BOUNDARY_CHARS:
                    start += 1
                while end > start and text[end - 1] in _BOUNDARY_CHARS:
                    end -= 1
            elif entry.group == 0 and start and text[start - 1] in _NO_RUN_BEFORE:
                continue
            if entry.kind is CONNECTION_STRING_PASSWORD and placeholder(match.group(1)):
                continue
            yield Hit(start, end, entry.kind, FORMAT_SCORE)

