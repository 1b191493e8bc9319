"""Work units of `resolve --ray`: cut at line ends and parquet rows, read back on a worker into
the same rows, with their positions in the whole input (no Ray, no model)."""
import importlib.util

import pytest

if importlib.util.find_spec("ray") is None:  # pyarrow comes with the extra spacy-s2e-coref[ray]
    pytest.skip("the extra spacy-s2e-coref[ray] is not installed", allow_module_level=True)

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from spacy_coref.errors import DataFormatError  # noqa: E402
from spacy_coref.scaleout.records import DATA, LINE, NAME, ROW, split_input  # noqa: E402
from spacy_coref.scaleout.units import (  # noqa: E402
    FIRST_LINE,
    FIRST_ROW,
    GROUP,
    PATH,
    ROWS,
    SIZE,
    START,
    expand_units,
    line_units,
    parquet_units,
)

DATA_BYTES = b"a\r\nb\rc\n\nd\r\re\n\xff\nlast"


def unit_table(path, units, first_row=0):
    rows, line, table = first_row, 1, []
    for group, start, size, n in units:
        table.append(
            {
                PATH: str(path),
                GROUP: group,
                START: start,
                SIZE: size,
                ROWS: n,
                FIRST_ROW: rows,
                FIRST_LINE: line,
            }
        )
        rows, line = rows + n, line + n
    return pa.Table.from_pylist(table)


@pytest.mark.parametrize("unit_rows", [1, 2, 3, 100])
def test_line_units_cut_at_line_ends(tmp_path, unit_rows):
    lines = split_input(DATA_BYTES, "text")
    units = line_units(DATA_BYTES, "text", unit_rows)
    assert [n for _, _, n in units] == [
        min(unit_rows, len(lines) - i) for i in range(0, len(lines), unit_rows)
    ]
    assert b"".join(DATA_BYTES[s : s + size] for s, size, _ in units) == DATA_BYTES
    path = tmp_path / "in.txt"
    path.write_bytes(DATA_BYTES)
    rows = expand_units(unit_table(path, [(-1, *u) for u in units], first_row=10), "text", {})
    assert rows.column(DATA).to_pylist() == lines
    assert rows.column(LINE).to_pylist() == list(range(1, len(lines) + 1))
    assert rows.column(ROW).to_pylist() == list(range(10, 10 + len(lines)))
    assert set(rows.column(NAME).to_pylist()) == {str(path)}
    assert line_units(DATA_BYTES, "doc", 2) == [(0, len(DATA_BYTES), 1)]
    assert line_units(b"", "text", 2) == []


def test_a_file_that_changed_is_an_error(tmp_path):
    path = tmp_path / "in.txt"
    path.write_bytes(b"a\nb\n")
    units = unit_table(path, [(-1, 0, 4, 2)])
    path.write_bytes(b"a\nb\nc\n")
    assert expand_units(units, "text", {}).num_rows == 2  # the same bytes: still 2 lines
    path.write_bytes(b"abcd\n")  # 4 bytes, 1 line
    with pytest.raises(DataFormatError, match="CE334"):
        expand_units(units, "text", {})


def test_parquet_units_within_row_groups(tmp_path):
    path = tmp_path / "in.parquet"
    table = pa.table({"id": list(range(7)), "text": [f"t{i}" for i in range(7)]})
    pq.write_table(table, path, row_group_size=3)
    units = parquet_units(path, 2)
    assert units == [(0, 0, 2), (0, 2, 1), (1, 0, 2), (1, 2, 1), (2, 0, 1)]
    cache = {}
    rows = expand_units(unit_table(path, [(g, s, 0, n) for g, s, n in units], 5), None, cache)
    assert rows.column("id").to_pylist() == list(range(7))
    assert rows.column(ROW).to_pylist() == list(range(5, 12))
    assert list(cache) == [(str(path), 2)]  # the last row group only
    (tmp_path / "bad.parquet").write_bytes(b"not parquet")
    with pytest.raises(DataFormatError, match="CE332"):
        parquet_units(tmp_path / "bad.parquet", 2)
