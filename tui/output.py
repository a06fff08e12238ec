"""What leaves the app: `y` copies a code URL, `o` opens a link, `e` exports (Markdown, BibTeX,
CSV or JSON).

`OutputActions` is composed by the app (`app.output`), not inherited: the app's `y`, `o` and
`e` actions call it. Copying and opening work alike on one paper (the reader's when it has
focus, else the cursor's): no URL says so, one URL is used at once, several open the link
chooser. A paper's links are its code URLs, the other links found in its abstract, and its
record's (`Paper.record_links`: its page, PDF, DOI, arXiv and OpenReview pages); `y` offers the
record's when the paper has no code URL. Copies go through `tui.clipboard` one at
a time, in the order asked; a browser starts, and an export is written, in a thread.
"""

from __future__ import annotations

import threading
import webbrowser
from collections import deque
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from papershelf.storage.errors import PapershelfError

# The dialogs, the exporter and the clipboard are imported when first used: together they
# cost ~0.1 s of imports that would otherwise delay the first frame.
if TYPE_CHECKING:
    from papershelf.storage.export.selection import Selection
    from papershelf.tui.app import PapershelfApp
    from papershelf.tui.clipboard import Clipboard
    from papershelf.tui.screens.export_dialog import ExportRequest


def is_web_url(url: str) -> bool:
    """True for an http(s) URL with a host and nothing a terminal or shell could trip on."""
    if any(ch.isspace() or ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0 for ch in url):
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


def _plural(count: int, word: str = "paper") -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


class OutputActions:
    """`y`, `o` and `e`: copy, open and export, for the app that composes it."""

    def __init__(self, app: PapershelfApp) -> None:
        self._app = app
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

        self._app.push_screen(LinkChooser(list(urls), title), chosen)

    def copy_code(self) -> None:
        """Copy the code URL of the paper in focus (a chooser when it has several); a paper
        without code offers its record's links instead (page, PDF, DOI, arXiv)."""
        paper_id = self._app.papers.current_paper_id()
        if paper_id is None:
            return
        paper = self._app.library.get(paper_id)
        if paper.code_urls:
            self._choose_url(paper.code_urls, f"Copy a code URL of {paper.name}", self._copy)
        elif paper.record_links:
            # Its page, PDF, DOI or arXiv page: better than nothing for a paper without code.
            self._choose_url(paper.record_links, f"Copy a link of {paper.name}", self._copy)
        else:
            self._app.notify_info(f"{paper.name} has no code URL", "warning")

    def _copy(self, url: str) -> None:
        """Queue `url` for the clipboard; copies run one at a time, in the order asked."""
        with self._copy_lock:
            self._copy_queue.append(url)
            if self._copy_draining:
                return
            self._copy_draining = True
        # In a thread: clipboard tools may take up to their timeout (a stale DISPLAY, SSH).
        # One worker drains the queue, so two quick `y`s copy in order and both are reported.
        self._app.run_worker(self._drain_copies, thread=True, group="clipboard")

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
            outcome = self._copy_chain.copy(url, self._app)
            self._app.notify_info(outcome.message)

    def open_link(self) -> None:
        """Open the paper's code URL, link or page in a browser (http/https only)."""
        paper_id = self._app.papers.current_paper_id()
        if paper_id is None:
            return
        paper = self._app.library.get(paper_id)
        urls = paper.all_links
        web = [url for url in urls if is_web_url(url)]
        if not web:
            refused = f" ({len(urls) - len(web)} not http/https: not opened)" if urls else ""
            self._app.notify_info(f"{paper.name} has no web link to open{refused}", "warning")
            return
        self._choose_url(web, f"Open a link of {paper.name}", self.open_url)

    def open_url(self, url: str) -> None:
        """Open `url` in a browser from a thread (a browser can take seconds to start)."""
        if not is_web_url(url):
            self._app.notify_info(f"Not opened (only http/https): {url}", "warning")
            return
        self._app.run_worker(partial(self._open_in_thread, url), thread=True, group="browser")
        self._app.notify_info(f"Opening {url}")

    def _open_in_thread(self, url: str) -> None:
        try:
            opened = webbrowser.open(url)
        except Exception as error:  # a broken browser setup must not crash the app
            self._app.notify_error(f"Could not open {url}: {error}")
            return
        if not opened:
            self._app.notify_info(f"No browser found; open it by hand: {url}", "warning")

    def export(self) -> None:
        """Ask what to export, where and in which format; then write the file in a thread."""
        from papershelf.tui.screens.export_dialog import ExportDialog

        app = self._app
        papers = app.paper_list
        tags = sorted(app.library.tag_counts())
        # The config's export_dir, else where papershelf was started.
        directory = app.config.export_dir or Path.cwd()
        dialog = ExportDialog(
            directory, tags, len(papers.hits), len(papers.marked), app.current_tag(), app.today()
        )
        app.push_screen(dialog, self._export_chosen)

    def _export_chosen(self, request: ExportRequest | None) -> None:
        if request is None:
            return
        from papershelf.storage.export import selection
        from papershelf.storage.export.markdown import ExportItem

        app = self._app
        library = app.library
        if request.scope == "marked":
            ids = app.papers.targets()[0] if app.paper_list.marked else []
            chosen = selection.Selection(
                "Reading list: marked papers",
                tuple(ExportItem(library.get(pid), library.entry(pid)) for pid in ids),
            )
        elif request.scope == "tag" and request.tag:
            chosen = selection.of_tag(library.papers(), library.entry, request.tag)
        else:
            ids = [hit.paper_id for hit in app.paper_list.hits]
            chosen = selection.of_query(
                app.export_query(),
                ids,
                library.papers(),
                library.get,
                library.entry,
                library.tag_counts(),
            )
        write = partial(self._write_export, chosen, request)
        app.run_worker(write, thread=True, group="export", description="export")

    def _write_export(self, chosen: Selection, request: ExportRequest) -> None:
        from papershelf.storage.export.writing import write_export

        path = request.path
        try:
            text = chosen.text(request.format, self._app.today())
            written = write_export(path, text, overwrite=True)
        except PapershelfError as error:
            self._app.notify_error(str(error))
            return
        except OSError as error:
            self._app.notify_error(f"Could not write {path}: {error.strerror or error}")
            return
        items = chosen.items
        self._app.notify_info(f"Exported {_plural(len(items))} to {written}")
