"""The peer of `npm run bench:comparison`: the same grid written by openpyxl in write-only mode (its fastest).

5,000 lines x 50 suppliers by default: per line 15 cells of line data and statistics (texts, numbers, number
formats) and the last price paid (price, date, supplier), then per supplier unit price, line total, % of mean, rank
and the difference from the last price, the lowest price of a line filled green and a missing one hatched, as the
comparison sheet does. Prints one JSON line: {"writeMs": ..., "cpuMs": ..., "maxRssMB": ...}.

    python3 bench/comparison-peer.py OUT.xlsx [LINES] [SUPPLIERS]
"""
import json
import random
import resource
import sys
import time
from datetime import datetime

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font, PatternFill

out = sys.argv[1]
LINES = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
SUPPLIERS = int(sys.argv[3]) if len(sys.argv) > 3 else 50
rnd = random.Random(7)
awarded_on = datetime(2025, 12, 1)

t0 = time.perf_counter()
cpu0 = time.process_time()
wb = Workbook(write_only=True)
ws = wb.create_sheet("Comparison")
ws.freeze_panes = "C16"
green = PatternFill("solid", fgColor="FFC6EFCE")
hatch = PatternFill("lightUp", fgColor="FFBFBFBF", bgColor="FFFFFFFF")
bold_green = Font(bold=True, color="FF006100")


def cell(value, fmt=None, fill=None, font=None):
    c = WriteOnlyCell(ws, value=value)
    if fmt:
        c.number_format = fmt
    if fill:
        c.fill = fill
    if font:
        c.font = font
    return c


ws.append([cell("Quote comparison (peer)")])
header = ["External ID", "Product", "Specification", "UoM", "Qty", "Est. unit price", "Est. total", "Quotes", "Lowest unit",
          "Highest unit", "Mean unit", "Best supplier", "Best line total", "Savings vs est.", "Savings %",
          "Last price paid", "Awarded on", "Last supplier"]
for s in range(SUPPLIERS):
    header += ["Unit price", "Line total", "% of mean", "Rank", "vs last"]
ws.append(header)
for i in range(LINES):
    qty = 1 + i % 250
    prices = [None if rnd.random() < 0.05 else 8 + i % 37 + rnd.randrange(400) / 100 for _ in range(SUPPLIERS)]
    quoted = [p for p in prices if p is not None]
    lowest = min(quoted) if quoted else None
    mean = sum(quoted) / len(quoted) if quoted else None
    est = qty * (10 + i % 37)
    row = [cell(f"PR-{100000 + i}-10"), cell(f"Item {i} hex bolt M{i % 20 + 4} stainless A2"), cell(f"DIN 933, length {(i % 9) * 10 + 20} mm"),
           cell("EA"), cell(qty, "#,##0"), cell(est / qty, "#,##0.00##"), cell(est, "#,##0.00"), cell(len(quoted), "0"),
           cell(lowest, "#,##0.00##"), cell(max(quoted) if quoted else None, "#,##0.00##"), cell(mean, "#,##0.00##"),
           cell("Supplier 3 Industrial Supplies GmbH"), cell(lowest * qty if lowest else None, "#,##0.00"),
           cell(est - lowest * qty if lowest else None, "#,##0.00"), cell(0.05, "+0.0%;-0.0%;0.0%")]
    last = 8 + i % 37 + 2.0 if i % 2 == 0 else None
    row += ([cell(last, "#,##0.00##"), cell(awarded_on, "yyyy-mm-dd"), cell("Supplier 7 Industrial Supplies GmbH")]
            if last else [cell("no earlier award"), cell(None), cell(None)])
    ranked = sorted(quoted)
    for p in prices:
        if p is None:
            row += [cell(None, fill=hatch), cell(None, fill=hatch), cell(None, fill=hatch), cell(None, fill=hatch),
                    cell(None, fill=hatch)]
            continue
        best = p == lowest
        fill, font = (green, bold_green) if best else (None, None)
        row += [cell(p, "#,##0.00##", fill, font), cell(p * qty, "#,##0.00", fill, font), cell(p / mean, "0%", fill, font),
                cell(ranked.index(p) + 1, "0", fill, font), cell(p / last - 1 if last else None, "+0.0%;-0.0%;0.0%")]
    ws.append(row)
wb.save(out)
print(json.dumps({"writeMs": round((time.perf_counter() - t0) * 1000), "cpuMs": round((time.process_time() - cpu0) * 1000),
                  "maxRssMB": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)}))
