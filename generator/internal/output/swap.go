package output

import "os"

// swapRename is the portable swap: move the previous output aside, then
// the new tree in. Between the two renames the target does not exist; a
// process killed there leaves the previous output beside the target,
// under a temporary name that the next build removes. Systems without an
// atomic exchange (see swap_linux.go) use it.
func swapRename(tmp, dir string) (old string, err error) {
	if _, err := os.Lstat(dir); os.IsNotExist(err) {
		return "", os.Rename(tmp, dir)
	}
	old = tmp + ".old"
	if err := os.Rename(dir, old); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.Rename(old, dir) // put the previous output back
		return "", err
	}
	return old, nil
}
