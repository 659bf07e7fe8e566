package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"fiplan/data/store"
	"fiplan/data/store/postgres"
	"fiplan/handlers/auth"
)

// backup copies a bbolt database to a file while the server runs. A
// running server holds the file's lock, so the copy comes from it: GET
// /api/v1/admin/backup with an admin token this command signs with the
// server's secret (FI_JWT_SECRET or, in local mode, the one kept in the
// db), or the one given with -token. With no server listening, it opens
// the file itself. Either way the copy is one transaction's snapshot,
// checked page by page before it replaces FILE.
func backup(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fiplan backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "the file to write; required")
	dbPath := fs.String("db", "fiplan.db", "bbolt file path (FI_DB)")
	addr := fs.String("addr", ":8080", "the running server's listen address (FI_ADDR)")
	tok := fs.String("token", "", "an admin session token (default: signed with FI_JWT_SECRET or the local secret)")
	secret := fs.String("jwt-secret", "", "HS256 secret (FI_JWT_SECRET)")
	if err := parseFlags(fs, args, getenv, map[string]string{"db": "FI_DB", "addr": "FI_ADDR", "jwt-secret": "FI_JWT_SECRET"}); err != nil {
		return fail(stderr, err)
	}
	switch {
	case *out == "":
		return fail(stderr, errors.New("backup: -o FILE is required"))
	case fs.NArg() > 0:
		return fail(stderr, fmt.Errorf("backup: unexpected argument %q", fs.Arg(0)))
	case postgres.IsURL(*dbPath):
		return fail(stderr, errors.New("backup: a PostgreSQL store is backed up with pg_dump (see the README)"))
	}
	tmp := *out + ".partial"
	n, via, err := backupTo(ctx, tmp, *dbPath, *addr, *tok, *secret, getenv)
	if err == nil {
		err = store.Check(tmp)
	}
	if err == nil {
		err = os.Rename(tmp, *out)
	}
	if err != nil {
		_ = os.Remove(tmp)
		return fail(stderr, fmt.Errorf("backup: %w", err))
	}
	fmt.Fprintf(stdout, "db %q: %d bytes backed up to %q (%s)\n", *dbPath, n, *out, via)
	return 0
}

// backupTo writes the snapshot to path and says where it came from.
func backupTo(ctx context.Context, path, dbPath, addr, tok, secret string, getenv func(string) string) (int64, string, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	n, via, err := fromServer(ctx, f, dbPath, addr, tok, secret, getenv)
	if errors.Is(err, syscall.ECONNREFUSED) {
		// Nobody serves the file: copy it under its own lock.
		var d *store.DB
		if d, err = store.Open(dbPath, store.Options{ReadOnly: true, LockTimeout: 2 * time.Second}); err == nil {
			n, err = d.Backup(f)
			d.Close()
			via = "from the file; no server listens on " + addr
		}
	}
	if err != nil {
		return n, via, err
	}
	if err := f.Sync(); err != nil {
		return n, via, err
	}
	return n, via, f.Close()
}

func fromServer(ctx context.Context, w io.Writer, dbPath, addr, tok, secret string, getenv func(string) string) (int64, string, error) {
	base, err := serverURL(addr)
	if err != nil {
		return 0, "", err
	}
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/api/v1/admin/backup", nil)
	if err != nil {
		return 0, "", err
	}
	// Reach the server before signing: signing in local mode reads the db.
	conn, err := net.DialTimeout("tcp", req.URL.Host, 2*time.Second)
	if err != nil {
		return 0, "", err
	}
	conn.Close()
	if tok == "" {
		key := []byte(secret)
		if len(key) == 0 {
			if getenv("FI_JWT_JWKS") != "" || getenv("FI_OIDC_ISSUER") != "" {
				return 0, "", errors.New("tokens come from your identity provider: pass an admin session token with -token")
			}
			if key, err = localSecret(ctx, dbPath); err != nil {
				return 0, "", err
			}
		}
		if tok, err = auth.Sign(key, auth.Claims{Sub: "fiplan-backup", Role: "admin", TTL: 5 * time.Minute,
			Issuer: getenv("FI_JWT_ISSUER"), Audience: getenv("FI_JWT_AUDIENCE")}, time.Now()); err != nil {
			return 0, "", err
		}
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		msg, _ := io.ReadAll(io.LimitReader(res.Body, 1024))
		return 0, "", fmt.Errorf("the server at %s answered %d: %s", base, res.StatusCode, strings.TrimSpace(string(msg)))
	}
	n, err := io.Copy(w, res.Body)
	return n, "from the server at " + base, err
}

// serverURL is the base URL of a server listening on addr (":8080" is
// reached on the loopback address).
func serverURL(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("cannot reach -addr %q: %w", addr, err)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port), nil
}

// restore replaces a stopped server's bbolt file with a backup.
func restore(_ context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fiplan restore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	in := fs.String("i", "", "the backup file to restore; required")
	dbPath := fs.String("db", "fiplan.db", "bbolt file path (FI_DB)")
	if err := parseFlags(fs, args, getenv, map[string]string{"db": "FI_DB"}); err != nil {
		return fail(stderr, err)
	}
	switch {
	case *in == "":
		return fail(stderr, errors.New("restore: -i FILE is required"))
	case fs.NArg() > 0:
		return fail(stderr, fmt.Errorf("restore: unexpected argument %q", fs.Arg(0)))
	case postgres.IsURL(*dbPath):
		return fail(stderr, errors.New("restore: a PostgreSQL store is restored with pg_restore (see the README)"))
	}
	if abs, err := filepath.Abs(*in); err == nil {
		if dst, err := filepath.Abs(*dbPath); err == nil && abs == dst {
			return fail(stderr, errors.New("restore: -i and -db name the same file"))
		}
	}
	if err := store.Restore(*in, *dbPath, 500*time.Millisecond); err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintf(stdout, "db %q restored from %q\n", *dbPath, *in)
	return 0
}
