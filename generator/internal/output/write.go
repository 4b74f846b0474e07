package output

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Marker is the manifest file at the root of every tree the generator
// writes. Its first line is MarkerMagic; while a tree is being written it
// holds "state writing" and the writer's process id, and once complete
// "state complete" and the list of files written. A directory carrying it
// is the generator's own: a later build may replace it, and an abandoned
// temporary tree beside the output may be removed.
const Marker = ".gpu-atlas-output"

// MarkerMagic is the first line of a Marker file.
const MarkerMagic = "gpu-atlas output manifest v1"

// Options say which targets Write may replace.
type Options struct {
	// Force allows replacing a target that exists, is not empty and carries
	// no marker (a directory, or a file). Protected paths stay refused.
	Force bool
	// Root is the site root: neither it nor a directory containing it may
	// be replaced (a target inside it, such as root/public, is fine).
	Root string
	// Sources are folders that must never be replaced: not the folder
	// itself, nothing inside it, and nothing that contains it. The build
	// passes the site root's data/, content/, templates/, static/ and
	// generator/.
	Sources []string
	// Tag names how the files were made beyond their content (the build
	// passes its precompression settings); it is kept in the manifest, and
	// Writer.Unchanged only vouches for a previous tree of the same tag.
	// A tag has no spaces or newlines.
	Tag string
}

// TargetError is a refusal to replace the output target.
type TargetError struct {
	Dir    string
	Reason string
	Fix    string
}

func (e *TargetError) Error() string {
	msg := fmt.Sprintf("refusing to write the site to %s: %s", e.Dir, e.Reason)
	if e.Fix != "" {
		msg += " (" + e.Fix + ")"
	}
	return msg
}

// CheckTarget reports whether dir may be replaced by a build under o. It
// refuses a protected path, anything inside one or containing one, and an
// existing file or non-empty directory without the generator's marker
// (unless o.Force).
func CheckTarget(dir string, o Options) error {
	abs, err := canonical(dir)
	if err != nil {
		return err
	}
	const fix = "choose another -out, e.g. public; -force does not change this"
	if o.Root != "" {
		if ra, err := canonical(o.Root); err == nil {
			switch {
			case abs == ra:
				return &TargetError{Dir: dir, Reason: "it is the site root", Fix: fix}
			case within(abs, ra):
				return &TargetError{Dir: dir, Reason: "it contains the site root " + ra, Fix: fix}
			}
		}
	}
	for _, p := range o.Sources {
		pa, err := canonical(p)
		if err != nil {
			continue
		}
		name := filepath.Base(pa) + "/"
		switch {
		case abs == pa:
			return &TargetError{Dir: dir, Reason: "it is the site's source folder " + name, Fix: fix}
		case within(pa, abs):
			return &TargetError{Dir: dir, Reason: "it is inside the site's source folder " + name, Fix: fix}
		case within(abs, pa):
			return &TargetError{Dir: dir, Reason: "it contains the site's source folder " + name, Fix: fix}
		}
	}
	st, err := os.Lstat(abs)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if o.Force {
		return nil
	}
	if !st.IsDir() {
		return &TargetError{Dir: dir, Reason: "it exists and is not a directory", Fix: "remove it, choose another -out, or pass -force to replace it"}
	}
	if ownTree(abs) {
		return nil
	}
	ents, err := os.ReadDir(abs)
	if err != nil {
		return err
	}
	if len(ents) == 0 {
		return nil
	}
	return &TargetError{Dir: dir, Reason: "it is a non-empty directory the generator did not write (no " + Marker + " at its root)",
		Fix: "choose another -out, remove the directory, or pass -force to replace it"}
}

