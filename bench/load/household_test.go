package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// The household route's reference runs the same household engine: every
// member it answers (the summary's figures, lifetimeTax, bridge, baseline
// and every row with its accounts, income, tax and residence) is what
// fiplan answers, for bodies drawn from the route's template.
func TestReferenceAnswersHouseholdAsFiplan(t *testing.T) {
	addr, stop, err := inProcess(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ref, refAddr, err := startReference()
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	for _, n := range []uint64{0, 1, 70000, 2_000_000} {
		body := householdCalc.body(n, 3)
		code, got := post(t, addr, body)
		if code != 200 {
			t.Fatalf("fiplan answered %d to %s: %s", code, body, got)
		}
		rcode, want := post(t, refAddr, body)
		if rcode != 200 {
			t.Fatalf("the reference answered %d to %s: %s", rcode, body, want)
		}
		var a, b struct{ Data map[string]any }
		if err := json.Unmarshal(got, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(want, &b); err != nil {
			t.Fatal(err)
		}
		rows, _ := b.Data["projections"].([]any)
		if len(rows) != 52 {
			t.Fatalf("the reference answered %d rows", len(rows))
		}
		last := rows[len(rows)-1].(map[string]any)
		if len(last["accounts"].([]any)) < 6 || last["partnerAge"] != 94.0 {
			t.Fatalf("the last row %v", last)
		}
		converted := false
		for _, r := range rows {
			converted = converted || r.(map[string]any)["conversions"] != nil
		}
		if !converted {
			t.Fatal("the plan converts nothing")
		}
		for k, v := range b.Data {
			if !reflect.DeepEqual(a.Data[k], v) {
				t.Fatalf("body %d: %s differs\nfiplan    %v\nreference %v", n, k, a.Data[k], v)
			}
		}
	}
	for _, bad := range []string{
		householdCalc.body(0, 0)[:len(householdCalc.body(0, 0))-1] + `,"scenarios":[{"name":"x"}]}`,
		strings.Replace(householdCalc.body(0, 0), `"US"`, `"XX"`, 1),
	} {
		if code, _ := post(t, refAddr, bad); code != 400 {
			t.Fatalf("the reference answered %d to %s", code, bad)
		}
	}
}

// Every household body differs, and the ceiling tells them from the
// varied calculator's by their start.
func TestHouseholdBodiesDiffer(t *testing.T) {
	seen := map[string]bool{}
	for n := range uint64(300) {
		for thread := range 3 {
			b := householdCalc.body(n, thread)
			if seen[b] || !strings.HasPrefix(b, householdCalc.pre) {
				t.Fatalf("body repeated or off its template: %s", b)
			}
			seen[b] = true
		}
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(householdCalc.body(7, 1)), &v); err != nil {
		t.Fatal(err)
	}
	if rs, _, err := selectRoutes("household"); err != nil || len(rs) != 1 || rs[0].tmpl == nil {
		t.Fatalf("household route: %v %v", rs, err)
	}
}

// The mix leaves the household and assets routes out, and keeps every
// other route.
func TestMixLeavesHouseholdOut(t *testing.T) {
	mix := mixRoutes()
	if len(mix) != len(routes())-2 {
		t.Fatalf("%d routes in the mix of %d", len(mix), len(routes()))
	}
	for _, r := range mix {
		if r.name == "household" || r.name == "assets" || r.weight == 0 {
			t.Fatalf("%s (weight %d) in the mix", r.name, r.weight)
		}
	}
}
