#!/usr/bin/env python3
"""ACA premium tax credit and Medicare IRMAA of a grid of US households by
PolicyEngine-US, for household_compare_test.go.

Pinned sources and setup as gen_us.py's docstring says (same commits of
policyengine-us and policyengine-core, Debian 12's python3 with the same
packages and stand-ins). Command:

  PYTHONPATH=$VENDOR:$PE python3 bench/oracle/policyengine/gen_us_household.py > bench/oracle/policyengine/us_household_grid.json

Coverage year 2026, three states: Texas and Florida, which have not
expanded Medicaid, so an adult from 100% of the poverty line is a
marketplace household, as fiplan assumes; and Pennsylvania, which has: an
adult under 138% of the poverty line is eligible for Medicaid there, which
bars the credit (where Medicaid takes over is not fiplan's to model; the
comparison lists those households with their reason). Texas's households
come first, as the first version of the grid had them, then the Medicare
households, then Pennsylvania's and Florida's (each state its own seed).

ACA: households under 65, single or joint, no earnings (an early retiree's
income: IRA distributions, interest, qualified dividends and Social
Security from 62, whose untaxed part enters the credit's income), the
benchmark premium (second-lowest-cost silver plan) given as PolicyEngine's
slcsp input, incomes spread from 90% to 450% of the 2025 poverty line
(points on the band edges and ten drawn between 95% and 410%).

IRMAA: households of 65 and over, single or joint, the income of two years
earlier given as PolicyEngine's medicare_irmaa_magi_two_years_prior input,
spread over and around the 2026 thresholds (on them, a dollar above, and
ten drawn within 20% of one).
"""
import json
import random
import sys

PE_US = "8914f89da05465871c6bb62855853a85b244cd1e"
PE_CORE = "d05551405e25cd86cfa5b068c77636d6dc7b2820"
YEAR = 2026
STATE = "TX"
MORE_STATES = ("PA", "FL")  # Medicaid expanded (PA) and not (FL)
FPL = {1: 15650.0, 2: 21150.0}  # 2025 guidelines, 48 states and DC


def aca_cases(state=STATE):
    out = []
    rnd = random.Random("aca-2026" if state == STATE else f"aca-2026-{state}")
    edges = [0.9, 1.0, 1.2, 1.33, 1.4, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75, 3.0, 3.5, 3.99, 4.0, 4.01, 4.5]
    for joint in (False, True):
        n = 2 if joint else 1
        fractions = edges + [round(rnd.uniform(0.95, 4.1), 4) for _ in range(10)]
        for frac in fractions:
            age = rnd.randint(40, 64)
            page = rnd.randint(40, 64) if joint else 0
            magi = round(frac * FPL[n])
            ss = 0.0
            if age >= 62 and rnd.random() < 0.7:
                ss = float(min(magi, round(rnd.uniform(0.3, 0.8) * magi)))
            rest = magi - ss
            interest = float(round(rest * rnd.uniform(0, 0.2)))
            dividends = float(round(rest * rnd.uniform(0, 0.2)))
            ira = float(rest - interest - dividends)
            bench = float(round(rnd.uniform(6000, 14000) * n))
            out.append({"kind": "aca", "year": YEAR, "state": state, "filing": "joint" if joint else "single",
                        "age": age, "partnerAge": page, "ira": ira, "interest": interest, "dividends": dividends,
                        "socialSecurity": ss, "benchmark": bench, "magiPriorYears": 0.0})
    return out


def irmaa_cases():
    out = []
    rnd = random.Random("irmaa-2026")
    single = [109000, 137000, 171000, 205000, 500000]
    joint = [218000, 274000, 342000, 410000, 750000]
    for j, th in ((False, single), (True, joint)):
        points = [50000.0]
        for v in th:
            points += [float(v), float(v + 1), float(round(v * rnd.uniform(1.02, 1.15)))]
        points += [float(round(rnd.uniform(0.8, 1.2) * th[rnd.randrange(len(th))])) for _ in range(10)]
        for magi in points:
            out.append({"kind": "irmaa", "year": YEAR, "state": STATE, "filing": "joint" if j else "single",
                        "age": rnd.randint(65, 85), "partnerAge": rnd.randint(65, 85) if j else 0,
                        "ira": 0.0, "interest": 0.0, "dividends": 0.0, "socialSecurity": 0.0, "benchmark": 0.0,
                        "magiPriorYears": magi})
    return out


