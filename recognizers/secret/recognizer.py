"""The Presidio recognizer of SECRET: :func:`~recognizers.secret.finder.find_secrets`'s
findings as Presidio results, JSON values under a secret key taken whole, and the
prefilter's triggers.  The only module of the package that imports Presidio."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from presidio_analyzer import AnalysisExplanation, EntityRecognizer, RecognizerResult

from recognizers._text import ContextWords, longest_first
from recognizers.base import CONTEXT_DISTANCE_KEY, LABEL_PREFIX_CHARS
from recognizers.secret.assignments import ACCEPT_SLACK, assignment, keyed_kind
from recognizers.secret.commands import MAX_COMMAND_VALUE, may_hold_command_password
from recognizers.secret.common import ENTITY, KEYED_SCORE, MAX_KEY, MAX_VALUE, RECOGNIZER_NAME
from recognizers.secret.filters import chave_is_other, message, placeholder
from recognizers.secret.finder import TRIGGER_NAMES, find_secrets
from recognizers.secret.formats import (
    AWS_KEY_TRIGGER,
    AWS_KEY_TRIGGER_CHARS,
    FORMAT_REACH,
    FORMAT_TRIGGERS,
    compiled_formats,
)
from recognizers.secret.keys import KEY_WORD, key_class
from recognizers.secret.kubernetes import MANIFEST_REACH
from recognizers.secret.pem import KEY_REACH, MAX_B64_KEY, PEM_LABEL
from recognizers.secret.web import MAX_JWT, may_hold_url_password

if TYPE_CHECKING:
    from presidio_analyzer.nlp_engine import NlpArtifacts

    from recognizers.prefilter import Prefilter

#: How far from a finding the recognizer reads (the prefilter's margins).  The engine
#: analyses long texts in chunks whose half-overlap (redactor.engine.analysis.CHUNK_OVERLAP / 2)
#: must hold this reading plus the longest finding.
MARGIN: Final = MANIFEST_REACH + 256


def _names_a_secret(label: str) -> bool:
    """A label that is a secret's key by its segments (``MasterUserPassword``,
    ``dbPassword``: one token to the label words), so that the engine passes every
    label enhance_using_context reads, with or without the prefilter."""
    return key_class(label) in _WHOLE_VALUE_KINDS


#: The classes of keys whose JSON values enhance_using_context takes whole.
_WHOLE_VALUE_KINDS: Final = ("password", "secret", "aws")


class SecretRecognizer(EntityRecognizer):
    """Keys, tokens and passwords (entity SECRET); see the package docstring."""

    NAME: Final = RECOGNIZER_NAME
    ENTITY: Final = ENTITY

    def __init__(self, supported_language: str = "pt", name: str | None = None) -> None:
        super().__init__(supported_entities=[ENTITY], supported_language=supported_language,
                         name=name or self.NAME)
        #: Labels holding one of these words, or naming a secret's key, make the engine
        #: pass them (see _lifted_by).
        self.context_words = ContextWords(LABEL_WORDS, label_key=_names_a_secret)

    #: The engine hands this recognizer the labels of a JSON value (its keys) even when
    #: its text held nothing (see enhance_using_context).
    reads_labels: Final = True

    def load(self) -> None:
        """Compile the provider patterns now (they import detect-secrets)."""
        compiled_formats()

    def enhance_using_context(
        self,
        text: str,
        raw_recognizer_results: list[RecognizerResult],
        other_raw_recognizer_results: list[RecognizerResult],
        nlp_artifacts: NlpArtifacts | None,
        context: list[str] | None = None,
    ) -> list[RecognizerResult]:
        """A JSON value under a key that names a secret is one whole, spaces and all.

        redactor's engine analyses a value as ``"<key>: <value>"`` with its keys as
        labels; the text alone reads a phrase after ``password:`` as prose.
        """
        if not context:
            return raw_recognizer_results
        label = context[-1]
        kind = key_class(label)
        prefix = f"{label[:LABEL_PREFIX_CHARS]}: "
        if kind not in _WHOLE_VALUE_KINDS or not text.startswith(prefix):
            return raw_recognizer_results
        start, end = len(prefix), len(text.rstrip())
        while start < end and text[start] in " \t\r\n":
            start += 1
        value = text[start:end]
        if end <= start or placeholder(value) or message(value) or any(
                r.start <= start and end <= r.end for r in raw_recognizer_results):
            return raw_recognizer_results
        if "chave" in label.lower() and chave_is_other(text, start, value):
            return raw_recognizer_results
        return [*raw_recognizer_results,
                self._result(start, end, keyed_kind(kind).name, KEYED_SCORE)]

    def _result(self, start: int, end: int, kind: str, score: float) -> RecognizerResult:
        name = f"{self.NAME}:{kind}"
        return RecognizerResult(
            entity_type=ENTITY, start=start, end=end, score=score,
            analysis_explanation=AnalysisExplanation(
                recognizer=name, original_score=score, pattern_name=kind),
            recognition_metadata={RecognizerResult.RECOGNIZER_NAME_KEY: name,
                                  RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
                                  CONTEXT_DISTANCE_KEY: 0})

    #: ``analyze`` takes the prefilter's hits: the key words its accept judged to give
    #: nothing are not judged again.
    takes_hits: Final = True

    def analyze(self, text: str, entities: list[str],
                nlp_artifacts: NlpArtifacts | None = None,
                hits: Sequence[tuple[int, int, str]] | None = None) -> list[RecognizerResult]:
        """One result per secret; the kind is in the recognizer name.

        ``hits``: the prefilter's accepted hits in ``text`` with their triggers' names,
        when the engine analyses the windows around them."""
        key_hits = None if hits is None else sorted((first, last) for first, last, name in hits
                                                    if name == KEY_TRIGGER)
        names = None if hits is None else {name for _, _, name in hits}
        if names is not None and not names <= TRIGGER_NAMES:
            names = None  # a union's hits: which triggers hit is not known
        return [self._result(start, end, kind, score)
                for start, end, kind, score in find_secrets(text, key_hits, names)]

    def prefilter(self, threshold: float) -> Prefilter:
        """Format starts, armour lines, key words, auth schemes and manifest kinds."""
        from recognizers.prefilter import Prefilter, Trigger

        starts = "|".join(FORMAT_TRIGGERS)
        key_words = "|".join(longest_first({
            "pass", "pwd", "pw", "senha", "secret", "token", "chave", "apikey", "api-key",
            "credencia", "credential", "auth", "key", "cookie", "session", "sid",
            "signature", "sig", "hmac", "psk"}))
        triggers = [
            # A format's start: the token runs on after it (the longest: a GitLab agent
            # token, 1,032 characters); a URL's password stands before and after "://".
            Trigger(f"(?:{starts})", before=64, after=FORMAT_REACH, name="format"),
            # A referer or a link holds no password: only "://user:…@" is a hit, written
            # in the pattern (a web log's every referer was a hit for the accept to
            # refuse) with the accept's ASCII \s spelled out (hyperscan's is wider in
            # Unicode mode, and its \v is a class); the accept bounds it by FORMAT_REACH.
            # (No "@" in the password's class: the first "@" after it is hit, not each.)
            Trigger(r"://[^ \t\n\r\f\x0b/:@]*:[^ \t\n\r\f\x0b/@]*@", before=64,
                    after=FORMAT_REACH, name="url", accept=may_hold_url_password),
            # Formats without a literal start: Twilio, Telegram and Discord tokens, and
            # detect-secrets' AWS secret-key pattern (which starts at "aws", any case).
            Trigger("(?:AC|SK)[a-z0-9]{32}|[0-9]{8,10}:[0-9A-Za-z_-]{35}"
                    "|[MNO][a-zA-Z0-9_-]{23,25}[.][a-zA-Z0-9_-]{6}[.]", after=64,
                    name="format-shape"),
            # detect-secrets' AWS secret-key pattern itself (AWS_KEY_TRIGGER): "aws"
            # alone hit every ARN and awsRegion of a CloudTrail log, 6,500 hits per MB,
            # each asked whether the pattern matched from it.
            Trigger(AWS_KEY_TRIGGER, after=128, name="aws",
                    max_length=AWS_KEY_TRIGGER_CHARS),
            Trigger("eyJ", after=MAX_JWT, name="jwt"),
            Trigger(f"BEGIN {PEM_LABEL}", before=16, after=KEY_REACH + 256,
                    name="pem-begin"),
            Trigger(f"END {PEM_LABEL}", before=KEY_REACH + 256, after=32, name="pem-end"),
            Trigger("PuTTY-User-Key-File-", after=KEY_REACH + 64, name="putty"),
            Trigger("LS0tLS1CRUdJTi", after=MAX_B64_KEY + 32, name="pem-base64"),
            # A key holding a word that names a secret, and its value.
            Trigger(f"(?i:{key_words})", before=MAX_KEY + 8,
                    after=MAX_KEY + 8 + MAX_VALUE + 8, name=KEY_TRIGGER,
                    accept=_accept_key_word),
            Trigger("(?:Bearer|Basic|Token|Digest|Negotiate|NTLM|ApiKey|SSWS|Splunk|Bot)[ \t]",
                    after=MAX_VALUE + 16,
                    name="auth-scheme"),
            Trigger("(?:mysql|mariadb|sshpass|redis-cli|hdbsql|sqlcmd|mongo|ldap|keytool|docker"
                    "|podman|curl|sqlplus|sapcontrol|(?i:hdbuserstore)|jdbc:oracle|htpasswd"
                    "|(?i:identified))", after=2 * MAX_COMMAND_VALUE + 64,
                    name="command", accept=may_hold_command_password),
            Trigger('kind\\\\?"?[ \t]*:[ \t]*\\\\?"?[\'"]?Secret', before=MANIFEST_REACH + 64,
                    after=MANIFEST_REACH + 64, name="manifest"),
        ]
        return Prefilter(ENTITY, tuple(triggers), margin_before=MARGIN, margin_after=MARGIN)


#: The name of the trigger of key words (its hits are passed back to ``analyze``).
KEY_TRIGGER: Final = "key"


def _accept_key_word(text: str, start: int, end: int) -> bool:
    """The trigger's word is in a key that is given a value that counts."""
    match = KEY_WORD.search(text, start, min(len(text), end + ACCEPT_SLACK))
    if match is None:
        return True  # a spelling the finder reads otherwise: keep (a superset)
    return assignment(text, match.start(), match.end())[2] is not None


#: The words of keys whose JSON values are taken whole (see enhance_using_context).
LABEL_WORDS: Final = ("password", "passwd", "pwd", "senha", "secret", "token", "chave",
                      "apikey", "api_key", "credential", "credentials", "passphrase")
