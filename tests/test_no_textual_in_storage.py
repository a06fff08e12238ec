"""storage/ is pure Python: importing every storage module must not import Textual."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def storage_modules() -> list[str]:
    """Every module of the storage package, found on disk so that new modules are covered.

    The repository's `storage/` folder installs as `papershelf.storage`.
    """
    root = REPO / "storage"
    return sorted(
        ".".join(("papershelf", "storage", *path.relative_to(root).with_suffix("").parts))
        for path in root.rglob("*.py")
        if path.stem != "__init__"
    )


def test_storage_has_modules() -> None:
    modules = storage_modules()
    assert "papershelf.storage.model" in modules
    assert "papershelf.storage.library.library" in modules


def test_importing_storage_does_not_import_textual() -> None:
    modules = storage_modules()
    script = (
        "import importlib, sys\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(len(bad), bad[:5])\n"
        "sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("0 ")
