package assets

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// tempPrefix starts the name of the temporary directory the WebAssembly is
// compiled into: "gpu-atlas-wasm-<pid>-<random>".
const tempPrefix = "gpu-atlas-wasm-"

// staleAge is how old a temporary directory without a live owner must be
// before it is removed, whatever its name says.
const staleAge = 24 * time.Hour

// removeStaleTemp removes the WebAssembly temporary directories under dir
// that a killed build left behind: those whose owning process (the pid in
// the name) no longer runs, and any older than staleAge (a name from an
// older generator holds no pid). A running build's directory is left.
func removeStaleTemp(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), tempPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		if pidText, _, ok := strings.Cut(rest, "-"); ok {
			if pid, err := strconv.Atoi(pidText); err == nil && pid > 0 {
				if pid != os.Getpid() && !running(pid) {
					os.RemoveAll(filepath.Join(dir, e.Name()))
				}
				continue
			}
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleAge {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}
