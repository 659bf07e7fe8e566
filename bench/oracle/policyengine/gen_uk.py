#!/usr/bin/env python3
"""Income Tax and National Insurance of a grid of UK people by PolicyEngine-UK.

The answers are an independent check of fiplan's UK tax data: uk_grid.json,
beside this file, holds the grid and PolicyEngine's figures, and
uk_compare_test.go computes each person with fiplan and compares.

Pinned sources (public GitHub repositories):
  PolicyEngine/policyengine-uk    c93e1a05481311a702f2037585bceed20361c744 (2.91.0)
  PolicyEngine/policyengine-core  d05551405e25cd86cfa5b068c77636d6dc7b2820 (3.30.3)
  PolicyEngine/microdf            de4ac75fdda4c386d07fefcfaf500cfb578e7c5a
Run on Debian 12's python3 (3.11) with python3-numpy, -pandas, -scipy, -yaml,
-h5py, -tables, -numexpr, -psutil, -requests, -sortedcontainers and
-pydantic (1.10). Packages PolicyEngine imports but a household calculation
never runs (plotly, IPython, pyvis, dpath and huggingface_hub: charts,
notebooks, error paths and dataset downloads) are replaced by empty stand-ins
on the path; they do not enter any tax figure.

Command (the source trees unpacked with git archive under $PE, microdf and
the stand-ins under $VENDOR):

  PYTHONPATH=$VENDOR:$PE python3 bench/oracle/policyengine/gen_uk.py > bench/oracle/policyengine/uk_grid.json

The grid is deterministic (a seeded generator per year, region and slot):
30 people per region and year, England, Wales, Northern Ireland and Scotland,
tax years 2025 (2025/26) and 2026 (2026/27), each alone in a household:

  - slots 0-7: earnings across the withdrawal of the Personal Allowance
    (£100,000 to £125,140 and just past it), some with interest or
    dividends;
  - slots 8-19: under State Pension age (22 to 64): employment income,
    private pensions from 57, savings interest and dividends;
  - slots 20-29: over State Pension age (68 to 88, clear of the rise from
    66 to 67 between 2026 and 2028): the State Pension, private pensions,
    some employment income (which owes no Class 1 contributions), interest
    and dividends.

Ages stay clear of the year State Pension age is reached, where the
contributions stop part-way through the year.
"""
import json
import random
import sys

REGIONS = {"ENG": "LONDON", "WLS": "WALES", "NIR": "NORTHERN_IRELAND", "SCT": "SCOTLAND"}
YEARS = (2025, 2026)
SLOTS = 30
PE_UK = "c93e1a05481311a702f2037585bceed20361c744"
PE_CORE = "d05551405e25cd86cfa5b068c77636d6dc7b2820"
# the full new State Pension a year (52 weeks): £230.25 a week in 2025/26,
# £241.30 in 2026/27; a person's is a share of it
FULL_SP = {2025: 11973.0, 2026: 12547.6}
TAPER = (100000, 103500, 108000, 112700, 117300, 121900, 125140, 128500)
OUTPUTS = ("income_tax", "national_insurance", "ni_class_1_employee", "adjusted_net_income",
           "personal_allowance", "state_pension_age")


def pounds(x):
    return float(int(x))


def extras(rnd, h, p_interest=0.5, p_div=0.5, scale=1.0):
    if rnd.random() < p_interest:
        h["interest"] = pounds(rnd.uniform(150, 7000) * scale)
    if rnd.random() < p_div:
        h["dividends"] = pounds(rnd.choice((400, 2500, 12000, 45000)) * rnd.uniform(0.6, 1.4) * scale)


def person(year, region, slot):
    rnd = random.Random(f"uk-{year}-{region}-{slot}")
    h = {"year": year, "region": region, "age": 0, "employment": 0.0, "pension": 0.0, "statePension": 0.0,
         "interest": 0.0, "dividends": 0.0}
    if slot < 8:
        h["age"] = rnd.randint(30, 62)
        h["employment"] = float(TAPER[slot]) - (0 if slot % 2 else rnd.randint(0, 3000))
        extras(rnd, h, 0.4, 0.3, 0.1)
        if slot in (3, 6):
            # part of the adjusted net income is savings and dividends
            h["employment"] -= 15000
            h["interest"], h["dividends"] = 5000.0, 10000.0
    elif slot < 20:
        h["age"] = rnd.randint(22, 64)
        h["employment"] = pounds(rnd.choice((8000, 13500, 19000, 28000, 41000, 52000, 68000, 90000, 160000))
                                 * rnd.uniform(0.85, 1.15))
        if h["age"] >= 57 and rnd.random() < 0.6:
            h["pension"] = pounds(rnd.choice((4000, 12000, 30000)) * rnd.uniform(0.8, 1.2))
            if rnd.random() < 0.4:
                h["employment"] = 0.0
        extras(rnd, h)
    else:
        h["age"] = rnd.randint(68, 88)
        h["statePension"] = round(FULL_SP[year] * rnd.choice((1.0, 1.0, 0.8, 0.55)), 2)
        h["pension"] = pounds(rnd.choice((0, 3000, 9000, 22000, 45000, 95000)) * rnd.uniform(0.8, 1.2))
        if rnd.random() < 0.3:
            h["employment"] = pounds(rnd.choice((6000, 18000, 35000, 70000)) * rnd.uniform(0.8, 1.2))
        extras(rnd, h)
    return h


def situation(cases):
    """One situation holding every person of a year, each in a household of their own."""
    s = {"people": {}, "benunits": {}, "households": {}}
    for i, c in enumerate(cases):
        y = str(c["year"])
        who = f"p{i}"
        s["people"][who] = {"age": {y: c["age"]}, "employment_income": {y: c["employment"]},
                            "private_pension_income": {y: c["pension"]}, "state_pension": {y: c["statePension"]},
                            "savings_interest_income": {y: c["interest"]}, "dividend_income": {y: c["dividends"]}}
        s["benunits"][f"b{i}"] = {"members": [who]}
        s["households"][f"h{i}"] = {"members": [who], "region": {y: REGIONS[c["region"]]}}
    return s


def main():
    from policyengine_uk import Simulation

    out = []
    for year in YEARS:
        cases = [person(year, r, k) for r in REGIONS for k in range(SLOTS)]
        sim = Simulation(situation=situation(cases))
        got = {v: sim.calculate(v, year) for v in OUTPUTS}
        for i, c in enumerate(cases):
            c["pe"] = {k: round(float(v[i]), 2) for k, v in got.items()}
            out.append(c)
        print(f"{year}: {len(cases)} people", file=sys.stderr, flush=True)
    json.dump({"policyengineUK": PE_UK, "policyengineCore": PE_CORE,
               "command": "PYTHONPATH=$VENDOR:$PE python3 bench/oracle/policyengine/gen_uk.py > bench/oracle/policyengine/uk_grid.json",
               "cases": out}, sys.stdout, indent=0)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
