package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioSession runs `fiplan mcp args...` over pipes and connects the SDK's
// client to it.
func stdioSession(t *testing.T, args ...string) *sdk.ClientSession {
	t.Helper()
	db := filepath.Join(t.TempDir(), "fiplan.db")
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var stderr bytes.Buffer
	go func() {
		done <- mcpStdio(ctx, append([]string{"-db", db}, args...), func(string) string { return "" }, inR, outW, &stderr)
		outW.Close()
	}()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "desktop"}, nil).Connect(ctx, &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		inW.Close()
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("fiplan mcp exited %d: %s", code, stderr.String())
		}
	})
	return cs
}

func callText(t *testing.T, cs *sdk.ClientSession, name, args string) (*sdk.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		b.WriteString(c.(*sdk.TextContent).Text)
	}
	return res, b.String()
}

func TestMCPStdioActsAsTheLocalUser(t *testing.T) {
	t.Parallel()
	cs := stdioSession(t)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 24 {
		t.Fatalf("%d tools, want 24 (optimize_plan is the newest)", len(tools.Tools))
	}
	if res, txt := callText(t, cs, "add_asset", `{"name":"World index","value":1000,"currency":"USD"}`); res.IsError {
		t.Fatal(txt)
	}
	res, txt := callText(t, cs, "list_my_assets", `{}`)
	if res.IsError || !strings.Contains(txt, "1 assets") {
		t.Fatalf("list_my_assets: %s", txt)
	}
	// The local user is pro by default.
	if res, txt := callText(t, cs, "tax_optimize", `{"country":"US","income":{"pension":30000}}`); res.IsError {
		t.Fatal(txt)
	}
	if res, txt := callText(t, cs, "fi_calculate", `{"currentAge":200}`); !res.IsError || !strings.HasPrefix(txt, "MISSING_FIELD:") {
		t.Fatalf("a bad calculation: %s", txt)
	}
}

func TestMCPStdioFreeTier(t *testing.T) {
	t.Parallel()
	cs := stdioSession(t, "-sub", "sam", "-tier", "free")
	if res, txt := callText(t, cs, "tax_optimize", `{"country":"US","income":{"pension":30000}}`); !res.IsError || !strings.HasPrefix(txt, "SUBSCRIPTION_REQUIRED:") {
		t.Fatalf("free tier tax_optimize: %s", txt)
	}
}

func TestMCPStdioRefusesBadFlags(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	if code := mcpStdio(context.Background(), []string{"-tier", "gold"}, func(string) string { return "" }, strings.NewReader(""), io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "-tier") {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
}
