#!/usr/bin/env python3
"""Solve a few US couples with Owl (mdlacasse/Owl) and write owl_cases.json.

Owl is a linear program over a household's withdrawals, Roth conversions
and (optionally) Social Security claiming ages.  Each couple here is posed
under Owl's fixed-rate model the way fiplan can pose it too: every asset
class earns the same nominal return, one inflation rate, a flat spending
profile, federal income tax only (no state tax, no Medicare premiums, no
dividends), no wages, both partners dying in the same year (so no
survivor phase).  Two solves per couple: the largest after-tax bequest at a
fixed net spending, and the largest net spending at a bequest of zero.

Run it through `make oracle`, which unpacks Owl at the pinned commit
outside the repository and puts stand-ins for the plotting and schema
packages a solve never uses on the path.  The fixture records Owl's commit,
the command and Owl's solve time on the machine it ran on.
"""

import datetime
import json
import os
import platform
import sys
import time

import numpy as np
import scipy

# Stand-ins written outside the repository before Owl is imported: Owl's
# plotting back ends (never used by a solve), pydantic 2 (Owl's option
# schema, not used on this path; Debian 12 ships pydantic 1) and highspy
# (Owl calls HiGHS through it; SciPy's milp is the same HiGHS).
PYDANTIC = '''# Stand-in for pydantic v2: Owl's schema classes are defined but never
# validated on the solve path the oracle uses.
class BaseModel:
    def __init_subclass__(cls, **kw):
        pass
def ConfigDict(**kw):
    return dict(kw)
def Field(default=None, *a, **kw):
    return default
def _deco(*a, **kw):
    def wrap(f):
        return f
    return wrap
field_validator = _deco
model_validator = _deco
'''

HIGHSPY = '''# Stand-in for highspy on Debian's python3: the calls Owl makes, answered by
# SciPy's own HiGHS through scipy.optimize.milp.
import numpy as np
from scipy.optimize import milp, LinearConstraint, Bounds
from scipy.sparse import csr_matrix

kHighsInf = np.inf
kSolutionStatusFeasible = 2


class MatrixFormat:
    kColwise = 1
    kRowwise = 2


class ObjSense:
    kMinimize = 1


class HighsModelStatus:
    kOptimal = 7
    kObjectiveBound = 99
    kInfeasible = 8


class _Sol:
    def __init__(self, x):
        self.col_value = x
        self.row_dual = []
        self.col_dual = []


class Highs:
    def __init__(self):
        self.opts = {}
        self.res = None

    def setOptionValue(self, k, v):
        self.opts[k] = v

    def passModel(self, ncol, nrow, nnz, fmt, sense, offset, c, cl, cu, rl, ru, start, index, value, integrality):
        assert fmt == MatrixFormat.kRowwise
        indptr = np.append(np.asarray(start), nnz)
        self.c = np.asarray(c)
        self.A = csr_matrix((value, index, indptr), shape=(nrow, ncol))
        self.rl, self.ru, self.cl, self.cu = rl, ru, cl, cu
        self.integrality = np.asarray(integrality)

    def setSolution(self, *a):
        pass

    def run(self):
        o = {"disp": False, "presolve": True}
        if "mip_rel_gap" in self.opts:
            o["mip_rel_gap"] = self.opts["mip_rel_gap"]
        if "time_limit" in self.opts:
            o["time_limit"] = self.opts["time_limit"]
        cons = [LinearConstraint(self.A, self.rl, self.ru)] if self.A.shape[0] else []
        self.res = milp(self.c, constraints=cons, integrality=self.integrality,
                        bounds=Bounds(self.cl, self.cu), options=o)

    def getModelStatus(self):
        return HighsModelStatus.kOptimal if self.res.status == 0 else HighsModelStatus.kInfeasible

    def getInfoValue(self, k):
        if k == "primal_solution_status":
            return 0, kSolutionStatusFeasible if self.res.x is not None else 0
        if k == "mip_gap":
            return 0, float(getattr(self.res, "mip_gap", 0.0) or 0.0)
        return 0, 0

    def getSolution(self):
        return _Sol(self.res.x)

    def getObjectiveValue(self):
        return float(self.res.fun)

    def modelStatusToString(self, ms):
        return self.res.message
'''

STUBS = {
    "seaborn": "def __getattr__(name):\n    return None\n",
    "plotly": "def __getattr__(name):\n    return None\n",
    "plotly/graph_objects": "def __getattr__(name):\n    return None\n",
    "plotly/subplots": "def __getattr__(name):\n    return None\n",
    "plotly/express": "def __getattr__(name):\n    return None\n",
    "plotly/io": "def __getattr__(name):\n    return None\n",
    "pydantic": PYDANTIC,
    "highspy": HIGHSPY,
}


def write_stubs(root):
    for name, text in STUBS.items():
        d = os.path.join(root, name)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "__init__.py"), "w") as f:
            f.write(text)
    sys.path.insert(0, root)


OWL_SRC = os.environ.get("OWL_SRC", "/tmp/owl/src/src")
write_stubs(os.path.join(os.path.dirname(os.path.abspath(OWL_SRC)), "stubs"))
sys.path.insert(1, OWL_SRC)

import owlplanner as owl  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "owl_cases.json")

