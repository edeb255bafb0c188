"""Syncing writes Standings and keeps every other part of the workbook byte-for-byte."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

import openpyxl
import pytest
import xlsxwriter
from helpers import RALLY_SHEETS, open_book, parts, rewrite, tiny_png, write_book

from xlrally.app.newbook import xlwings_vba_project
from xlrally.app.sync import read_standings, sync_file
from xlrally.ooxml.reader import FileSheets

MAY_BE_CHANGED_NEW = {
    "xl/worksheets/sheet{n}.xml",  # filled in per test
    "xl/styles.xml",
    "xl/workbook.xml",
    "xl/_rels/workbook.xml.rels",
    "[Content_Types].xml",
}


def feature_rich(path: Path, with_standings: bool) -> Path:
    """A workbook with everything a treasurer's file may hold, made with XlsxWriter."""
    book = xlsxwriter.Workbook(str(path), {"strings_to_formulas": False})
    book.add_vba_project(io.BytesIO(xlwings_vba_project()), is_stream=True)
    book.set_vba_name("ThisWorkbook")
    for name, rows in RALLY_SHEETS.items():
        sheet = book.add_worksheet(name)
        sheet.set_vba_name()
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if hasattr(value, "isoformat"):
                    sheet.write_string(r, c, value.isoformat())
                elif value is not None:
                    sheet.write(r, c, value)
    results = book.get_worksheet_by_name("Results")
    results.add_table(
        0,
        0,
        3,
        4,
        {
            "name": "ResultsTable",
            "header_row": True,
            "columns": [{"header": h} for h in RALLY_SHEETS["Results"][0]],
        },
    )
    results.data_validation(1, 4, 100, 4, {"validate": "integer", "criteria": ">=", "value": 0})
    results.conditional_format(
        1,
        2,
        100,
        2,
        {"type": "cell", "criteria": ">", "value": 2, "format": book.add_format({"bold": True})},
    )
    summary = book.add_worksheet("Summary")
    summary.set_vba_name()
    summary.write_formula("A1", "=SUM(Results!C2:C4)", None, 6)  # cached value 6
    summary.write_formula("A2", "=COUNTA(Results!B2:B4)", None, 3)
    summary.insert_image("C3", "logo.png", {"image_data": __import__("io").BytesIO(tiny_png())})
    summary.insert_button("F2", {"macro": "SampleCall", "caption": "Refresh"})
    chart = book.add_chart({"type": "column"})
    chart.add_series({"values": "=Results!$C$2:$C$4", "categories": "=Results!$B$2:$B$4"})
    summary.insert_chart("C10", chart)
    book.define_name("TotalPoints", "=Summary!$A$1")
    book.define_name("Results!LocalName", "=Results!$A$1")
    if with_standings:
        old = book.add_worksheet("Standings")
        old.set_vba_name()
        old.write("A1", "old standings")
    book.close()
    return path


def changed_parts(before: dict[str, bytes], after: dict[str, bytes]) -> set[str]:
    names = set(before) | set(after)
    return {n for n in names if before.get(n) != after.get(n)}


@pytest.mark.parametrize(
    "with_standings", [False, True], ids=["new Standings", "replaced Standings"]
)
def test_feature_rich_workbook_keeps_every_other_part(tmp_path: Path, with_standings: bool) -> None:
    """Charts, images, button, VBA, tables, validation, conditional formats, defined names and
    cached formula values are byte-identical after sync; only Standings and its companions change."""
    path = feature_rich(tmp_path / "league.xlsm", with_standings)
    before = parts(path)
    outcome = sync_file(path)
    assert outcome.result == "written", outcome.problems
    after = parts(path)
    with zipfile.ZipFile(path) as z:
        assert z.testzip() is None
    standings_part = next(
        n
        for n in after
        if n.startswith("xl/worksheets/") and b"Bobby" in after[n] and b"Working" in after[n]
    )
    allowed = {standings_part, "xl/styles.xml", "xl/workbook.xml"}  # print names: once
    allowed |= {"docProps/custom.xml", "_rels/.rels", "[Content_Types].xml"}  # fingerprint
    if not with_standings:
        allowed |= {"xl/_rels/workbook.xml.rels"}
    assert changed_parts(before, after) <= allowed
    assert standings_part in changed_parts(before, after)
    for name in (
        "xl/vbaProject.bin",
        "xl/drawings/drawing1.xml",
        "xl/charts/chart1.xml",
        "xl/tables/table1.xml",
    ):
        assert after[name] == before[name]


