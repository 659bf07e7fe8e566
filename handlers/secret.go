package handlers

import (
	"crypto/hkdf"
	"crypto/sha256"
	"sync"
)

// keptSecret is the secret the store keeps (Store.Secret), the same on
// every node sharing the store; read once the store answers. Keys for
// sealing idempotent answers and signing MCP session ids derive from it.
func (s *Server) keptSecret() ([]byte, error) {
	s.keptMu.Lock()
	defer s.keptMu.Unlock()
	if s.kept == nil {
		k, err := s.db.Secret()
		if err != nil {
			return nil, err
		}
		s.kept = k
	}
	return s.kept, nil
}

// keptSecretState is the kept secret, once read.
type keptSecretState struct {
	keptMu sync.Mutex
	kept   []byte
}

// mcpSessionKey is the key MCP session ids are signed with: derived from
// the kept secret, so every node sharing the store has it.
func (s *Server) mcpSessionKey() ([]byte, error) {
	secret, err := s.keptSecret()
	if err != nil {
		return nil, err
	}
	return hkdf.Key(sha256.New, secret, nil, "fiplan mcp session id", 32)
}

// mcpSessionMark prefixes an MCP session's id in the store's marks
// (Store.Revoke) when the session ends.
const mcpSessionMark = "mcp-session:"
