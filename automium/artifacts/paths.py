"""The one rule for artifact paths: a relative POSIX path that stays under the root.

A path is refused when any of its spellings — as given, percent-decoded, NFKC-folded (so
full-width dots become a ".."), or both in either order (so a half full-width "%2e" becomes
a ".") — is absolute, a UNC or drive path, carries a URL scheme or a home "~", contains
backslashes, control characters, or ".", ".." or empty segments, or is too long. Refusing
every non-canonical form (rather than normalising it) means a path that is accepted is
exactly the path that gets stored: it cannot escape the root.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from urllib.parse import unquote

from automium.contracts import ErrorCode
from automium.errors import Problem

MAX_PATH_LENGTH = 512  # bytes of UTF-8; matches the contract's maxLength on characters
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_DRIVE = re.compile(r"^[A-Za-z]:")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


_RULES: tuple[tuple[Callable[[str, list[str]], object], str], ...] = (
    (lambda p, _: _CONTROL.search(p), "contains a NUL or control character"),
    (lambda p, _: "\\" in p, "contains a backslash; use '/' between segments"),
    (lambda p, _: p.startswith("//"), "is a UNC path; give a path relative to the artifact root"),
    (lambda p, _: p.startswith("/"), "is absolute; give a path relative to the artifact root"),
    (lambda p, _: _DRIVE.match(p), "starts with a drive letter; give a relative path"),
    (lambda p, _: _SCHEME.match(p), "starts with a URL scheme; artifacts are paths, never URLs"),
    (lambda _, s: any(x.startswith("~") for x in s), "has a '~' segment (home expansion)"),
    (lambda _, s: ".." in s, "contains a '..' segment"),
    (lambda _, s: "." in s, "contains a '.' segment"),
    (lambda _, s: "" in s, "contains an empty segment ('//', or a leading or trailing '/')"),
)


def _rule_broken(path: str) -> str | None:
    """Why ``path`` is not a canonical relative POSIX path, or ``None`` when it is."""
    segments = path.split("/")
    return next((reason for broken, reason in _RULES if broken(path, segments)), None)


def path_problem(path: str, where: str) -> Problem | None:
    """The ``invalid_artifact_path`` problem of ``path`` at JSON Pointer ``where``, if any."""
    if not path:
        reason: str | None = "is empty"
    elif len(path.encode("utf-8")) > MAX_PATH_LENGTH:
        reason = f"is longer than {MAX_PATH_LENGTH} bytes"
    else:
        decoded, folded = unquote(path), unicodedata.normalize("NFKC", path)
        spellings = dict.fromkeys(
            (path, decoded, folded, unquote(folded), unicodedata.normalize("NFKC", decoded))
        )
        reason = next(filter(None, map(_rule_broken, spellings)), None)
    if reason is None:
        return None
    return Problem(
        ErrorCode.INVALID_ARTIFACT_PATH,
        f'artifact path {reason}, e.g. use "steps/pay/screenshot.png"',
        where,
    )