def test_second_sync_leaves_the_file_untouched(tmp_path: Path) -> None:
    """Syncing unchanged results again writes nothing: same bytes, same modification time."""
    path = feature_rich(tmp_path / "league.xlsm", with_standings=False)
    assert sync_file(path).result == "written"
    first = path.read_bytes()
    mtime = path.stat().st_mtime_ns
    assert sync_file(path).result == "unchanged"
    assert path.read_bytes() == first
    assert path.stat().st_mtime_ns == mtime


def test_synced_standings_read_back_with_openpyxl(tmp_path: Path) -> None:
    """The Standings sheet holds ranks, players, totals and scores as numbers with their marks.

    Hand-worked (helpers.RALLY_SHEETS): Bobby 79 + 21 = 100 (both count, 2 of 2 events);
    José 54 in May 2026 only.
    """
    path = write_book(tmp_path / "rally.xlsx", RALLY_SHEETS)
    sync_file(path)
    sheet = openpyxl.load_workbook(path)["Standings"]
    rows = [[c.value for c in row] for row in sheet.iter_rows(min_row=1, max_row=3, max_col=6)]
    assert rows == [
        ["Rank", "Player", "Total", "Events", "Dec 2025", "May 2026"],
        [1, "Bobby", 100, 2, 79, 21],
        [2, "José", 54, 1, None, 54],
    ]
    assert sheet["E2"].font.b  # counted scores are bold
    assert sheet["G2"].value == "Dec 2025: 100 × 3 / 4 + 4 = 79; May 2026: 100 × 1 / 5 + 1 = 21."
    assert sheet["A5"].value == "Club Rally: All 2 events count"
    assert sheet.freeze_panes == "C2"  # the header row, Rank and Player stay in view


def test_ties_and_dropped_scores_are_marked(tmp_path: Path) -> None:
    """A shared rank shows as 3= through its number format; a dropped score is bracketed grey.

    Hand-worked: 3 events held -> best 2 count. Al: 79, 79, 29 -> 158 with 29 dropped;
    Bo: 79 + 79 = 158, tied with Al.
    """
    events = [["Event", "Rounds"], ["E1", 4], ["E2", 4], ["E3", 4]]
    results = [
        ["Event", "Player", "Points"],
        ["E1", "Al", 3],
        ["E2", "Al", 3],
        ["E3", "Al", 1],
        ["E1", "Bo", 3],
        ["E3", "Bo", 3],
    ]
    path = write_book(
        tmp_path / "ties.xlsx",
        {"Settings": [["System", "rally"]], "Events": events, "Results": results},
    )
    sync_file(path)
    sheet = openpyxl.load_workbook(path)["Standings"]
    assert [sheet["A2"].value, sheet["A3"].value] == [1, 1]
    assert sheet["A2"].number_format == '0"="'
    assert sheet["G2"].value == 29
    assert sheet["G2"].number_format == "(0)"
    assert sheet["G2"].font.i


