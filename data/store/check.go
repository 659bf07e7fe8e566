package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"slices"
)

// The file check. bbolt reads its pages through a memory map and trusts
// them: a page id past the end of a truncated file faults (a crash no
// recover catches), a damaged page header panics or sends a cursor astray.
// checkFile reads the file with plain reads, never through the map, and
// follows every page the current meta page reaches, so that a damaged file
// is refused at open, before bbolt touches it, with an error that says so.
//
// The layout read here is bbolt's file format, version 2, in the byte order
// of the machine that wrote it (bbolt files are not portable across byte
// orders either):
//
//	page header   id u64, flags u16, count u16, overflow u32 (16 bytes)
//	meta          magic u32, version u32, pageSize u32, flags u32,
//	              root {pgid u64, sequence u64}, freelist u64, pgid u64,
//	              txid u64, checksum u64 (FNV-1a 64 of what precedes it)
//	branch elem   pos u32, ksize u32, pgid u64; key at elem+pos
//	leaf elem     flags u32, pos u32, ksize u32, vsize u32; key at
//	              elem+pos, value after the key; flags&1: a bucket, whose
//	              value is {root u64, sequence u64} and, when root is 0, an
//	              inline leaf page
//	freelist      count u16 in the header (0xFFFF: the count is the first
//	              u64), then page ids u64

// ErrDamaged: the file is not a consistent bbolt database (truncated,
// overwritten, a damaged page). Restore a backup.
var ErrDamaged = errors.New("the file is damaged; restore a backup with fiplan restore")

const (
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	pageHeaderSize = 16
	elemSize       = 16 // branch and leaf elements alike
	bucketHeader   = 16
	flagBranch     = 0x01
	flagLeaf       = 0x02
	flagFreelist   = 0x10
	noFreelist     = ^uint64(0)
	// maxDepth bounds the nesting of page trees and buckets followed: a
	// B+tree of 2^64 keys is far shallower, so deeper is a loop.
	maxDepth = 256
)

var native = binary.NativeEndian

// meta is the part of a meta page the check uses.
type meta struct {
	pageSize uint32
	root     uint64
	freelist uint64
	pgid     uint64
	txid     uint64
}

// readMeta decodes and validates the meta page in buf (a page header, then
// the meta).
func readMeta(buf []byte) (meta, bool) {
	if len(buf) < pageHeaderSize+64 {
		return meta{}, false
	}
	m := buf[pageHeaderSize:]
	h := fnv.New64a()
	_, _ = h.Write(m[:56])
	if native.Uint32(m[0:]) != boltMagic || native.Uint32(m[4:]) != boltVersion || native.Uint64(m[56:]) != h.Sum64() {
		return meta{}, false
	}
	return meta{pageSize: native.Uint32(m[8:]), root: native.Uint64(m[16:]), freelist: native.Uint64(m[32:]),
		pgid: native.Uint64(m[40:]), txid: native.Uint64(m[48:])}, true
}

// checker walks one file.
type checker struct {
	f        io.ReaderAt
	pageSize int
	pgid     uint64 // high-water mark: pages [0, pgid) exist
	seen     bitset // pages reached from the meta page
	free     bitset // pages the freelist names
	buf      []byte
}

// bitset is a set of page ids.
type bitset []uint64

func newBitset(n uint64) bitset { return make(bitset, (n+63)/64) }

func (s bitset) has(id uint64) bool { return s[id/64]&(1<<(id%64)) != 0 }

// add adds id; false when it was there already.
func (s bitset) add(id uint64) bool {
	if s.has(id) {
		return false
	}
	s[id/64] |= 1 << (id % 64)
	return true
}

// checkFile checks the bbolt file f: its meta page, then every page it
// reaches (full) or only that the file holds every page the meta page
// counts. A missing or empty file is a new database and passes. A failure
// wraps ErrDamaged.
func checkFile(f *os.File, full bool) error {
	// The meta page first, the size after: a writer (another process, when
	// the caller holds no lock) only ever grows the file before it moves
	// the meta page.
	m, err := currentMeta(f)
	fi, statErr := f.Stat()
	switch {
	case statErr != nil:
		return statErr
	case fi.Size() == 0:
		return nil
	case err != nil:
		return fmt.Errorf("%w (%w)", ErrDamaged, err)
	case m.pgid > uint64(fi.Size())/uint64(m.pageSize):
		return fmt.Errorf("%w (truncated: the file holds %d bytes, its meta page counts %d pages of %d bytes)", ErrDamaged, fi.Size(), m.pgid, m.pageSize)
	case !full:
		return nil
	}
	c := &checker{f: f, pageSize: int(m.pageSize), pgid: m.pgid}
	if err := c.check(m); err != nil {
		return fmt.Errorf("%w (%w)", ErrDamaged, err)
	}
	return nil
}

