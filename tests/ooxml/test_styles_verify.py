"""``Styles.verify``, the check that each cell format handed out shows the look it was handed out
for (issue 28, finding 1: its refusals had never run). Each case hands out a format, then
changes the styles part as a bug in the planner could, and the check must refuse it, saying
which entry is wrong and how.

The rules, from ECMA-376 Part 1 §18.8: a cell's ``s`` indexes ``<cellXfs>`` (§18.8.10); a
format's ``numFmtId`` is a built-in format (0 General, 1 ``0``, 2 ``0.00``, §18.8.30) or a
``<numFmt>`` of that id, and its ``fontId`` indexes ``<fonts>``; a font is bold with ``<b/>``
and italic with ``<i/>`` unless their ``val`` is false (§18.8.2, §18.8.26); its colour is
``<color rgb="AARRGGBB"/>`` (§18.3.1.15); ``<alignment horizontal>`` aligns (§18.8.1).
"""

from __future__ import annotations

import pytest

from xlrally.core.errors import WorkbookError
from xlrally.formats.cells import Look
from xlrally.ooxml.styles import Styles
from xlrally.ooxml.xmlpart import XmlPart

BOLD_CENTRED = Look(bold=True, align="center")
DROPPED = Look(italic=True, grey=True, number_format="(0)")
TIED_RANK = Look(number_format='0"="', align="center")
WHOLE = Look(number_format="0")


def handed_out(*looks: Look) -> tuple[Styles, list[int]]:
    """Styles of a workbook without styles.xml, and the cellXfs index of each look."""
    styles = Styles(None)
    return styles, [styles.xf(look) for look in looks]


def changed(styles: Styles, old: str, new: str) -> Styles:
    """The same handed-out formats over a styles part with ``old`` replaced by ``new`` once."""
    data = styles.data.decode()
    assert data.count(old) >= 1, (old, data)
    styles.part = XmlPart(styles.part.name, data.replace(old, new, 1).encode())
    return styles


def refusal(styles: Styles) -> str:
    with pytest.raises(WorkbookError) as refused:
        styles.verify()
    message = str(refused.value)
    prefix = "xl/styles.xml: the cell format xlrally added would not look as meant ("
    suffix = "); nothing was written. Please report this file."
    assert message.startswith(prefix), message
    assert message.endswith(suffix), message
    return message[len(prefix) : -len(suffix)]


def test_formats_as_handed_out_pass() -> None:
    styles, _ = handed_out(BOLD_CENTRED, DROPPED, TIED_RANK, WHOLE, Look())
    styles.verify()


def test_a_format_that_is_not_there() -> None:
    """The tied rank's format is the last cellXfs entry; without it, its index leads nowhere."""
    styles, [index] = handed_out(TIED_RANK)
    data = styles.data.decode()
    last = data.rindex("<xf ", 0, data.index("</cellXfs>"))
    styles = changed(styles, data[last : data.index("</cellXfs>")], "")
    assert refusal(styles) == f"format {index} does not exist"


def test_a_built_in_number_format_replaced() -> None:
    """``0`` is built-in format 1; the format says 2 (``0.00``)."""
    styles, [index] = handed_out(WHOLE)
    styles = changed(styles, 'numFmtId="1"', 'numFmtId="2"')
    assert refusal(styles) == f"format {index} has number format 2, not 1"


def test_a_custom_number_format_whose_code_changed() -> None:
    """The tied rank's ``0"="`` (custom id 164) now reads ``0``: a shared rank loses its =."""
    styles, [index] = handed_out(TIED_RANK)
    styles = changed(styles, 'formatCode="0&quot;=&quot;"', 'formatCode="0"')
    assert refusal(styles) == f"format {index} has number format 164, not '0\"=\"'"


def test_a_font_that_is_not_there() -> None:
    styles, _ = handed_out(BOLD_CENTRED)
    styles = changed(styles, 'fontId="1"', 'fontId="7"')
    assert refusal(styles) == "font 7 does not exist"


@pytest.mark.parametrize(
    ("look", "old", "new", "font"),
    [
        (BOLD_CENTRED, "<b/>", "", 1),  # the header lost its bold
        (BOLD_CENTRED, "<b/>", '<b val="0"/>', 1),  # "0" switches it off
        (BOLD_CENTRED, "<b/>", '<b val="false"/>', 1),
        (BOLD_CENTRED, "<b/>", "<b/><i/>", 1),  # italic as well
        (DROPPED, "<i/>", "", 1),  # a dropped score no longer italic
        (DROPPED, "<i/>", "<b/><i/>", 1),  # ... or bold too, as a counted one is
    ],
    ids=["bold lost", "bold val 0", "bold val false", "italic added", "italic lost", "bold added"],
)
def test_a_font_that_is_not_bold_or_italic_as_meant(
    look: Look, old: str, new: str, font: int
) -> None:
    styles, _ = handed_out(look)
    styles = changed(styles, old, new)
    assert refusal(styles) == f"font {font} is not bold={look.bold}, italic={look.italic}"


def test_a_dropped_score_that_is_not_grey() -> None:
    """Dropped scores are grey (808080); the font's colour is now red."""
    styles, _ = handed_out(DROPPED)
    styles = changed(styles, 'rgb="FF808080"', 'rgb="FFFF0000"')
    assert refusal(styles) == "font 1 is not coloured 808080"


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ('horizontal="center"', 'horizontal="right"', "center"),
        ('<alignment horizontal="center"/>', "", "center"),
    ],
    ids=["other side", "alignment gone"],
)
def test_a_format_aligned_otherwise(old: str, new: str, said: str) -> None:
    styles, [index] = handed_out(BOLD_CENTRED)
    styles = changed(styles, old, new)
    assert refusal(styles) == f"format {index} is not aligned {said}"


def test_a_format_aligned_where_none_was_asked() -> None:
    """A plain bold cell (the Player heading) gets no alignment: one added is refused."""
    styles, [index] = handed_out(Look(bold=True))
    data = styles.data.decode()
    entry = data[data.rindex("<xf ") : data.index("</cellXfs>")]
    styles = changed(styles, entry, entry.replace("/>", '><alignment horizontal="left"/></xf>'))
    assert refusal(styles) == f"format {index} is not aligned by default"


def test_each_look_is_checked_not_only_the_first() -> None:
    """Four looks handed out; only the last one's font is wrong."""
    styles, indexes = handed_out(Look(), WHOLE, TIED_RANK, DROPPED)
    styles = changed(styles, "<i/>", "")
    assert refusal(styles) == "font 1 is not bold=False, italic=True"
    assert len(set(indexes)) == 4
