"""Finding URLs in abstracts, in every form authors write them, and sorting code from links."""

from __future__ import annotations

import re
from bisect import bisect_right
from urllib.parse import SplitResult, urlsplit

from papershelf.storage.text.scan import ascii_fold, finditer_at, literal_starts

CODE_HOSTS = (
    "github.com",
    "gitlab.com",
    "bitbucket.org",
    "codeberg.org",
    "huggingface.co",
    "anonymous.4open.science",
)
"""Hosts whose URLs are code (or model/data) repositories: they go to `Paper.code_urls`."""

_HOSTS = "|".join(re.escape(host) for host in CODE_HOSTS)
# Wrappers whose content is the URL: \href{URL}{text}, \url{URL}, [text](URL), <URL>.
_HREF = re.compile(r"\\href\s*\{([^{}\s]+)\}\s*\{[^{}]*\}")
_LATEX_URL = re.compile(r"\\url\s*\{([^{}\s]+)\}")
_MARKDOWN = re.compile(r"\[[^\[\]]*\]\(\s*<?([^()\s<>]+(?:\([^()\s]*\)[^()\s<>]*)*)>?\s*\)")
_ANGLE = re.compile(r"<((?:https?://|www\.)[^<>\s]+)>", re.IGNORECASE)
# "https:// host.tld" and "https: //host.tld": stray spaces around the scheme's "//" (seen in
# the wild).
_STRAY_SPACE = re.compile(
    r"(https?):(?:[ \t]*//[ \t]+|[ \t]+//[ \t]*)(?=[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)",
    re.IGNORECASE,
)
_CANDIDATE = re.compile(
    r"(?:https?://|(?<![\w.@/-])www\.|(?<![\w.@/:-])(?:www\.)?(?:" + _HOSTS + r")/)"
    r"[^\s<>\"\[\]{}|\\^`]+",
    re.IGNORECASE,
)
_URL_MARKS = ("://", ": /", ":\t/", "www.", *CODE_HOSTS)
"""One of these (lower-cased) is in any text with a URL but a bare host ("example.org/x")."""
# Every _CANDIDATE match begins with one of these (in any case).
_CANDIDATE_STARTS = ("http", "www.", *CODE_HOSTS)
_SCHEME = re.compile(r"https?://", re.IGNORECASE)
# Most URLs: a lower-case http(s) scheme and host, then printable ASCII without spaces.
_PLAIN_URL = re.compile(r"(https?)://([a-z0-9.-]+)((?:[/?#][!-~]*)?)")
_QUERY_OR_FRAGMENT = re.compile(r"[?#]")
_HOST = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+")
_TRAILING = ".,;:!?'\"*_~\u2019\u201d\u3002\uff0c"
_CLOSERS = {")": "(", "]": "["}