// currentMeta finds the meta page bbolt will use: of the two, the valid one
// with the higher transaction id.
func currentMeta(f io.ReaderAt) (meta, error) {
	buf := make([]byte, 0x1000)
	read := func(off int64) (meta, bool) {
		n, _ := f.ReadAt(buf, off)
		return readMeta(buf[:n])
	}
	m0, ok0 := read(0)
	var m1 meta
	ok1 := false
	if ok0 {
		m1, ok1 = read(int64(m0.pageSize))
	} else {
		// Without the first meta page the page size is unknown: try each
		// size bbolt supports, as bbolt does.
		for i := 0; i <= 14 && !ok1; i++ {
			pos := int64(1024) << i
			m1, ok1 = read(pos)
			ok1 = ok1 && int64(m1.pageSize) == pos
		}
	}
	if ok1 && ok0 && m1.pageSize != m0.pageSize {
		ok1 = false
	}
	var m meta
	switch {
	case ok0 && ok1:
		m = m0
		if m1.txid > m0.txid {
			m = m1
		}
	case ok0:
		m = m0
	case ok1:
		m = m1
	default:
		return meta{}, errors.New("no valid meta page: not a bbolt file, or both meta pages damaged")
	}
	if ps := m.pageSize; ps < 512 || ps > 16<<20 || ps&(ps-1) != 0 {
		return meta{}, fmt.Errorf("meta page: page size %d", ps)
	}
	if m.pgid < 2 || m.root < 2 || m.root >= m.pgid || m.freelist != noFreelist && (m.freelist < 2 || m.freelist >= m.pgid) {
		return meta{}, fmt.Errorf("meta page: root %d, freelist %d, %d pages", m.root, m.freelist, m.pgid)
	}
	return m, nil
}

// check walks the freelist, then the tree of buckets; every page below the
// high-water mark is either reached once or free, never both.
func (c *checker) check(m meta) error {
	c.seen, c.free = newBitset(c.pgid), newBitset(c.pgid)
	c.seen.add(0)
	c.seen.add(1)
	if m.freelist != noFreelist {
		if err := c.freelist(m.freelist); err != nil {
			return err
		}
	}
	if err := c.tree(m.root, 0); err != nil {
		return err
	}
	if m.freelist == noFreelist {
		return nil // free pages are not recorded in the file
	}
	for id := uint64(2); id < c.pgid; id++ {
		if !c.seen.has(id) && !c.free.has(id) {
			return fmt.Errorf("page %d: neither reached nor free", id)
		}
	}
	return nil
}

// page reads page id with its overflow pages, checks its header and marks
// it and its overflow reached. The slice is valid until the next call.
func (c *checker) page(id uint64, want ...uint16) ([]byte, error) {
	if id < 2 || id >= c.pgid {
		return nil, fmt.Errorf("page %d: out of bounds (the file has %d pages)", id, c.pgid)
	}
	ps := c.pageSize
	if cap(c.buf) < ps {
		c.buf = make([]byte, ps)
	}
	buf := c.buf[:ps]
	if _, err := c.f.ReadAt(buf, int64(id)*int64(ps)); err != nil {
		return nil, fmt.Errorf("page %d: %w", id, err)
	}
	overflow := uint64(native.Uint32(buf[12:]))
	if got := native.Uint64(buf[0:]); got != id {
		return nil, fmt.Errorf("page %d: its header says page %d", id, got)
	}
	if flags := native.Uint16(buf[8:]); !slices.Contains(want, flags) {
		return nil, fmt.Errorf("page %d: unexpected type %#x", id, flags)
	}
	if id+overflow >= c.pgid {
		return nil, fmt.Errorf("page %d: %d overflow pages run past the end", id, overflow)
	}
	for i := uint64(0); i <= overflow; i++ {
		if !c.seen.add(id + i) {
			return nil, fmt.Errorf("page %d: reached twice", id+i)
		}
		if c.free.has(id + i) {
			return nil, fmt.Errorf("page %d: reached and free", id+i)
		}
	}
	if overflow > 0 {
		n := (int(overflow) + 1) * ps
		if cap(c.buf) < n {
			c.buf = make([]byte, n)
		}
		buf = c.buf[:n]
		if _, err := c.f.ReadAt(buf, int64(id)*int64(ps)); err != nil {
			return nil, fmt.Errorf("page %d: %w", id, err)
		}
	}
	return buf, nil
}

