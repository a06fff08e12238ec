"""The app's key bindings, by area: the app binds them in this order (the footer's order).

`PapershelfApp.BINDINGS` lists them, and `bound_actions` groups them for the help screen and
the command palette; the workflow's keys are `app_workflow.WORKFLOW_BINDINGS`.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

MOVE: list[BindingType] = [
    # A priority binding runs before the next key is routed, so `/` then fast typing (or a
    # paste) lands in the filter; check_action lets `/` through to any focused Input.
    Binding("slash", "focus_filter", "Filter", id="app.filter", priority=True),
    Binding("escape", "back", "Back to the list", id="app.back", show=False),
]
PAPERS: list[BindingType] = [
    Binding("t", "tag", "Tags", id="app.tag", tooltip="Edit tags (of the marked papers, if any)"),
    Binding(
        "T",
        "toggle_to_read",
        "To-read",
        id="app.to-read",
        show=False,
        tooltip="Toggle #to-read (on the marked papers, if any)",
    ),
    Binding(
        "s",
        "cycle_status",
        "Status",
        id="app.status",
        tooltip="Cycle unread → reading → read (marked papers, if any)",
    ),
    Binding("asterisk", "star", "Star", id="app.star", tooltip="Star or unstar (marked, if any)"),
    Binding("n", "note", "Note", id="app.note", show=False, tooltip="Edit the paper's note"),
    Binding(
        "D",
        "remove",
        "Remove",
        id="app.remove",
        show=False,
        tooltip="Remove the paper (the marked papers, if any) from the library; u undoes it",
    ),
    Binding("A", "mark_all", "Mark all results", id="app.mark-all", show=False),
    Binding("U", "clear_marks", "Clear marks", id="app.clear-marks", show=False),
]
OUT: list[BindingType] = [
    Binding(
        "y",
        "copy_code",
        "Copy URL",
        id="app.copy",
        tooltip="Copy the code URL (a chooser when there are several), else its page, PDF or DOI",
    ),
    Binding(
        "o",
        "open_link",
        "Open",
        id="app.open",
        show=False,
        tooltip="Open a code URL, link, page, PDF, DOI or arXiv page (http/https only)",
    ),
    Binding(
        "e", "export", "Export", id="app.export", tooltip="Export Markdown, BibTeX, CSV or JSON"
    ),
]
# Leaving the filter must happen before the next key is routed: the app forwards keys to the
# focused widget's queue, so with a widget-level binding a fast `enter` then `T` would type "T"
# into the filter. These priority bindings run in the app's own loop, only while the filter has
# focus (check_action), and are documented by the filter bar's own bindings on the help screen.
LEAVE_FILTER: list[BindingType] = [
    Binding("enter", "leave_filter(True)", "To the results", show=False, priority=True),
    Binding("down", "leave_filter(True)", "To the results", show=False, priority=True),
    Binding("escape", "leave_filter(False)", "Clear filter", show=False, priority=True),
]
APP: list[BindingType] = [
    Binding("question_mark", "help", "Help", id="app.help"),
    Binding("ctrl+p", "command_palette", "Commands", id="app.palette", show=False),
    Binding("q", "quit", "Quit", id="app.quit"),
]
