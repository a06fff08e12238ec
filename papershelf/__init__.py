"""papershelf: a keyboard-first terminal reading-list manager for research-paper abstracts.

The installed package has three rooms, kept in the repository as top-level folders:

- `papershelf.storage` (repository folder `storage/`): the data side. Pure Python, never Textual.
- `papershelf.tui` (folder `tui/`): the Textual app. Uses `papershelf.storage` only.
- `papershelf.cli` (folder `papershelf/cli/`): the `papershelf` command. Uses `papershelf.storage`,
  and starts `papershelf.tui` when asked for the app.

`papershelf.seeds` (folder `seeds/`) is data: the abstract lists a first start imports. The import
rules between the rooms are contracts checked in CI (`lint-imports`, see pyproject.toml).
"""
