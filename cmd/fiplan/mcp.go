package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"fiplan/handlers"
	"fiplan/handlers/auth"
	"fiplan/handlers/mcp"
)

// mcpStdio serves the MCP tools over stdin and stdout for a desktop
// assistant: in-process against the database, every call acting as one
// local user through a session token signed afresh with the server's
// secret (FI_JWT_SECRET, or the local secret kept in the db).
func mcpStdio(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fiplan mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sub := fs.String("sub", "local", "the user the assistant acts for (the sub claim)")
	tier := fs.String("tier", "pro", "free or pro: the local user's tier")
	dbPath := fs.String("db", "fiplan.db", "bbolt file path or postgres:// URL (FI_DB)")
	secretFlag := fs.String("jwt-secret", "", "HS256 secret (FI_JWT_SECRET); default the local secret kept in the db")
	if err := parseFlags(fs, args, getenv, map[string]string{"db": "FI_DB", "jwt-secret": "FI_JWT_SECRET"}); err != nil {
		return fail(stderr, err)
	}
	if _, ok := auth.ParseTier(*tier); !ok {
		return fail(stderr, fmt.Errorf("mcp: -tier %q is not free or pro", *tier))
	}
	if *sub == "" {
		return fail(stderr, errors.New("mcp: -sub is required"))
	}
	if err := serveStdio(ctx, *sub, *tier, *dbPath, *secretFlag, stdin, stdout, stderr); err != nil {
		return fail(stderr, err)
	}
	return 0
}

func serveStdio(ctx context.Context, sub, tier, dbPath, secretSetting string, stdin io.Reader, stdout, stderr io.Writer) error {
	db, err := openStore(ctx, dbPath, 2*time.Second)
	if err != nil {
		return &settingError{"db", "FI_DB", fmt.Errorf("%w (stdio mode opens the database itself: stop a server using this file, or connect the assistant to its /mcp)", err)}
	}
	defer db.Close()
	secret := []byte(secretSetting)
	if len(secret) == 0 {
		if secret, err = db.Secret(); err != nil {
			return &settingError{"db", "FI_DB", fmt.Errorf("cannot read the local secret: %w", err)}
		}
	}
	log := slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	verifier, err := auth.NewVerifier(auth.Config{Secret: secret, CacheSize: 1 << 10, Logger: log})
	if err != nil {
		return &settingError{"jwt-secret", "FI_JWT_SECRET", err}
	}
	defer verifier.Close()
	sign := func() (string, error) {
		tok, err := auth.Sign(secret, auth.Claims{Sub: sub, Tier: tier, TTL: time.Hour}, time.Now())
		if err != nil {
			return "", fmt.Errorf("cannot sign the local session: %w", err)
		}
		return "Bearer " + tok, nil
	}
	s, err := handlers.New(handlers.Config{
		Version: buildVersion(), DB: db, Verifier: verifier, Logger: log,
		MCP: &mcp.Settings{PublicURL: "http://localhost", Credential: sign},
	})
	if err != nil {
		return err
	}
	defer s.Close()
	err = s.MCP().Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(stdin), Writer: nopCloser{stdout}})
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) && ctx.Err() == nil {
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