def test_formula_like_names_stay_text(tmp_path: Path) -> None:
    """Player and event names starting with =, +, - or @ are written as text, never formulas."""
    sheets = dict(RALLY_SHEETS)
    sheets["Results"] = [
        ["Event", "Player", "Points"],
        ["Dec 2025", '=HYPERLINK("x")', 3],
        ["Dec 2025", "+44 Bob", 2],
        ["Dec 2025", "-dash", 1],
        ["Dec 2025", "@at", 0],
    ]
    path = write_book(tmp_path / "formula.xlsx", sheets)
    sync_file(path)
    xml = next(
        v for k, v in parts(path).items() if k.startswith("xl/worksheets/") and b"Working" in v
    )
    assert b"<f>" not in xml
    sheet = openpyxl.load_workbook(path)["Standings"]
    names = [sheet.cell(r, 2).value for r in range(2, 6)]
    assert sorted(names) == sorted(['=HYPERLINK("x")', "+44 Bob", "-dash", "@at"])
    assert all(sheet.cell(r, 2).data_type == "s" for r in range(2, 6))


@pytest.mark.parametrize(
    ("formula", "refers"),
    [("=Standings!B2", True), ("=standings!B2", True), ("=Results!B2", False)],
)
def test_other_sheets_referring_to_standings_recalculate_on_open(
    tmp_path: Path, formula: str, refers: bool
) -> None:
    """A formula elsewhere that reads Standings makes the workbook recalculate when opened
    (its cached value is the old standings); without one the workbook is left as it was.
    Sheet names in formulas are compared without case, as Excel does. XlsxWriter always
    writes fullCalcOnLoad="1": it is taken out first, or this test could not fail."""
    path = tmp_path / "ref.xlsx"
    book = open_book(path, RALLY_SHEETS)
    book.add_worksheet("Standings")
    front = book.add_worksheet("Front")
    front.write_formula("A1", formula, None, "")
    book.close()
    workbook = parts(path)["xl/workbook.xml"]
    assert b' fullCalcOnLoad="1"' in workbook
    rewrite(path, {"xl/workbook.xml": workbook.replace(b' fullCalcOnLoad="1"', b"")})
    sync_file(path)
    assert (b'fullCalcOnLoad="1"' in parts(path)["xl/workbook.xml"]) is refers


def test_working_names_dropped_scores_and_why(tmp_path: Path) -> None:
    """The Working cell gives each counted score's formula and the dropped ones in short.

    Hand-worked: 3 events held -> best 2 count; Al 79 (3/4), 79, 29 (1/4) -> 29 dropped.
    """
    events = [["Event", "Rounds"], ["E1", 4], ["E2", 4], ["E3", 4]]
    results = [["Event", "Player", "Points"], ["E1", "Al", 3], ["E2", "Al", 3], ["E3", "Al", 1]]
    path = write_book(
        tmp_path / "w.xlsx",
        {"Settings": [["System", "rally"]], "Events": events, "Results": results},
    )
    sync_file(path)
    sheet = openpyxl.load_workbook(path)["Standings"]
    assert sheet["H2"].value == (
        "E1: 100 × 3 / 4 + 4 = 79; E2: 100 × 3 / 4 + 4 = 79. Dropped (best 2 count): E3 (29)."
    )


