package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"fiplan/handlers"
	"fiplan/handlers/auth"
	"fiplan/handlers/errcode"
	"fiplan/handlers/internal/harness"
	"fiplan/handlers/internal/testserver"
	"fiplan/handlers/mcp"
)

// FuzzMCPTools calls a tool, chosen by the first input, with arbitrary
// arguments through the SDK's client: whatever the arguments, the call
// must not panic or fail at the protocol level, an error result must carry
// a code of a status below 500, and a success must match the tool's
// output schema.
func FuzzMCPTools(f *testing.F) {
	h := testserver.NewFuzzServer(f, func(c *handlers.Config) {
		c.MCP = &mcp.Settings{PublicURL: harness.MCPBase, Credential: func() (string, error) {
			tok, err := auth.Sign(testserver.Secret, auth.Claims{Sub: "fuzz", Tier: "pro", TTL: time.Hour}, time.Now())
			return "Bearer " + tok, err
		}}
	}).MCP()
	st, ct := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	go h.Run(ctx, st) //nolint:errcheck // ends with ctx
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "fuzz"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { cancel(); cs.Close() })
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		f.Fatal(err)
	}
	tools := list.Tools
	schemas := harness.OutputSchemas(f, tools)
	for _, tc := range toolCases("ast_seed") {
		for j, tl := range tools {
			if tl.Name == tc.name {
				f.Add(uint8(j), []byte(tc.good))
				f.Add(uint8(j), []byte(tc.bad))
			}
		}
	}
	f.Add(uint8(0), []byte(`null`))
	f.Add(uint8(3), []byte(`[1,2]`))
	f.Add(uint8(5), []byte(`{"output":"full","currentAge":40,"annualIncome":1,"annualExpenses":1}`))
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		tl := tools[int(which)%len(tools)]
		if !json.Valid(args) {
			args, _ = json.Marshal(string(args)) // a string: not an object
		}
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tl.Name, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s(%s): protocol error %v", tl.Name, args, err)
		}
		if res.IsError {
			code, _, _ := strings.Cut(harness.Text(res), ":")
			if st := errcode.Status(code); st < 400 || st >= 500 {
				t.Fatalf("%s(%s): error %q (status %d): %s", tl.Name, args, code, st, harness.Text(res))
			}
			return
		}
		harness.Validate(t, schemas[tl.Name], tl.Name, harness.Structured(t, res))
	})
}
