package handlers_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"fiplan/data/store"
	"fiplan/handlers/account"
	"fiplan/handlers/errcode"
	"fiplan/handlers/hooks"
	"fiplan/handlers/internal/testserver"
	"fiplan/handlers/owned"
	"fiplan/handlers/plans"
)

// kind is one kind of owned document as its routes serve it.
type kind struct {
	*owned.Kind
	path string // the collection
	body string // a create body
	get  bool   // the kind answers GET of one document
	// seed stores the user's i-th document under id straight in db, doc
	// with its id (a document as the routes answer it).
	seed func(db store.Store, user, id string, doc []byte, i int) error
}

var kinds = []kind{
	{Kind: account.Assets, path: "/api/v1/assets", body: `{"name":"World fund","value":1000}`, get: true,
		seed: func(db store.Store, user, id string, doc []byte, _ int) error {
			return db.CreateAsset(user, store.AssetMeta{ID: id}, doc, account.MaxAssets, nil)
		}},
	{Kind: plans.Plans, path: "/api/v1/plans", body: `{"name":"Lean","input":{"currentAge":35,"annualIncome":90000,"annualExpenses":40000}}`, get: true,
		seed: func(db store.Store, user, id string, doc []byte, _ int) error {
			return db.CreatePlan(user, id, doc, plans.MaxPlans, nil, nil)
		}},
	{Kind: hooks.Hooks, path: "/api/v1/user/webhooks", body: `{"url":"https://hooks.example.com/a","events":["checkin.due"]}`,
		seed: func(db store.Store, user, id string, _ []byte, i int) error {
			return db.CreateHook(store.Hook{ID: id, User: user, URL: "https://hooks.example.com/" + strconv.Itoa(i), Events: []string{"checkin.due"},
				Secret: "whsec_c2VjcmV0", CreatedAt: time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)}, hooks.MaxHooks)
		}},
}

// create stores a document of k for tok through its route and returns its
// id and its ETag ("" for a kind without one).
func create(t *testing.T, h *testserver.Harness, k kind, tok string) (id, tag string) {
	t.Helper()
	r := h.Do("POST", k.path, k.body, testserver.Bearer(tok)...)
	if r.Status != 201 {
		t.Fatalf("POST %s: %d %s", k.path, r.Status, r.Raw)
	}
	id, _ = r.Data()["id"].(string)
	if !k.ID.ValidString(id) {
		t.Fatalf("POST %s answered id %q, outside the kind's grammar", k.path, id)
	}
	return id, r.Header["Etag"]
}

