#!/usr/bin/env python3
"""Writes Examples/incidents.csv: seeded, made-up incidents around Victoria's police stations
(Examples/police_stations.json) over March 2024, each with a time and a kind, for the time
filter and animation examples and tests (issue 28). A band of stations that moves east by day
holds most incidents, so that the days' heatmaps differ.

    python3 scripts/data/make_incidents.py [--out Examples/incidents.csv]
"""
import argparse
import json
import random
from datetime import datetime, timedelta, timezone

KINDS = [("burglary", 5), ("theft", 3), ("assault", 2)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="Examples/incidents.csv")
    parser.add_argument("--seed", type=int, default=28)
    arguments = parser.parse_args()
    random.seed(arguments.seed)
    stations = json.load(open("Examples/police_stations.json"))
    west = min(s["lng"] for s in stations)
    east = max(s["lng"] for s in stations)
    start = datetime(2024, 3, 1, tzinfo=timezone.utc)
    kinds = [k for k, n in KINDS for _ in range(n)]
    rows = []
    for day in range(31):
        centre = west + (east - west) * day / 30
        for station in stations:
            distance = abs(station["lng"] - centre)
            for _ in range(2 if distance < 0.3 else (1 if distance < 0.6 or random.random() < 0.02 else 0)):
                when = start + timedelta(days=day, seconds=random.randrange(86400))
                rows.append((
                    round(station["lat"] + random.gauss(0, 0.02), 5),
                    round(station["lng"] + random.gauss(0, 0.02), 5),
                    when.strftime("%Y-%m-%dT%H:%M:%SZ"),
                    random.choice(kinds),
                ))
    rows.sort(key=lambda row: row[2])
    with open(arguments.out, "w") as out:
        out.write("lat,lng,time,kind\n")
        for row in rows:
            out.write("%s,%s,%s,%s\n" % row)
    print("%s: %d incidents" % (arguments.out, len(rows)))


if __name__ == "__main__":
    main()