def test_workbook_written_by_openpyxl(tmp_path: Path) -> None:
    """Other writers' packages (openpyxl: other attribute spacing, no shared strings) sync too."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Settings"
    sheet.append(["System", "rally"])
    book.create_sheet("Events").append(["Event", "Rounds"])
    book["Events"].append(["Dec 2025", 4])
    book.create_sheet("Results").append(["Event", "Player", "Points"])
    book["Results"].append(["Dec 2025", "Bobby", 3])  # 79, seed example 1
    book.save(tmp_path / "openpyxl.xlsx")
    assert sync_file(tmp_path / "openpyxl.xlsx").result == "written"
    standings = openpyxl.load_workbook(tmp_path / "openpyxl.xlsx")["Standings"]
    assert [c.value for c in standings[2][:5]] == [1, "Bobby", 79, 1, 79]
    assert sync_file(tmp_path / "openpyxl.xlsx").result == "unchanged"


def test_odd_characters_survive(tmp_path: Path) -> None:
    """Text XML cannot hold (a bell) and text that looks like Excel's escapes (_x0041_) come
    back exactly as entered, as do emoji and right-to-left names. Read back as Excel does
    (python-calamine unescapes _xHHHH_; openpyxl leaves _x0007_ as it is)."""
    names = ["Bell\x07Ringer", "lit_x0041_eral", "Zoë 🙂", "שרה"]
    sheets = dict(RALLY_SHEETS)
    sheets["Results"] = [["Event", "Player", "Points"], *(["Dec 2025", n, 1] for n in names)]
    path = write_book(tmp_path / "odd.xlsx", sheets)
    assert sync_file(path).result == "written"
    with FileSheets(path) as book:
        written = [str(row[1]) for row in book.values("Standings")[1:5]]
    assert sorted(written) == sorted(names)


def print_settings(path: Path) -> tuple[object, ...]:
    """What openpyxl reads of Standings' print setup (an independent reader of the file)."""
    sheet = openpyxl.load_workbook(path)["Standings"]
    return (
        sheet.page_setup.orientation,
        sheet.page_setup.fitToWidth,
        sheet.page_setup.fitToHeight,
        sheet.sheet_properties.pageSetUpPr.fitToPage,
        sheet.print_title_rows,
        sheet.print_area,
        sheet.oddHeader.center.text,
    )


def test_standings_print_on_one_page_width_with_title_and_header_row(tmp_path: Path) -> None:
    """Issue 14: a 22-player, 10-event rally printed on 6 portrait pages, 3 of them Working."""
    path = write_book(
        tmp_path / "league.xlsx",
        {
            **RALLY_SHEETS,
            "Settings": [
                ["Setting", "Value"],
                ["System", "rally"],
                ["League", "Club Rally"],
                ["Season", "2025-26"],
            ],
        },
    )
    assert sync_file(path).result == "written"
    # Columns: Rank, Player, Total, Events, Dec 2025, May 2026 (F); Working (G) not printed.
    assert print_settings(path) == (
        "landscape",
        1,
        0,
        True,
        "$1:$1",
        "'Standings'!$A$1:$F$1048576",
        "Club Rally 2025-26",
    )
    assert sync_file(path).result == "unchanged"