# Bare host names (`name.github.io`, `lab.example.org/paper`: no scheme, no `www.`). Prose is
# full of dotted words (`e.g.`, `Fig.3`, `v1.2`, `model.py`, `torch.nn`), so a bare host counts
# only when it ends in one of these top-level domains, written in lower case, and either a path
# follows it or a cue word ("Project page:", "Code:", "available at", "see") comes before it.
# File-name extensions that are also TLDs (.py, .sh, .md, .rs, .pt, .pl, ...) are left out.
_TLD_NAMES = (
    "com org net edu gov int io ai co dev app info xyz site page science tech online cloud "
    "ac eu uk de fr cn jp ca au ch nl kr es se il hk sg tw dk fi ru br cz gr hu ie nz za mx "
    "ar cl tr ua ro sk si lt lv ee hr lu ir eg sa ae th vn ph pk bd ng ke at be in is it me "
    "my no us id"
)
_TLDS = frozenset(_TLD_NAMES.split())
# TLDs that are English words: `results.in`, `model.it` with a space forgotten. On a host of
# two labels they need a path; a cue word is not enough.
_WORD_TLDS = frozenset(["at", "be", "in", "is", "it", "me", "my", "no", "us", "id"])
_BARE_TLD = re.compile(
    r"\.(?:"
    + "|".join(sorted(_TLDS, key=lambda tld: (-len(tld), tld)))
    + r")(?![\w-]|\.[A-Za-z0-9])"  # the last label: not `.ac` of `ox.ac.uk`
)
_BARE_HOST = re.compile(r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[a-z]+")
_BARE_PATH = re.compile(r"/[^\s<>\"\[\]{}|\\^`]*")
_HOST_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-")
_MAX_HOST = 253
"""The longest host name DNS allows: how far back from a TLD a bare host is looked for."""
# Characters that, right before a host, make it part of something else: an e-mail address,
# a path, `arXiv:`, `#tag`, a word.
_NOT_BEFORE = frozenset("_@/:%+#~\\")
_CUE = re.compile(
    r"(?<![\w-])(?:at|see|page|webpage|website|homepage|site|code|repository|repo|project|demo"
    r"|available|visit|url|link|links|here|via)[ \t]*[:\uff1a]?[ \t\n]*[(\[\"'\u201c\u2018]?$",
    re.IGNORECASE,
)
_CUE_WINDOW = 40


def _trim(url: str) -> str:
    """Strip trailing punctuation that ends the sentence, not the URL (and unbalanced brackets)."""
    # Bracket counts are kept up to date as characters go, and the URL is cut once at the end:
    # counting and slicing for each of 10,000 trailing ")" made this quadratic.
    counts = {bracket: url.count(bracket) for bracket in "()[]"}
    end = len(url)
    while end:
        last = url[end - 1]
        unbalanced = last in _CLOSERS and counts[last] > counts[_CLOSERS[last]]
        if last in _TRAILING or unbalanced:
            end -= 1
            if last in counts:
                counts[last] -= 1
        else:
            break
    return url[:end]


def _split(url: str) -> tuple[str, str, str, str, SplitResult | None] | None:
    """(scheme, host, path, the rest after the host, urlsplit's parts or None), as urlsplit and
    its lower-cased hostname give them; None when urlsplit refuses the URL."""
    plain = _PLAIN_URL.fullmatch(url)
    if plain is not None:
        # No user, port, brackets, spaces, controls or capitals: urlsplit would cut it at
        # "://" and at the first "/", "?" or "#"; the path ends at the first "?" or "#".
        scheme, host, rest = plain.group(1), plain.group(2), plain.group(3) or ""
        return scheme, host, _QUERY_OR_FRAGMENT.split(rest, maxsplit=1)[0], rest, None
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return None
    rest = url[len(parts.scheme) + 3 + len(parts.netloc) :]
    return parts.scheme, host, parts.path, rest, parts


def canonical(url: str) -> str | None:
    """The canonical form of a found URL, or None when it is not a usable web address."""
    if not _SCHEME.match(url):
        url = "https://" + url
    split = _split(url)
    if split is None:
        return None
    scheme, host, path, rest, parts = split
    if not _HOST.fullmatch(host) or "." not in host:
        return None
    if host.startswith("www.") and host[4:] in CODE_HOSTS:
        host = host[4:]
    if host == "github.com":
        segments = [segment for segment in path.split("/") if segment]
        if not segments:
            return None
        owner_repo = segments[:2]
        if len(owner_repo) == 2 and owner_repo[1].lower().endswith(".git"):
            owner_repo[1] = owner_repo[1][:-4]
        return "https://github.com/" + "/".join(owner_repo)
    try:
        port = parts.port if parts is not None else None
    except ValueError:
        return None  # a port that is not a number from 0 to 65535
    scheme = scheme.lower()
    netloc = host if port is None else f"{host}:{port}"
    if host in CODE_HOSTS:
        # Code hosts: drop query, fragment and trailing slash, so copies compare equal.
        rest = path.rstrip("/")
        scheme = "https"
    return f"{scheme}://{netloc}{rest}"


def is_code_url(url: str) -> bool:
    """Whether a canonical URL points at a code host."""
    # The host is part of the URL (urlsplit drops tabs and line breaks, which are not
    # printable, first): when no code host is in it, skip the parsing.
    if url.isprintable():
        lowered = url.lower()
        if not any(host in lowered for host in CODE_HOSTS):
            return False
    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:
        return False
    return host.removeprefix("www.") in CODE_HOSTS


def _unwrap(text: str) -> str:
    """Replace each wrapper by its URL with spaces around it, keeping order of appearance."""
    for pattern in (_HREF, _LATEX_URL, _MARKDOWN, _ANGLE):
        text = pattern.sub(lambda match: f" {match.group(1)} ", text)
    if ":// " not in text and "://\t" not in text and ": /" not in text and ":\t/" not in text:
        return text  # no stray space: skip _STRAY_SPACE's slower scan of every position
    return _STRAY_SPACE.sub(r"\1://", text)


def _bare_hosts(text: str) -> list[tuple[int, str]]:
    """(start, text) of each bare host name in `text` that counts as a link (see `_TLDS`)."""
    found: list[tuple[int, str]] = []
    for tld in _BARE_TLD.finditer(text):
        end = tld.end()
        start = tld.start()
        floor = max(0, end - _MAX_HOST)  # bounded: a long run of `a.com..` stays linear
        while start > floor and text[start - 1] in _HOST_CHARS:
            start -= 1
        before = text[start - 1] if start else ""
        if before in _NOT_BEFORE or before.isalnum():
            continue
        host = _BARE_HOST.fullmatch(text, start, end)
        if host is None:
            continue
        labels = host.group().count(".") + 1
        if labels < 3 and tld.group()[1:] in _WORD_TLDS:
            # `results.in/out`, `model.it/` are words missing a space far more often than
            # hosts: such a host is a link only with its scheme or `www.`.
            continue
        path = _BARE_PATH.match(text, end)
        if path is not None and not path.group().strip("/.,;:!?)'\""):
            path = None  # `results.in/ next`: a slash and punctuation are no path
        # No path: only after a cue word.
        if path is None and _CUE.search(text, max(0, start - _CUE_WINDOW), start) is None:
            continue
        found.append((start, _trim(text[start : path.end() if path else end])))
    return found


def find_urls(text: str) -> list[str]:
    """Every URL in the text, canonical, deduplicated, in order of appearance."""
    # Most abstracts have no URL: skip the (slower) full scan for them. A scheme, `www.` or a
    # code host, found in one pass (lower() neither makes nor breaks ":/", ": /", ":\t/"),
    # else a bare host's top-level domain, is what any URL needs.
    if (
        "://" not in text  # most URLs: found at the first, and no pass of the whole text
        and not literal_starts(text.lower(), _URL_MARKS)
        and _BARE_TLD.search(text) is None
    ):
        return []
    return _scanned_urls(text)


def _scanned_urls(text: str) -> list[str]:
    """`find_urls` by a full scan (for any text: what its shortcut must agree with)."""
    found: dict[str, str] = {}
    unwrapped = _unwrap(text)
    # Try _CANDIDATE only where a URL can begin: scanning every position is slow.
    starts = literal_starts(ascii_fold(unwrapped), _CANDIDATE_STARTS)
    candidates = [
        (match.start(), match.end(), _trim(match.group()))
        for match in finditer_at(_CANDIDATE, unwrapped, starts)
    ]
    # Bare hosts, in order of appearance among the others; one inside a URL found above (its
    # host after `www.`, a code host's path) is that URL, not another.
    firsts = [start for start, _, _ in candidates]  # sorted, the matches do not overlap
    for start, bare in _bare_hosts(unwrapped):
        index = bisect_right(firsts, start) - 1
        if index < 0 or candidates[index][1] <= start:
            candidates.append((start, start, bare))
    candidates.sort(key=lambda candidate: candidate[0])
    for _, _, candidate in candidates:
        url = canonical(candidate)
        if url is None:
            continue
        # GitHub owners and repositories are case-insensitive: keep the first spelling.
        key = url.casefold() if url.startswith("https://github.com/") else url
        found.setdefault(key, url)
    return list(found.values())


def split_urls(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(code_urls, links) found in the text."""
    urls = find_urls(text)
    if not urls:
        return (), ()
    code = [is_code_url(url) for url in urls]
    return (
        tuple(url for url, is_code in zip(urls, code, strict=True) if is_code),
        tuple(url for url, is_code in zip(urls, code, strict=True) if not is_code),
    )
