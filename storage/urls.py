"""Finding URLs in abstracts, in every form authors write them, and sorting code from links."""

from __future__ import annotations

import re
from urllib.parse import SplitResult, urlsplit

from storage.ingest_scan import ascii_fold, finditer_at, literal_starts

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
_HOST_MARKS = (".co", ".org", ".4open")
"""Each of CODE_HOSTS contains one of these."""
# Every _CANDIDATE match begins with one of these (in any case).
_CANDIDATE_STARTS = ("http", "www.", *CODE_HOSTS)
_SCHEME = re.compile(r"https?://", re.IGNORECASE)
# Most URLs: a lower-case http(s) scheme and host, then printable ASCII without spaces.
_PLAIN_URL = re.compile(r"(https?)://([a-z0-9.-]+)((?:[/?#][!-~]*)?)")
_QUERY_OR_FRAGMENT = re.compile(r"[?#]")
_HOST = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+")
_TRAILING = ".,;:!?'\"*_~\u2019\u201d\u3002\uff0c"
_CLOSERS = {")": "(", "]": "["}


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


def find_urls(text: str) -> list[str]:
    """Every URL in the text, canonical, deduplicated, in order of appearance."""
    # Most abstracts have no URL: skip the (slower) full scan for them. Each code host holds a
    # _HOST_MARKS string: the six hosts are looked for only when one of those is there.
    if "://" not in text and ": /" not in text and ":\t/" not in text:
        lowered = text.lower()
        if "www." not in lowered and not (
            any(mark in lowered for mark in _HOST_MARKS)
            and any(host in lowered for host in CODE_HOSTS)
        ):
            return []
    found: dict[str, str] = {}
    unwrapped = _unwrap(text)
    # Try _CANDIDATE only where a URL can begin: scanning every position is slow.
    starts = literal_starts(ascii_fold(unwrapped), _CANDIDATE_STARTS)
    for match in finditer_at(_CANDIDATE, unwrapped, starts):
        url = canonical(_trim(match.group()))
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
