"""None of our App, Screen or Widget subclasses may reuse a name Textual's classes already use.

Textual keeps its own state in plain attributes (`App._clipboard` holds the last OSC 52 text);
a subclass that stores something else under the same name breaks Textual in ways no type
checker sees (the second `y` crashed the app). Overriding Textual's documented hooks
(`compose`, `on_mount`, `render_line`, bindings and CSS class variables) is what subclasses are
for, so public methods overriding public methods are allowed; everything else is reported.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pkgutil
import re
import textwrap
from collections.abc import Iterator

from textual.app import App
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget

import papershelf.tui

TEXTUAL_BASES = (App, Screen, Widget)


def our_classes() -> list[type]:
    """Every App/Screen/Widget subclass defined in the `tui` package, and our mixins of them."""
    for module in pkgutil.walk_packages(papershelf.tui.__path__, "papershelf.tui."):
        if not module.name.endswith("__main__"):  # importing it would start the app
            importlib.import_module(module.name)
    found: dict[str, type] = {}
    pending = list(TEXTUAL_BASES)
    while pending:
        cls = pending.pop()
        for sub in cls.__subclasses__():
            pending.append(sub)
            # A plain mixin of ours (`KeyActions`) lands in the same namespace as its App.
            for base in sub.__mro__:
                if base.__module__.startswith("papershelf.tui."):
                    found[f"{base.__module__}.{base.__qualname__}"] = base
    return [found[name] for name in sorted(found)]


class _InstanceAttribute:
    """Stands for an attribute a Textual class sets on `self` (it has no class-level value)."""


INSTANCE_ATTRIBUTE = _InstanceAttribute()


@functools.cache
def textual_names_of(base: type) -> dict[str, object]:
    """Names one Textual class defines: its namespace plus what its methods set on `self`."""
    names: dict[str, object] = {name: INSTANCE_ATTRIBUTE for name, _ in assigned_on_self(base)}
    names.update(vars(base))
    return names


def host_of(cls: type) -> type:
    """`cls` itself, or for a mixin without a Textual base the first Textual class using it."""
    pending = [cls]
    while pending:
        candidate = pending.pop(0)
        if issubclass(candidate, TEXTUAL_BASES):
            return candidate
        pending.extend(candidate.__subclasses__())
    return cls


def textual_names(cls: type) -> dict[str, object]:
    """Names defined by the Textual classes in the MRO of `cls` (or of its host), with values."""
    names: dict[str, object] = {}
    for base in reversed(host_of(cls).__mro__):
        if base.__module__.split(".")[0] == "textual":
            names.update(textual_names_of(base))
    return names


def assigned_on_self(cls: type) -> Iterator[tuple[str, int]]:
    """Attributes a class's own methods assign on `self` (`self.x = ...`), with line numbers."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        for target in targets:
            if (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                yield target.attr, node.lineno


def is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


def settable_api(value: object) -> bool:
    """A Textual attribute meant to be set: a reactive, or a descriptor with a setter."""
    if isinstance(value, Reactive):
        return True
    if isinstance(value, property):
        return value.fset is not None
    return hasattr(type(value), "__set__")  # e.g. Widget.border_title


def _generated() -> frozenset[str]:
    """Names Textual's metaclass and `__init_subclass__` put in every subclass's namespace."""

    class EmptyApp(App[None]):
        pass

    class EmptyWidget(Widget):
        pass

    return frozenset(vars(EmptyApp)) | frozenset(vars(EmptyWidget))


GENERATED = _generated()


def problems_of(cls: type) -> list[str]:
    """What `cls` defines or assigns that reuses a name from Textual's classes."""
    base = textual_names(cls)
    found: list[str] = []
    for name, value in vars(cls).items():
        if is_dunder(name) or name not in base or name in GENERATED:
            continue
        theirs = base[name]
        if name.isupper() or (name.startswith("_") and name[1:].isupper()):
            continue  # class configuration: BINDINGS, CSS_PATH, DEFAULT_CSS, COMPONENT_CLASSES
        if name.startswith("_"):
            found.append(f"{cls.__qualname__} defines Textual's private {name}")
        elif callable(theirs) and not isinstance(theirs, Reactive):
            if not callable(value):
                found.append(f"{cls.__qualname__}.{name} replaces a Textual method with data")
        elif isinstance(theirs, property) and isinstance(value, property):
            continue  # a computed property overriding a computed property
        elif not settable_api(theirs):
            found.append(f"{cls.__qualname__}.{name} replaces Textual's attribute")
    for name, line in assigned_on_self(cls):
        if name in base and (name.startswith("_") or not settable_api(base[name])):
            found.append(f"{cls.__qualname__} assigns self.{name} (line {line}), a Textual name")
    return found


def test_our_classes_are_found() -> None:
    names = {cls.__name__ for cls in our_classes()}
    assert {"PapershelfApp", "CrashGuard", "TagEditor", "NoteEditor", "PaperList"} <= names
    assert "KeyActions" in names  # a mixin without a Textual base


def test_the_check_finds_a_mixin_shadowing() -> None:
    """A plain mixin's names land in its App's namespace: they are checked against App's."""

    class Mixin:
        def _register(self) -> None: ...

    class Mixed(Mixin, App[None]):
        pass

    assert host_of(Mixin) is Mixed
    assert problems_of(Mixin) == [
        "test_the_check_finds_a_mixin_shadowing.<locals>.Mixin defines Textual's private _register"
    ]


# Deliberate overrides of private Textual methods, each listed in docs/ARCHITECTURE.md ("Private
# Textual names"): Textual is pinned, and this list must change with them.
KNOWN_PRIVATE_OVERRIDES = {
    "FilterBar defines Textual's private _watch_value",
    "_CleanEntryInput defines Textual's private _on_suggestion_ready",
    "_CleanEntryInput defines Textual's private _value",
    "_CleanEntryInput defines Textual's private _position_to_cell",
    "_CleanEntryInput defines Textual's private _cell_offset_to_index",
    # The crash guard (tui/app_guard.py): Textual's own exception path, and the record of the
    # exception that ends the app, which it sets as Textual does (guarded by test_app_guard.py).
    "CrashGuard defines Textual's private _handle_exception",
    "CrashGuard defines Textual's private _on_message",
    "CrashGuard assigns self._exception, a Textual name",
}


def without_line(problem: str) -> str:
    """A problem as listed above: where in the file it is may change."""
    return re.sub(r" \(line \d+\)", "", problem)


def test_no_class_of_ours_reuses_a_textual_name() -> None:
    problems = [without_line(problem) for cls in our_classes() for problem in problems_of(cls)]
    assert sorted(set(problems) - KNOWN_PRIVATE_OVERRIDES) == []
    # An override no longer there must leave the list (and the architecture notes) too.
    assert sorted(KNOWN_PRIVATE_OVERRIDES - set(problems)) == []


def test_the_check_finds_the_clipboard_shadowing() -> None:
    """The bug this test exists for: an App subclass keeping its own `self._clipboard`."""

    class Shadowing(App[None]):
        def __init__(self) -> None:
            super().__init__()
            self._clipboard = None

    assert problems_of(Shadowing) == [
        "test_the_check_finds_the_clipboard_shadowing.<locals>.Shadowing assigns "
        "self._clipboard (line 4), a Textual name"
    ]
