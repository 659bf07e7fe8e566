package hooks_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fiplan/data/store"
	"fiplan/handlers/hooks"
)

// verifyJS checks deliveries with the Standard Webhooks reference library
// for JavaScript (npm standardwebhooks, a dependency of the browser suite):
// it prints "ok" for each case it verifies and "refused" for each it
// rejects.
const verifyJS = `
const { Webhook } = require("standardwebhooks");
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
for (const c of cases) {
  try {
    new Webhook(c.secret).verify(Buffer.from(c.body, "base64"), c.headers);
    console.log("ok");
  } catch (e) {
    console.log("refused");
  }
}
`

// A delivery fiplan signed verifies with the reference library of another
// language, and the same delivery with its body changed does not.
func TestSignatureVerifiesWithStandardWebhooksJS(t *testing.T) {
	modules, err := filepath.Abs("../web/e2e/node_modules")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(modules, "standardwebhooks")); err != nil {
		t.Skip("npm ci in handlers/web/e2e installs the standardwebhooks package this test verifies with")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	secret, err := hooks.NewSecret()
	if err != nil {
		t.Fatal(err)
	}
	rv := &receiver{status: 200}
	srv := httptest.NewServer(rv)
	defer srv.Close()
	db, err := store.Open(filepath.Join(t.TempDir(), "f.db"), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.SaveAccount("ann", "free"); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateHook(store.Hook{ID: "wh_a", User: "ann", URL: srv.URL, Events: []string{store.CheckinDue}, Secret: secret, CreatedAt: time.Now()}, 10); err != nil {
		t.Fatal(err)
	}
	ev := store.Event{ID: store.EventID("x"), User: "ann", Type: store.CheckinDue, CreatedAt: time.Now().UTC(), Data: []byte(`{"planName":"Lean – 50 €"}`)}
	if _, err := db.Emit([]store.Event{ev}, time.Now()); err != nil {
		t.Fatal(err)
	}
	w := &hooks.Worker{DB: db, Client: hooks.NewClient(true)}
	if n, err := w.Deliver(context.Background()); n != 1 || err != nil || len(rv.got) != 1 {
		t.Fatalf("deliver: %d %v, %d received", n, err, len(rv.got))
	}
	headers := map[string]string{}
	for _, k := range []string{"webhook-id", "webhook-timestamp", "webhook-signature"} {
		headers[k] = rv.got[0].Header.Get(k)
	}
	type jsCase struct {
		Secret  string            `json:"secret"`
		Headers map[string]string `json:"headers"`
		Body    string            `json:"body"`
	}
	body := rv.bodies[0]
	cases := []jsCase{
		{secret, headers, base64.StdEncoding.EncodeToString(body)},
		{secret, headers, base64.StdEncoding.EncodeToString(bytes.Replace(body, []byte("Lean"), []byte("Fat!"), 1))},
	}
	in, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "-e", verifyJS)
	cmd.Env = append(os.Environ(), "NODE_PATH="+modules)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	if got := strings.Fields(string(out)); len(got) != 2 || got[0] != "ok" || got[1] != "refused" {
		t.Fatalf("standardwebhooks said %q, want ok for the delivery and refused for the changed body", out)
	}
}
