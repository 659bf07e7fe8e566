package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"fiplan/data/store"
	"fiplan/data/store/postgres"
	"fiplan/handlers/auth"
)

func flagErrHelp() error { return flag.ErrHelp }

// token prints a session token signed with the server's HS256 secret: the
// configured FI_JWT_SECRET or, in local mode, the one kept in the db.
func token(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fiplan token", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sub := fs.String("sub", "", "user id (the sub claim); required")
	tier := fs.String("tier", "free", "free or pro")
	role := fs.String("role", "", "admin, or empty")
	ttl := fs.Duration("ttl", time.Hour, "lifetime, at most 1h (sessions end an hour after issue)")
	dbPath := fs.String("db", "fiplan.db", "bbolt file path or postgres:// URL (FI_DB)")
	secretFlag := fs.String("jwt-secret", "", "HS256 secret (FI_JWT_SECRET)")
	issuer := fs.String("jwt-issuer", "", "iss claim (FI_JWT_ISSUER)")
	audience := fs.String("jwt-audience", "", "aud claim (FI_JWT_AUDIENCE)")
	if err := parseFlags(fs, args, getenv, map[string]string{"db": "FI_DB", "jwt-secret": "FI_JWT_SECRET", "jwt-issuer": "FI_JWT_ISSUER", "jwt-audience": "FI_JWT_AUDIENCE"}); err != nil {
		return fail(stderr, err)
	}
	switch {
	case *sub == "":
		return fail(stderr, errors.New("token: -sub is required"))
	case *tier != "free" && *tier != "pro":
		return fail(stderr, fmt.Errorf("token: -tier %q is not free or pro", *tier))
	case *role != "" && *role != "admin":
		return fail(stderr, fmt.Errorf("token: -role %q is not admin", *role))
	case *ttl <= 0 || *ttl > time.Hour:
		return fail(stderr, fmt.Errorf("token: -ttl %v is not within (0, 1h]", *ttl))
	}
	secret := []byte(*secretFlag)
	if len(secret) == 0 {
		if getenv("FI_JWT_JWKS") != "" || getenv("FI_OIDC_ISSUER") != "" {
			return fail(stderr, errors.New("token: with only FI_JWT_JWKS or FI_OIDC_ISSUER set, tokens come from your identity provider; set FI_JWT_SECRET to sign locally"))
		}
		var err error
		if secret, err = localSecret(ctx, *dbPath); err != nil {
			return fail(stderr, err)
		}
	}
	tok, err := auth.Sign(secret, auth.Claims{Sub: *sub, Tier: *tier, Role: *role, TTL: *ttl, Issuer: *issuer, Audience: *audience}, time.Now())
	if err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintln(stdout, tok)
	return 0
}

// errNoSecret explains why the token command will not sign in local mode.
const errNoSecret = "token: db %q has no local secret: start the server once in local mode (neither FI_JWT_SECRET nor FI_JWT_JWKS set) to create it, or sign with -jwt-secret / FI_JWT_SECRET"

// localSecret reads the local-mode secret the server keeps in the db. It
// never creates one: a secret the server does not use would sign tokens it
// refuses. PostgreSQL is shared with a running server. A running server
// holds a bbolt file's lock, so when the file is locked the secret is read
// from a snapshot copy: bbolt's copy-on-write pages keep the last committed
// state of the meta bucket, which is written once, intact in the copy.
func localSecret(ctx context.Context, path string) ([]byte, error) {
	if postgres.IsURL(path) {
		db, err := postgres.Open(ctx, path)
		if err != nil {
			return nil, err
		}
		defer db.Close()
		return peekSecret(db, dbName(path))
	}
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf(errNoSecret+" (the file does not exist)", path)
		}
		return nil, fmt.Errorf("cannot read db %q: %w", path, err)
	}
	db, err := store.Open(path, store.Options{LockTimeout: 500 * time.Millisecond})
	if err == nil {
		defer db.Close()
		return peekSecret(db, path)
	}
	if !errors.Is(err, store.ErrLocked) {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "fiplan-token-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	snap := filepath.Join(tmp, "snapshot.db")
	if err := copyFile(path, snap); err != nil {
		return nil, fmt.Errorf("cannot snapshot db %q: %w", path, err)
	}
	db, err = store.Open(snap, store.Options{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("cannot read db snapshot of %q: %w", path, err)
	}
	defer db.Close()
	return peekSecret(db, path)
}

func peekSecret(db interface{ PeekSecret() ([]byte, bool, error) }, name string) ([]byte, error) {
	secret, ok, err := db.PeekSecret()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf(errNoSecret, name)
	}
	return secret, nil
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(to)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
