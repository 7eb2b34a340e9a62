"""The one rule for artifact paths: a relative POSIX path that stays under the root.

A path is refused when it, or its NFKC-folded spelling (so full-width dots become ".."), is
absolute, a UNC or drive path, carries a URL scheme, a home "~" or percent-encoding,
contains backslashes, ".", ".." or empty segments, a segment that is only white space or
ends in a space or a dot (which Windows drops), or a Windows device name (``CON``,
``aux.txt``, ``COM1``); when it holds a character that is not plainly visible text — a
control, format (zero-width, bidirectional), private-use, unassigned or surrogate character,
or a line or paragraph separator; when it holds a character Windows refuses in a file name
(``| * ? < > " :``); when it is not in Unicode NFC; or when it, or one of its segments, is
too long (512 bytes; 255 bytes a segment).
Refusing every non-canonical form (rather than normalising it) means a path that is
accepted is exactly the path that gets stored, displays as what it is, and cannot escape
the root. Two entries of one manifest may not be the same path once NFKC-folded and
case-folded (:func:`collision_key`), though a path may use any case, and no entry may be a
file where another needs a directory (``a.png`` beside ``A.PNG/b.png``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from automium.contracts import ErrorCode
from automium.errors import Problem

MAX_PATH_LENGTH = 512  # bytes of UTF-8; matches the contract's maxLength on characters
MAX_SEGMENT_BYTES = 255  # a file name's limit on ext4, APFS and NTFS (in UTF-16 units there)
# Characters Windows refuses in a file name (a ":" opens an NTFS alternate data stream).
_WINDOWS_ILLEGAL = frozenset('|*?<>":')
# Control, format, private-use, unassigned and surrogate characters, and the line and
# paragraph separators: none is visible text, and some reorder what is displayed (U+202E).
_INVISIBLE = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
_DRIVE = re.compile(r"^[A-Za-z]:")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")
# Windows device names, with or without an extension (superscript digits count there too).
_DEVICE = re.compile(r"^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])(\..*)?$", re.IGNORECASE)


def _invisible(path: str) -> bool:
    return any(unicodedata.category(c) in _INVISIBLE for c in path)


_RULES: tuple[tuple[Callable[[str, list[str]], object], str], ...] = (
    (lambda p, _: _invisible(p), "contains a control, format or other invisible character"),
    (lambda p, _: unicodedata.normalize("NFC", p) != p, "is not in Unicode NFC"),
    (lambda p, _: "\\" in p, "contains a backslash; use '/' between segments"),
    (lambda p, _: p.startswith("//"), "is a UNC path; give a path relative to the artifact root"),
    (lambda p, _: p.startswith("/"), "is absolute; give a path relative to the artifact root"),
    (lambda p, _: _DRIVE.match(p), "starts with a drive letter; give a relative path"),
    (lambda p, _: _SCHEME.match(p), "starts with a URL scheme; artifacts are paths, never URLs"),
    (lambda p, _: _PERCENT.search(p), "is percent-encoded; write the characters themselves"),
    (lambda _, s: any(x.startswith("~") for x in s), "has a '~' segment (home expansion)"),
    (lambda _, s: ".." in s, "contains a '..' segment"),
    (lambda _, s: "." in s, "contains a '.' segment"),
    (lambda _, s: "" in s, "contains an empty segment ('//', or a leading or trailing '/')"),
    (
        lambda _, s: any(not x.strip() or x[-1] in " ." for x in s),
        "has a segment that is only white space or ends in a space or a dot",
    ),
    (lambda _, s: any(_DEVICE.match(x) for x in s), "has a segment that is a Windows device name"),
    (
        lambda p, _: _WINDOWS_ILLEGAL & set(p),
        'contains a character Windows refuses in a file name (| * ? < > " :)',
    ),
    (
        lambda _, s: any(len(x.encode("utf-8", "surrogatepass")) > MAX_SEGMENT_BYTES for x in s),
        f"has a segment longer than {MAX_SEGMENT_BYTES} bytes, the longest file name file "
        "systems take",
    ),
)


def _rule_broken(path: str) -> str | None:
    """Why ``path`` is not a canonical relative POSIX path, or ``None`` when it is."""
    segments = path.split("/")
    return next((reason for broken, reason in _RULES if broken(path, segments)), None)


def path_problem(path: str, where: str) -> Problem | None:
    """The ``invalid_artifact_path`` problem of ``path`` at JSON Pointer ``where``, if any."""
    if not path:
        reason: str | None = "is empty"
    elif len(path.encode("utf-8", "surrogatepass")) > MAX_PATH_LENGTH:
        reason = f"is longer than {MAX_PATH_LENGTH} bytes"
    else:
        spellings = dict.fromkeys((path, unicodedata.normalize("NFKC", path)))
        reason = next(filter(None, map(_rule_broken, spellings)), None)
    if reason is None:
        return None
    return Problem(
        ErrorCode.INVALID_ARTIFACT_PATH,
        f'artifact path {reason}, e.g. use "steps/pay/screenshot.png"',
        where,
    )


def collision_key(path: str) -> str:
    """What two paths share when a file system could take one for the other."""
    return unicodedata.normalize("NFKC", path).casefold()


def directories(key: str) -> list[str]:
    """The directories a path (a :func:`collision_key`) needs: ``a/b/c`` needs ``a``, ``a/b``."""
    segments = key.split("/")
    return ["/".join(segments[:i]) for i in range(1, len(segments))]
