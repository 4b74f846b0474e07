package assets

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gpu-atlas/gpu-atlas/generator/internal/diag"
	"github.com/gpu-atlas/gpu-atlas/generator/internal/output"
)

// buildWASM compiles the calculator's three modules, generator/wasm (the
// sizing engine, size.wasm), generator/wasmextra (the ways to pay and the
// models that fit, extra.wasm) and generator/wasmconfig (the config.json
// reader, config.wasm), for GOOS=js GOARCH=wasm with the Go toolchain
// running the generator, in one go build, and adds them with wasm_exec.js
// to the tree under content-hashed names.
func buildWASM(root string, tree *output.Tree, manifest map[string]string, d *diag.List) {
	goBin := GoCommand()
	removeStaleTemp(os.TempDir())
	tmp, err := os.MkdirTemp("", tempPrefix+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		d.Errorf("generator/wasm", 0, 0, "%v", err)
		return
	}
	defer os.RemoveAll(tmp)
	out := tmp + string(filepath.Separator) // go build -o dir/ names each module after its package
	// The pre-Green Tea garbage collector (Go 1.26's opt-out) keeps about
	// 45 kB of collector code out of the module; a toolchain without the
	// opt-out builds with its default collector.
	build := func(env ...string) ([]byte, error) {
		cmd := exec.Command(goBin, "build", "-trimpath", "-ldflags=-s -w -buildid=", "-o", out, "./generator/wasm", "./generator/wasmextra", "./generator/wasmconfig")
		cmd.Dir = moduleRoot(root)
		cmd.Env = append(append(wasmEnviron(os.Environ()), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0"), env...)
		return cmd.CombinedOutput()
	}
	msg, err := build("GOEXPERIMENT=nogreenteagc")
	if err != nil && strings.Contains(string(msg), "GOEXPERIMENT") {
		msg, err = build()
	}
	if err != nil {
		d.Errorf("generator/wasm", 0, 0, "building the calculator's WebAssembly: %v\n%s", err, msg)
		return
	}
	modules := map[string][]byte{}
	for _, m := range [...]string{"wasm", "wasmextra", "wasmconfig"} {
		b, err := os.ReadFile(filepath.Join(tmp, m))
		if err != nil {
			d.Errorf("generator/"+m, 0, 0, "%v", err)
			return
		}
		modules[m] = b
	}
	execJS, err := os.ReadFile(filepath.Join(goRoot(goBin), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		execJS, err = os.ReadFile(filepath.Join(goRoot(goBin), "misc", "wasm", "wasm_exec.js"))
	}
	if err != nil {
		d.Errorf("generator/wasm", 0, 0, "wasm_exec.js not found in GOROOT: %v", err)
		return
	}
	manifest["size.wasm"] = addHashed(tree, "assets/size", ".wasm", modules["wasm"])
	manifest["extra.wasm"] = addHashed(tree, "assets/extra", ".wasm", modules["wasmextra"])
	manifest["config.wasm"] = addHashed(tree, "assets/config", ".wasm", modules["wasmconfig"])
	manifest["wasm_exec.js"] = addHashed(tree, "assets/wasm_exec", ".js", minifyJS(execJS, "wasm_exec.js", d))
}

// GoCommand is the go command that builds the calculator: $GOROOT/bin/go
// where GOROOT is set, else the go on PATH (the one `go run ./generator`
// and make use).
func GoCommand() string {
	if r := os.Getenv("GOROOT"); r != "" {
		if p := filepath.Join(r, "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// goRoot is the GOROOT of the go command goBin ("" when it cannot say).
func goRoot(goBin string) string {
	if out, err := exec.Command(goBin, "env", "GOROOT").Output(); err == nil {
		return string(trimNL(out))
	}
	return ""
}

func trimNL(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// moduleRoot finds the directory holding go.mod at or above dir (the
// WebAssembly source belongs to the generator's module, not the site).
func moduleRoot(dir string) string {
	abs, _ := filepath.Abs(dir)
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	// A site root outside the module (a fixture in a temp dir): use the
	// working directory's module.
	wd, _ := os.Getwd()
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return wd
		}
	}
}

// wasmEnviron is environ for the WebAssembly build, less an explicit
// -mod=readonly in GOFLAGS (CI sets it): go build's default in module
// mode, but spelled out it is recorded in the module's build information,
// 160 bytes that made the same engine differ by who built it.
func wasmEnviron(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			var keep []string
			for _, f := range strings.Fields(v) {
				if f != "-mod=readonly" {
					keep = append(keep, f)
				}
			}
			kv = "GOFLAGS=" + strings.Join(keep, " ")
		}
		out = append(out, kv)
	}
	return out
}
