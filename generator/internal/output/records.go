package output

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// record is what a complete manifest says of one file it lists: the
// SHA-256 of its content and its size. A later build that makes the same
// content links the file into its new tree instead of writing it again
// (see Writer.Add) when the file on disk still has that size. Both are
// functions of the content, so the manifest, like the rest of the output,
// is the same for the same input.
type record struct {
	sum  [sha256.Size]byte
	size int64
}

// recordLine formats one file's line of a complete manifest: path, tab,
// hex SHA-256, tab, size. A manifest written before records has the path
// alone: its files are never linked.
func recordLine(b *bytes.Buffer, p string, r record, ok bool) {
	b.WriteString(p)
	if ok {
		fmt.Fprintf(b, "\t%s\t%d", hex.EncodeToString(r.sum[:]), r.size)
	}
	b.WriteByte('\n')
}

// manifestListing is what a complete manifest lists: its paths in order, the
// records of those that have one, and the tag the tree was made with.
type manifestListing struct {
	paths []string
	recs  map[string]record
	tag   string
}

// readListing reads dir's manifest once; ok is false when it is missing
// or not complete. A manifest written before records lists paths alone.
func readListing(dir string) (l manifestListing, ok bool) {
	b, err := os.ReadFile(filepath.Join(dir, Marker))
	if err != nil {
		return manifestListing{}, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	if !sc.Scan() || sc.Text() != MarkerMagic {
		return manifestListing{}, false
	}
	complete, files := false, false
	for sc.Scan() {
		line := sc.Text()
		if !files {
			k, v, _ := strings.Cut(line, " ")
			switch k {
			case "state":
				complete = v == "complete"
			case "tag":
				l.tag = v
			case "files":
				if !complete {
					return manifestListing{}, false
				}
				files = true
				n, _ := strconv.Atoi(v)
				l.paths, l.recs = make([]string, 0, n), make(map[string]record, n)
			}
			continue
		}
		if line == "" {
			continue
		}
		f := strings.Split(line, "\t")
		l.paths = append(l.paths, f[0])
		if len(f) != 3 {
			continue
		}
		var r record
		sum, err := hex.DecodeString(f[1])
		if err != nil || len(sum) != sha256.Size {
			continue
		}
		copy(r.sum[:], sum)
		if r.size, err = strconv.ParseInt(f[2], 10, 64); err != nil {
			continue
		}
		l.recs[f[0]] = r
	}
	return l, files
}

// recordOf returns the record of a file's content.
func recordOf(data []byte) record { return record{sum: sha256.Sum256(data), size: int64(len(data))} }

// stillSame reports whether the file at path may be the one r recorded: a
// regular file of that size. (The generator owns its output; a file
// edited by hand to the very same size is not noticed: remove the output,
// or build elsewhere, to start afresh.)
func stillSame(path string, r record) bool {
	st, err := os.Lstat(path)
	return err == nil && st.Mode().IsRegular() && st.Size() == r.size
}
