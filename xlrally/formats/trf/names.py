"""A TRF player's name, the standard's ``Lastname, Firstname``, as a league may write it."""

from __future__ import annotations

TITLES_AFTER = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "v"})
"""What a third part of a name may be that follows the surname (``Smith, John, Jr.``)."""


def name_parts(name: str) -> tuple[str, str, str]:
    """The standard's ``Lastname, Firstname`` split, with a title some programs add after a
    second comma (``Kiese,Matthias,Dr.``): (last, first, title); a name without a comma is
    all ``last``."""
    parts = [" ".join(p.split()) for p in name.split(",")]
    if len(parts) == 1:
        return parts[0], "", ""
    if len(parts) == 2:
        return parts[0], parts[1], ""
    return parts[0], parts[1], ", ".join(p for p in parts[2:] if p)


def last_first(name: str) -> str:
    """The standard's ``Lastname, Firstname`` as a club writes it, ``Firstname Lastname``; a
    title after a second comma before the first name (``Dr. Matthias Kiese``), or after the
    surname for ``Jr.`` and the like; a name without a comma is kept.

    >>> last_first("Smith, Ann"), last_first("Gorrochategui Torres, Eugenio"), last_first("Vigen")
    ('Ann Smith', 'Eugenio Gorrochategui Torres', 'Vigen')
    >>> last_first("Kiese,Matthias,Dr."), last_first("Smith, John, Jr.")
    ('Dr. Matthias Kiese', 'John Smith Jr.')
    """
    if "," not in name:
        return name
    last, first, title = name_parts(name)
    if title.casefold() in TITLES_AFTER:
        return " ".join(p for p in (first, last, title) if p)
    return " ".join(p for p in (title, first, last) if p)


def spellings(name: str) -> tuple[str, ...]:
    """Every way a league may have written a TRF name, the preferred first: first name first,
    as written, ``Lastname, Firstname`` with one space after the comma, and without a title.

    >>> spellings("Griffiths,Ryan Rhys")
    ('Ryan Rhys Griffiths', 'Griffiths,Ryan Rhys', 'Griffiths, Ryan Rhys')
    """
    if "," not in name:
        return (name,)
    last, first, title = name_parts(name)
    found = [last_first(name), name, ", ".join(p for p in (last, first, title) if p)]
    if title:
        found += [" ".join(p for p in (first, last) if p), ", ".join(p for p in (last, first) if p)]
    return tuple(dict.fromkeys(found))
