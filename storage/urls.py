"""Finding URLs in abstracts, in every form authors write them, and sorting code from links."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

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
# "https:// host.tld" with a stray space after the scheme (seen in the wild).
_STRAY_SPACE = re.compile(r"(https?://)[ \t]+(?=[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)", re.IGNORECASE)
_CANDIDATE = re.compile(
    r"(?:https?://|(?<![\w.@/-])www\.|(?<![\w.@/:-])(?:www\.)?(?:" + _HOSTS + r")/)"
    r"[^\s<>\"\[\]{}|\\^`]+",
    re.IGNORECASE,
)
_HOST = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+")
_TRAILING = ".,;:!?'\"*_~\u2019\u201d\u3002\uff0c"
_CLOSERS = {")": "(", "]": "["}


def _trim(url: str) -> str:
    """Strip trailing punctuation that ends the sentence, not the URL (and unbalanced brackets)."""
    while url:
        last = url[-1]
        unbalanced = last in _CLOSERS and url.count(last) > url.count(_CLOSERS[last])
        if last in _TRAILING or unbalanced:
            url = url[:-1]
        else:
            break
    return url


def canonical(url: str) -> str | None:
    """The canonical form of a found URL, or None when it is not a usable web address."""
    if not re.match(r"https?://", url, re.IGNORECASE):
        url = "https://" + url
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
    except ValueError:
        return None
    if not _HOST.fullmatch(host) or "." not in host:
        return None
    if host.startswith("www.") and host[4:] in CODE_HOSTS:
        host = host[4:]
    if host == "github.com":
        segments = [segment for segment in parts.path.split("/") if segment]
        if not segments:
            return None
        owner_repo = segments[:2]
        if len(owner_repo) == 2 and owner_repo[1].lower().endswith(".git"):
            owner_repo[1] = owner_repo[1][:-4]
        return "https://github.com/" + "/".join(owner_repo)
    scheme = parts.scheme.lower()
    netloc = host if parts.port is None else f"{host}:{parts.port}"
    rest = url[len(parts.scheme) + 3 + len(parts.netloc) :]
    if host in CODE_HOSTS:
        # Code hosts: drop query, fragment and trailing slash, so copies compare equal.
        rest = parts.path.rstrip("/")
        scheme = "https"
    return f"{scheme}://{netloc}{rest}"


def is_code_url(url: str) -> bool:
    """Whether a canonical URL points at a code host."""
    try:
        host = (urlsplit(url).hostname or "").lower()
    except ValueError:
        return False
    return host.removeprefix("www.") in CODE_HOSTS


def _unwrap(text: str) -> str:
    """Replace each wrapper by its URL with spaces around it, keeping order of appearance."""
    for pattern in (_HREF, _LATEX_URL, _MARKDOWN, _ANGLE):
        text = pattern.sub(lambda match: f" {match.group(1)} ", text)
    return _STRAY_SPACE.sub(r"\1", text)


def find_urls(text: str) -> list[str]:
    """Every URL in the text, canonical, deduplicated, in order of appearance."""
    lowered = text.lower()
    # Most abstracts have no URL: skip the (slower) full scan for them.
    if "://" not in text and "www." not in lowered and not any(h in lowered for h in CODE_HOSTS):
        return []
    found: dict[str, str] = {}
    for match in _CANDIDATE.finditer(_unwrap(text)):
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
    return (
        tuple(url for url in urls if is_code_url(url)),
        tuple(url for url in urls if not is_code_url(url)),
    )