def test_a_users_own_print_setup_is_kept_and_ours_follows_the_events(tmp_path: Path) -> None:
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    assert sync_file(path).result == "written"
    with zipfile.ZipFile(path) as z:
        sheet_part = next(n for n in z.namelist() if b"Working" in z.read(n))
        sheet = z.read(sheet_part)
    mine = b'<pageSetup paperSize="9" orientation="portrait" scale="80"/>'
    ours = b'<pageSetup orientation="landscape" fitToWidth="1" fitToHeight="0"/>'
    assert ours in sheet
    rewrite = {sheet_part: sheet.replace(ours, mine)}
    with zipfile.ZipFile(path) as z:
        items = {n: rewrite.get(n, z.read(n)) for n in z.namelist()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in items.items():
            z.writestr(name, data)
    book = openpyxl.load_workbook(path)
    events = book["Events"]
    events.append(["Jun 2026", None, 4])
    results = book["Results"]
    results.append(["Jun 2026", "Bobby", 2, 4, 0])
    book.save(path)  # (openpyxl keeps the page setup; the standings now need a G column)
    assert sync_file(path).result == "written"
    orientation, *_, area, _ = print_settings(path)
    assert orientation == "portrait"  # the user's
    assert area == "'Standings'!$A$1:$G$1048576"  # ours, widened for the new event


def test_columns_the_user_hid_stay_hidden_as_events_move_them(tmp_path: Path) -> None:
    """Issue 14: hidden columns came back on every sync. The Working column and an event are
    hidden by the user, in a Standings sheet saved as Excel saves it: its texts in shared
    strings (XlsxWriter writes them so; openpyxl would write inline strings, leaving the
    shared-string lookup untested). A new event then moves them right."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    assert sync_file(path).result == "written"
    with FileSheets(path) as sheets:
        standings = [list(row) for row in sheets.values("Standings")]
    events = [*RALLY_SHEETS["Events"], ["Jan 2026", dt.date(2026, 1, 10), 4]]
    results = [*RALLY_SHEETS["Results"], ["Jan 2026", "Bobby", 2, 4, 0]]
    sheets_now = {**RALLY_SHEETS, "Events": events, "Results": results, "Standings": standings}
    book = open_book(path, sheets_now)
    for heading in ("Dec 2025", "Working"):
        column = standings[0].index(heading)
        book.get_worksheet_by_name("Standings").set_column(
            column, column, None, None, {"hidden": True}
        )
    book.close()
    assert b't="s"' in parts(path)["xl/worksheets/sheet4.xml"]  # the headings are shared
    assert sync_file(path).result == "written"
    after = openpyxl.load_workbook(path)["Standings"]
    headings = [c.value for c in after[1]]
    assert headings[4:7] == ["Dec 2025", "Jan 2026", "May 2026"]
    hidden = {
        headings[openpyxl.utils.column_index_from_string(letter) - 1]
        for letter, dimension in after.column_dimensions.items()
        if dimension.hidden
    }
    assert hidden == {"Dec 2025", "Working"}


def test_headings_sit_over_their_numbers_and_ranks_clear_of_names(tmp_path: Path) -> None:
    """Issue 14: headings were left-aligned over right-aligned numbers, and rank digits
    touched the names. Read back by openpyxl (an independent reader)."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    assert sync_file(path).result == "written"
    sheet = openpyxl.load_workbook(path)["Standings"]
    aligned = {c.value: c.alignment.horizontal for c in sheet[1]}
    assert aligned == {
        "Rank": "center",
        "Player": None,
        "Total": "right",
        "Events": "right",
        "Dec 2025": "right",
        "May 2026": "right",
        "Working": None,
    }
    assert sheet["A2"].alignment.horizontal == "center"


def test_a_users_print_fixes_survive_two_syncs(tmp_path: Path) -> None:
    """Issue 14: the user's fit-to-page, margins, header and footer, and print titles are
    theirs; two syncs later (the standings changing in between) they are as they set them."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    assert sync_file(path).result == "written"
    with zipfile.ZipFile(path) as z:
        items = {n: z.read(n) for n in z.namelist()}
    part = next(n for n, data in items.items() if b"Working" in data and n.endswith(".xml"))
    sheet = items[part].decode()
    start, end = (
        sheet.index("<pageMargins"),
        sheet.index("</headerFooter>") + len("</headerFooter>"),
    )
    mine = (
        '<pageMargins left="1" right="1" top="1" bottom="1" header="0.5" footer="0.5"/>'
        '<pageSetup paperSize="9" orientation="portrait" fitToWidth="2" fitToHeight="3"/>'
        "<headerFooter><oddHeader>&amp;LMy club</oddHeader><oddFooter>&amp;RPrinted</oddFooter>"
        "</headerFooter>"
    )
    items[part] = (sheet[:start] + mine + sheet[end:]).encode()
    book = items["xl/workbook.xml"].decode()
    assert book.count("!$1:$1<") == 1  # xlrally's print titles
    items["xl/workbook.xml"] = book.replace("!$1:$1<", "!$1:$2<").encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in items.items():
            z.writestr(name, data)
    for results in ([["Dec 2025", "Ann", 1, 4, 0]], [["May 2026", "Ann", 2, 4, 0]]):
        book_ = openpyxl.load_workbook(path)  # the results change: each sync rewrites the sheet
        for row in results:
            book_["Results"].append(row)
        book_.save(path)
        assert sync_file(path).result == "written"
    standings = openpyxl.load_workbook(path)["Standings"]
    assert (standings.page_setup.orientation, standings.page_setup.fitToWidth) == ("portrait", 2)
    assert standings.page_margins.left == 1
    assert standings.oddHeader.left.text == "My club"
    assert standings.oddFooter.right.text == "Printed"
    assert standings.print_title_rows == "$1:$2"


def test_hand_edits_on_standings_are_named_before_they_are_replaced(tmp_path: Path) -> None:
    """Issue 13: edits typed on the Standings sheet were overwritten without a word. xlrally
    keeps a fingerprint of what it wrote (a custom document property), so a later sync or check
    can tell an edited sheet from one merely saved again by another program."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    assert sync_file(path).result == "written"
    book = openpyxl.load_workbook(path)
    book.save(path)  # saved again by another program (openpyxl rewrites every part)
    assert not [w for w in sync_file(path).warnings if "by hand" in w]
    book = openpyxl.load_workbook(path)
    book["Standings"]["C2"] = 999  # Bobby's total typed over
    book.save(path)
    read_back = read_standings(path)  # check, standings and publish see it too
    assert [w for w in read_back.warnings if "by hand" in w] == [
        "the Standings sheet was changed by hand since xlrally wrote it (cells that differ from "
        "the standings now: C2); a sync replaces it, so keep notes on another sheet"
    ]
    outcome = sync_file(path)
    assert outcome.result == "written"
    assert any("C2" in w and "by hand" in w for w in outcome.warnings)
    assert openpyxl.load_workbook(path)["Standings"]["C2"].value == 100  # hand-worked total
    assert not [w for w in sync_file(path).warnings if "by hand" in w]


def test_a_fingerprint_of_an_older_form_is_not_compared(tmp_path: Path) -> None:
    """A fingerprint written before the forms compared today (32 hex digits, no ``v3-`` or
    ``v4-``) cannot be compared: the sheet is taken as unedited rather than warned about, and
    the next write records the current form."""
    from xlrally.app.stamps import FINGERPRINT, FINGERPRINT_FORM

    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    sync_file(path)
    book = openpyxl.load_workbook(path)
    book.custom_doc_props[FINGERPRINT].value = "0e3727236c3e22c3" * 2  # an older xlrally's
    book["Results"]["C2"] = 1  # a result changed: the sync writes
    book.save(path)
    outcome = sync_file(path)
    assert (outcome.result, [w for w in outcome.warnings if "by hand" in w]) == ("written", [])
    stored = openpyxl.load_workbook(path).custom_doc_props[FINGERPRINT].value
    assert stored.startswith(FINGERPRINT_FORM)
    assert len(stored) == 32


def test_a_hidden_column_headed_by_the_first_shared_string_stays_hidden(tmp_path: Path) -> None:
    """Shared strings are numbered from 0 (ECMA-376 Part 1, 18.4.9): with Standings the first
    sheet XlsxWriter writes, its first heading, Rank, is string 0, and a user who hid the Rank
    column keeps it hidden."""
    path = write_book(tmp_path / "league.xlsx", RALLY_SHEETS)
    assert sync_file(path).result == "written"
    with FileSheets(path) as sheets:
        standings = [list(row) for row in sheets.values("Standings")]
    results = [list(row) for row in RALLY_SHEETS["Results"]]
    results[1][2] += 0.5  # half a point more: the standings change, so the sync writes
    book = open_book(path, {"Standings": standings, **RALLY_SHEETS, "Results": results})
    book.get_worksheet_by_name("Standings").set_column(0, 0, None, None, {"hidden": True})
    book.close()
    first = parts(path)["xl/sharedStrings.xml"].split(b"<si>")[1]
    assert first.startswith(b"<t>Rank</t>")
    assert sync_file(path).result == "written"
    after = openpyxl.load_workbook(path)["Standings"]
    assert after["A1"].value == "Rank"
    assert after.column_dimensions["A"].hidden
