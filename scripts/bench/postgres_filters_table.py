#!/usr/bin/env python3
"""Writes the PostgreSQL filters' figures from a heatmap-bench report into the docs: the plan of a
filtered tile's statement (EXPLAIN with the values bound, from a real cluster) and the filtered against
unfiltered times of tiles and M(z).

usage: python3 scripts/bench/postgres_filters_table.py [bench/results/postgres-filters.json] [--write]

The report is `heatmap-bench --only postgres-filters --postgres URL --json FILE`. Without --write it
prints the blocks; with it, it replaces the generated blocks of docs/guides/postgresql.md (plan and
table, the table imported with --time and --categories against the one altered by hand, and its time
windows through the time summaries against the rows alone) and README.md (the index lines of the time
summaries' plan, at most 8, else of the filtered plan); the plans shown are the imported table's when the
report has them.
"""
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BEGIN = "<!-- BEGIN GENERATED: {} -->"
END = "<!-- END GENERATED -->"


def plan_block(report, limit=None, key=None):
    # The table import makes with --time and --categories when the report has it, else the altered one.
    key = key or ("copiedPlans" if report.get("copiedPlans") else "plans")
    plans = report[key]
    plan = next((p for p in plans if p["tile"].startswith("8/")), plans[0])
    lines = plan["plan"]
    if limit is not None:
        # The lines naming an index and its condition, in order, at most `limit`.
        keep = [l for l in lines if ("Index" in l or "Bitmap" in l) and "Filter:" not in l and "Recheck" not in l]
        lines = keep[:limit]
    table = "heatmap_bench_filters_copied" if key == "copiedPlans" else "heatmap_bench_filters"
    head = (f"EXPLAIN of tile {plan['tile']} of {table} with --datetime {plan['filter']} "
            f"({report['rows']:,} rows):")
    return head, "```\n" + "\n".join(l.rstrip() for l in lines) + "\n```"


def table(report):
    out = [f"{report['rows']:,} rows, load {report['load'][0]:.1f} at the start, "
           f"{report.get('loadAtEnd', [0])[0]:.1f} at the end (2 cores, shared).", "",
           "| what | filter | unfiltered | filtered | filtered ÷ unfiltered (paired median) | rounds |",
           "|---|---|---:|---:|---:|---:|"]
    for pair in report["tiles"] + report["maxima"]:
        out.append(f"| {pair['what']} | {pair['filter']} | {pair['unfilteredMilliseconds']:.1f} ms | "
                   f"{pair['filteredMilliseconds']:.1f} ms | {pair['filteredOverUnfilteredPaired']:.2f}x | "
                   f"{pair['rounds']} |")
    return "\n".join(out)


def time_plan_block(report, limit=None):
    # A coarse tile of a month through the time summaries; with `limit`, the lines naming an index.
    plan = report["timeSummaries"]["plans"][0]
    lines = plan["plan"]
    if limit is not None:
        # The scans of the table and its summaries and their conditions; not the state checks'.
        keep, after = [], False
        for l in lines:
            scan = ("Index" in l or "Bitmap" in l) and "Cond:" not in l and "Recheck" not in l
            if scan:
                after = "heatmap_time_summaries" not in l and "heatmap_versions" not in l and "BitmapOr" not in l
                if after:
                    keep.append(l)
            elif after and "Index Cond:" in l:
                keep.append(l)
                after = False
        lines = keep[:limit]
    head = (f"EXPLAIN of tile {plan['tile']} of heatmap_bench_filters_copied with --datetime {plan['filter']} "
            f"({report['rows']:,} rows, time summaries):")
    return head, "```\n" + "\n".join(l.rstrip() for l in lines) + "\n```"


def time_table(report):
    section = report["timeSummaries"]
    out = [f"{report['rows']:,} rows, imported with `--time reported --time-summaries`; each span's finest level kept "
           f"(1, 8, 64, 512 days): {', '.join(str(l) for l in section['finestLevels'])}.", "",
           "| what | filter | unfiltered | rows alone (before) | time summaries | summaries ÷ rows (paired) | "
           "summaries ÷ unfiltered (paired) | rounds |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for t in section["tiles"] + section["maxima"]:
        out.append(f"| {t['what']} | {t['filter']} | {t['unfilteredMilliseconds']:.1f} ms | "
                   f"{t['rowsMilliseconds']:.1f} ms | {t['summariesMilliseconds']:.1f} ms | "
                   f"{t['summariesOverRowsPaired']:.2f}x | {t['summariesOverUnfilteredPaired']:.2f}x | {t['rounds']} |")
    return "\n".join(out)


def copied_table(report):
    out = ["| what | filter | columns added by hand | imported with --time, --categories | "
           "imported ÷ by hand (paired median) | rounds |", "|---|---|---:|---:|---:|---:|"]
    for pair in report.get("copied", []):
        out.append(f"| {pair['what']} | {pair['filter']} | {pair['alteredMilliseconds']:.1f} ms | "
                   f"{pair['copiedMilliseconds']:.1f} ms | {pair['copiedOverAlteredPaired']:.2f}x | {pair['rounds']} |")
    return "\n".join(out)


def replace(path, key, text):
    with open(path) as f:
        content = f.read()
    begin = BEGIN.format(key)
    a = content.index(begin) + len(begin)
    b = content.index(END, a)
    content = content[:a] + "\n" + text + "\n" + content[b:]
    with open(path, "w") as f:
        f.write(content)


def main() -> int:
    args = [a for a in sys.argv[1:] if a != "--write"]
    path = args[0] if args else os.path.join(ROOT, "bench/results/postgres-filters.json")
    with open(path) as f:
        report = json.load(f).get("postgresFilters")
    if not report:
        print(f"{path}: no postgresFilters section", file=sys.stderr)
        return 1
    head, full = plan_block(report)
    timed = report.get("timeSummaries")
    time_head, time_full = time_plan_block(report) if timed else ("", "")
    short_head, short = time_plan_block(report, limit=8) if timed else plan_block(report, limit=6)
    if "--write" not in sys.argv:
        print(head + "\n\n" + full + "\n\n" + table(report) + "\n\n" + copied_table(report) + "\n\n"
              + (time_head + "\n\n" + time_full + "\n\n" + time_table(report) + "\n\n" if timed else "")
              + "README:\n" + short_head + "\n" + short)
        return 0
    guide = os.path.join(ROOT, "docs/guides/postgresql.md")
    replace(guide, "postgres-filters-plan", head + "\n\n" + full)
    replace(guide, "postgres-filters-table", table(report))
    if report.get("copied"):
        replace(guide, "postgres-filters-copied", copied_table(report))
    if timed:
        replace(guide, "postgres-time-summaries-plan", time_head + "\n\n" + time_full)
        replace(guide, "postgres-time-summaries-table", time_table(report))
    replace(os.path.join(ROOT, "README.md"), "postgres-filters-plan", short_head + "\n" + short)
    return 0


if __name__ == "__main__":
    sys.exit(main())
