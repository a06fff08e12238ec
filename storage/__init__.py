"""papershelf's data side: parsing, the library, search and export. Pure Python, no Textual."""