def situation(cases):
    y = str(YEAR)
    s = {k: {} for k in ("people", "tax_units", "marital_units", "families", "spm_units", "households")}
    for i, c in enumerate(cases):
        head, spouse = f"h{i}", f"s{i}"
        joint = c["filing"] == "joint"
        members = [head] + ([spouse] if joint else [])
        for who, age in ((head, c["age"]), (spouse, c["partnerAge"])):
            if who not in members:
                continue
            p = {"age": {y: age}, "employment_income": {y: 0}}
            if c["kind"] == "aca":
                p.update({"has_esi": {y: False}, "is_medicare_eligible": {y: False}})
            else:
                p.update({"is_medicare_eligible": {y: True}, "medicare_enrolled": {y: True}})
            s["people"][who] = p
        # the couple's income is the head's (the credit and the surcharge
        # read the return's)
        hp = s["people"][head]
        hp.update({"taxable_ira_distributions": {y: c["ira"]}, "taxable_interest_income": {y: c["interest"]},
                   "qualified_dividend_income": {y: c["dividends"]}, "social_security_retirement": {y: c["socialSecurity"]}})
        tu = {"members": members, "tax_unit_itemizes": {y: False}}
        if c["kind"] == "aca":
            tu["slcsp"] = {f"{y}-{m:02d}": c["benchmark"] / 12 for m in range(1, 13)}
        else:
            tu["medicare_irmaa_magi_two_years_prior"] = {y: c["magiPriorYears"]}
        s["tax_units"][f"t{i}"] = tu
        s["marital_units"][f"m{i}"] = {"members": members}
        s["families"][f"f{i}"] = {"members": members}
        s["spm_units"][f"u{i}"] = {"members": members}
        s["households"][f"x{i}"] = {"members": members, "state_code": {y: c["state"]}}
    return s


def main():
    from policyengine_us import Simulation

    cases = aca_cases() + irmaa_cases()
    for st in MORE_STATES:
        cases += aca_cases(st)
    sim = Simulation(situation=situation(cases))
    tu = {v: sim.calculate(v, YEAR) for v in ("aca_ptc", "aca_magi", "aca_magi_fraction",
                                               "aca_required_contribution_percentage")}
    # a person's eligibility, counted over the return's members
    tu["is_aca_ptc_eligible"] = sim.calculate("is_aca_ptc_eligible", YEAR, map_to="tax_unit")
    per = {}
    for v in ("gross_medicare_part_b_premium", "base_part_b_premium", "income_adjusted_part_d_premium_surcharge"):
        per[v] = sim.calculate(v, YEAR, map_to="tax_unit")
    out = []
    for i, c in enumerate(cases):
        c["pe"] = {
            "aca_ptc": round(float(tu["aca_ptc"][i]), 2),
            "aca_magi": round(float(tu["aca_magi"][i]), 2),
            "aca_magi_fraction": round(float(tu["aca_magi_fraction"][i]), 4),
            "applicable_figure": round(float(tu["aca_required_contribution_percentage"][i]), 6),
            "aca_ptc_eligible_people": int(tu["is_aca_ptc_eligible"][i]),
            # the surcharges of the return's members (Part B's above its
            # base premium, and Part D's), yearly
            "irmaa_part_b": round(float(per["gross_medicare_part_b_premium"][i] - per["base_part_b_premium"][i]), 2),
            "irmaa_part_d": round(float(per["income_adjusted_part_d_premium_surcharge"][i]), 2),
        }
        out.append(c)
    print(f"{YEAR}: {len(cases)} households", file=sys.stderr, flush=True)
    json.dump({"policyengineUS": PE_US, "policyengineCore": PE_CORE,
               "command": "PYTHONPATH=$VENDOR:$PE python3 bench/oracle/policyengine/gen_us_household.py > bench/oracle/policyengine/us_household_grid.json",
               "cases": out}, sys.stdout, indent=0)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
