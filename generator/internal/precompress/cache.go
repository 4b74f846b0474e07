package precompress

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultLimit bounds a cache's size on disk.
const DefaultLimit = 512 << 20

// Cache is a directory of compressed results keyed by the SHA-256 of the
// method and the input. Each entry holds a checksum of its payload, so a
// damaged entry is recomputed rather than used. A nil *Cache is valid and
// caches nothing. The directory is safe to delete at any time.
type Cache struct {
	dir   string
	limit int64
	mu    sync.Mutex
	wrote bool
	added int64 // bytes of the entries written since the last Prune
}

// sizeFile records, in the cache directory, the cache's size in bytes as
// the last Prune found it plus what runs added since: Prune walks the
// directory (tens of thousands of entries for a big site) only when that
// may exceed the limit, or when the record is missing or unreadable.
const sizeFile = "size"

// DefaultDir is the cache's place in the user cache directory
// (~/.cache/gpu-atlas/precompress on Linux), or "" when there is none.
func DefaultDir() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "gpu-atlas", "precompress")
}

// OpenCache returns a cache in dir bounded to limit bytes (DefaultLimit
// when limit <= 0), or nil when dir is "" or cannot be made: a build
// without a cache is slower, not wrong.
func OpenCache(dir string, limit int64) *Cache {
	if dir == "" || os.MkdirAll(dir, 0o755) != nil {
		return nil
	}
	if limit <= 0 {
		limit = DefaultLimit
	}
	return &Cache{dir: dir, limit: limit}
}

const magic = "gpu-atlas-precompress-1\n"

func (c *Cache) file(method string, input []byte) string {
	h := sha256.New()
	h.Write([]byte(method))
	h.Write([]byte{0})
	h.Write(input)
	k := hex.EncodeToString(h.Sum(nil))
	return filepath.Join(c.dir, k[:2], k)
}

// Get returns the cached result of method on input, if a sound one is
// cached.
func (c *Cache) Get(method string, input []byte) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	f := c.file(method, input)
	b, err := os.ReadFile(f)
	if err != nil || len(b) < len(magic)+sha256.Size || string(b[:len(magic)]) != magic {
		return nil, false
	}
	sum, payload := b[len(magic):len(magic)+sha256.Size], b[len(magic)+sha256.Size:]
	if got := sha256.Sum256(payload); !bytes.Equal(got[:], sum) {
		os.Remove(f) // damaged: recompute
		return nil, false
	}
	// Mark the entry used (for pruning), at most once a day.
	if st, err := os.Stat(f); err == nil && time.Since(st.ModTime()) > 24*time.Hour {
		now := time.Now()
		os.Chtimes(f, now, now)
	}
	return payload, true
}

// Put stores the result of method on input. Failing to write is ignored:
// the cache only saves time.
func (c *Cache) Put(method string, input, out []byte) {
	if c == nil {
		return
	}
	f := c.file(method, input)
	if os.MkdirAll(filepath.Dir(f), 0o755) != nil {
		return
	}
	sum := sha256.Sum256(out)
	tmp, err := os.CreateTemp(filepath.Dir(f), ".tmp-")
	if err != nil {
		return
	}
	tmp.Write([]byte(magic))
	tmp.Write(sum[:])
	tmp.Write(out)
	if tmp.Close() != nil || os.Rename(tmp.Name(), f) != nil {
		os.Remove(tmp.Name())
		return
	}
	c.mu.Lock()
	c.wrote = true
	c.added += int64(len(magic) + len(sum) + len(out))
	c.mu.Unlock()
}

// Prune keeps the cache within its limit after a run that added to it:
// the least recently used entries go first, down to 80 % of the limit.
func (c *Cache) Prune() {
	if c == nil {
		return
	}
	c.mu.Lock()
	wrote, added := c.wrote, c.added
	c.wrote, c.added = false, 0
	c.mu.Unlock()
	if !wrote {
		return
	}
	record := filepath.Join(c.dir, sizeFile)
	if b, err := os.ReadFile(record); err == nil {
		if was, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && was >= 0 && was+added <= c.limit {
			c.writeSize(was + added)
			return
		}
	}
	type ent struct {
		path string
		size int64
		mod  time.Time
	}
	var ents []ent
	var total int64
	filepath.WalkDir(c.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == record {
			return nil
		}
		if info, err := d.Info(); err == nil {
			ents = append(ents, ent{p, info.Size(), info.ModTime()})
			total += info.Size()
		}
		return nil
	})
	defer func() { c.writeSize(total) }()
	if total <= c.limit {
		return
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].mod.Before(ents[j].mod) })
	for _, e := range ents {
		if total <= c.limit*8/10 {
			break
		}
		if os.Remove(e.path) == nil {
			total -= e.size
		}
	}
}

// writeSize replaces the size record in one step.
func (c *Cache) writeSize(n int64) {
	tmp, err := os.CreateTemp(c.dir, ".tmp-size-")
	if err != nil {
		return
	}
	fmt.Fprintf(tmp, "%d\n", n)
	if tmp.Close() != nil || os.Rename(tmp.Name(), filepath.Join(c.dir, sizeFile)) != nil {
		os.Remove(tmp.Name())
	}
}