// The owned-document layer's (handlers/owned) refusals, the same for
// every kind: an id outside the
// kind's grammar is refused before the store is asked, another user's id
// is 404 as a missing one is (never 403, so ids cannot be probed), a
// stale If-Match is 412 and writes nothing while a list that names the
// current tag passes, and a create past the cap is 409 naming the cap.
func TestOwnedRefusals(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, h *testserver.Harness, db store.Store, k kind)
	}{
		{"id outside the grammar", func(t *testing.T, h *testserver.Harness, _ store.Store, k kind) {
			tok := testserver.Bearer(h.Token("ann", "pro", ""))
			for _, bad := range []string{"nope", k.Prefix + strings.Repeat("a", 25), k.Prefix + strings.Repeat("A", 26), "x" + k.Prefix[1:] + strings.Repeat("a", 26)} {
				testserver.ExpectError(t, h.Do("DELETE", k.path+"/"+bad, "", tok...), 400, errcode.Validation)
				if k.get {
					testserver.ExpectError(t, h.Do("GET", k.path+"/"+bad, "", tok...), 400, errcode.Validation)
				}
			}
		}},
		{"another user's id", func(t *testing.T, h *testserver.Harness, _ store.Store, k kind) {
			ann, bob := h.Token("ann", "pro", ""), testserver.Bearer(h.Token("bob", "pro", ""))
			id, _ := create(t, h, k, ann)
			missing, err := k.NewID()
			if err != nil {
				t.Fatal(err)
			}
			for _, other := range []string{id, missing} {
				testserver.ExpectError(t, h.Do("DELETE", k.path+"/"+other, "", bob...), 404, errcode.NotFound)
				if k.get {
					testserver.ExpectError(t, h.Do("GET", k.path+"/"+other, "", bob...), 404, errcode.NotFound)
				}
			}
			r := h.Do("GET", k.path, "", bob...)
			if r.Status != 200 || r.Body["meta"].(map[string]any)["total"] != 0.0 {
				t.Errorf("bob's list holds ann's document: %s", r.Raw)
			}
			if r := h.Do("DELETE", k.path+"/"+id, "", testserver.Bearer(ann)...); r.Status != 204 {
				t.Errorf("ann's own delete after bob's: %d %s", r.Status, r.Raw)
			}
		}},
		{"If-Match", func(t *testing.T, h *testserver.Harness, _ store.Store, k kind) {
			tok := h.Token("ann", "pro", "")
			with := func(tag string) []string { return append([]string{"If-Match", tag}, testserver.Bearer(tok)...) }
			id, tag := create(t, h, k, tok)
			if !k.Versioned {
				// No entity tag: If-Match is not evaluated.
				if tag != "" {
					t.Errorf("an unversioned kind answered ETag %s", tag)
				}
				if r := h.Do("DELETE", k.path+"/"+id, "", with(`"stale"`)...); r.Status != 204 {
					t.Errorf("DELETE of an unversioned kind with If-Match: %d %s", r.Status, r.Raw)
				}
				return
			}
			for _, stale := range []string{`"stale"`, "W/" + tag, `"x", "y"`} {
				testserver.ExpectError(t, h.Do("DELETE", k.path+"/"+id, "", with(stale)...), 412, errcode.PreconditionFailed)
				testserver.ExpectError(t, h.Do("PATCH", k.path+"/"+id, `{"name":"renamed"}`, with(stale)...), 412, errcode.PreconditionFailed)
			}
			if got := h.Do("GET", k.path+"/"+id, "", testserver.Bearer(tok)...).Header["Etag"]; got != tag {
				t.Fatalf("a refused write changed the document: tag %s, was %s", got, tag)
			}
			if r := h.Do("DELETE", k.path+"/"+id, "", with(`"other", `+tag)...); r.Status != 204 {
				t.Errorf("DELETE with a list naming the current tag: %d %s", r.Status, r.Raw)
			}
		}},
		{"cap", func(t *testing.T, h *testserver.Harness, db store.Store, k kind) {
			tok := h.Token("ann", "pro", "")
			seed(t, h, db, k, tok)
			r := h.Do("POST", k.path, k.body, testserver.Bearer(tok)...)
			testserver.ExpectError(t, r, 409, errcode.Conflict)
			if msg := r.Body["error"].(string); !strings.Contains(msg, strconv.Itoa(k.Max)) || !strings.Contains(msg, k.Noun) {
				t.Errorf("the refusal does not name the kind and its cap: %s", msg)
			}
			if r := h.Do("GET", k.path, "", testserver.Bearer(tok)...); r.Body["meta"].(map[string]any)["total"] != float64(k.Max) {
				t.Errorf("total after the cap: %d %.200s", r.Status, r.Raw)
			}
			create(t, h, k, h.Token("bob", "pro", "")) // another user's cap is his own
		}},
	}
	for _, c := range cases {
		for _, k := range kinds {
			t.Run(c.name+"/"+k.Noun, func(t *testing.T) {
				onBothStores(t, func(t *testing.T, h *testserver.Harness, db store.Store) { c.run(t, h, db, k) })
			})
		}
	}
}

// seed fills the cap of k's documents for ann (tok): one through the
// route, the others as copies of it straight in db, several at a time
// (bbolt batches concurrent creates into one commit).
func seed(t *testing.T, h *testserver.Harness, db store.Store, k kind, tok string) {
	t.Helper()
	first, _ := create(t, h, k, tok)
	r := h.Do("GET", k.path, "", testserver.Bearer(tok)...)
	items, _ := r.Body["data"].([]any)
	if len(items) != 1 {
		t.Fatalf("GET %s after one create: %s", k.path, r.Raw)
	}
	doc, err := json.Marshal(items[0])
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, k.Max)
	next := make(chan int)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				id, err := k.NewID()
				if err == nil {
					err = k.seed(db, "ann", id, bytes.Replace(doc, []byte(first), []byte(id), 1), i)
				}
				if err != nil {
					errs <- fmt.Errorf("seed %d: %w", i, err)
				}
			}
		}()
	}
	for i := range k.Max - 1 {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// onBothStores runs fn against a server on bbolt and one on PostgreSQL
// (skipped without FI_TEST_POSTGRES), with the store the server runs on.
func onBothStores(t *testing.T, fn func(t *testing.T, h *testserver.Harness, db store.Store)) {
	t.Run("bbolt", func(t *testing.T) {
		h := testserver.New(t)
		fn(t, h, h.DB)
	})
	t.Run("postgres", func(t *testing.T) {
		if os.Getenv("FI_TEST_POSTGRES") == "" {
			t.Skip("FI_TEST_POSTGRES is not set")
		}
		db := testserver.PGStore(t)
		fn(t, testserver.New(t, testserver.WithDB(db)), db)
	})
}

// Every kind's new ids match its grammar, and the grammar says which kind
// it is of.
func TestNewIDsMatchTheGrammar(t *testing.T) {
	for _, k := range kinds {
		for range 20 {
			id, err := k.NewID()
			if err != nil || !k.ID.ValidString(id) {
				t.Fatalf("%s: NewID() = %q, %v, outside the grammar %s", k.Noun, id, err, k.ID.Pattern)
			}
		}
		if !strings.Contains(k.ID.Rule, k.Noun+" id: "+k.Prefix) {
			t.Errorf("%s: the grammar's rule %q does not name the kind", k.Noun, k.ID.Rule)
		}
	}
}
