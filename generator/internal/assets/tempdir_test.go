package assets

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// A killed build's WebAssembly directory is removed by the next build; a
// live build's, another program's and a recent one without a pid are kept.
func TestRemoveStaleTemp(t *testing.T) {
	dir := t.TempDir()
	// A process that has exited: its pid names no running process (pids
	// are not reused this quickly on Linux, which allocates them upward).
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	dead := cmd.Process.Pid
	mk := func(name string, age time.Duration) string {
		p := filepath.Join(dir, name)
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(p, "size.wasm"), []byte("x"), 0o644)
		when := time.Now().Add(-age)
		os.Chtimes(p, when, when)
		return p
	}
	cases := []struct {
		name string
		age  time.Duration
		kept bool
	}{
		{tempPrefix + strconv.Itoa(dead) + "-123", 0, false},                     // killed build
		{tempPrefix + strconv.Itoa(os.Getpid()) + "-456", 48 * time.Hour, true},  // this build
		{tempPrefix + strconv.Itoa(os.Getppid()) + "-789", 48 * time.Hour, true}, // a live one
		{tempPrefix + "2718281828", time.Hour, true},                             // old name, recent
		{tempPrefix + "3141592653", 48 * time.Hour, false},                       // old name, stale
		{"other-program-" + strconv.Itoa(dead) + "-1", 48 * time.Hour, true},
	}
	for _, c := range cases {
		mk(c.name, c.age)
	}
	removeStaleTemp(dir)
	for _, c := range cases {
		_, err := os.Stat(filepath.Join(dir, c.name))
		if kept := err == nil; kept != c.kept {
			t.Errorf("%s: kept = %v, want %v", c.name, kept, c.kept)
		}
	}
}
