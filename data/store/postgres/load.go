package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	json "github.com/goccy/go-json"
	"github.com/jackc/pgx/v5"

	"fiplan/data/store"
)

// Counts is what Load copied.
type Counts struct {
	Users, Docs, Assets, Plans, Keys, Flags, Exposures, Revocations int
	Webhooks, Events, Deliveries, Mails                             int
	Secret                                                          bool
}

func (c Counts) String() string {
	secret := "no local secret"
	if c.Secret {
		secret = "the local secret"
	}
	return fmt.Sprintf("%d users, %d documents, %d plans, %d assets, %d API keys, %d flags, %d exposures, %d sign-out marks, "+
		"%d webhooks, %d events, %d deliveries, %d queued mails and %s",
		c.Users, c.Docs, c.Plans, c.Assets, c.Keys, c.Flags, c.Exposures, c.Revocations, c.Webhooks, c.Events, c.Deliveries, c.Mails, secret)
}

// ErrNotEmpty: Load was given a database that already holds records.
var ErrNotEmpty = errors.New("the database already holds records: copy into an empty one")

// loadTimeout bounds one Load, the migrations included.
const loadTimeout = 30 * time.Minute

// Load copies e, every record of another store, into the database at url
// in one transaction, after applying pending migrations: all of it or,
// on any error, nothing. It refuses a database that holds any record
// (ErrNotEmpty), and records PostgreSQL cannot hold (NUL bytes, invalid
// UTF-8) with an error naming them. Timestamps keep microseconds.
func Load(ctx context.Context, url string, e *store.Everything) (Counts, error) {
	ctx, cancel := context.WithTimeout(ctx, loadTimeout)
	defer cancel()
	pool, err := connect(ctx, url)
	if err != nil {
		return Counts{}, err
	}
	defer pool.Close()
	if err := migrate(ctx, pool); err != nil {
		return Counts{}, fmt.Errorf("cannot load into db %s: %w", redact(url), err)
	}
	var n Counts
	err = pgx.BeginTxFunc(ctx, pool, pgx.TxOptions{}, func(tx pgx.Tx) error {
		// Hours of copying may outlast statement_timeout.
		if _, err := tx.Exec(ctx, `SET LOCAL statement_timeout = 0`); err != nil {
			return err
		}
		// No node may write between the check and the copy.
		if _, err := tx.Exec(ctx, `LOCK TABLE meta, users, flags, exposures IN EXCLUSIVE MODE`); err != nil {
			return err
		}
		var used bool
		err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM meta) OR EXISTS (SELECT 1 FROM users)
			OR EXISTS (SELECT 1 FROM flags) OR EXISTS (SELECT 1 FROM exposures)`).Scan(&used)
		if err != nil {
			return err
		}
		if used {
			return ErrNotEmpty
		}
		n, err = load(ctx, tx, e)
		return err
	})
	if err != nil {
		return Counts{}, fmt.Errorf("cannot load into db %s: %w", redact(url), err)
	}
	return n, nil
}

func load(ctx context.Context, tx pgx.Tx, e *store.Everything) (Counts, error) {
	var n Counts
	if e.Secret != nil {
		if _, err := tx.Exec(ctx, `INSERT INTO meta (name, value) VALUES ('jwt_secret', $1)`, e.Secret); err != nil {
			return n, fmt.Errorf("secret: %w", err)
		}
		n.Secret = true
	}
	var users, docs, assets, plans, keys, hooks, events, deliveries, mails, mailLast [][]any
	for _, u := range e.Users {
		if err := outboxRows(&u, &hooks, &events, &deliveries, &mails); err != nil {
			return n, fmt.Errorf("user %q: %w", u.ID, err)
		}
		for kind, at := range u.MailLast {
			if err := checkText("mail kind", kind); err != nil {
				return n, fmt.Errorf("user %q: %w", u.ID, err)
			}
			mailLast = append(mailLast, []any{u.ID, kind, at.UTC()})
		}
		if err := checkUser(u.ID); err != nil {
			return n, fmt.Errorf("user %q: %w", u.ID, err)
		}
		users = append(users, []any{u.ID, u.Account.Tier, u.Account.CreatedAt.UTC(), u.Account.UpdatedAt.UTC()})
		for name, body := range u.Docs {
			if err := checkText("document name", name); err != nil {
				return n, fmt.Errorf("user %q: %w", u.ID, err)
			}
			docs = append(docs, []any{u.ID, name, body})
		}
		for _, a := range u.Assets {
			if err := checkText("asset id", a.Meta.ID); err != nil {
				return n, fmt.Errorf("user %q: %w", u.ID, err)
			}
			if err := checkText("ISIN", a.Meta.ISIN); err != nil {
				return n, fmt.Errorf("user %q, asset %q: %w", u.ID, a.Meta.ID, err)
			}
			var isin any
			if a.Meta.ISIN != "" {
				isin = a.Meta.ISIN
			}
			assets = append(assets, []any{u.ID, a.Meta.ID, isin, int16(a.Meta.Category), a.Doc})
		}
		for _, p := range u.Plans {
			if err := checkPlan(p.ID); err != nil {
				return n, fmt.Errorf("user %q: %w", u.ID, err)
			}
			plans = append(plans, []any{u.ID, p.ID, p.Doc})
		}
		for _, k := range u.Keys {
			for what, s := range map[string]string{"key id": k.Key.ID, "key name": k.Key.Name, "key hint": k.Key.Hint} {
				if err := checkText(what, s); err != nil {
					return n, fmt.Errorf("user %q: %w", u.ID, err)
				}
			}
			var lastUsed any
			if !k.Key.LastUsedAt.IsZero() {
				lastUsed = k.Key.LastUsedAt.UTC()
			}
			keys = append(keys, []any{k.Hash[:], u.ID, k.Key.ID, k.Key.Name, k.Key.Hint, k.Key.CreatedAt.UTC(), lastUsed})
		}
	}
	var flags, exposures, revocations [][]any
	for _, r := range e.Revocations {
		if err := checkText("revocation", r.ID); err != nil {
			return n, err
		}
		revocations = append(revocations, []any{r.ID, r.Until.UTC()})
	}
	for _, f := range e.Flags {
		if err := checkText("flag key", f.Key); err != nil {
			return n, err
		}
		flags = append(flags, []any{f.Key, f.Def})
	}
	for _, x := range e.Exposures {
		if err := checkText("exposure", x.User+x.Variant); err != nil {
			return n, fmt.Errorf("flag %q: %w", x.Flag, err)
		}
		exposures = append(exposures, []any{x.Flag, x.User, x.Variant})
	}
	// Assets and plans are copied in creation order: seq, their order, is
	// generated.
	var lastKinds int // not reported: a record of the queue's, not a user's
	for _, t := range []struct {
		table string
		cols  []string
		rows  [][]any
		count *int
	}{
		{"users", []string{"id", "tier", "created_at", "updated_at"}, users, &n.Users},
		{"docs", []string{"user_id", "name", "body"}, docs, &n.Docs},
		{"assets", []string{"user_id", "id", "isin", "category", "doc"}, assets, &n.Assets},
		{"plans", []string{"user_id", "id", "doc"}, plans, &n.Plans},
		{"api_keys", []string{"hash", "user_id", "id", "name", "hint", "created_at", "last_used_at"}, keys, &n.Keys},
		{"flags", []string{"key", "def"}, flags, &n.Flags},
		{"exposures", []string{"flag", "user_id", "variant"}, exposures, &n.Exposures},
		{"revocations", []string{"id", "until"}, revocations, &n.Revocations},
		{"webhooks", []string{"user_id", "id", "url", "events", "secret", "created_at"}, hooks, &n.Webhooks},
		{"events", []string{"id", "user_id", "doc"}, events, &n.Events},
		{"deliveries", []string{"id", "user_id", "event_id", "event_type", "webhook_id", "status", "attempts", "next_at",
			"last_status", "last_error", "created_at", "updated_at"}, deliveries, &n.Deliveries},
		{"mails", []string{"id", "user_id", "kind", "recipient", "attempts", "next_at", "last_error", "created_at"}, mails, &n.Mails},
		{"mail_last", []string{"user_id", "kind", "queued_at"}, mailLast, &lastKinds},
	} {
		c, err := tx.CopyFrom(ctx, pgx.Identifier{t.table}, t.cols, pgx.CopyFromRows(t.rows))
		if err != nil {
			return n, fmt.Errorf("copy %s: %w", t.table, err)
		}
		*t.count = int(c)
	}
	return n, nil
}

// outboxRows adds u's webhooks, events, deliveries and queued mails to
// the rows to copy; a delivery's or a mail's lease is dropped (its
// next_at, the lease's end, stays).
func outboxRows(u *store.UserRecords, hooks, events, deliveries, mails *[][]any) error {
	for _, m := range u.Mails {
		if err := checkText("queued mail", m.ID+m.Kind+m.To+m.LastError); err != nil {
			return err
		}
		*mails = append(*mails, []any{m.ID, u.ID, m.Kind, m.To, int32(m.Attempts), m.NextAt.UTC(), m.LastError, m.CreatedAt.UTC()})
	}
	for _, h := range u.Hooks {
		for what, s := range map[string]string{"webhook id": h.ID, "webhook URL": h.URL, "webhook secret": h.Secret} {
			if err := checkText(what, s); err != nil {
				return err
			}
		}
		*hooks = append(*hooks, []any{u.ID, h.ID, h.URL, h.Events, h.Secret, h.CreatedAt.UTC()})
	}
	for i := range u.Events {
		doc, err := json.Marshal(&u.Events[i])
		if err != nil {
			return err
		}
		if err := checkText("event id", u.Events[i].ID); err != nil {
			return err
		}
		*events = append(*events, []any{u.Events[i].ID, u.ID, doc})
	}
	for _, d := range u.Deliveries {
		if err := checkText("delivery", d.ID+d.LastError); err != nil {
			return err
		}
		*deliveries = append(*deliveries, []any{d.ID, u.ID, d.EventID, d.EventType, d.HookID, d.Status, int32(d.Attempts), d.NextAt.UTC(),
			int32(d.LastStatus), d.LastError, d.CreatedAt.UTC(), d.UpdatedAt.UTC()})
	}
	return nil
}
