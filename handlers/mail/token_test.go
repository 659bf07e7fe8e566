package mail

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestToken(t *testing.T) {
	key := deriveKey([]byte("0123456789abcdef0123456789abcdef"))
	now := time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC)
	tok, err := sign(key, purposeUnsub, claims{User: "ann", Type: "fi.reached", Expires: now.Add(time.Hour).Unix()})
	if err != nil {
		t.Fatal(err)
	}
	c, err := parse(key, purposeUnsub, tok, now)
	if err != nil || c.User != "ann" || c.Type != "fi.reached" {
		t.Fatalf("parse: %+v %v", c, err)
	}
	p, s, _ := strings.Cut(tok, ".")
	other := deriveKey([]byte("another secret, just as long...."))
	for name, bad := range map[string]struct {
		key     []byte
		purpose string
		tok     string
		at      time.Time
		want    error
	}{
		"expired":       {key, purposeUnsub, tok, now.Add(time.Hour), errExpiredToken},
		"other purpose": {key, purposeVerify, tok, now, errBadToken},
		"other key":     {other, purposeUnsub, tok, now, errBadToken},
		"no dot":        {key, purposeUnsub, p + s, now, errBadToken},
		"changed user":  {key, purposeUnsub, strings.Replace(p, p[:4], "eyJ1", 1) + "x." + s, now, errBadToken},
		"empty":         {key, purposeUnsub, "", now, errBadToken},
	} {
		if _, err := parse(bad.key, bad.purpose, bad.tok, bad.at); !errors.Is(err, bad.want) {
			t.Errorf("%s: %v, want %v", name, err, bad.want)
		}
	}
}

func TestParseURL(t *testing.T) {
	for _, ok := range []string{"smtp://mail.example", "smtps://u:p@mail.example:465", "smtp://127.0.0.1:2525"} {
		if _, err := ParseURL(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"http://mail.example", "smtp://", "smtp://h:0", "smtp://h:99999", "smtp://h/path", "mail.example"} {
		if _, err := ParseURL(bad); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	if _, err := ParseURL("http://fiplan:hunter2@mail.example"); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("a bad URL's error quotes its password, or none came: %v", err)
	}
	if m, err := New(Config{}); m != nil || err != nil {
		t.Fatalf("no URL: %v %v, want email off", m, err)
	}
	if _, err := New(Config{URL: "smtp://h", From: "not an address", Secret: make([]byte, 32)}); err == nil {
		t.Fatal("a bad sender was accepted")
	}
}
