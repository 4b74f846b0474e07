//go:build linux

package output

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// swap puts the tree at tmp in dir's place; the previous output, if any,
// is left beside it, at tmp, for the next build's Create to remove. On
// Linux the two directories are exchanged in one step with
// renameat2(RENAME_EXCHANGE), so there is no moment without a complete
// output; file systems without the flag fall back to swapRename.
func swap(tmp, dir string) error {
	if _, err := os.Lstat(dir); os.IsNotExist(err) {
		return os.Rename(tmp, dir)
	}
	err := unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, dir, unix.RENAME_EXCHANGE)
	if err == nil {
		return nil
	}
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.EOPNOTSUPP) {
		return swapRename(tmp, dir)
	}
	return &os.LinkError{Op: "renameat2 exchange", Old: tmp, New: dir, Err: err}
}

func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}
