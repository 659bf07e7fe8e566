#!/usr/bin/env python3
"""Federal and state income tax of a grid of US households by PolicyEngine-US.

The answers are an independent check of fiplan's tax data: us_grid.json,
beside this file, holds the grid and PolicyEngine's figures, and
compare_test.go computes each household with fiplan and compares.

Pinned sources (public GitHub repositories):
  PolicyEngine/policyengine-us    8914f89da05465871c6bb62855853a85b244cd1e (1.817.0)
  PolicyEngine/policyengine-core  d05551405e25cd86cfa5b068c77636d6dc7b2820 (3.30.3)
  PolicyEngine/microdf            de4ac75fdda4c386d07fefcfaf500cfb578e7c5a
  PolicyEngine/spm-calculator     fd094fe59f40a9ccb4327dcda9a2264ae5d08189
Run on Debian 12's python3 (3.11) with python3-numpy, -pandas, -scipy, -yaml,
-h5py, -tables, -numexpr, -psutil, -requests and -sortedcontainers. Packages
PolicyEngine imports but a household calculation never runs (huggingface_hub,
pyvis, dpath, the SPM geography of spm_calculator) are replaced by empty
stand-ins on the path; they do not enter any tax figure.

Command (the source trees unpacked with git archive under $PE, the stand-ins
and microdf/spm_calculator under $VENDOR):

  PYTHONPATH=$VENDOR:$PE python3 bench/oracle/policyengine/gen_us.py > bench/oracle/policyengine/us_grid.json

The grid is deterministic (a seeded generator per year, state and slot): six
households per state and year, 51 regions, 2025 and 2026: single and joint,
under and over 65, wages, pensions, IRA distributions (only from 60, clear of
the early-distribution charge), qualified dividends, long-term gains,
interest and Social Security retirement benefits (from 62). Every return
takes the standard deduction, as fiplan does (tax_unit_itemizes false).
"""
import json
import random
import sys

STATES = ("AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ "
          "NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY").split()
YEARS = (2025, 2026)
SLOTS = 6
PE_US = "8914f89da05465871c6bb62855853a85b244cd1e"
PE_CORE = "d05551405e25cd86cfa5b068c77636d6dc7b2820"


def r100(x):
    return float(int(x / 100) * 100)


def household(year, state, slot):
    rnd = random.Random(f"{year}-{state}-{slot}")
    joint = slot % 2 == 1
    old = slot in (2, 3, 5)
    age = rnd.randint(66, 82) if old else rnd.randint(28, 63)
    page = (rnd.randint(64, 80) if old else rnd.randint(28, 63)) if joint else 0
    h = {"year": year, "state": state, "filing": "joint" if joint else "single", "age": age, "partnerAge": page,
         "wages": 0.0, "partnerWages": 0.0, "pension": 0.0, "ira": 0.0, "dividends": 0.0, "gains": 0.0,
         "interest": 0.0, "socialSecurity": 0.0}
    if not old or rnd.random() < 0.25:
        h["wages"] = r100(rnd.choice((15e3, 40e3, 75e3, 120e3, 200e3, 400e3)) * rnd.uniform(0.8, 1.2))
        if joint and rnd.random() < 0.6:
            h["partnerWages"] = r100(rnd.uniform(0, 1) * h["wages"])
    if old or age >= 60:
        h["pension"] = r100(rnd.choice((0, 8e3, 20e3, 45e3)) * rnd.uniform(0.8, 1.2))
        h["ira"] = r100(rnd.choice((0, 10e3, 30e3, 80e3)) * rnd.uniform(0.8, 1.2))
    if old or age >= 62:
        h["socialSecurity"] = r100(rnd.uniform(14e3, 30e3) * (1.7 if joint else 1))
    if rnd.random() < 0.6:
        h["dividends"] = r100(rnd.choice((2e3, 10e3, 40e3)) * rnd.uniform(0.5, 1.5))
    if rnd.random() < 0.5:
        h["gains"] = r100(rnd.choice((5e3, 30e3, 120e3, 1.2e6)) * rnd.uniform(0.5, 1.5))
    if rnd.random() < 0.4:
        h["interest"] = r100(rnd.uniform(500, 8000))
    return h


def situation(cases):
    """One situation holding every household of a year (each its own tax unit)."""
    s = {k: {} for k in ("people", "tax_units", "marital_units", "families", "spm_units", "households")}
    for i, c in enumerate(cases):
        y = str(c["year"])
        head, spouse = f"h{i}", f"s{i}"
        members = [head] + ([spouse] if c["filing"] == "joint" else [])
        # the couple's pension, IRA and benefit are split 60/40 between them
        # when the partner is 60 or more, else all the taxpayer's
        share = (0.6, 0.4) if c["filing"] == "joint" and c["partnerAge"] >= 60 else (1.0, 0.0)
        for who, wages, age, sh in ((head, c["wages"], c["age"], share[0]), (spouse, c["partnerWages"], c["partnerAge"], share[1])):
            if who not in members:
                continue
            p = {"age": {y: age}, "employment_income": {y: wages},
                 "taxable_private_pension_income": {y: c["pension"] * sh},
                 "taxable_ira_distributions": {y: c["ira"] * sh},
                 "social_security_retirement": {y: c["socialSecurity"] * sh}}
            if who == head:
                p.update({"qualified_dividend_income": {y: c["dividends"]}, "long_term_capital_gains": {y: c["gains"]},
                          "taxable_interest_income": {y: c["interest"]}})
            s["people"][who] = p
        # fiplan takes the standard deduction: so does the check
        s["tax_units"][f"t{i}"] = {"members": members, "tax_unit_itemizes": {y: False}}
        s["marital_units"][f"m{i}"] = {"members": members}
        s["families"][f"f{i}"] = {"members": members}
        s["spm_units"][f"u{i}"] = {"members": members}
        s["households"][f"x{i}"] = {"members": members, "state_code": {y: c["state"]}}
    return s


def main():
    from policyengine_us import Simulation

    out = []
    for year in YEARS:
        cases = [household(year, st, k) for st in STATES for k in range(SLOTS)]
        sim = Simulation(situation=situation(cases))
        # every figure per tax unit (a person's, such as the taxed benefit,
        # summed over the unit)
        got = {v: sim.calculate(v, year, map_to="tax_unit") for v in (
            "income_tax_before_refundable_credits", "income_tax_before_credits", "net_investment_income_tax",
            "income_tax_capped_non_refundable_credits", "taxable_social_security", "alternative_minimum_tax",
            "additional_medicare_tax",
            "state_income_tax_before_refundable_credits", "state_income_tax")}
        for i, c in enumerate(cases):
            c["pe"] = {k: round(float(v[i]), 2) for k, v in got.items()}
            out.append(c)
        print(f"{year}: {len(cases)} households", file=sys.stderr, flush=True)
    json.dump({"policyengineUS": PE_US, "policyengineCore": PE_CORE,
               "command": "PYTHONPATH=$VENDOR:$PE python3 bench/oracle/policyengine/gen_us.py > bench/oracle/policyengine/us_grid.json",
               "cases": out}, sys.stdout, indent=0)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
