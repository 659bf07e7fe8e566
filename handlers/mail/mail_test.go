package mail

import (
	"context"
	"net"
	"strings"
	"testing"

	"fiplan/data/store"
)

// A queued mail of a kind this binary does not know, or an SMTP server
// that does not answer, is an error for the worker to retry.
func TestSendMailErrors(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	m, err := New(Config{URL: "smtp://" + addr, From: "fiplan@fiplan.test", PublicURL: "https://fiplan.test", Secret: []byte("0123456789abcdef")})
	if err != nil {
		t.Fatal(err)
	}
	q := store.Mail{ID: "mail_1", User: "ann", Kind: "digest", To: "ann@example.com"}
	if err := m.SendMail(context.Background(), &q); err == nil || !strings.Contains(err.Error(), `unknown kind "digest"`) {
		t.Fatalf("unknown kind: %v", err)
	}
	q.Kind = store.MailVerify
	if err := m.SendMail(context.Background(), &q); err == nil || !strings.Contains(err.Error(), addr) {
		t.Fatalf("unreachable server: %v", err)
	}
	q.To = "not an address"
	if err := m.SendMail(context.Background(), &q); err == nil || !strings.Contains(err.Error(), "recipient") {
		t.Fatalf("bad recipient: %v", err)
	}
}