# The couples: balances in dollars, Social Security as the monthly primary
# insurance amount at full retirement age (67 for both, born 1961/1962).
CASES = [
    {
        "name": "retired-65",
        "birthYears": [1961, 1961],
        "lifeExpectancy": [90, 90],
        "startYear": 2026,
        "taxable": [300000, 0],
        "taxDeferred": [900000, 400000],
        "taxFree": [100000, 50000],
        "pia": [2500, 1500],
        "claimAges": [67, 67],
        "return": 0.06,
        "inflation": 0.025,
        "heirsRate": 0.30,
        "netSpending": 90000,
    },
    {
        "name": "retired-63-large-ira",
        "birthYears": [1963, 1963],
        "lifeExpectancy": [92, 92],
        "startYear": 2026,
        "taxable": [200000, 0],
        "taxDeferred": [1600000, 600000],
        "taxFree": [0, 0],
        "pia": [3000, 1800],
        "claimAges": [67, 67],
        "return": 0.05,
        "inflation": 0.025,
        "heirsRate": 0.24,
        "netSpending": 110000,
    },
]


def owl_plan(c):
    names = ["A", "B"]
    dobs = [f"{y}-01-15" for y in c["birthYears"]]
    p = owl.Plan(names, dobs, c["lifeExpectancy"], c["name"], verbose=False)
    p.setStateTax("")
    p.setAccountBalances(
        taxable=c["taxable"], taxDeferred=c["taxDeferred"], taxFree=c["taxFree"], startDate=f"{c['startYear']}-01-01", units="1"
    )
    p.setCostBasis(c["taxable"], units="1")
    p.zeroWagesAndContributions()
    p.setSocialSecurity(c["pia"], c["claimAges"])
    p.setPension([0, 0], [65, 65])
    r, i = 100 * c["return"], 100 * c["inflation"]
    p.setRates("user", values=[r, r, r, i])
    p.setAllocationRatios("individual", generic=[[[60, 40, 0, 0], [60, 40, 0, 0]], [[60, 40, 0, 0], [60, 40, 0, 0]]])
    p.setDividendRate(0)
    p.setExpirationYearOBBBA(2099)
    p.setHeirsTaxRate(100 * c["heirsRate"])
    p.setSpendingProfile("flat", 100)
    p.setSpousalDepositFraction(0.5)
    return p


def answer(p, seconds):
    years = [int(y) for y in p.year_n]
    gamma = np.asarray(p.gamma_n)
    conv = np.sum(p.x_in, axis=0)  # nominal, by year
    out = {
        "bequest": round(float(p.bequest), 2),  # today's money, after heirs' tax
        "spending": round(float(p.basis), 2),  # first year's net spending, today's money
        "conversions": [
            {"year": y, "amount": round(float(conv[n] / gamma[n]), 2)} for n, y in enumerate(years) if conv[n] > 0.5
        ],
        "seconds": round(seconds, 3),
    }
    # each year's flows, money of the year, and the end balances by kind:
    # what a difference is explained term by term from
    tax = p.T_n + p.U_n + p.J_n
    ss = np.sum(p.zetaBar_in, axis=0)
    out["years"] = [
        {
            "year": y,
            "spending": round(float(p.g_n[n]), 2),
            "benefits": round(float(ss[n]), 2),
            "tax": round(float(tax[n]), 2),
            "converted": round(float(conv[n]), 2),
        }
        for n, y in enumerate(years)
    ]
    end = np.sum(p.b_ijn[:, :, p.N_n], axis=0)
    out["end"] = {"taxable": round(float(end[0]), 2), "taxDeferred": round(float(end[1]), 2), "taxFree": round(float(end[2]), 2)}
    out["inflationToEnd"] = float(gamma[-1])
    ages = getattr(p, "ssecAges", None)
    if ages is not None:
        out["claimAges"] = [round(float(a), 4) for a in ages]
    return out


def solve(c, objective, extra):
    p = owl_plan(c)
    opts = {"withMedicare": "None", "solver": "HiGHS", "noRothConversions": "None"}
    if objective == "maxBequest":
        opts["netSpending"] = c["netSpending"] / 1000
    else:
        opts["bequest"] = 0
    opts.update(extra)
    t0 = time.perf_counter()
    p.solve(objective, options=opts)
    dt = time.perf_counter() - t0
    if p.caseStatus != "solved":
        raise SystemExit(f"{c['name']} {objective}: Owl says {p.caseStatus}")
    return answer(p, dt)


def main():
    commit = os.environ.get("OWL_COMMIT", "")
    cases = []
    for c in CASES:
        got = dict(c)
        got["owl"] = {
            "maxBequest": solve(c, "maxBequest", {}),
            "maxSpending": solve(c, "maxSpending", {}),
            "maxBequestClaiming": solve(c, "maxBequest", {"withSSAges": "optimize"}),
        }
        cases.append(got)
        print(c["name"], json.dumps(got["owl"]["maxBequest"]["bequest"]), file=sys.stderr)
    doc = {
        "owlCommit": commit,
        "command": "make oracle",
        "generated": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
        "machine": f"{platform.machine()} {os.cpu_count()} cpus, python {platform.python_version()}, scipy {scipy.__version__}",
        "model": "fixed nominal return on every asset, one inflation, flat spending, federal tax only, no Medicare, "
        "no dividends, no wages, both partners die the same year; money in dollars, today's money unless named",
        "cases": cases,
    }
    with open(OUT, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