// canonical returns an absolute, cleaned path with symbolic links of its
// existing ancestors resolved, so two spellings of one place compare equal.
func canonical(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	// Resolve the longest existing prefix; keep the rest as written.
	rest := ""
	cur := abs
	for {
		if r, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(r, rest), nil
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// within reports whether p is strictly inside dir.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// manifest is the parsed content of a Marker file.
type manifest struct {
	state string // "writing" or "complete"
	pid   int
}

func readManifest(dir string) (manifest, bool) {
	b, err := os.ReadFile(filepath.Join(dir, Marker))
	if err != nil {
		return manifest{}, false
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	if !sc.Scan() || sc.Text() != MarkerMagic {
		return manifest{}, false
	}
	var m manifest
	for sc.Scan() {
		k, v, _ := strings.Cut(sc.Text(), " ")
		switch k {
		case "state":
			m.state = v
		case "pid":
			m.pid, _ = strconv.Atoi(v)
		case "files":
			return m, m.state != ""
		}
	}
	return m, m.state != ""
}

// ownTree reports whether dir carries the generator's marker.
func ownTree(dir string) bool {
	st, err := os.Lstat(dir)
	if err != nil || !st.IsDir() {
		return false
	}
	_, ok := readManifest(dir)
	return ok
}

func writingManifest() []byte {
	return fmt.Appendf(nil, "%s\nstate writing\npid %d\n", MarkerMagic, os.Getpid())
}

// completeManifest lists paths, each with its record in recs when it has
// one (see record), under the tag the tree was made with.
func completeManifest(paths []string, recs map[string]record, tag string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\nstate complete\n", MarkerMagic)
	if tag != "" {
		fmt.Fprintf(&b, "tag %s\n", tag)
	}
	fmt.Fprintf(&b, "files %d\n", len(paths))
	for _, p := range paths {
		r, ok := recs[p]
		recordLine(&b, p, r, ok)
	}
	return b.Bytes()
}

// writeMarker replaces dir's marker in one step (a new file renamed over
// the old), so a process killed while writing it never leaves an empty or
// partial marker.
func writeMarker(dir string, b []byte) error {
	tmp := filepath.Join(dir, Marker+".tmp")
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, Marker))
}

// unstarted reports whether dir holds nothing but, at most, a marker being
// written: a temporary tree whose writer was stopped before its marker.
func unstarted(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if e.Name() != Marker+".tmp" || !e.Type().IsRegular() {
			return false
		}
	}
	return true
}

// tempPrefix is the name prefix of the temporary trees beside dir.
func tempPrefix(dir string) string { return "." + filepath.Base(dir) + ".new-" }

// Write writes the tree to dir atomically: into a marked temporary
// directory beside dir, which then takes dir's place in one step (see
// swap). It refuses a target CheckTarget refuses, and first removes the
// temporary trees earlier interrupted builds left beside dir.
func (t *Tree) Write(dir string, o Options) error {
	w, err := Create(dir, o)
	if err != nil {
		return err
	}
	for _, p := range t.Paths() {
		b, _ := t.Get(p)
		if err := w.Add(p, b); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Commit()
}

// removeTree removes a tree of the generator's with its marker last, so a
// process stopped half-way leaves a tree the next build still recognises.
func removeTree(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if e.Name() != Marker {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
	os.RemoveAll(dir)
}

// leftovers are the trees beside dir that earlier builds left behind: the
// output each build swapped out (see Writer.Commit) and the temporary
// trees of interrupted builds. Only directories named like the
// generator's temporary trees that carry its marker count, and of those
// only the complete ones or ones whose writer is no longer running (and
// ones stopped before their marker was written, which hold nothing else).
func leftovers(dir string) []string {
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	ents, err := os.ReadDir(parent)
	if err != nil {
		return nil
	}
	prefix := tempPrefix(dir)
	var out []string
	for _, e := range ents {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		p := filepath.Join(parent, e.Name())
		m, ok := readManifest(p)
		if !ok {
			if unstarted(p) {
				out = append(out, p)
			}
			continue
		}
		if m.state == "writing" && m.pid != os.Getpid() && processAlive(m.pid) {
			continue // another build is writing it now
		}
		out = append(out, p)
	}
	return out
}