func (c *checker) freelist(id uint64) error {
	p, err := c.page(id, flagFreelist)
	if err != nil {
		return fmt.Errorf("freelist: %w", err)
	}
	start, count := pageHeaderSize, uint64(native.Uint16(p[10:]))
	if count == 0xFFFF {
		count = native.Uint64(p[pageHeaderSize:])
		start += 8
	}
	if count > uint64(len(p)-start)/8 {
		return fmt.Errorf("freelist page %d: %d ids do not fit", id, count)
	}
	for i := uint64(0); i < count; i++ {
		free := native.Uint64(p[start+int(i)*8:])
		if free < 2 || free >= c.pgid {
			return fmt.Errorf("freelist page %d: free page %d out of bounds", id, free)
		}
		if !c.free.add(free) || c.seen.has(free) {
			return fmt.Errorf("freelist page %d: page %d freed twice or in use", id, free)
		}
	}
	return nil
}

// tree checks the page tree rooted at id, and the buckets in its leaves.
func (c *checker) tree(id uint64, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("page %d: nested deeper than %d", id, maxDepth)
	}
	p, err := c.page(id, flagBranch, flagLeaf)
	if err != nil {
		return err
	}
	if native.Uint16(p[8:]) == flagLeaf {
		// Copy: the nested walks reuse the buffer.
		return c.leaf(append([]byte(nil), p...), id, depth)
	}
	n := int(native.Uint16(p[10:]))
	if pageHeaderSize+n*elemSize > len(p) {
		return fmt.Errorf("branch page %d: %d elements do not fit", id, n)
	}
	children := make([]uint64, n)
	var prev []byte
	for i := range n {
		e := pageHeaderSize + i*elemSize
		key, err := span(p, e, native.Uint32(p[e:]), native.Uint32(p[e+4:]))
		if err != nil {
			return fmt.Errorf("branch page %d, element %d: %w", id, i, err)
		}
		if i > 0 && bytes.Compare(prev, key) >= 0 {
			return fmt.Errorf("branch page %d: keys out of order", id)
		}
		prev = key
		children[i] = native.Uint64(p[e+8:])
	}
	for _, child := range children {
		if err := c.tree(child, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// leaf checks the elements of leaf page p (a page of the file, or an
// inline bucket's page when id is 0) and walks the buckets it holds.
func (c *checker) leaf(p []byte, id uint64, depth int) error {
	if len(p) < pageHeaderSize {
		return fmt.Errorf("leaf page %d: shorter than its header", id)
	}
	n := int(native.Uint16(p[10:]))
	if pageHeaderSize+n*elemSize > len(p) {
		return fmt.Errorf("leaf page %d: %d elements do not fit", id, n)
	}
	var prev []byte
	for i := range n {
		e := pageHeaderSize + i*elemSize
		flags, pos, ksize, vsize := native.Uint32(p[e:]), native.Uint32(p[e+4:]), native.Uint32(p[e+8:]), native.Uint32(p[e+12:])
		kv, err := span(p, e, pos, ksize+vsize)
		if err != nil || ksize+vsize < ksize {
			return fmt.Errorf("leaf page %d, element %d: key and value out of the page", id, i)
		}
		key, value := kv[:ksize], kv[ksize:]
		if i > 0 && bytes.Compare(prev, key) >= 0 {
			return fmt.Errorf("leaf page %d: keys out of order", id)
		}
		prev = key
		if flags&1 == 0 {
			continue
		}
		if len(value) < bucketHeader {
			return fmt.Errorf("leaf page %d, bucket %q: value too short", id, key)
		}
		if root := native.Uint64(value); root != 0 {
			err = c.tree(root, depth+1)
		} else if depth+1 > maxDepth {
			err = fmt.Errorf("leaf page %d: buckets nested deeper than %d", id, maxDepth)
		} else if len(value) < bucketHeader+pageHeaderSize || native.Uint16(value[bucketHeader+8:]) != flagLeaf {
			err = fmt.Errorf("leaf page %d, inline bucket %q: not a leaf page", id, key)
		} else {
			err = c.leaf(value[bucketHeader:], 0, depth+1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// span is p[e+pos : e+pos+n], or an error when that lies outside p.
func span(p []byte, e int, pos, n uint32) ([]byte, error) {
	start := uint64(e) + uint64(pos)
	end := start + uint64(n)
	if end > uint64(len(p)) {
		return nil, errors.New("out of the page")
	}
	return p[start:end], nil
}

// checkPath opens path read-only and checks it with checkFile; a missing
// file passes.
func checkPath(path string, full bool) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	return checkFile(f, full)
}
