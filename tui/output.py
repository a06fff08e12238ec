"""The link actions: `y` copies a paper's code URL (or its page), `o` opens one of its links.

Both work alike on one paper (the reader's when it has focus, else the cursor's): no URL says
so, one URL is used at once, several open the link chooser. A paper's links are its code
URLs, the other links found in its abstract, and its own page (`Paper.url`, from an import's
`url` field). Copies go through `tui.clipboard` one at a time, in the order asked; a browser
starts in a thread.
"""

from __future__ import annotations

import threading
import webbrowser
from collections import deque
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from textual import work

from papershelf.tui.app_actions import PaperActions

# The chooser and the clipboard are imported when first used (see app_actions).
if TYPE_CHECKING:
    from papershelf.storage.library.library import Library
    from papershelf.tui.clipboard import Clipboard


def is_web_url(url: str) -> bool:
    """True for an http(s) URL with a host and nothing a terminal or shell could trip on."""
    if any(ch.isspace() or ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 for ch in url):
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


class LinkActions(PaperActions):
    """`y` and `o` on the paper in focus; the app adds layout and search."""

    def __init__(self, library: Library) -> None:
        super().__init__(library)
        # Not `_clipboard`: Textual's App keeps the OSC 52 text under that name, and a
        # shadowing attribute turned the second copy into a crash (tests/tui/test_no_shadowing.py).
        self._copy_chain: Clipboard | None = None  # made on the first copy
        self._copy_lock = threading.Lock()
        self._copy_queue: deque[str] = deque()
        self._copy_draining = False

    def _choose_url(self, urls: Sequence[str], title: str, then: Callable[[str], None]) -> None:
        from papershelf.tui.screens.link_chooser import LinkChooser

        if len(urls) == 1:
            then(urls[0])
            return

        def chosen(url: str | None) -> None:
            if url is not None:
                then(url)

        self.push_screen(LinkChooser(list(urls), title), chosen)

    def action_copy_code(self) -> None:
        """Copy the code URL of the paper in focus (a chooser when it has several); a paper
        without code offers its own page instead."""
        paper_id = self.current_paper_id()
        if paper_id is None:
            return
        paper = self.library.get(paper_id)
        if paper.code_urls:
            self._choose_url(paper.code_urls, f"Copy a code URL of {paper.name}", self._copy)
        elif paper.url:
            # Its page is the one address a paper without code has for sure: better than none.
            self._choose_url((paper.url,), f"Copy the page of {paper.name}", self._copy)
        else:
            self.notify_info(f"{paper.name} has no code URL", "warning")

    def _copy(self, url: str) -> None:
        """Queue `url` for the clipboard; copies run one at a time, in the order asked."""
        with self._copy_lock:
            self._copy_queue.append(url)
            if self._copy_draining:
                return
            self._copy_draining = True
        self._drain_copies()

    # In a thread: clipboard tools may take up to their timeout (a stale DISPLAY, SSH). One
    # worker drains the queue, so two quick `y`s copy in order and both are reported.
    @work(thread=True, group="clipboard")
    def _drain_copies(self) -> None:
        while True:
            with self._copy_lock:
                if not self._copy_queue:
                    self._copy_draining = False
                    return
                url = self._copy_queue.popleft()
            if self._copy_chain is None:
                from papershelf.tui.clipboard import Clipboard

                self._copy_chain = Clipboard()
            outcome = self._copy_chain.copy(url, self)
            self.notify_info(outcome.message)

    def action_open_link(self) -> None:
        """Open the paper's code URL, link or page in a browser (http/https only)."""
        paper_id = self.current_paper_id()
        if paper_id is None:
            return
        paper = self.library.get(paper_id)
        urls = list(dict.fromkeys([*paper.code_urls, *paper.links_with_page]))
        web = [url for url in urls if is_web_url(url)]
        if not web:
            refused = f" ({len(urls) - len(web)} not http/https: not opened)" if urls else ""
            self.notify_info(f"{paper.name} has no web link to open{refused}", "warning")
            return
        self._choose_url(web, f"Open a link of {paper.name}", self.open_url)

    def open_url(self, url: str) -> None:
        """Open `url` in a browser from a thread (a browser can take seconds to start)."""
        if not is_web_url(url):
            self.notify_info(f"Not opened (only http/https): {url}", "warning")
            return
        self._open_in_thread(url)
        self.notify_info(f"Opening {url}")

    @work(thread=True, group="browser")
    def _open_in_thread(self, url: str) -> None:
        try:
            opened = webbrowser.open(url)
        except Exception as error:  # a broken browser setup must not crash the app
            self.notify_error(f"Could not open {url}: {error}")
            return
        if not opened:
            self.notify_info(f"No browser found; open it by hand: {url}", "warning")
