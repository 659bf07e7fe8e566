package mcp_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/valyala/fasthttp/fasthttputil"

	"fiplan/handlers"
	"fiplan/handlers/internal/harness"
	"fiplan/handlers/internal/testserver"
	"fiplan/handlers/mcp"
)

// The calculator body of BenchmarkCalculatorPOST: 60 years, 3 scenarios.
const benchCalcBody = `{"currentAge":35,"annualIncome":90000,"annualExpenses":45000,"currentSavings":50000,` +
	`"scenarios":[{"name":"frugal","annualExpenses":35000},{"name":"bear","expectedReturn":0.05},{"name":"vpw","withdrawalStrategy":"vpw"}]}`

// benchMCP is a server with /mcp mounted, listening in memory, and an API
// key of a pro user; local: its MCP handler acts for that user, as stdio
// does, instead of reading each request's credentials.
func benchMCP(b *testing.B, local bool) (*handlers.Server, *http.Client, string) {
	b.Helper()
	var key string
	s, _, key := testserver.BenchServer(b, 0, testserver.LimitOff, func(c *handlers.Config) {
		c.MCP = &mcp.Settings{PublicURL: harness.MCPBase}
		if local {
			c.MCP.Credential = func() (string, error) { return "Bearer " + key, nil }
		}
	})
	ln := fasthttputil.NewInmemoryListener()
	go s.HTTP().Serve(ln) //nolint:errcheck // ends when the listener closes
	b.Cleanup(func() { ln.Close() })
	c := &http.Client{Transport: harness.Authorizing("Bearer "+key, &http.Transport{
		DialContext:         func(context.Context, string, string) (net.Conn, error) { return ln.Dial() },
		MaxIdleConnsPerHost: 4,
	}), Timeout: 10 * time.Second}
	return s, c, key
}

// fi_calculate through the SDK's client over streamable HTTP: the
// protocol, the adaptor, and the route run in-process.
func BenchmarkMCPCalculatorHTTP(b *testing.B) {
	_, c, _ := benchMCP(b, false)
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench"}, nil).Connect(context.Background(),
		&sdk.StreamableClientTransport{Endpoint: harness.MCPBase + mcp.Path, HTTPClient: c, DisableStandaloneSSE: true}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	benchTool(b, cs)
}

// fi_calculate through the SDK's in-memory transport (as stdio): the
// protocol and the route, without HTTP.
func BenchmarkMCPCalculatorInMemory(b *testing.B) {
	s, _, _ := benchMCP(b, true)
	h := s.MCP()
	st, ct := sdk.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go h.Run(ctx, st) //nolint:errcheck // ends with ctx
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	benchTool(b, cs)
}

func benchTool(b *testing.B, cs *sdk.ClientSession) {
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "fi_calculate", Arguments: json.RawMessage(benchCalcBody)})
		if err != nil || res.IsError {
			b.Fatalf("%v %v", err, res)
		}
	}
}

// The same calculation as BenchmarkMCPCalculatorHTTP through the REST
// route, over the same listener with the same client and API key.
func BenchmarkRESTCalculatorHTTP(b *testing.B) {
	_, c, _ := benchMCP(b, false)
	b.ReportAllocs()
	for b.Loop() {
		res, err := c.Post(harness.MCPBase+"/api/v1/calculator", "application/json", strings.NewReader(benchCalcBody))
		if err != nil {
			b.Fatal(err)
		}
		var env struct{ Success bool }
		if err := json.NewDecoder(res.Body).Decode(&env); err != nil || !env.Success {
			b.Fatalf("%d %v", res.StatusCode, err)
		}
		res.Body.Close()
	}
}
