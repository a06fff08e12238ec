"""How papershelf installs: one import package, and the import rules between its rooms.

The repository keeps the rooms as top-level folders (`storage/`, `tui/`, `seeds/`) while the
wheel installs them under `papershelf`: these tests build the real wheel and run the real
`lint-imports` on the installed layout, so a forgotten subpackage or a wrong import arrow fails
here rather than on a user's machine.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
# Repository folder -> the package it installs as.
ROOMS = {"papershelf": "papershelf", "storage": "papershelf/storage", "tui": "papershelf/tui"}


def _source_packages() -> set[str]:
    """Every package directory of the repository, as its path inside the wheel."""
    found: set[str] = set()
    for folder, installed in ROOMS.items():
        for init in (REPO / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(REPO / folder)
            found.add("/".join((installed, *relative.parts)))
    return found


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """The wheel built from a copy of the repository's sources (no network: no build isolation)."""
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(REPO / name, source / name)
    for folder in (*ROOMS, "seeds"):
        # papershelf/storage, papershelf/tui and papershelf/seeds stay relative symlinks.
        shutil.copytree(
            REPO / folder,
            source / folder,
            symlinks=True,
            ignore=shutil.ignore_patterns("__pycache__"),
        )
    out = tmp_path_factory.mktemp("wheel")
    pip = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
    result = subprocess.run(
        [*pip, "-w", str(out), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    (built,) = out.glob("papershelf-*.whl")
    return zipfile.ZipFile(built)


def test_the_wheel_installs_one_top_level_package(wheel: zipfile.ZipFile) -> None:
    tops = {name.split("/")[0] for name in wheel.namelist()}
    metadata = {top for top in tops if top.endswith(".dist-info")}
    assert len(metadata) == 1
    assert tops - metadata == {"papershelf"}


def test_the_wheel_holds_every_package_module_and_data_file(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    packages = {name.rsplit("/", 1)[0] for name in names if name.endswith("/__init__.py")}
    assert packages >= _source_packages()
    for folder, installed in ROOMS.items():
        for path in (REPO / folder).rglob("*"):
            if path.suffix in (".py", ".tcss") and "__pycache__" not in path.parts:
                inside = "/".join((installed, *path.relative_to(REPO / folder).parts))
                assert inside in names, f"{path.relative_to(REPO)} is not in the wheel"
    for seed in (REPO / "seeds").glob("*.txt"):
        assert f"papershelf/seeds/{seed.name}" in names
    assert "papershelf/__main__.py" in names


def test_the_console_script_points_into_the_package(wheel: zipfile.ZipFile) -> None:
    (entry_points,) = (n for n in wheel.namelist() if n.endswith(".dist-info/entry_points.txt"))
    text = wheel.read(entry_points).decode()
    assert "papershelf = papershelf.cli.main:main" in text


def _installed_layout(root: Path, extra: dict[str, str] | None = None) -> Path:
    """The installed package's tree, as symlinks to the repository's folders (outside it).

    `extra` adds modules (path inside `papershelf/storage/text`, source text) to a real copy of
    that one subpackage, so that a test can add a bad import without touching the repository.
    """
    package = root / "papershelf"
    package.mkdir()
    for entry in (REPO / "papershelf").iterdir():
        if entry.name not in ("__pycache__", "storage"):
            (package / entry.name).symlink_to(entry.resolve())
    if not extra:
        (package / "storage").symlink_to(REPO / "storage")
        return root
    storage = package / "storage"
    storage.mkdir()
    for entry in (REPO / "storage").iterdir():
        if entry.name not in ("text", "__pycache__"):
            (storage / entry.name).symlink_to(entry)
    text = storage / "text"
    text.mkdir()
    for entry in (REPO / "storage" / "text").glob("*.py"):
        (text / entry.name).symlink_to(entry)
    for name, source in extra.items():
        (text / name).write_text(source, encoding="utf-8")
    return root


def _lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    command = Path(sys.executable).with_name("lint-imports")
    return subprocess.run(
        [str(command), str(REPO / "pyproject.toml"), "--no-cache"],
        cwd=root,
        env={"PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def _contract_names() -> list[str]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return [contract["name"] for contract in config["tool"]["importlinter"]["contracts"]]


def test_the_import_contracts_hold(tmp_path: Path) -> None:
    result = _lint_imports(_installed_layout(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    names = _contract_names()
    assert len(names) >= 3
    for name in names:
        assert f"{name} KEPT" in result.stdout


def test_the_import_contracts_catch_a_wrong_arrow(tmp_path: Path) -> None:
    # A text module reaching up into the library, and one drawing with Textual: both refused.
    bad = {
        "upward.py": "from papershelf.storage.library.library import Library\n",
        "drawing.py": "import textual.app\n",
    }
    result = _lint_imports(_installed_layout(tmp_path, bad))
    assert result.returncode != 0
    assert "papershelf.storage.text.upward -> papershelf.storage.library.library" in result.stdout
    assert "papershelf.storage.text.drawing -> textual (l.1)" in result.stdout
    assert "2 broken" in result.stdout


def test_the_repository_links_its_folders_into_the_package() -> None:
    # The symlinks that let the editable install, pyright and lint-imports see `papershelf`.
    for name in ("storage", "tui", "seeds"):
        link = REPO / "papershelf" / name
        assert link.is_symlink()
        assert link.resolve() == (REPO / name).resolve()
