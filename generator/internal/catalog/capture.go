package catalog

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// CaptureDir is where captures of the providers' own price APIs and
// pages are kept, relative to the site root ("generator capture" writes
// them; the site publishes them under captures/).
const CaptureDir = "data/captures"

// capturePath is a capture's path under CaptureDir: provider/file.json.
var capturePath = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*/[A-Za-z0-9][A-Za-z0-9._-]*\.json$`)

var hexSHA256 = regexp.MustCompile(`^[0-9a-f]{64}$`)

// CapturePath is the site folder captures are published in.
const CapturePath = "captures/"

// CaptureURL is the site path a capture is published at (CapturePath +
// its path under CaptureDir).
func CaptureURL(capture string) string { return CapturePath + capture }

// FileSHA256 returns the hex SHA-256 of a file's bytes.
func FileSHA256(name string) (string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// checkCapture checks a price that cites a capture: the capture's path
// and hash are well formed, the file exists under CaptureDir and its
// SHA-256 is the one the price records, and the price says how it was
// dated (api-retrieved or page-captured) and that it is first-party.
func checkCapture(c checker, pp string, pr *Price) {
	hasCap, hasSHA := c.has(pp+".capture"), c.has(pp+".capture_sha256")
	switch {
	case !hasCap && !hasSHA:
		return
	case !hasCap:
		c.errorf(pp+".capture_sha256", "capture_sha256 without capture: name the capture file (provider/file.json under %s) or drop the hash", CaptureDir)
		return
	case !hasSHA:
		c.errorf(pp+".capture", "capture %q has no capture_sha256: add the hash generator capture printed (sha256sum %s/%s)", pr.Capture, CaptureDir, pr.Capture)
		return
	}
	if !capturePath.MatchString(pr.Capture) || path.Clean(pr.Capture) != pr.Capture {
		c.errorf(pp+".capture", "capture %q is not a capture path: write provider/file.json, relative to %s", pr.Capture, CaptureDir)
		return
	}
	if provider := strings.SplitN(pr.Capture, "/", 2)[0]; c.providerID != "" && provider != c.providerID {
		c.errorf(pp+".capture", "capture %q is another provider's (%s): a price cites a capture of its own provider (%s)", pr.Capture, provider, c.providerID)
	}
	if !hexSHA256.MatchString(pr.CaptureSHA) {
		c.errorf(pp+".capture_sha256", "capture_sha256 %q is not a SHA-256 in lowercase hex (64 digits)", pr.CaptureSHA)
		return
	}
	if c.has(pp+".date_basis") && pr.DateBasis != "api-retrieved" && pr.DateBasis != "page-captured" {
		c.errorf(pp+".date_basis", "a captured price is dated by its capture: date_basis = \"api-retrieved\" (an API answer) or \"page-captured\" (a page), not %q", pr.DateBasis)
	}
	if c.has(pp+".evidence") && pr.Evidence != "first-party" {
		c.errorf(pp+".evidence", "a price read from a capture of the provider's own API or page is evidence = \"first-party\", not %q", pr.Evidence)
	}
	if c.captures == "" {
		return
	}
	got, err := c.sums.of(filepath.Join(c.captures, filepath.FromSlash(pr.Capture)))
	switch {
	case errorsIsNotExist(err):
		c.errorf(pp+".capture", "capture %s/%s does not exist: commit the capture generator capture wrote, or fix the path", CaptureDir, pr.Capture)
	case err != nil:
		c.errorf(pp+".capture", "cannot read capture %s/%s: %v", CaptureDir, pr.Capture, err)
	case got != pr.CaptureSHA:
		c.errorf(pp+".capture_sha256", "capture %s/%s has SHA-256 %s, not the %s recorded here: the capture was changed after the price was read from it (captures are evidence: never edit one; capture again)", CaptureDir, pr.Capture, got, pr.CaptureSHA)
	}
}

// captureSums memoizes FileSHA256 by path for one load: an Azure or AWS
// capture is cited by every price read from it.
type captureSums map[string]struct {
	sum string
	err error
}

func (s *captureSums) of(name string) (string, error) {
	if s == nil {
		return FileSHA256(name)
	}
	if *s == nil {
		*s = captureSums{}
	}
	if r, ok := (*s)[name]; ok {
		return r.sum, r.err
	}
	sum, err := FileSHA256(name)
	(*s)[name] = struct {
		sum string
		err error
	}{sum, err}
	return sum, err
}

func errorsIsNotExist(err error) bool { return err != nil && os.IsNotExist(err) }

// captureStamp describes the capture files under root (path, size,
// modification time), so the checked-offers cache is not reused after a
// capture changes.
func captureStamp(root string) string {
	var b strings.Builder
	dir := filepath.Join(root, CaptureDir)
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			fmt.Fprintf(&b, "%s %d %d\x00", p, info.Size(), info.ModTime().UnixNano())
		}
		return nil
	})
	return b.String()
}
