package handlers

import (
	testharness "fiplan/handlers/internal/harness"
	"fiplan/handlers/mcp"
)

// withMCP serves MCP at /mcp; stream answers in event streams. The MCP
// helpers are the harness's (handlers/internal/harness).
func withMCP(stream bool) option {
	return func(c *Config) {
		c.MCP = &mcp.Settings{PublicURL: testharness.MCPBase, Issuer: "https://id.example.com", Stream: stream}
	}
}
