//go:build !linux

package output

import (
	"os"
	"runtime"
	"syscall"
)

// swap puts the tree at tmp in dir's place. Outside Linux there is no
// portable atomic exchange of two directories, so the previous output is
// moved aside first (see swapRename).
func swap(tmp, dir string) error { return swapRename(tmp, dir) }

func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	if runtime.GOOS == "windows" {
		return true // FindProcess succeeds only for a running process
	}
	return p.Signal(syscall.Signal(0)) == nil
}
