package handlers

import (
	"bufio"
	"io"

	"github.com/valyala/fasthttp"

	"fiplan/handlers/errcode"
	"fiplan/handlers/rest"
)

// backupper is a store that copies itself while it serves (the bbolt
// file); PostgreSQL is backed up with pg_dump instead.
type backupper interface {
	Backup(w io.Writer) (int64, error)
}

// BackupMedia is the media type of GET /admin/backup.
const BackupMedia = "application/octet-stream"

var backupDoc = &rest.Doc{
	Tag:     "admin",
	Status:  200,
	Bytes:   BackupMedia,
	Summary: "A consistent copy of the database file (admin)",
	Desc: "Streams the whole bbolt file as one read transaction's snapshot: every write committed before the copy began " +
		"and none after, while the server goes on serving. `fiplan backup -o FILE` calls it and checks the copy before " +
		"keeping it; `fiplan restore -i FILE` puts a copy back while the server is stopped. The stream is not checked " +
		"in transit: check a copy made by other means with `fiplan restore`, which refuses a truncated or damaged file.",
	Errs: []rest.ErrDoc{rest.Err(errcode.NotFound, "the store is PostgreSQL, which is backed up with pg_dump")},
}

// backup streams the snapshot. The read transaction opens when fasthttp
// starts writing the body and closes when the copy ends.
func (s *Server) backup(c *rest.Ctx) {
	b, ok := s.marks.Store.(backupper)
	if !ok {
		c.ErrorMessage(errcode.NotFound, "this store has no online backup", "back up PostgreSQL with pg_dump")
		return
	}
	h := &c.RC.Response.Header
	h.SetContentType(BackupMedia)
	h.Set(fasthttp.HeaderContentDisposition, `attachment; filename="fiplan-backup.db"`)
	h.Set(fasthttp.HeaderCacheControl, "no-store")
	log := s.log
	c.RC.SetBodyStreamWriter(func(w *bufio.Writer) {
		n, err := b.Backup(w)
		if err == nil {
			err = w.Flush()
		}
		if err != nil {
			log.Error("backup stream failed", "err", err, "bytes", n)
			return
		}
		log.Info("backup streamed", "bytes", n)
	})
}
