package testserver

import (
	"fiplan/handlers"
	"fiplan/handlers/internal/harness"
	"fiplan/handlers/mcp"
)

// WithMCP serves MCP at /mcp; stream answers in event streams.
func WithMCP(stream bool) Option {
	return func(c *handlers.Config) {
		c.MCP = &mcp.Settings{PublicURL: harness.MCPBase, Issuer: "https://id.example.com", Stream: stream}
	}
}
