package store

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// Backup writes a consistent copy of the whole file to w while the DB stays
// in use: one read transaction's snapshot (bbolt Tx.WriteTo), so it holds
// every write committed before it began and none after. Writers go on
// meanwhile, except that the file cannot grow its memory map until the
// copy ends. It returns the bytes written.
func (d *DB) Backup(w io.Writer) (int64, error) {
	var n int64
	err := d.view(func(tx *bolt.Tx) (err error) {
		n, err = tx.WriteTo(w)
		return err
	})
	if err != nil {
		return n, fmt.Errorf("cannot back up db %q: %w", d.path, err)
	}
	return n, nil
}

// Check opens the file at path read-only and reports whether it is a fiplan
// database this binary can serve (a bbolt file with fiplan's buckets and a
// schema version no newer than this binary's), then closes it.
// Every page is read and checked (Open's check, then bbolt's Tx.Check), so
// a truncated or damaged copy is refused rather than served.
func Check(path string) error {
	d, err := Open(path, Options{ReadOnly: true, LockTimeout: time.Second})
	if err != nil {
		return err
	}
	defer d.Close()
	return d.view(func(tx *bolt.Tx) error {
		var first error
		for err := range tx.Check() { // drained: the checker holds the transaction
			if first == nil {
				first = fmt.Errorf("cannot check db %q: damaged: %w", path, err)
			}
		}
		return first
	})
}

// Restore replaces the database file at dst with a copy of the backup at
// src, after checking that src is a fiplan database. It refuses with
// ErrLocked while another process (a running server) holds dst, and it
// holds dst's lock until the copy has replaced it, so no server opens the
// old file meanwhile. The copy is written beside dst, synced and renamed
// over it: a crash leaves either the old file or the new one.
func Restore(src, dst string, lockTimeout time.Duration) error {
	if err := Check(src); err != nil {
		return fmt.Errorf("cannot restore from %q: %w", src, err)
	}
	if _, err := os.Stat(dst); err == nil {
		old, err := Open(dst, Options{LockTimeout: lockTimeout})
		if err != nil {
			if errors.Is(err, ErrLocked) {
				return fmt.Errorf("cannot restore into db %q: %w (stop the server first)", dst, ErrLocked)
			}
			// A damaged file is exactly what a restore replaces; only
			// a held lock stops it.
			if !isDamaged(err) {
				return fmt.Errorf("cannot restore into db %q: %w", dst, err)
			}
		} else {
			defer old.Close()
		}
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("cannot restore into db %q: %w", dst, err)
	}
	tmp := dst + ".restore"
	if err := copySynced(src, tmp); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("cannot restore into db %q: %w", dst, err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("cannot restore into db %q: %w", dst, err)
	}
	if dir, err := os.Open(filepath.Dir(dst)); err == nil {
		_ = dir.Sync() // make the rename durable
		_ = dir.Close()
	}
	return nil
}

func isDamaged(err error) bool {
	return errors.Is(err, ErrDamaged) || errors.Is(err, berrors.ErrInvalid) || errors.Is(err, berrors.ErrVersionMismatch) || errors.Is(err, berrors.ErrChecksum)
}

func copySynced(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		_ = out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		_ = out.Close()
		return err
	}
	return out.Close()
}
