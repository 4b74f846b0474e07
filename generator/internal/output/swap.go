package output

import "os"

// swapRename is the portable swap: move the previous output aside (to
// tmp + ".old", a name the next build's Create removes), then the new
// tree in. Between the two renames the target does not exist. Systems
// without an atomic exchange (see swap_linux.go) use it.
func swapRename(tmp, dir string) error {
	if _, err := os.Lstat(dir); os.IsNotExist(err) {
		return os.Rename(tmp, dir)
	}
	old := tmp + ".old"
	if err := os.Rename(dir, old); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.Rename(old, dir) // put the previous output back
		return err
	}
	return nil
}
