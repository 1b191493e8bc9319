"""Work units of `resolve --ray`: a range of lines of an input file, or of rows of a parquet
row group, which a worker reads itself. The rows that the Dataset carries to the workers are
these small units, not the input, so that no Ray task has to read and split the input while
the workers hold the CPUs, and so that a batch that is run again reads its input again.

An input read by the driver already (stdin, arguments) is carried as line rows instead
(`line_table`), which the workers take as they are.
"""
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pyarrow as pa
import pyarrow.parquet as pq

from ..errors import DataFormatError, Errors
from .records import DATA, ERROR, LINE, NAME, ROW, split_input

# the columns of a unit row
PATH = "_coref_path"  # the input file
GROUP = "_coref_group"  # parquet: the row group; -1 for lines
START = "_coref_start"  # lines: the byte offset of the first line; parquet: its row in the group
SIZE = "_coref_size"  # lines: the bytes of the unit; parquet: 0
ROWS = "_coref_rows"  # the rows (lines) of the unit
FIRST_ROW = "_coref_first_row"  # the position in the whole input of its first row
FIRST_LINE = "_coref_first_line"  # the line number in the file of its first line, from 1

UNIT_COLUMNS = (PATH, GROUP, START, SIZE, ROWS, FIRST_ROW, FIRST_LINE)
# the row group a worker read last, kept for the next unit of the same group
GroupCache = Dict[Tuple[str, int], pa.Table]


def line_units(data: bytes, input_format: str, unit_rows: int) -> List[Tuple[int, int, int]]:
    """Cut an input into units of `unit_rows` lines, at line ends.

    data (bytes): The whole input.
    input_format (str): "text", "doc" (one unit) or "jsonl".
    unit_rows (int): Lines per unit.
    RETURNS (List[Tuple[int, int, int]]): Per unit, its byte offset, its bytes and its lines.
    """
    units = []
    start = size = n = 0
    for line in split_input(data, input_format):
        size += len(line)
        n += 1
        if n == unit_rows:
            units.append((start, size, n))
            start, size, n = start + size, 0, 0
    if n:
        units.append((start, size, n))
    return units


def parquet_units(path: Path, unit_rows: int) -> List[Tuple[int, int, int]]:
    """Cut a parquet file into units of `unit_rows` rows within its row groups.

    path (Path): The file.
    unit_rows (int): Rows per unit.
    RETURNS (List[Tuple[int, int, int]]): Per unit, its row group, first row in it and rows.
    """
    metadata = parquet_file(path).metadata
    units = []
    for group in range(metadata.num_row_groups):
        n = metadata.row_group(group).num_rows
        units += [(group, start, min(unit_rows, n - start)) for start in range(0, n, unit_rows)]
    return units


def parquet_file(path: Path) -> pq.ParquetFile:
    """Open a parquet file; CE332 where it cannot be read."""
    try:
        return pq.ParquetFile(path)
    except (OSError, pa.ArrowException) as e:
        raise DataFormatError(Errors.CE332.format(path=path, error=e)) from e


def line_table(
    lines: List[bytes],
    *,
    names: List[str],
    first_row: int = 0,
    first_line: int = 1,
    errors: Optional[List[Optional[str]]] = None,
) -> pa.Table:
    """The line rows of line mode (see `records`): each line with its input's name, its line
    number, its position in the whole input and the reason it is bad, where known already."""
    n = len(lines)
    return pa.table(
        {
            ROW: pa.array(range(first_row, first_row + n), type=pa.int64()),
            NAME: pa.array(names, type=pa.string()),
            LINE: pa.array(range(first_line, first_line + n), type=pa.int64()),
            DATA: pa.array(lines, type=pa.binary()),
            ERROR: pa.array(errors or [None] * n, type=pa.string()),
        }
    )


def expand_units(units: pa.Table, input_format: Optional[str], cache: GroupCache) -> pa.Table:
    """Read the input rows of work units: line rows (line mode) or parquet rows with their
    position in `records.ROW` (column mode, `input_format` None).

    units (pa.Table): Unit rows (`UNIT_COLUMNS`).
    input_format (Optional[str]): "text", "doc" or "jsonl"; None for parquet.
    cache (GroupCache): The worker's last parquet row group.
    RETURNS (pa.Table): The rows, in order.
    """
    tables = [
        _read_lines(unit, input_format) if input_format else _read_parquet(unit, cache)
        for unit in units.to_pylist()
    ]
    return pa.concat_tables(tables)


def _read_lines(unit: Dict, input_format: str) -> pa.Table:
    path = Path(unit[PATH])
    with path.open("rb") as f:
        f.seek(unit[START])
        data = f.read(unit[SIZE])
    lines = split_input(data, input_format)
    if len(lines) != unit[ROWS]:  # the file changed after the rows were counted
        found = f"{len(lines)} lines from byte {unit[START]}, where it had {unit[ROWS]}"
        raise DataFormatError(Errors.CE334.format(path=path, found=found))
    names = [str(path)] * len(lines)
    return line_table(lines, names=names, first_row=unit[FIRST_ROW], first_line=unit[FIRST_LINE])


def _read_parquet(unit: Dict, cache: GroupCache) -> pa.Table:
    key = (unit[PATH], unit[GROUP])
    if key not in cache:
        cache.clear()  # one row group at a time
        cache[key] = parquet_file(Path(unit[PATH])).read_row_group(unit[GROUP])
    table = cache[key].slice(unit[START], unit[ROWS])
    first = unit[FIRST_ROW]
    return table.append_column(ROW, pa.array(range(first, first + table.num_rows), pa.int64()))
